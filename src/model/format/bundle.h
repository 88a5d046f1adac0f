// The shipped model as a folder of files, each listed with its SHA-256 in MANIFEST.sha256
// (sha256sum's format: "<64 hex>  <name>" per line, so `sha256sum -c MANIFEST.sha256` checks
// them too):
//   config.json        the model's shape, the training configuration and how it was run
//   tokenizer.json     the BPE vocabulary (bpe.h)
//   model.safetensors  the parameters, F16, the shape also in "__metadata__" (model_file.h)
//   eval.json          the validation scores recorded when the files were written
//   heads.json         (optional) what each head does, `attnlab model heads --format json`
// Loading checks everything: the manifest lists exactly these files, every checksum, then the
// safetensors header, dtypes, shapes and values, the tokenizer, and that the tokenizer's size is
// the model's vocabulary. Anything wrong is refused with a message naming the file.
#pragma once

#include "model/tokenizer/tokenizer.h"
#include "model/arch/model.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attn {
namespace model {

// The SHA-256 of bytes as 64 lowercase hex digits (sha256.cpp: OpenSSL; native only, like
// ManifestText, LoadBundleFiles and LoadBundle: bundle_native.cpp).
std::string Sha256Hex(const std::string& bytes);

// A model as loaded: the lab's own folder (below) or a GPT-2-family checkpoint
// (model_folder.h: OpenModelFolder reads either).
struct Bundle {
  ModelConfig config;
  std::shared_ptr<const Tokenizer> tokenizer;  // the lab's BPE, or GPT-2's
  Params<float> params;   // the F16 values widened to float exactly
  std::string format = "attnlab";  // "attnlab" (this folder) or "huggingface"
  std::string dtype = "F16";       // the weights' stored dtype: F32, F16, BF16 or "mixed"
  std::uint64_t file_bytes = 0;    // the weight files' size
  std::string eval_json;  // eval.json as written
  std::string config_json;
  std::string heads_json;  // heads.json as written (`attnlab model heads --format json`), or
                           // empty: optional, checked like the others when the manifest lists it
};

extern const char* const kBundleFiles[4];  // config.json, tokenizer.json, model.safetensors, eval.json
extern const char* const kHeadsFile;       // heads.json: what each head does (optional)

// "hex  name\n" for each (name, bytes), in the given order.
std::string ManifestText(const std::vector<std::pair<std::string, std::string>>& files);

// From the files' bytes by name (name -> bytes, MANIFEST.sha256 included).
bool LoadBundleFiles(const std::vector<std::pair<std::string, std::string>>& files, Bundle* out,
                     std::string* error = nullptr);
// The same checks with digests computed by the caller (name -> 64 lowercase hex digits): the
// page's WebCrypto. A file without a digest in the map gets every check but its checksum (a
// page served over plain http has no WebCrypto: web/js/model_switch.js says so in the console).
bool LoadBundleFilesWithDigests(const std::vector<std::pair<std::string, std::string>>& files,
                                 const std::map<std::string, std::string>& digests, Bundle* out,
                                 std::string* error = nullptr);
// From a folder.
bool LoadBundle(const std::string& dir, Bundle* out, std::string* error = nullptr);

}  // namespace model
}  // namespace attn
