// The native side of bundle.h: SHA-256 through OpenSSL (sha256.cpp), the manifest's text and
// the folder read from disk. Not in the wasm: the page computes the digests with WebCrypto.
#include "model/format/bundle.h"

#include "engine/linalg/linalg.h"

#include <fstream>
#include <map>
#include <sstream>

namespace attn {
namespace model {

std::string ManifestText(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string out;
  for (const auto& [name, bytes] : files) out += Sha256Hex(bytes) + "  " + name + "\n";
  return out;
}

bool LoadBundleFiles(const std::vector<std::pair<std::string, std::string>>& files, Bundle* out,
                     std::string* error) {
  std::map<std::string, std::string> digests;
  for (const auto& [name, bytes] : files) digests[name] = Sha256Hex(bytes);
  return LoadBundleFilesWithDigests(files, digests, out, error);
}

bool LoadBundle(const std::string& dir, Bundle* out, std::string* error) {
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> names(std::begin(kBundleFiles), std::end(kBundleFiles));
  names.push_back("MANIFEST.sha256");
  names.push_back(kHeadsFile);
  for (const std::string& name : names) {
    std::ifstream f(dir + "/" + name, std::ios::binary);
    if (!f && name == kHeadsFile) continue;  // optional
    if (!f) return linalg::Fail(error, "cannot read " + dir + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    files.emplace_back(name, ss.str());
  }
  return LoadBundleFiles(files, out, error);
}

}  // namespace model
}  // namespace attn
