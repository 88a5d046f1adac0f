// OpenModelFolder (model_folder.h): a folder on disk, natively (the lab's own folder's digests are
// OpenSSL's: bundle_native.cpp).
#include "model/format/model_folder.h"

#include "model/format/read_file.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <utility>

#include <nlohmann/json.hpp>

namespace attn {
namespace model {

bool OpenModelFolder(const std::string& dir, Bundle* out, std::string* error) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    if (error) *error = dir + ": no such folder";
    return false;
  }
  const std::string base = dir.back() == '/' ? dir : dir + "/";
  if (std::filesystem::exists(base + "MANIFEST.sha256", ec)) return LoadBundle(dir, out, error);
  HfCheckpoint ck;
  if (!ReadHfFolder(dir, &ck, error)) return false;
  std::map<std::string, std::string> files;
  for (const char* name : kHfTokenizerFiles) {
    std::string bytes;
    if (std::filesystem::exists(base + name, ec)) {
      if (!ReadFileBytes(base + name, &bytes, error)) return false;
      files.emplace(name, std::move(bytes));
    }
  }
  std::shared_ptr<const Tokenizer> tokenizer;
  std::string why, config_json;
  if (!HfTokenizerFromFiles(files, ck.eos, ck.config.vocab, &tokenizer, &why)) {
    if (error) *error = base + why;
    return false;
  }
  ReadFileBytes(base + "config.json", &config_json);  // read above: the run's folders (validation.h) are not in it
  *out = BundleFromCheckpoint(std::move(ck), std::move(tokenizer), std::move(config_json));
  return true;
}

bool OpenTokenizerFolder(const std::string& dir, std::shared_ptr<const Tokenizer>* out, std::string* error) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    if (error) *error = dir + ": no such folder";
    return false;
  }
  const std::string base = dir.back() == '/' ? dir : dir + "/";
  if (std::filesystem::exists(base + "MANIFEST.sha256", ec)) {
    Bundle b;
    if (!LoadBundle(dir, &b, error)) return false;
    *out = b.tokenizer;
    return true;
  }
  std::map<std::string, std::string> files;
  for (const char* name : kHfTokenizerFiles) {
    std::string bytes;
    if (std::filesystem::exists(base + name, ec)) {
      if (!ReadFileBytes(base + name, &bytes, error)) return false;
      files.emplace(name, std::move(bytes));
    }
  }
  int eos = -1;  // config.json's eos_token_id, when it has one integer
  std::string config;
  if (std::filesystem::exists(base + "config.json", ec) && ReadFileBytes(base + "config.json", &config)) {
    const nlohmann::json j = nlohmann::json::parse(config, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("eos_token_id") && j["eos_token_id"].is_number_integer())
      eos = static_cast<int>(std::max<std::int64_t>(-1, std::min<std::int64_t>(INT_MAX, j["eos_token_id"].get<std::int64_t>())));
  }
  std::string why;
  if (!HfTokenizerFromFiles(files, eos, INT_MAX, out, &why)) {
    if (error) *error = base + why;
    return false;
  }
  return true;
}

}  // namespace model
}  // namespace attn
