#include "model/tokenizer/unicode_classes.h"

#include <algorithm>
#include <cstddef>
#include <iterator>

#include "model/tokenizer/unicode_data.h"  // generated in the build folder (cmake/unicode_tables.py)

namespace attn {
namespace model {

Gc GeneralCategory(char32_t cp) {
  if (cp > 0x10FFFF) return Gc::Cn;
  const std::uint32_t* begin = std::begin(unicode_data::kCategoryRuns);
  const std::uint32_t* end = std::end(unicode_data::kCategoryRuns);
  // The last run whose first code point is <= cp: every run with a larger first code point
  // compares greater than (cp << 5) | 31.
  const std::uint32_t key = (static_cast<std::uint32_t>(cp) << 5) | 31u;
  const std::uint32_t* run = std::upper_bound(begin, end, key) - 1;  // the first run is U+0000
  return static_cast<Gc>(*run & 31u);
}

bool IsLetter(char32_t cp) {
  if (cp < 0x80) return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';  // the common case, no search
  const Gc c = GeneralCategory(cp);
  return c == Gc::Lu || c == Gc::Ll || c == Gc::Lt || c == Gc::Lm || c == Gc::Lo;
}

bool IsNumber(char32_t cp) {
  if (cp < 0x80) return cp >= '0' && cp <= '9';
  const Gc c = GeneralCategory(cp);
  return c == Gc::Nd || c == Gc::Nl || c == Gc::No;
}

bool IsMark(char32_t cp) {
  const Gc c = GeneralCategory(cp);
  return c == Gc::Mn || c == Gc::Mc || c == Gc::Me;
}

bool IsWhiteSpace(char32_t cp) {
  for (const auto& range : unicode_data::kWhiteSpace) {  // 11 ranges
    if (cp < range[0]) return false;
    if (cp <= range[1]) return true;
  }
  return false;
}

const char* UnicodeVersion() { return unicode_data::kVersion; }

}  // namespace model
}  // namespace attn
