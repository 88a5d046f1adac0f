// The text steps of a Hugging Face tokenizer.json before its BPE model (hf_tokenizer.h): the
// normalizers (Prepend, Replace, NFC) and the pre-tokenizers (ByteLevel, Split, Metaspace), as
// the tokenizers library applies them, with their patterns compiled once (hf_regex.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/tokenizer/hf_regex.h"
#include "model/tokenizer/hf_tokenizer.h"

namespace attn {
namespace model {

// One piece of text on its way to the BPE model. at_start: it begins at the text's first byte
// (Metaspace's prepend_scheme "first" prepends only there, as the library's original offset 0).
struct HfPiece {
  std::string text;
  bool at_start = false;
};

class HfTextSteps {
 public:
  // Compiles the steps' patterns; false with "NAME: WHERE's pattern: ..." when one is refused.
  bool Compile(const HfTokenizerSpec& spec, std::string* error);

  // The normalizers in order on `text` (valid UTF-8). False with a message only when a pattern
  // gives up on the text (hf_regex.h's budget).
  bool Normalize(std::string* text, std::string* error) const;
  // The pre-tokenizers in order, each on every piece the last one left; empty pieces dropped.
  bool PreTokenize(std::vector<HfPiece>* pieces, std::string* error) const;

  bool empty_normalizer() const { return normalizers_.empty(); }

 private:
  // All the non-overlapping, non-empty matches of a step's pattern in `text`, as byte ranges.
  bool Matches(const HfPattern& pattern, const HfRegex& regex, const std::string& text,
               std::vector<std::pair<std::size_t, std::size_t>>* found, const std::string& where,
               std::string* error) const;
  bool Split(const HfPreTokenizer& step, const HfRegex& regex, const HfPiece& piece, std::vector<HfPiece>* out,
             std::string* error) const;

  std::string name_;
  std::vector<HfNormalizer> normalizers_;
  std::vector<HfRegex> normalizer_regex_;  // one per normalizer (empty unless a Regex pattern)
  std::vector<HfPreTokenizer> pre_;
  std::vector<HfRegex> pre_regex_;
};

}  // namespace model
}  // namespace attn
