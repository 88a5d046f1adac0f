// Unicode character classes for the pre-tokenizers' regexes: \p{L}, \p{N} and \s in GPT-2's
// (gpt2_pretokenizer.h), and the General_Category that later ones need (\p{Lu}, \p{M}, ...).
//
// The tables are generated at build time from Debian's unicode-data (cmake/unicode_tables.py,
// into the build folder): one run per stretch of code points of one category, looked up by
// binary search. \s follows Python's `regex` module (and Rust's regex, Oniguruma): the
// White_Space property. JavaScript's \s differs on two characters: it also matches U+FEFF and
// does not match U+0085.
#pragma once

#include <cstdint>

namespace attn {
namespace model {

// General_Category values, in UnicodeData.txt's two-letter names (the generated tables spell them).
enum class Gc : std::uint8_t {
  Lu, Ll, Lt, Lm, Lo,          // letters
  Mn, Mc, Me,                  // marks
  Nd, Nl, No,                  // numbers
  Pc, Pd, Ps, Pe, Pi, Pf, Po,  // punctuation
  Sm, Sc, Sk, So,              // symbols
  Zs, Zl, Zp,                  // separators
  Cc, Cf, Cs, Co, Cn,          // control, format, surrogate, private use, unassigned
};

// Cn for unassigned code points and for anything above U+10FFFF.
Gc GeneralCategory(char32_t cp);

bool IsLetter(char32_t cp);      // \p{L}: Lu Ll Lt Lm Lo
bool IsNumber(char32_t cp);      // \p{N}: Nd Nl No
bool IsMark(char32_t cp);        // \p{M}: Mn Mc Me
bool IsWhiteSpace(char32_t cp);  // \s: White_Space (PropList.txt)

// The Unicode version the tables were made from ("15.0.0" with Debian 12's unicode-data).
const char* UnicodeVersion();

}  // namespace model
}  // namespace attn
