// GPT-2-family checkpoints in the Hugging Face layout (hf_gpt2.h).
#include "model/format/hf_gpt2.h"

#include "engine/linalg/linalg.h"
#include "model/format/hf_gpt2_loader.h"
#include "model/format/read_file.h"

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
  c.attn_bias = true;
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

bool Gpt2FromTensors(const ModelConfig& c, const std::vector<StTensor>& tensors, Params<float>* params,
                     std::string* error) {
  // The values as one F32 file's data, through the loader that reads files (hf_gpt2_loader.h).
  std::vector<StEntry> entries;
  std::vector<unsigned char> data;
  for (const StTensor& t : tensors) {
    StEntry e;
    e.name = t.name;
    e.dtype = t.dtype == Dtype::kOther ? Dtype::kOther : Dtype::kF32;
    e.stored = t.dtype == Dtype::kOther ? t.stored : "F32";
    e.shape = t.shape;
    e.size = 4;
    e.begin = data.size();
    for (float v : t.values) {
      std::uint32_t u;
      std::memcpy(&u, &v, sizeof u);
      for (int k = 0; k < 4; ++k) data.push_back(static_cast<unsigned char>(u >> (8 * k)));
    }
    e.end = data.size();
    entries.push_back(std::move(e));
  }
  Gpt2Loader loader(c);
  std::string dtype;
  if (!loader.AddEntries("tensors", entries, 0, error) || !loader.Plan(error)) return false;
  for (std::size_t k = 0; k < loader.pieces().size(); ++k) {
    const Gpt2Piece& piece = loader.pieces()[k];
    if (!loader.Take(k, data.data() + piece.begin, static_cast<std::size_t>(piece.end - piece.begin), error)) return false;
  }
  Params<float> stored;
  if (!loader.Finish(&stored, &dtype, error)) return false;
  *params = Widened(stored);
  return true;
}

bool Gpt2WeightFiles(const std::string* index, std::vector<std::string>* files, std::string* error) {
  files->clear();
  if (!index) {
    files->push_back("model.safetensors");
    return true;
  }
  const Json j = Json::parse(*index, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
    return Fail(error, "model.safetensors.index.json: no \"weight_map\" object");
  std::set<std::string> seen;
  for (auto it = j["weight_map"].begin(); it != j["weight_map"].end(); ++it) {
    if (!it.value().is_string()) return Fail(error, "model.safetensors.index.json: \"" + Shown(it.key()) + "\" names no file");
    const std::string f = it.value().get<std::string>();
    if (f.empty() || f.find('/') != std::string::npos || f.find('\\') != std::string::npos || f.find("..") != std::string::npos ||
        Shown(f) != f)  // a control character or line break: no file of a checkpoint has one
      return Fail(error, "model.safetensors.index.json: \"" + Shown(f) + "\" is not a file of this folder");
    if (seen.insert(f).second) files->push_back(f);
  }
  if (files->empty()) return Fail(error, "model.safetensors.index.json: the weight map is empty");
  return true;
}

std::uint64_t ForwardBytes(const ModelConfig& c, std::uint64_t t) {
  const std::uint64_t C = static_cast<std::uint64_t>(c.d_model), F = static_cast<std::uint64_t>(c.mlp),
                      H = static_cast<std::uint64_t>(c.heads), Dh = C / H, V = static_cast<std::uint64_t>(c.vocab);
  const std::uint64_t block = t * C * 9 + t * F * 2 + H * (t * Dh * 4 + t * t * 4);
  return 4 * (static_cast<std::uint64_t>(c.layers) * block + t * C * 2 + t * V * 2);
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
  const bool indexed = ReadFileBytes(base + "model.safetensors.index.json", &index);
  if (!Gpt2WeightFiles(indexed ? &index : nullptr, &files, error)) {
    if (error) *error = base + *error;
    return false;
  }
  // Each file's header, then each tensor's bytes read in turn: the memory a load needs is the
  // weights as stored plus one tensor (hf_gpt2_loader.h).
  Gpt2Loader loader(ck.config);
  std::vector<std::ifstream> streams;
  const std::string where = base + (files.size() == 1 ? files[0] : "model.safetensors.index.json") + ": ";
  std::string why;
  for (const std::string& f : files) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(base + f, ec)) return Fail(error, base + f + ": no such file");
    const std::uint64_t size = std::filesystem::file_size(base + f, ec);
    streams.emplace_back(base + f, std::ios::binary);
    std::ifstream& in = streams.back();
    unsigned char first8[8] = {};
    std::uint64_t length = 0;
    in.read(reinterpret_cast<char*>(first8), 8);
    if (!in && size >= 8) return Fail(error, base + f + ": cannot be read");
    if (!HeaderLength(first8, size, &length, &why)) return Fail(error, base + f + ": " + why);
    std::string header(static_cast<std::size_t>(length), '\0');
    if (!in.read(&header[0], static_cast<std::streamsize>(length))) return Fail(error, base + f + ": cannot be read");
    if (!loader.AddFile(f, size, header, &why)) return Fail(error, base + f + ": " + why);
    ck.file_bytes += size;
  }
  if (!loader.Plan(&why)) return Fail(error, where + why);
  std::vector<unsigned char> bytes;
  for (std::size_t k = 0; k < loader.pieces().size(); ++k) {
    const Gpt2Piece& piece = loader.pieces()[k];
    std::ifstream& in = streams[piece.file];
    bytes.resize(static_cast<std::size_t>(piece.end - piece.begin));
    in.seekg(static_cast<std::streamoff>(piece.begin));
    if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
      return Fail(error, base + files[piece.file] + ": cannot be read");
    if (!loader.Take(k, bytes.data(), bytes.size(), &why)) return Fail(error, base + files[piece.file] + ": " + why);
  }
  if (!loader.Finish(&ck.params, &ck.dtype, &why)) return Fail(error, where + why);
  ck.parameters = Gpt2ParameterCount(ck.config);
  *out = std::move(ck);
  return true;
}

}  // namespace model
}  // namespace attn
