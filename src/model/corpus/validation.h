// The validation text a shipped run was scored on, rebuilt from the run's own configuration
// (config.json's "run": the fortune folders and, when it read them, the manuals' documents):
// what `attnlab model eval|heads` and the shipped model's test score.
#pragma once
#include "model/format/bundle.h"
#include "model/corpus/corpus.h"
#include "model/corpus/evaluate.h"

#include <string>
#include <vector>

namespace attn {
namespace model {

// Per language all of it (en, ru) and, when the run read documents, its fortunes alone
// (fortunes_en, fortunes_ru: eval.json's rows fortunesEn, fortunesRu).
struct Validation {
  TokenStream en, ru, fortunes_en, fortunes_ru;
  bool with_docs = false;
};

// A folder of the run's configuration: as written (absolute, or relative to the working folder),
// else relative to the repository that holds the model's folder `dir` (dir/../..: web/model).
std::string RunFolder(const std::string& folder, const std::string& dir);

// The run's validation entries as text, in the corpus's order (corpus.h): what LoadValidation
// encodes, and what scripts/hf_tokenizer_check.sh compares tokenizers on (`attnlab model encode
// DIR --validation`). `dir` is the bundle's folder.
bool LoadValidationEntries(const Bundle& b, const std::string& dir, std::vector<CorpusEntry>* entries,
                           bool* with_docs, std::string* error);

// Reads the run's text (fortunes, documents), splits it as training did and encodes the four
// streams with the bundle's tokenizer. `dir` is the bundle's folder.
bool LoadValidation(const Bundle& b, const std::string& dir, Validation* v, std::string* error);

}  // namespace model
}  // namespace attn
