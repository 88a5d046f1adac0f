// GPT-2-family checkpoints in the Hugging Face layout (hf_gpt2.h).
#include "model/format/hf_gpt2.h"

#include "engine/linalg/linalg.h"
#include "model/format/read_file.h"

#include <nlohmann/json.hpp>

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

// Row-major values into an Eigen matrix (column-major): m(r, c) = v[r * cols + c].
void ToMatrix(const float* v, Eigen::Index rows, Eigen::Index cols, Eigen::Index stride, Mat<float>* m) {
  m->resize(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) (*m)(r, c) = v[r * stride + c];
}

}  // namespace

std::int64_t Gpt2ParameterCount(const ModelConfig& c) {
  const std::int64_t C = c.d_model, F = c.mlp;
  const std::int64_t biases = c.attn_bias ? 4 * C : 0;  // q, k, v and the output's
  const std::int64_t block = 2 * C + C * 3 * C + C * C + biases + 2 * C + (C * F + F) + (F * C + C);
  return static_cast<std::int64_t>(c.vocab) * C * (c.tied ? 1 : 2) + static_cast<std::int64_t>(c.context) * C +
         c.layers * block + 2 * C;
}

bool ParseGpt2Config(const std::string& text, ModelConfig* config, int* eos, std::string* error) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Fail(error, "config.json: not a JSON object");
  if (!j.contains("model_type") || !j["model_type"].is_string())
    return Fail(error, "config.json: \"model_type\" is missing (a GPT-2-family model has \"gpt2\")");
  const std::string type = j["model_type"].get<std::string>();
  if (type != "gpt2") return Fail(error, "config.json: model_type \"" + type + "\" is not a GPT-2-family model");
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
  const std::string act = j.value("activation_function", std::string("gelu_new"));
  if (act == "gelu") c.gelu_erf = true;
  else if (act != "gelu_new" && act != "gelu_pytorch_tanh" && act != "gelu_fast")
    return Fail(error, "config.json: activation_function \"" + act + "\" is not supported (gelu_new, gelu)");
  c.tied = !j.contains("tie_word_embeddings") || !j["tie_word_embeddings"].is_boolean() || j["tie_word_embeddings"].get<bool>();
  c.attn_bias = true;
  if (j.value("add_cross_attention", false)) return Fail(error, "config.json: add_cross_attention is not supported");
  if (j.value("scale_attn_by_inverse_layer_idx", false))
    return Fail(error, "config.json: scale_attn_by_inverse_layer_idx is not supported");
  if (!j.value("scale_attn_weights", true)) return Fail(error, "config.json: scale_attn_weights false is not supported");
  // A model the lab could never hold: refused before anything is read.
  if (Gpt2ParameterCount(c) > 100000000000LL)
    return Fail(error, "config.json: " + std::to_string(Gpt2ParameterCount(c)) + " parameters, more than the lab opens");
  const std::string shape = CheckModelConfig(c);
  if (!shape.empty()) return Fail(error, "config.json: " + shape);
  *eos = j.contains("eos_token_id") && j["eos_token_id"].is_number_integer() ? j["eos_token_id"].get<int>() : -1;
  *config = c;
  return true;
}

