// Hugging Face checkpoints of every family the lab opens (hf_checkpoint.h).
#include "model/format/hf_checkpoint.h"

#include "model/format/hf_gpt2.h"
#include "model/format/hf_llama.h"
#include "model/format/hf_loader.h"
#include "model/format/read_file.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

namespace attn {
namespace model {

namespace {

using Json = nlohmann::json;

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

bool ParseHfConfig(const std::string& text, ModelConfig* config, int* eos, std::string* error) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Fail(error, "config.json: not a JSON object");
  if (!j.contains("model_type") || !j["model_type"].is_string())
    return Fail(error, "config.json: \"model_type\" is missing (gpt2, llama, mistral, qwen2 or qwen3)");
  const std::string type = j["model_type"].get<std::string>();
  if (type == "gpt2") return ParseGpt2Config(text, config, eos, error);
  if (IsLlamaModelType(type)) return ParseLlamaConfig(text, config, eos, error);
  return Fail(error, "config.json: model_type \"" + Shown(type) + "\" is not a model the lab opens (gpt2, llama, mistral, qwen2, qwen3)");
}

bool HfFromTensors(const ModelConfig& c, const std::vector<StTensor>& tensors, Params<float>* params,
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
  std::unique_ptr<HfLoader> loader = MakeHfLoader(c);
  std::string dtype;
  if (!loader->AddEntries("tensors", entries, 0, error) || !loader->Plan(error)) return false;
  for (std::size_t k = 0; k < loader->pieces().size(); ++k) {
    const WeightPiece& piece = loader->pieces()[k];
    if (!loader->Take(k, data.data() + piece.begin, static_cast<std::size_t>(piece.end - piece.begin), error)) return false;
  }
  Params<float> stored;
  if (!loader->Finish(&stored, &dtype, error)) return false;
  *params = Widened(stored);
  return true;
}

bool HfWeightFiles(const std::string* index, std::vector<std::string>* files, std::string* error) {
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
                      H = static_cast<std::uint64_t>(c.heads), Dh = static_cast<std::uint64_t>(HeadDim(c)),
                      V = static_cast<std::uint64_t>(c.vocab);
  const std::uint64_t per_head = t * Dh * (c.rotary ? 6 : 4) + t * t * 4;  // q, k, v, z (+ unrotated q, k); scores, weights
  const std::uint64_t block = t * C * 9 + t * F * (c.swiglu ? 3 : 2) + H * per_head;
  return 4 * (static_cast<std::uint64_t>(c.layers) * block + t * C * 2 + t * V * 2);
}

bool ReadHfFolder(const std::string& dir, HfCheckpoint* out, std::string* error) {
  const std::string base = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  std::string text;
  if (!ReadFileBytes(base + "config.json", &text, error)) return false;
  HfCheckpoint ck;
  if (!ParseHfConfig(text, &ck.config, &ck.eos, error)) return false;
  // The weight files: one, or the shards an index names (each once, inside the folder).
  std::vector<std::string> files;
  std::string index;
  const bool indexed = ReadFileBytes(base + "model.safetensors.index.json", &index);
  if (!HfWeightFiles(indexed ? &index : nullptr, &files, error)) {
    if (error) *error = base + *error;
    return false;
  }
  // Each file's header, then each tensor's bytes read in turn: the memory a load needs is the
  // weights as stored plus one tensor (hf_gpt2_loader.h).
  std::unique_ptr<HfLoader> loader = MakeHfLoader(ck.config);
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
    if (!loader->AddFile(f, size, header, &why)) return Fail(error, base + f + ": " + why);
    ck.file_bytes += size;
  }
  if (!loader->Plan(&why)) return Fail(error, where + why);
  std::vector<unsigned char> bytes;
  for (std::size_t k = 0; k < loader->pieces().size(); ++k) {
    const WeightPiece& piece = loader->pieces()[k];
    std::ifstream& in = streams[piece.file];
    bytes.resize(static_cast<std::size_t>(piece.end - piece.begin));
    in.seekg(static_cast<std::streamoff>(piece.begin));
    if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
      return Fail(error, base + files[piece.file] + ": cannot be read");
    if (!loader->Take(k, bytes.data(), bytes.size(), &why)) return Fail(error, base + files[piece.file] + ": " + why);
  }
  if (!loader->Finish(&ck.params, &ck.dtype, &why)) return Fail(error, where + why);
  ck.parameters = ParameterCount(ck.config);
  *out = std::move(ck);
  return true;
}

}  // namespace model
}  // namespace attn
