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

#include <cstdint>
#include <string>

namespace attn {
namespace model {

// config.json's text (model_type "gpt2") into a ModelConfig. Refused, with the key named: not
// JSON, a missing or non-integer size, n_head not dividing n_embd, absurd sizes (more than 4096
// layers, a width of more than 65536, a vocabulary of more than 4 M or 10^11 numbers in all), an
// activation other than gelu_new / gelu / gelu_pytorch_tanh, cross-attention or per-layer
// attention scaling. (hf_checkpoint.h's ParseHfConfig picks the family by model_type.)
bool ParseGpt2Config(const std::string& text, ModelConfig* config, int* eos, std::string* error);

// The parameters a config holds (wte once when tied; attention biases when it has them), for
// `model info` and the memory check: the lab's own model and GPT-2's alike.
std::int64_t Gpt2ParameterCount(const ModelConfig& c);

}  // namespace model
}  // namespace attn