bool Gpt2FromTensors(const ModelConfig& c, const std::vector<StTensor>& tensors, Params<float>* params,
                     std::string* error) {
  std::map<std::string, const StTensor*> by_name;
  for (const StTensor& t : tensors) {
    std::string name = t.name.rfind("transformer.", 0) == 0 ? t.name.substr(12) : t.name;
    if (!by_name.emplace(name, &t).second) return Fail(error, "tensor '" + name + "' appears twice");
  }
  // The files must hold at least the config's numbers: checked before anything is allocated,
  // so that a config that lies about its sizes costs no more memory than its files.
  std::uint64_t held = 0;
  for (const StTensor& t : tensors) held += t.values.size();
  const std::uint64_t wanted = static_cast<std::uint64_t>(Gpt2ParameterCount(c));
  if (held < wanted)
    return Fail(error, "the weights hold " + std::to_string(held) + " numbers, the config needs " + std::to_string(wanted));
  std::set<std::string> used;
  const Eigen::Index C = c.d_model, F = c.mlp, V = c.vocab, P = c.context, H = c.heads, Dh = C / H;
  // The tensor `name` of exactly this shape, in a float dtype.
  auto take = [&](const std::string& name, std::vector<std::int64_t> shape, const StTensor** out) {
    const auto it = by_name.find(name);
    if (it == by_name.end()) return Fail(error, "tensor '" + name + "' is missing");
    const StTensor& t = *it->second;
    if (t.dtype == Dtype::kOther)
      return Fail(error, "tensor '" + name + "' is " + t.stored + "; the weights must be F32, F16 or BF16");
    if (t.shape != shape)
      return Fail(error, "tensor '" + name + "' has shape " + ShapeText(t.shape) + ", the config needs " + ShapeText(shape));
    used.insert(name);
    *out = &t;
    return true;
  };
  auto matrix = [&](const std::string& name, Eigen::Index rows, Eigen::Index cols, Mat<float>* m) {
    const StTensor* t = nullptr;
    if (!take(name, {rows, cols}, &t)) return false;
    ToMatrix(t->values.data(), rows, cols, cols, m);
    return true;
  };
  auto vector = [&](const std::string& name, Eigen::Index n, Vec<float>* v) {
    const StTensor* t = nullptr;
    if (!take(name, {n}, &t)) return false;
    *v = Eigen::Map<const Vec<float>>(t->values.data(), n);
    return true;
  };
  Params<float> p = ZeroParams<float>(c);
  if (!matrix("wte.weight", V, C, &p.wte) || !matrix("wpe.weight", P, C, &p.wpe)) return false;
  for (int l = 0; l < c.layers; ++l) {
    BlockParams<float>& b = p.blocks[static_cast<std::size_t>(l)];
    const std::string h = "h." + std::to_string(l) + ".";
    const StTensor *qkv = nullptr, *qkv_b = nullptr;
    if (!vector(h + "ln_1.weight", C, &b.ln1_w) || !vector(h + "ln_1.bias", C, &b.ln1_b) ||
        !take(h + "attn.c_attn.weight", {C, 3 * C}, &qkv) || !take(h + "attn.c_attn.bias", {3 * C}, &qkv_b) ||
        !matrix(h + "attn.c_proj.weight", C, C, &b.attn.W_O) || !vector(h + "attn.c_proj.bias", C, &b.bo) ||
        !vector(h + "ln_2.weight", C, &b.ln2_w) || !vector(h + "ln_2.bias", C, &b.ln2_b) ||
        !matrix(h + "mlp.c_fc.weight", C, F, &b.fc_w) || !vector(h + "mlp.c_fc.bias", F, &b.fc_b) ||
        !matrix(h + "mlp.c_proj.weight", F, C, &b.proj_w) || !vector(h + "mlp.c_proj.bias", C, &b.proj_b))
      return false;
    // c_attn (C, 3C): columns [q | k | v], each of H heads of Dh columns.
    for (Eigen::Index k = 0; k < H; ++k) {
      const std::size_t j = static_cast<std::size_t>(k);
      ToMatrix(qkv->values.data() + 0 * C + k * Dh, C, Dh, 3 * C, &b.attn.W_Q[j]);
      ToMatrix(qkv->values.data() + 1 * C + k * Dh, C, Dh, 3 * C, &b.attn.W_K[j]);
      ToMatrix(qkv->values.data() + 2 * C + k * Dh, C, Dh, 3 * C, &b.attn.W_V[j]);
      b.bq[j] = Eigen::Map<const Vec<float>>(qkv_b->values.data() + 0 * C + k * Dh, Dh);
      b.bk[j] = Eigen::Map<const Vec<float>>(qkv_b->values.data() + 1 * C + k * Dh, Dh);
      b.bv[j] = Eigen::Map<const Vec<float>>(qkv_b->values.data() + 2 * C + k * Dh, Dh);
    }
    // The causal mask GPT-2 once stored as buffers: the lab's attention is causal anyway.
    for (const char* buffer : {"attn.bias", "attn.masked_bias"})
      if (by_name.count(h + buffer)) used.insert(h + buffer);
  }
  if (!vector("ln_f.weight", C, &p.lnf_w) || !vector("ln_f.bias", C, &p.lnf_b)) return false;
  const bool has_head = by_name.count("lm_head.weight") > 0;
  if (!c.tied && !matrix("lm_head.weight", V, C, &p.lm_head)) return false;
  if (c.tied && has_head) {  // save_pretrained may write the tied copy: the same shape, unused
    const StTensor* t = nullptr;
    if (!take("lm_head.weight", {V, C}, &t)) return false;
  }
  for (const auto& [name, t] : by_name)
    if (!used.count(name)) return Fail(error, "tensor '" + name + "' is not part of a GPT-2 model");
  for (const TensorRef<float>& t : Tensors(p))
    if (!linalg::AllFinite(Eigen::Map<const Mat<float>>(t.data, t.rows, t.cols)))
      return Fail(error, "tensor " + t.name + " holds a NaN or an infinity");
  *params = std::move(p);
  return true;
}

