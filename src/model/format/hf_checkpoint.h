// A checkpoint in the Hugging Face layout, whichever family (GPT-2: hf_gpt2.h; the Llama family:
// hf_llama.h), read into the lab's model: config.json picks the family by model_type, the
// weights come through that family's loader (hf_loader.h), tensor by tensor.
//
//   config.json                      model_type "gpt2", "llama", "mistral", "qwen2" or "qwen3"
//   model.safetensors                F32, F16 or BF16
//   or model.safetensors.index.json  {"weight_map": {tensor: shard file}} and the shards
//
// Lives in attn_model_io (nlohmann-json); the model's maths never includes it.
#pragma once

#include "model/arch/model.h"
#include "model/format/safetensors.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {
namespace model {

struct HfCheckpoint {
  ModelConfig config;
  Params<float> params;          // the big matrices at their stored precision (params.stored),
                                 // the rest widened to float exactly
  std::string dtype;             // the weights' dtype: "F32", "F16", "BF16", or "mixed"
  std::uint64_t file_bytes = 0;  // the weight files' size
  std::int64_t parameters = 0;   // the model's numbers (wte counted once when tied)
  int eos = -1;                  // eos_token_id, or -1
};

// config.json's text into a ModelConfig by its model_type; refused: not JSON, no model_type, a
// model_type the lab does not open ("model_type \"bert\" is not a model the lab opens (gpt2,
// llama, mistral, qwen2, qwen3)"), and each family's own refusals.
bool ParseHfConfig(const std::string& text, ModelConfig* config, int* eos, std::string* error);

// The tensors (by name as a file holds them) into parameters of the config's shapes, widened to
// float (the fuzz target and the tests; a folder is read tensor by tensor): every tensor checked
// by name, shape and dtype; a missing, repeated, unknown or integer-typed weight refused by name.
bool HfFromTensors(const ModelConfig& config, const std::vector<StTensor>& tensors, Params<float>* params,
                   std::string* error);

// A folder (config.json and the weights), each tensor read in turn from its file and kept at its
// stored precision. Messages start with the file they are about.
bool ReadHfFolder(const std::string& dir, HfCheckpoint* out, std::string* error);

// Bytes of one forward of `tokens` tokens that keeps every intermediate (model.h's SequenceActs,
// in float): per block the residual stream, the norms, the MLP, every head's q, k, v (and their
// unrotated copies), scores, weights and output; then the logits and probabilities of every
// position. `model info` and the page's check before a download (with HfLoader::WeightBytes).
std::uint64_t ForwardBytes(const ModelConfig& c, std::uint64_t tokens);

// The weight files of a checkpoint: those model.safetensors.index.json's weight map names
// (`index`: its text), each once, in the order first named, or model.safetensors when there is no
// index (`index` null). Refused: not JSON, no weight map, a file outside the folder. Messages
// start with "model.safetensors.index.json: ".
bool HfWeightFiles(const std::string* index, std::vector<std::string>* files, std::string* error);

}  // namespace model
}  // namespace attn
