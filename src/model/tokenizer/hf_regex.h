// A small backtracking regular-expression engine over code points, for the patterns of Hugging
// Face tokenizer.json files (Split pre-tokenizers, Replace normalizers): std::regex has no
// \p{..}, and the tokenizers library reads these patterns with Oniguruma.
//
// Exactly the syntax the real files use, everything else refused by name when compiled:
//   literals (UTF-8), escaped punctuation, \r \n \t \f \v \a \e, \xHH, \x{H...}, \uHHHH;
//   . (any code point but \n); classes [...] and [^...] of literals, ranges, escapes and
//   \p{..}; \s \S (White_Space, as Oniguruma and Python's regex), \d \D (\p{Nd});
//   \p{X} / \P{X} with X a General_Category (L, Lu, Ll, Lt, Lm, Lo, M, Mn, Mc, Me, N, Nd, Nl,
//   No, P, Pc, Pd, Ps, Pe, Pi, Pf, Po, S, Sm, Sc, Sk, So, Z, Zs, Zl, Zp, C, Cc, Cf, Cs, Co, Cn);
//   alternation |; groups (...) and (?:...) (nothing is captured), (?i:...) (ASCII letters
//   fold, as tokenizers.js reads it; Oniguruma would also fold U+017F ſ to s and U+212A K to
//   k); lookahead (?=...) (?!...); quantifiers ? * + {n} {n,} {n,m} (m <= 1000), greedy or
//   lazy (a trailing ?).
// Refused: anchors, \b \w and the other escapes, lookbehind, atomic groups and possessive
// quantifiers, back-references, POSIX classes, class intersections, inline flags other than
// (?i:, an unbounded repetition of something that can match nothing.
//
// Matching is leftmost, and at each position the first alternative that matches wins, each
// quantifier as long (greedy) or as short (lazy) as the rest allows: Perl's and Oniguruma's
// semantics. The search is bounded: a pattern whose backtracking would take more than about a
// thousand steps per character of the text gives up (Find says so) instead of running for ever.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn {
namespace model {

class HfRegex {
 public:
  // Compiles `pattern` (UTF-8). False with a one-line message (what is not supported and the
  // character where it stands), nothing changed.
  bool Compile(std::string_view pattern, std::string* error = nullptr);

  // The leftmost match in text[from, n) as [*begin, *end) (code point indices), or false when
  // there is none. `budget` is shared by the calls of one pass over a text (Budget(n)); when it
  // runs out Find returns false and sets *gave_up.
  bool Find(const std::vector<char32_t>& text, std::size_t from, std::size_t* begin, std::size_t* end,
            long long* budget, bool* gave_up) const;
  static long long Budget(std::size_t length) { return 100000 + 1000 * static_cast<long long>(length); }

  bool empty() const { return program_.empty(); }

 private:
  struct ClassItem {
    enum Kind : std::uint8_t { kRange, kCategories, kSpace } kind;
    bool negate;
    char32_t lo, hi;       // kRange
    std::uint32_t mask;    // kCategories: bit (1 << Gc)
  };
  struct Class {
    std::vector<ClassItem> items;
    bool negate = false, fold = false;
  };
  enum Op : std::uint8_t { kClass, kSplit, kJmp, kLook, kMatch };
  struct Inst {
    Op op;
    bool negate;   // kLook: (?!
    int x, y;      // kClass: class; kSplit: first choice, second; kJmp: target; kLook: sub-program
  };
  friend class HfRegexParser;

  bool Matches(const Class& c, char32_t cp) const;
  // Runs the program from `pc` at `pos`: true and *end when it reaches kMatch.
  bool Run(int pc, const std::vector<char32_t>& text, std::size_t pos, std::size_t* end, long long* budget) const;

  std::vector<Class> classes_;
  std::vector<Inst> program_;  // the pattern from 0, then the lookaheads' sub-programs
};

}  // namespace model
}  // namespace attn
