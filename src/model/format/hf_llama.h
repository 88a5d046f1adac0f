// The Llama family in the Hugging Face layout (issue 39): Llama, Mistral, Qwen2, Qwen3 -- and so
// SmolLM, TinyLlama, Llama 3.2 -- read into the lab's model (model.h: RMSNorm, RoPE, SwiGLU,
// grouped-query heads as data), the same forward, hooks and tools as GPT-2's.
//
//   config.json     model_type "llama", "mistral", "qwen2" or "qwen3": hidden_size,
//                   intermediate_size, num_hidden_layers, num_attention_heads,
//                   num_key_value_heads, head_dim, max_position_embeddings, vocab_size,
//                   rms_norm_eps, rope_theta, rope_scaling, tie_word_embeddings,
//                   attention_bias, sliding_window (Mistral), hidden_act "silu"
//   weights         as GPT-2's (model.safetensors or an index and shards; F32, F16, BF16),
//                   names as the Hub writes them: model.embed_tokens.weight,
//                   model.layers.N.{input_layernorm, post_attention_layernorm}.weight,
//                   model.layers.N.self_attn.{q,k,v,o}_proj.weight (+ .bias), q_norm, k_norm,
//                   model.layers.N.mlp.{gate,up,down}_proj.weight, model.norm.weight, lm_head.weight
//
// The families' differences, as the Hub's modeling files have them:
//   llama    attention_bias: biases on q, k, v and o (all or none); mlp_bias refused
//   mistral  no attention biases; sliding_window (null: none)
//   qwen2    biases on q, k, v always, none on o; use_sliding_window true is refused
//   qwen3    q_norm and k_norm (RMSNorm over head_dim, before the rotation); attention_bias as
//            llama's; use_sliding_window true is refused
// Lives in attn_model_io (nlohmann-json).
#pragma once

#include "model/arch/model.h"

#include <string>

namespace attn {
namespace model {

// config.json's text into a ModelConfig, or a one-line refusal naming the key: a size missing or
// out of range, num_attention_heads not a multiple of num_key_value_heads, an odd head width, a
// hidden_act other than silu, rope_scaling of a type the lab does not implement (by name),
// partial_rotary_factor other than 1, mlp_bias, Qwen's use_sliding_window, absurd sizes.
bool ParseLlamaConfig(const std::string& text, ModelConfig* config, int* eos, std::string* error);

// Whether config.json's model_type is one of the Llama family's.
bool IsLlamaModelType(const std::string& type);

}  // namespace model
}  // namespace attn
