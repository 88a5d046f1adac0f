// Loading the shipped model's files, every file checked (bundle.h); the SHA-256 digests come
// from the caller (bundle_native.cpp: OpenSSL; the page: WebCrypto), so this compiles for wasm.
#include "model/format/bundle.h"

#include "engine/linalg/linalg.h"
#include "model/format/model_file.h"
#include "model/format/safetensors.h"

#include <nlohmann/json.hpp>

#include <map>
#include <utility>

namespace attn {
namespace model {

const char* const kBundleFiles[4] = {"config.json", "tokenizer.json", "model.safetensors", "eval.json"};
const char* const kHeadsFile = "heads.json";

bool LoadBundleFilesWithDigests(const std::vector<std::pair<std::string, std::string>>& files,
                                 const std::map<std::string, std::string>& digests, Bundle* out,
                                 std::string* error) {
  std::map<std::string, const std::string*> by_name;
  for (const auto& [name, bytes] : files) by_name[name] = &bytes;
  auto it = by_name.find("MANIFEST.sha256");
  if (it == by_name.end()) return linalg::Fail(error, "MANIFEST.sha256 is missing");
  // The manifest: exactly the four files, each once, each checksum right.
  std::map<std::string, std::string> listed;
  // (Split by hand: a std::istringstream would bring the whole of iostreams' locales into the
  // page's wasm, ~60 KB gzipped.)
  const std::string& manifest = *it->second;
  int number = 0;
  for (std::size_t at = 0; at < manifest.size();) {
    std::size_t end = manifest.find('\n', at);
    if (end == std::string::npos) end = manifest.size();
    const std::string line = manifest.substr(at, end - at);
    at = end + 1;
    ++number;
    if (line.empty()) continue;
    if (line.size() < 67 || line.compare(64, 2, "  ") != 0 ||
        line.find_first_not_of("0123456789abcdef") < 64)
      return linalg::Fail(error, "MANIFEST.sha256 line " + std::to_string(number) +
                                     ": expected \"<64 hex digits>  <file name>\"");
    const std::string name = line.substr(66);
    if (listed.count(name)) return linalg::Fail(error, "MANIFEST.sha256 lists " + name + " twice");
    listed[name] = line.substr(0, 64);
  }
  auto check = [&](const std::string& name) {
    auto f = by_name.find(name);
    if (f == by_name.end()) return linalg::Fail(error, name + " is missing");
    auto d = digests.find(name);
    if (d != digests.end() && d->second != listed[name])
      return linalg::Fail(error, name + ": SHA-256 differs from MANIFEST.sha256 "
                                        "(the file is corrupt, truncated or replaced)");
    return true;
  };
  for (const char* name : kBundleFiles) {
    if (!listed.count(name)) return linalg::Fail(error, std::string("MANIFEST.sha256 does not list ") + name);
    if (!check(name)) return false;
  }
  const bool has_heads = listed.count(kHeadsFile) > 0;  // optional, checked when listed
  if (has_heads && !check(kHeadsFile)) return false;
  if (listed.size() != 4 + (has_heads ? 1u : 0u))
    return linalg::Fail(error, "MANIFEST.sha256 lists files that are not part of the model");

  Bundle b;
  StFile st;
  std::string e;
  if (!ReadSafetensors(*by_name["model.safetensors"], &st, &e)) return linalg::Fail(error, "model.safetensors: " + e);
  if (!ConfigFromFile(st, &b.config, &e)) return linalg::Fail(error, "model.safetensors: " + e);
  for (const StTensor& t : st.tensors) {
    if (t.dtype != Dtype::kF16)
      return linalg::Fail(error, "model.safetensors: " + t.name + " is " + DtypeName(t.dtype) + ", expected F16");
  }
  if (!ParamsFromFile(st, b.config, &b.params, &e)) return linalg::Fail(error, "model.safetensors: " + e);
  Bpe bpe;
  if (!BpeFromJson(*by_name["tokenizer.json"], &bpe, &e)) return linalg::Fail(error, "tokenizer.json: " + e);
  if (bpe.size() != b.config.vocab)
    return linalg::Fail(error, "tokenizer.json has " + std::to_string(bpe.size()) +
                                   " tokens but the model's vocabulary is " + std::to_string(b.config.vocab));
  b.tokenizer = MakeOwnTokenizer(std::move(bpe));
  b.file_bytes = by_name["model.safetensors"]->size();
  b.config_json = *by_name["config.json"];
  b.eval_json = *by_name["eval.json"];
  for (const std::string* text : {&b.config_json, &b.eval_json}) {
    const auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
      return linalg::Fail(error, std::string(text == &b.config_json ? "config.json" : "eval.json") +
                                     ": not a JSON object");
  }
  if (has_heads) {
    b.heads_json = *by_name[kHeadsFile];
    const auto j = nlohmann::json::parse(b.heads_json, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return linalg::Fail(error, std::string(kHeadsFile) + ": not a JSON object");
  }
  *out = std::move(b);
  return true;
}

}  // namespace model
}  // namespace attn
