#include "model/tokenizer/gpt2_pretokenizer.h"

#include <cstdint>

#include "engine/text/tokenizer.h"  // DecodeUtf8
#include "model/tokenizer/unicode_classes.h"

namespace attn {
namespace model {

namespace {

enum class Kind : std::uint8_t { kLetter, kNumber, kSpace, kOther };

Kind KindOf(char32_t cp) {
  if (IsLetter(cp)) return Kind::kLetter;
  if (IsNumber(cp)) return Kind::kNumber;
  if (IsWhiteSpace(cp)) return Kind::kSpace;
  return Kind::kOther;
}

// Length in code points of the contraction at cps[i] (alternative 1), or 0.
std::size_t Contraction(const std::vector<char32_t>& cps, std::size_t i) {
  if (cps[i] != U'\'' || i + 1 >= cps.size()) return 0;
  const char32_t a = cps[i + 1];
  if (a == U's' || a == U't' || a == U'm' || a == U'd') return 2;
  if (i + 2 >= cps.size()) return 0;
  const char32_t b = cps[i + 2];
  if ((a == U'r' && b == U'e') || (a == U'v' && b == U'e') || (a == U'l' && b == U'l')) return 3;
  return 0;
}

}  // namespace

bool Gpt2PreTokenize(std::string_view text, std::vector<Chunk>* pieces, std::string* error) {
  pieces->clear();
  // The code points, their kinds, and where each starts in bytes (offset[n] = text.size()).
  std::vector<char32_t> cps;
  std::vector<Kind> kinds;
  std::vector<std::size_t> offset;
  for (std::size_t pos = 0; pos < text.size();) {
    offset.push_back(pos);
    char32_t cp;
    if (!DecodeUtf8(text, pos, cp)) {
      if (error) *error = "gpt2 tokenizer: invalid UTF-8 at byte " + std::to_string(offset.back());
      pieces->clear();
      return false;
    }
    cps.push_back(cp);
    kinds.push_back(KindOf(cp));
  }
  const std::size_t n = cps.size();
  offset.push_back(text.size());
  const auto run_end = [&](std::size_t j, Kind kind) {  // the end of the run of `kind` from j
    while (j < n && kinds[j] == kind) ++j;
    return j;
  };

  for (std::size_t i = 0; i < n;) {
    std::size_t end = i + Contraction(cps, i);                             // 1
    if (end == i) {
      if (cps[i] == U' ' && i + 1 < n && kinds[i + 1] != Kind::kSpace) {
        end = run_end(i + 1, kinds[i + 1]);                                // 2-4 with the space
      } else if (kinds[i] != Kind::kSpace) {
        end = run_end(i, kinds[i]);                                        // 2-4
      } else {
        end = run_end(i, Kind::kSpace);
        if (end < n && end - i > 1) --end;                                 // 5 (else 6)
      }
    }
    pieces->push_back({offset[i], offset[end]});
    i = end;
  }
  return true;
}

}  // namespace model
}  // namespace attn
