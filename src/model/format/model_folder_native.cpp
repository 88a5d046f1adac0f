// OpenModelFolder (model_folder.h): a folder on disk, natively (the lab's own folder's digests are
// OpenSSL's: bundle_native.cpp).
#include "model/format/model_folder.h"

#include "model/format/read_file.h"

#include <filesystem>
#include <utility>

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

}  // namespace model
}  // namespace attn
