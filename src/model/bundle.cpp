// Loading the shipped model's folder, every file checked (bundle.h).
#include "bundle.h"

#include "engine/linalg.h"
#include "model_file.h"
#include "safetensors.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>

namespace attn {
namespace model {

const char* const kBundleFiles[4] = {"config.json", "tokenizer.json", "model.safetensors", "eval.json"};

std::string ManifestText(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string out;
  for (const auto& [name, bytes] : files) out += Sha256Hex(bytes) + "  " + name + "\n";
  return out;
}

bool LoadBundleFiles(const std::vector<std::pair<std::string, std::string>>& files, Bundle* out,
                     std::string* error) {
  std::map<std::string, const std::string*> by_name;
  for (const auto& [name, bytes] : files) by_name[name] = &bytes;
  auto it = by_name.find("MANIFEST.sha256");
  if (it == by_name.end()) return linalg::Fail(error, "MANIFEST.sha256 is missing");
  // The manifest: exactly the four files, each once, each checksum right.
  std::map<std::string, std::string> listed;
  std::istringstream lines(*it->second);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
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
  for (const char* name : kBundleFiles) {
    if (!listed.count(name)) return linalg::Fail(error, std::string("MANIFEST.sha256 does not list ") + name);
    auto f = by_name.find(name);
    if (f == by_name.end()) return linalg::Fail(error, std::string(name) + " is missing");
    if (Sha256Hex(*f->second) != listed[name])
      return linalg::Fail(error, std::string(name) + ": SHA-256 differs from MANIFEST.sha256 "
                                                     "(the file is corrupt, truncated or replaced)");
  }
  if (listed.size() != 4) return linalg::Fail(error, "MANIFEST.sha256 lists files that are not part of the model");

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
  if (!BpeFromJson(*by_name["tokenizer.json"], &b.bpe, &e)) return linalg::Fail(error, "tokenizer.json: " + e);
  if (b.bpe.size() != b.config.vocab)
    return linalg::Fail(error, "tokenizer.json has " + std::to_string(b.bpe.size()) +
                                   " tokens but the model's vocabulary is " + std::to_string(b.config.vocab));
  b.config_json = *by_name["config.json"];
  b.eval_json = *by_name["eval.json"];
  for (const std::string* text : {&b.config_json, &b.eval_json}) {
    const auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
      return linalg::Fail(error, std::string(text == &b.config_json ? "config.json" : "eval.json") +
                                     ": not a JSON object");
  }
  *out = std::move(b);
  return true;
}

bool LoadBundle(const std::string& dir, Bundle* out, std::string* error) {
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> names(std::begin(kBundleFiles), std::end(kBundleFiles));
  names.push_back("MANIFEST.sha256");
  for (const std::string& name : names) {
    std::ifstream f(dir + "/" + name, std::ios::binary);
    if (!f) return linalg::Fail(error, "cannot read " + dir + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    files.emplace_back(name, ss.str());
  }
  return LoadBundleFiles(files, out, error);
}

}  // namespace model
}  // namespace attn
