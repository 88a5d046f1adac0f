// NFC (unicode_nfc.h): the standard algorithm (UAX #15) on the generated tables.
#include "model/tokenizer/unicode_nfc.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "engine/text/tokenizer.h"               // DecodeUtf8
#include "model/tokenizer/unicode_nfc_data.h"  // generated in the build folder (cmake/unicode_nfc.py)

namespace attn {
namespace model {

namespace {

// Hangul syllables: S = SBase + (L * VCount + V) * TCount + T (Unicode's chapter 3.12).
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

constexpr std::uint64_t kMask21 = (1u << 21) - 1;

const std::uint64_t* FindDecomposition(char32_t cp) {
  const std::uint64_t* begin = std::begin(unicode_nfc::kDecompositions);
  const std::uint64_t* end = std::end(unicode_nfc::kDecompositions);
  const auto it = std::lower_bound(begin, end, cp, [](std::uint64_t w, char32_t c) {
    return ((w >> 42) & kMask21) < c;
  });
  return it != end && ((*it >> 42) & kMask21) == cp ? it : nullptr;
}

void Decompose(char32_t cp, std::vector<char32_t>* out) {
  if (cp >= kSBase && cp < kSBase + kSCount) {
    const char32_t s = cp - kSBase;
    out->push_back(kLBase + s / kNCount);
    out->push_back(kVBase + (s % kNCount) / kTCount);
    if (s % kTCount) out->push_back(kTBase + s % kTCount);
    return;
  }
  const std::uint64_t* d = FindDecomposition(cp);
  if (!d) {
    out->push_back(cp);
    return;
  }
  Decompose(static_cast<char32_t>((*d >> 21) & kMask21), out);  // decompositions nest a few levels at most
  if (const char32_t second = static_cast<char32_t>(*d & kMask21)) Decompose(second, out);
}

// The pairs that compose, (first << 21 | second) -> composite, sorted: built once from the
// decompositions marked as composing.
const std::vector<std::pair<std::uint64_t, char32_t>>& Compositions() {
  static const std::vector<std::pair<std::uint64_t, char32_t>> table = [] {
    std::vector<std::pair<std::uint64_t, char32_t>> t;
    for (const std::uint64_t w : unicode_nfc::kDecompositions)
      if (w >> 63) t.emplace_back(w & ((kMask21 << 21) | kMask21), static_cast<char32_t>((w >> 42) & kMask21));
    std::sort(t.begin(), t.end());
    return t;
  }();
  return table;
}

// The composite of (first, second), or 0.
char32_t Compose(char32_t first, char32_t second) {
  if (first >= kLBase && first < kLBase + kLCount && second >= kVBase && second < kVBase + kVCount)
    return kSBase + ((first - kLBase) * kVCount + (second - kVBase)) * kTCount;
  if (first >= kSBase && first < kSBase + kSCount && (first - kSBase) % kTCount == 0 && second > kTBase &&
      second < kTBase + kTCount)
    return first + (second - kTBase);
  const auto& t = Compositions();
  const std::uint64_t key = (static_cast<std::uint64_t>(first) << 21) | second;
  const auto it = std::lower_bound(t.begin(), t.end(), std::make_pair(key, char32_t{0}));
  return it != t.end() && it->first == key ? it->second : 0;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

int CombiningClass(char32_t cp) {
  if (cp < 0x300 || cp > 0x10FFFF) return 0;
  const std::uint32_t* begin = std::begin(unicode_nfc::kCombiningRuns);
  const std::uint32_t* end = std::end(unicode_nfc::kCombiningRuns);
  const std::uint32_t* run = std::upper_bound(begin, end, (static_cast<std::uint32_t>(cp) << 8) | 0xFFu) - 1;
  return static_cast<int>(*run & 0xFFu);
}

std::string Nfc(std::string_view text) {
  bool plain = true;  // below U+0300 nothing combines, and what decomposes composes back
  for (const char c : text) plain = plain && static_cast<unsigned char>(c) < 0xCC;
  if (plain) return std::string(text);
  // 1. full canonical decomposition
  std::vector<char32_t> cps;
  for (std::size_t pos = 0; pos < text.size();) {
    char32_t cp;
    if (!DecodeUtf8(text, pos, cp)) return std::string(text);  // callers pass valid UTF-8
    Decompose(cp, &cps);
  }
  // 2. canonical order: each run of non-starters sorted by class, stably
  for (std::size_t i = 0; i < cps.size();) {
    if (CombiningClass(cps[i]) == 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < cps.size() && CombiningClass(cps[j]) != 0) ++j;
    std::stable_sort(cps.begin() + static_cast<std::ptrdiff_t>(i), cps.begin() + static_cast<std::ptrdiff_t>(j),
                     [](char32_t a, char32_t b) { return CombiningClass(a) < CombiningClass(b); });
    i = j;
  }
  // 3. canonical composition: each character with the last starter, unless a character between
  // them blocks it (same or higher class, or a starter)
  std::size_t starter = 0, kept = 0;
  int last_class = 256;  // no starter yet: everything is blocked
  for (std::size_t i = 0; i < cps.size(); ++i) {
    const char32_t cp = cps[i];
    const int cc = CombiningClass(cp);
    if (last_class < cc || last_class == 0) {  // 0: cp follows the starter directly
      if (const char32_t c = Compose(cps[starter], cp)) {
        cps[starter] = c;
        continue;  // absorbed: the last kept character's class stays
      }
    }
    if (cc == 0) starter = kept;
    last_class = cc;
    cps[kept++] = cp;
  }
  cps.resize(kept);
  std::string out;
  out.reserve(text.size());
  for (const char32_t cp : cps) AppendUtf8(cp, &out);
  return out;
}

}  // namespace model
}  // namespace attn
