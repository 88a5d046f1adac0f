// Either kind of model folder (model_folder.h).
#include "model/format/model_folder.h"

#include "engine/linalg/linalg.h"
#include "model/tokenizer/bpe.h"
#include "model/tokenizer/gpt2_bpe.h"
#include "model/tokenizer/gpt2_bpe_json.h"
#include "model/tokenizer/hf_tokenizer_json.h"
#include "model/tokenizer/strict_json.h"

#include <utility>

namespace attn {
namespace model {

using linalg::Fail;  // the one "message, false"

const char* const kHfTokenizerFiles[5] = {"attnlab-tokenizer.json", "tokenizer.json", "tokenizer_config.json",
                                          "vocab.json", "merges.txt"};

bool HfTokenizerFromFiles(const std::map<std::string, std::string>& files, int eos, int vocab,
                          std::shared_ptr<const Tokenizer>* out, std::string* error) {
  auto file = [&](const char* name) -> const std::string* {
    const auto it = files.find(name);
    return it == files.end() ? nullptr : &it->second;
  };
  std::string why;
  std::shared_ptr<const Tokenizer> tokenizer;
  std::string source;
  if (const std::string* own = file("attnlab-tokenizer.json")) {
    Bpe bpe;
    source = "attnlab-tokenizer.json";
    if (!BpeFromJson(*own, &bpe, &why)) return Fail(error, source + ": " + why);
    tokenizer = MakeOwnTokenizer(std::move(bpe));
  } else if (const std::string* json = file("tokenizer.json")) {
    source = "tokenizer.json";
    nlohmann::json parsed;
    std::string problem;
    if (!ParseStrictJson(*json, &parsed, &problem)) return Fail(error, source + ": " + problem);
    Gpt2Bpe bpe;
    if (LooksLikeGpt2TokenizerJson(parsed) && Gpt2FromParsedTokenizerJson(parsed, &bpe, &why)) {
      tokenizer = MakeGpt2Tokenizer(std::move(bpe), eos);  // GPT-2's exact reader, as before
    } else {
      // the general reader; a GPT-2-kind file it refuses too keeps GPT-2's reader's message
      const bool gpt2_kind = !why.empty();
      std::string general;
      if (!HfTokenizerFromJsonValue(parsed, file("tokenizer_config.json"), eos, &tokenizer, &general))
        return Fail(error, gpt2_kind ? why : general);  // the messages name the file
    }
  } else if (file("vocab.json") && file("merges.txt")) {
    Gpt2Bpe bpe;
    source = "vocab.json";
    if (!Gpt2FromVocabMerges(*file("vocab.json"), *file("merges.txt"), &bpe, &why)) return Fail(error, why);
    tokenizer = MakeGpt2Tokenizer(std::move(bpe), eos);
  } else {
    return Fail(error, "no tokenizer: expected tokenizer.json, or vocab.json and merges.txt, beside config.json");
  }
  if (tokenizer->size() > vocab)
    return Fail(error, source + ": the tokenizer has ids up to " + std::to_string(tokenizer->size() - 1) +
                           " but the model's vocabulary (config.json's vocab_size) is " + std::to_string(vocab) + " tokens");
  *out = std::move(tokenizer);
  return true;
}

Bundle BundleFromCheckpoint(HfCheckpoint ck, std::shared_ptr<const Tokenizer> tokenizer, std::string config_json) {
  Bundle b;
  b.tokenizer = std::move(tokenizer);
  b.config = ck.config;
  b.params = std::move(ck.params);
  b.format = "huggingface";
  b.dtype = ck.dtype;
  b.file_bytes = ck.file_bytes;
  b.config_json = std::move(config_json);
  return b;
}

}  // namespace model
}  // namespace attn
