// The lab's model as a GPT-2 checkpoint in the Hugging Face layout (hf_gpt2_write.h).
#include "model/format/hf_gpt2_write.h"

#include "model/format/fp16.h"
#include "model/tokenizer/bpe_hf.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace attn {
namespace model {

namespace {

using Json = nlohmann::json;  // sorted keys, as save_pretrained writes config.json

const char* const kEndOfText = "<|endoftext|>";

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The value as `dtype` stores it: F16 and BF16 round to nearest, ties to even.
float Stored(float v, Dtype dtype) {
  if (dtype == Dtype::kF16) return HalfToFloat(FloatToHalf(v));
  if (dtype != Dtype::kBF16) return v;
  std::uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;  // safetensors.cpp's FloatToBF16, widened back
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Eigen's column-major (rows, cols) as row-major values, the file's order: v[r * cols + c].
void AppendRowMajor(const Mat<float>& m, std::vector<float>* v) {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) v->push_back(m(r, c));
}

// The tensors as GPT2LMHeadModel's state_dict holds them, in its order.
std::vector<StTensor> Gpt2Tensors(const ModelConfig& c, const Params<float>& p, Dtype dtype) {
  const Eigen::Index C = c.d_model, H = c.heads, Dh = C / H;
  std::vector<StTensor> out;
  auto add = [&](const std::string& name, std::vector<std::int64_t> shape, std::vector<float> values) {
    out.push_back({"transformer." + name, dtype, std::move(shape), std::move(values), ""});
  };
  auto matrix = [&](const std::string& name, const Mat<float>& m) {
    std::vector<float> v;
    v.reserve(static_cast<std::size_t>(m.size()));
    AppendRowMajor(m, &v);
    add(name, {m.rows(), m.cols()}, std::move(v));
  };
  auto vector = [&](const std::string& name, const Vec<float>& x) {
    add(name, {x.size()}, std::vector<float>(x.data(), x.data() + x.size()));
  };
  matrix("wte.weight", p.wte);  // (V, C)
  matrix("wpe.weight", p.wpe);  // (P, C)
  for (int l = 0; l < c.layers; ++l) {
    const BlockParams<float>& b = p.blocks[static_cast<std::size_t>(l)];
    const std::string h = "h." + std::to_string(l) + ".";
    vector(h + "ln_1.weight", b.ln1_w);
    vector(h + "ln_1.bias", b.ln1_b);
    // c_attn (C, 3C): row r is [W_Q[0](r,:) .. W_Q[H-1](r,:) | the same of W_K | of W_V].
    std::vector<float> qkv(static_cast<std::size_t>(C * 3 * C)), qkv_bias(static_cast<std::size_t>(3 * C), 0.0f);
    for (int part = 0; part < 3; ++part) {
      const std::vector<Mat<float>>& w = part == 0 ? b.attn.W_Q : part == 1 ? b.attn.W_K : b.attn.W_V;
      const std::vector<Vec<float>>& bias = part == 0 ? b.bq : part == 1 ? b.bk : b.bv;  // empty: no biases
      for (Eigen::Index k = 0; k < H; ++k) {
        const Mat<float>& head = w[static_cast<std::size_t>(k)];  // (C, Dh)
        const Eigen::Index col0 = part * C + k * Dh;
        for (Eigen::Index r = 0; r < C; ++r)
          for (Eigen::Index d = 0; d < Dh; ++d) qkv[static_cast<std::size_t>(r * 3 * C + col0 + d)] = head(r, d);
        if (!bias.empty())
          for (Eigen::Index d = 0; d < Dh; ++d) qkv_bias[static_cast<std::size_t>(col0 + d)] = bias[static_cast<std::size_t>(k)](d);
      }
    }
    add(h + "attn.c_attn.weight", {C, 3 * C}, std::move(qkv));
    add(h + "attn.c_attn.bias", {3 * C}, std::move(qkv_bias));
    matrix(h + "attn.c_proj.weight", b.attn.W_O);  // (C, C), rows in the heads' order
    vector(h + "attn.c_proj.bias", b.bo.size() != 0 ? b.bo : Vec<float>::Zero(C));
    vector(h + "ln_2.weight", b.ln2_w);
    vector(h + "ln_2.bias", b.ln2_b);
    matrix(h + "mlp.c_fc.weight", b.fc_w);      // (C, F)
    vector(h + "mlp.c_fc.bias", b.fc_b);        // (F)
    matrix(h + "mlp.c_proj.weight", b.proj_w);  // (F, C)
    vector(h + "mlp.c_proj.bias", b.proj_b);    // (C)
  }
  vector("ln_f.weight", p.lnf_w);
  vector("ln_f.bias", p.lnf_b);
  if (!c.tied) {
    matrix("lm_head.weight", p.lm_head);  // (V, C); save_pretrained writes it without the prefix
    out.back().name = "lm_head.weight";
  }
  return out;
}

std::string Saved(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n"; }

std::string ConfigJson(const ModelConfig& c, Dtype dtype, double dropout) {
  const char* torch_dtype = dtype == Dtype::kF16 ? "float16" : dtype == Dtype::kBF16 ? "bfloat16" : "float32";
  const Json j = {
      {"activation_function", c.gelu_erf ? "gelu" : "gelu_new"}, {"architectures", {"GPT2LMHeadModel"}},
      {"attn_pdrop", 0.0},  // the lab's attention has no dropout
      {"bos_token_id", Bpe::kEndOfText}, {"embd_pdrop", dropout}, {"eos_token_id", Bpe::kEndOfText},
      {"initializer_range", 0.02},  // InitParams' N(0, 0.02)
      {"layer_norm_epsilon", c.ln_eps}, {"model_type", "gpt2"}, {"n_ctx", c.context}, {"n_embd", c.d_model},
      {"n_head", c.heads}, {"n_inner", c.mlp}, {"n_layer", c.layers}, {"n_positions", c.context},
      {"reorder_and_upcast_attn", false}, {"resid_pdrop", dropout}, {"scale_attn_by_inverse_layer_idx", false},
      {"scale_attn_weights", true}, {"summary_activation", nullptr}, {"summary_first_dropout", 0.1},
      {"summary_proj_to_labels", true}, {"summary_type", "cls_index"}, {"summary_use_proj", true},
      {"tie_word_embeddings", c.tied}, {"torch_dtype", torch_dtype}, {"use_cache", true}, {"vocab_size", c.vocab}};
  return Saved(j);
}

}  // namespace

Dtype ExactDtype(const Params<float>& p) {
  for (Dtype d : {Dtype::kF16, Dtype::kBF16})
    if (RoundedValues(p, d) == 0) return d;
  return Dtype::kF32;
}

std::int64_t RoundedValues(const Params<float>& stored, Dtype dtype, std::string* first_tensor) {
  std::int64_t rounded = 0;
  Params<float> p = Widened(stored);  // weights kept at their stored precision: every number
  for (const TensorRef<float>& t : Tensors(p)) {
    for (Eigen::Index i = 0; i < t.size(); ++i) {
      if (SameBits(t.data[i], Stored(t.data[i], dtype))) continue;
      if (rounded++ == 0 && first_tensor) *first_tensor = t.name;
    }
  }
  return rounded;
}

bool Gpt2FolderFiles(const ModelConfig& c, const Params<float>& stored, const Bpe& bpe, const Gpt2ExportOptions& o,
                     NamedFiles* files, std::string* error) {
  const Params<float> p = Widened(stored);
  const std::string shape = CheckModelConfig(c);
  if (!shape.empty()) return Fail(error, "config.json: " + shape);
  if (bpe.size() != c.vocab)
    return Fail(error, "attnlab-tokenizer.json: " + std::to_string(bpe.size()) + " tokens for a model of " +
                           std::to_string(c.vocab));
  if (o.dtype == Dtype::kOther) return Fail(error, "model.safetensors: the dtype must be F32, F16 or BF16");
  std::string first;
  const std::int64_t rounded = RoundedValues(p, o.dtype, &first);
  if (rounded > 0 && !o.allow_rounding)
    return Fail(error, std::string("model.safetensors: ") + DtypeName(o.dtype) + " would round " +
                           std::to_string(rounded) + " values (the first in " + first + ")");
  StFile st;
  st.metadata["format"] = "pt";  // what transformers' save_pretrained writes, and checks on loading
  st.tensors = Gpt2Tensors(c, p, o.dtype);
  for (const StTensor& t : st.tensors)
    for (float v : t.values)
      if (!std::isfinite(Stored(v, o.dtype)))
        return Fail(error, std::string("model.safetensors: ") + DtypeName(o.dtype) + " cannot hold a value of " + t.name);
  std::string weights, tokenizer, why;
  if (!WriteSafetensors(st, &weights, &why)) return Fail(error, "model.safetensors: " + why);
  if (!BpeToHfTokenizerJson(bpe, &tokenizer, error)) return false;
  const Json special = {{"bos_token", kEndOfText}, {"eos_token", kEndOfText}};
  const Json added = {{"content", kEndOfText}, {"lstrip", false}, {"normalized", false}, {"rstrip", false},
                      {"single_word", false},  {"special", true}};
  const Json tokenizer_config = {{"added_tokens_decoder", {{std::to_string(Bpe::kEndOfText), added}}},
                                 {"bos_token", kEndOfText},
                                 {"clean_up_tokenization_spaces", false},
                                 {"eos_token", kEndOfText},
                                 {"model_max_length", c.context},
                                 {"tokenizer_class", "PreTrainedTokenizerFast"}};
  *files = {{"config.json", ConfigJson(c, o.dtype, o.dropout)},
            {"generation_config.json",
             Saved({{"_from_model_config", true}, {"bos_token_id", Bpe::kEndOfText}, {"eos_token_id", Bpe::kEndOfText}})},
            {"model.safetensors", std::move(weights)},
            {"attnlab-tokenizer.json", BpeToJson(bpe)},
            {"tokenizer.json", std::move(tokenizer)},
            {"tokenizer_config.json", Saved(tokenizer_config)},
            {"special_tokens_map.json", Saved(special)}};
  return true;
}

bool WriteGpt2Folder(const std::string& dir, const NamedFiles& files, bool replace, std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path base(dir);
  if (fs::exists(base, ec)) {
    if (!fs::is_directory(base, ec)) return Fail(error, dir + ": exists and is not a folder");
    if (!replace && !fs::is_empty(base, ec)) return Fail(error, dir + ": the folder is not empty; nothing was written");
    if (fs::exists(base / "model.safetensors.index.json", ec))
      return Fail(error, (base / "model.safetensors.index.json").string() +
                             ": readers would take it instead of model.safetensors; nothing was written");
  } else if (!fs::create_directories(base, ec) || ec) {
    return Fail(error, dir + ": cannot be created (" + ec.message() + ")");
  }
  for (const auto& [name, bytes] : files) {
    const std::string path = (base / name).string();
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    f.close();
    if (!f) return Fail(error, path + ": cannot be written");
  }
  return true;
}

}  // namespace model
}  // namespace attn
