// The Llama family's config.json (hf_llama.h).
#include "model/format/hf_llama.h"

#include "model/format/safetensors.h"  // Shown

#include <nlohmann/json.hpp>

namespace attn {
namespace model {

namespace {

using Json = nlohmann::json;

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = "config.json: " + message;
  return false;
}

}  // namespace

bool IsLlamaModelType(const std::string& type) {
  return type == "llama" || type == "mistral" || type == "qwen2" || type == "qwen3";
}

bool ParseLlamaConfig(const std::string& text, ModelConfig* config, int* eos, std::string* error) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Fail(error, "not a JSON object");
  const std::string type = j.contains("model_type") && j["model_type"].is_string() ? j["model_type"].get<std::string>() : "";
  if (!IsLlamaModelType(type)) return Fail(error, "model_type \"" + Shown(type) + "\" is not a Llama-family model");
  auto present = [&](const char* key) { return j.contains(key) && !j[key].is_null(); };
  // A positive integer under `key` (fallback when absent and fallback > 0), at most `max`.
  auto size = [&](const char* key, std::int64_t max, int fallback, int* out) {
    if (!present(key)) {
      if (fallback > 0) return *out = fallback, true;
      return Fail(error, std::string("\"") + key + "\" is missing");
    }
    const Json& v = j[key];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1) return Fail(error, std::string("\"") + key + "\" must be a positive integer");
    if (v.get<std::int64_t>() > max)
      return Fail(error, std::string("\"") + key + "\" is " + std::to_string(v.get<std::int64_t>()) + ", more than the " +
                             std::to_string(max) + " the lab opens");
    *out = static_cast<int>(v.get<std::int64_t>());
    return true;
  };
  auto number = [&](const char* key, double fallback, double* out) {
    if (!present(key)) return *out = fallback, true;
    if (!j[key].is_number()) return Fail(error, std::string("\"") + key + "\" must be a number");
    *out = j[key].get<double>();
    return true;
  };
  auto flag = [&](const char* key, bool fallback, bool* out) {
    if (!present(key)) return *out = fallback, true;
    if (!j[key].is_boolean()) return Fail(error, std::string("\"") + key + "\" must be true or false");
    *out = j[key].get<bool>();
    return true;
  };
  ModelConfig c;
  c.rms_norm = c.rotary = c.swiglu = true;
  if (!size("num_hidden_layers", 4096, 0, &c.layers) || !size("num_attention_heads", 4096, 0, &c.heads) ||
      !size("hidden_size", 65536, 0, &c.d_model) || !size("intermediate_size", 1 << 20, 0, &c.mlp) ||
      !size("vocab_size", 4 << 20, 0, &c.vocab) || !size("max_position_embeddings", 1 << 22, 2048, &c.context) ||
      !size("num_key_value_heads", 4096, c.heads, &c.kv_heads))
    return false;
  if (c.heads % c.kv_heads != 0)
    return Fail(error, "num_attention_heads " + std::to_string(c.heads) + " is not a multiple of num_key_value_heads " +
                           std::to_string(c.kv_heads));
  if (present("head_dim")) {
    if (!size("head_dim", 4096, 0, &c.head_dim)) return false;
  } else if (c.d_model % c.heads != 0) {
    return Fail(error, "num_attention_heads " + std::to_string(c.heads) + " does not divide hidden_size " +
                           std::to_string(c.d_model) + " and there is no head_dim");
  }
  if (HeadDim(c) % 2 != 0) return Fail(error, "the head width " + std::to_string(HeadDim(c)) + " is odd: RoPE needs pairs");
  if (present("hidden_act") && (!j["hidden_act"].is_string() || j["hidden_act"].get<std::string>() != "silu"))
    return Fail(error, "hidden_act " + j["hidden_act"].dump() + " is not supported (silu)");
  if (!number("rms_norm_eps", 1e-6, &c.ln_eps)) return false;
  if (!(c.ln_eps > 0 && c.ln_eps < 1)) return Fail(error, "\"rms_norm_eps\" must be a number in (0, 1)");
  if (!number("rope_theta", 10000, &c.rope_theta)) return false;
  if (!(c.rope_theta > 1 && c.rope_theta < 1e12)) return Fail(error, "\"rope_theta\" must be a number above 1");
  double partial = 1;
  if (!number("partial_rotary_factor", 1, &partial)) return false;
  if (partial != 1) return Fail(error, "partial_rotary_factor " + j["partial_rotary_factor"].dump() + " is not supported (1)");
  // rope_scaling: null, or {"rope_type" (older files: "type"): "default" | "linear" | "llama3", ...}
  if (present("rope_scaling")) {
    const Json& r = j["rope_scaling"];
    if (!r.is_object()) return Fail(error, "\"rope_scaling\" must be an object or null");
    const char* type_key = r.contains("rope_type") ? "rope_type" : "type";
    if (!r.contains(type_key) || !r[type_key].is_string()) return Fail(error, "rope_scaling has no \"rope_type\"");
    const std::string kind = r[type_key].get<std::string>();
    auto field = [&](const char* key, double* out) {
      if (!r.contains(key) || !r[key].is_number()) return Fail(error, std::string("rope_scaling's \"") + key + "\" must be a number");
      *out = r[key].get<double>();
      return true;
    };
    if (kind == "linear" || kind == "llama3") {
      if (!field("factor", &c.rope_factor)) return false;
      if (!(c.rope_factor >= 1 && c.rope_factor <= 1e6)) return Fail(error, "rope_scaling's \"factor\" must be at least 1");
      c.rope_scaling = kind == "linear" ? ModelConfig::RopeScaling::kLinear : ModelConfig::RopeScaling::kLlama3;
      if (kind == "llama3") {
        double original = 0;
        if (!field("low_freq_factor", &c.rope_low_freq) || !field("high_freq_factor", &c.rope_high_freq) ||
            !field("original_max_position_embeddings", &original))
          return false;
        if (!(c.rope_low_freq > 0 && c.rope_high_freq > c.rope_low_freq && c.rope_high_freq < 1e6))
          return Fail(error, "rope_scaling needs 0 < low_freq_factor < high_freq_factor");
        if (!(original >= 1 && original <= (1 << 22) && original == static_cast<int>(original)))
          return Fail(error, "rope_scaling's \"original_max_position_embeddings\" must be a positive integer");
        c.rope_original_context = static_cast<int>(original);
      }
    } else if (kind != "default") {
      return Fail(error, "rope_scaling type \"" + Shown(kind) + "\" is not supported (linear, llama3)");
    }
  }
  if (!flag("tie_word_embeddings", false, &c.tied)) return false;
  bool bias = false, mlp_bias = false, window_on = type == "mistral";
  if (!flag("attention_bias", false, &bias) || !flag("mlp_bias", false, &mlp_bias)) return false;
  if (mlp_bias) return Fail(error, "mlp_bias true is not supported");
  if (type == "qwen2") {  // Qwen2Attention: q, k, v with biases, o without
    c.attn_bias = true;
  } else if (type != "mistral") {
    c.attn_bias = c.out_bias = bias;
  }
  c.qk_norm = type == "qwen3";
  if (type == "qwen2" || type == "qwen3") {
    bool sliding = false;
    if (!flag("use_sliding_window", false, &sliding)) return false;
    if (sliding) return Fail(error, "use_sliding_window true is not supported");
    window_on = false;
  }
  if (window_on && present("sliding_window") && !size("sliding_window", 1 << 22, 0, &c.sliding_window)) return false;
  if (ParameterCount(c) > 100000000000LL)
    return Fail(error, std::to_string(ParameterCount(c)) + " parameters, more than the lab opens");
  const std::string shape = CheckModelConfig(c);
  if (!shape.empty()) return Fail(error, shape);
  // eos_token_id: a number or a list (Llama 3's); the first that is in the vocabulary
  *eos = -1;
  if (present("eos_token_id")) {
    const Json& e = j["eos_token_id"];
    const Json first = e.is_array() && !e.empty() ? e[0] : e;
    if (first.is_number_integer() && first.get<std::int64_t>() >= 0 && first.get<std::int64_t>() < c.vocab)
      *eos = static_cast<int>(first.get<std::int64_t>());
  }
  *config = c;
  return true;
}

}  // namespace model
}  // namespace attn
