// GPT-2-family checkpoints in the Hugging Face layout (hf_gpt2.h).
#include "model/format/hf_gpt2.h"

#include "engine/linalg/linalg.h"
#include "model/format/read_file.h"
#include "model/format/safetensors.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace attn {
namespace model {

namespace {

using Json = nlohmann::json;

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

// A positive integer under `key` (or under `alias` when `key` is absent), at most `max`.
bool SizeOf(const Json& j, const char* key, const char* alias, std::int64_t max, int* out, std::string* error) {
  const char* found = j.contains(key) ? key : alias && j.contains(alias) ? alias : nullptr;
  if (!found) return Fail(error, std::string("config.json: \"") + key + "\" is missing");
  const Json& v = j[found];
  if (!v.is_number_integer() || v.get<std::int64_t>() < 1)
    return Fail(error, std::string("config.json: \"") + found + "\" must be a positive integer");
  if (v.get<std::int64_t>() > max)
    return Fail(error, std::string("config.json: \"") + found + "\" is " + std::to_string(v.get<std::int64_t>()) +
                           ", more than the " + std::to_string(max) + " the lab opens");
  *out = static_cast<int>(v.get<std::int64_t>());
  return true;
}

}  // namespace

std::int64_t Gpt2ParameterCount(const ModelConfig& c) { return ParameterCount(c); }  // model.h's, one count

bool ParseGpt2Config(const std::string& text, ModelConfig* config, int* eos, std::string* error) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Fail(error, "config.json: not a JSON object");
  if (!j.contains("model_type") || !j["model_type"].is_string())
    return Fail(error, "config.json: \"model_type\" is missing (a GPT-2-family model has \"gpt2\")");
  const std::string type = j["model_type"].get<std::string>();
  if (type != "gpt2") return Fail(error, "config.json: model_type \"" + Shown(type) + "\" is not a GPT-2-family model");
  ModelConfig c;
  if (!SizeOf(j, "n_layer", "num_hidden_layers", 4096, &c.layers, error) ||
      !SizeOf(j, "n_head", "num_attention_heads", 4096, &c.heads, error) ||
      !SizeOf(j, "n_embd", "hidden_size", 65536, &c.d_model, error) ||
      !SizeOf(j, "n_positions", "n_ctx", 1 << 20, &c.context, error) ||
      !SizeOf(j, "vocab_size", nullptr, 4 << 20, &c.vocab, error))
    return false;
  if (c.d_model % c.heads != 0)
    return Fail(error, "config.json: n_head " + std::to_string(c.heads) + " does not divide n_embd " + std::to_string(c.d_model));
  c.mlp = 4 * c.d_model;
  if (j.contains("n_inner") && !j["n_inner"].is_null() && !SizeOf(j, "n_inner", nullptr, 1 << 20, &c.mlp, error)) return false;
  if (j.contains("layer_norm_epsilon")) {
    const Json& e = j["layer_norm_epsilon"];
    if (!e.is_number() || !(e.get<double>() > 0 && e.get<double>() < 1))
      return Fail(error, "config.json: \"layer_norm_epsilon\" must be a number in (0, 1)");
    c.ln_eps = e.get<double>();
  }
  // The optional keys by their type: a value of another type is refused by name (json's value()
  // would throw on it).
  auto flag = [&](const char* key, bool fallback, bool* out) {
    if (!j.contains(key) || j[key].is_null()) return *out = fallback, true;
    if (!j[key].is_boolean()) return Fail(error, std::string("config.json: \"") + key + "\" must be true or false");
    *out = j[key].get<bool>();
    return true;
  };
  if (j.contains("activation_function") && !j["activation_function"].is_string())
    return Fail(error, "config.json: \"activation_function\" must be a string");
  const std::string act = j.contains("activation_function") ? j["activation_function"].get<std::string>() : "gelu_new";
  if (act == "gelu") c.gelu_erf = true;
  else if (act != "gelu_new" && act != "gelu_pytorch_tanh" && act != "gelu_fast")
    return Fail(error, "config.json: activation_function \"" + Shown(act) + "\" is not supported (gelu_new, gelu)");
  bool cross = false, by_layer = false, scaled = true;
  if (!flag("tie_word_embeddings", true, &c.tied) || !flag("add_cross_attention", false, &cross) ||
      !flag("scale_attn_by_inverse_layer_idx", false, &by_layer) || !flag("scale_attn_weights", true, &scaled))
    return false;
  c.attn_bias = c.out_bias = true;  // GPT-2's four attention biases
  if (cross) return Fail(error, "config.json: add_cross_attention is not supported");
  if (by_layer) return Fail(error, "config.json: scale_attn_by_inverse_layer_idx is not supported");
  if (!scaled) return Fail(error, "config.json: scale_attn_weights false is not supported");
  // A model the lab could never hold: refused before anything is read.
  if (Gpt2ParameterCount(c) > 100000000000LL)
    return Fail(error, "config.json: " + std::to_string(Gpt2ParameterCount(c)) + " parameters, more than the lab opens");
  const std::string shape = CheckModelConfig(c);
  if (!shape.empty()) return Fail(error, "config.json: " + shape);
  const bool has_eos = j.contains("eos_token_id") && j["eos_token_id"].is_number_integer() &&
                       j["eos_token_id"].get<std::int64_t>() >= 0 && j["eos_token_id"].get<std::int64_t>() < c.vocab;
  *eos = has_eos ? static_cast<int>(j["eos_token_id"].get<std::int64_t>()) : -1;
  *config = c;
  return true;
}

}  // namespace model
}  // namespace attn