bool ReadGpt2Folder(const std::string& dir, HfCheckpoint* out, std::string* error) {
  const std::string base = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  std::string text;
  if (!ReadFileBytes(base + "config.json", &text, error)) return false;
  HfCheckpoint ck;
  if (!ParseGpt2Config(text, &ck.config, &ck.eos, error)) return false;
  // The weight files: one, or the shards an index names (each once, inside the folder).
  std::vector<std::string> files;
  std::string index;
  if (ReadFileBytes(base + "model.safetensors.index.json", &index)) {
    const Json j = Json::parse(index, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
      return Fail(error, base + "model.safetensors.index.json: no \"weight_map\" object");
    std::set<std::string> seen;
    for (auto it = j["weight_map"].begin(); it != j["weight_map"].end(); ++it) {
      if (!it.value().is_string()) return Fail(error, base + "model.safetensors.index.json: \"" + it.key() + "\" names no file");
      const std::string f = it.value().get<std::string>();
      if (f.empty() || f.find('/') != std::string::npos || f.find('\\') != std::string::npos || f.find("..") != std::string::npos)
        return Fail(error, base + "model.safetensors.index.json: \"" + f + "\" is not a file of this folder");
      if (seen.insert(f).second) files.push_back(f);
    }
    if (files.empty()) return Fail(error, base + "model.safetensors.index.json: the weight map is empty");
  } else {
    files.push_back("model.safetensors");
  }
  std::vector<StTensor> tensors;
  std::set<std::string> dtypes;
  for (const std::string& f : files) {
    std::string bytes, why;
    if (!ReadFileBytes(base + f, &bytes, error)) return false;
    ck.file_bytes += bytes.size();
    StFile st;
    if (!ReadSafetensors(bytes, &st, &why)) return Fail(error, base + f + ": " + why);
    for (StTensor& t : st.tensors) {
      if (t.dtype != Dtype::kOther) dtypes.insert(DtypeName(t.dtype));
      tensors.push_back(std::move(t));
    }
  }
  std::string why;
  if (!Gpt2FromTensors(ck.config, tensors, &ck.params, &why))
    return Fail(error, base + (files.size() == 1 ? files[0] : "model.safetensors.index.json") + ": " + why);
  ck.dtype = dtypes.size() == 1 ? *dtypes.begin() : "mixed";
  ck.parameters = Gpt2ParameterCount(ck.config);
  *out = std::move(ck);
  return true;
}

}  // namespace model
}  // namespace attn
