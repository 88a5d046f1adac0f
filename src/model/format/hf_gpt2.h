// A GPT-2-family checkpoint in the Hugging Face layout (what `save_pretrained` writes and the Hub
// serves), read into the lab's own model: the same forward, hooks and tools, the differences as
// data (ModelConfig's epsilon, GELU form, attention biases, an untied lm_head).
//
//   config.json                    model_type "gpt2": n_layer, n_head, n_embd, n_positions,
//                                  vocab_size, layer_norm_epsilon, activation_function, n_inner
//   model.safetensors              F32, F16 or BF16; names with or without "transformer."
//   or model.safetensors.index.json  {"weight_map": {tensor: shard file}} and the shards
//
// GPT-2's Conv1D stores a layer's weight as (in, out), the lab's x W convention: c_attn (C, 3C)
// holds W_Q | W_K | W_V side by side, each split into heads of Dh columns; attn.c_proj (C, C) is
// W_O with its rows in the heads' concatenation order. The old attn.bias / attn.masked_bias
// buffers (a causal mask) are skipped; lm_head.weight is read only when the config unties it.
// Everything else is refused with a message naming the file and the tensor.
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

// config.json's text into a ModelConfig. Refused, with the key named: not JSON, a model_type
// that is not GPT-2's ("model_type \"bert\" is not a GPT-2-family model"), a missing or
// non-integer size, n_head not dividing n_embd, absurd sizes (more than 4096 layers, a width of
// more than 65536, a vocabulary of more than 4 M or 10^11 numbers in all), an activation other
// than gelu_new / gelu / gelu_pytorch_tanh, cross-attention or per-layer attention scaling.
bool ParseGpt2Config(const std::string& text, ModelConfig* config, int* eos, std::string* error);

// The tensors (by name, any prefix "transformer." removed) into parameters of the config's
// shapes, widened to float (the fuzz target and the tests; a folder is read tensor by tensor:
// hf_gpt2_loader.h): every tensor checked by name, shape and dtype; a missing, repeated,
// unknown or integer-typed weight refused by name.
bool Gpt2FromTensors(const ModelConfig& config, const std::vector<StTensor>& tensors,
                     Params<float>* params, std::string* error);

// A folder (config.json and the weights), each tensor read in turn from its file and kept at its
// stored precision. Messages start with the file they are about.
bool ReadGpt2Folder(const std::string& dir, HfCheckpoint* out, std::string* error);

// The parameters a config holds (wte once when tied; attention biases when it has them), for
// `model info` and the memory check: the lab's own model and GPT-2's alike.
std::int64_t Gpt2ParameterCount(const ModelConfig& c);

// Bytes of one forward of `tokens` tokens that keeps every intermediate (model.h's SequenceActs,
// in float): per block the residual stream, the norms, the MLP, every head's q, k, v, scores,
// weights and output; then the logits and probabilities of every position. `model info` and the
// page's check before a download (with the weights' bytes: Gpt2Loader::WeightBytes).
std::uint64_t ForwardBytes(const ModelConfig& c, std::uint64_t tokens);

// The weight files of a checkpoint: those model.safetensors.index.json's weight map names
// (`index`: its text), each once, in the order first named, or model.safetensors when there is no
// index (`index` null). Refused: not JSON, no weight map, a file outside the folder. Messages
// start with "model.safetensors.index.json: ".
bool Gpt2WeightFiles(const std::string* index, std::vector<std::string>* files, std::string* error);

}  // namespace model
}  // namespace attn
