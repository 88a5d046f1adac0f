// Unicode Normalization Form C (canonical decomposition, then canonical composition): the
// normalizer "NFC" of Hugging Face tokenizer.json files (Qwen's), as the tokenizers library
// (Rust's unicode-normalization) and JavaScript's String.prototype.normalize compute it.
//
// The tables (canonical decompositions, combining classes, composition exclusions) are
// generated at build time from Debian's unicode-data by cmake/unicode_nfc.py into the build
// folder; Hangul syllables are computed. tests/model/test_hf_tokenizer_nfc.cpp checks every
// line of Unicode's NormalizationTest.txt.
#pragma once

#include <string>
#include <string_view>

namespace attn {
namespace model {

// `text` (valid UTF-8) in NFC. Text without a code point at or above U+0300 is already NFC and
// comes back unchanged without any work.
std::string Nfc(std::string_view text);

// The canonical combining class (0 for starters): what the tests and the composition read.
int CombiningClass(char32_t cp);

}  // namespace model
}  // namespace attn
