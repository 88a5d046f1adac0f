// UTF-8 word tokenizer: validation, a coarse Unicode character classifier, and one pass that
// groups code points into tokens. The rule itself is in tokenizer.h.
#include "engine/text/tokenizer.h"

#include <cstdint>
#include <string>

namespace attn {

// ---------------------------------------------------------------------------------------------
// UTF-8 decoding (RFC 3629, Unicode Table 3-7 "Well-Formed UTF-8 Byte Sequences")

bool DecodeUtf8(std::string_view s, std::size_t& pos, char32_t& cp) {
  if (pos >= s.size()) return false;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(pos);
  if (b0 < 0x80) {
    cp = b0;
    pos += 1;
    return true;
  }
  int len = 0;
  char32_t value = 0;
  // Second-byte bounds rule out overlong forms (E0, F0), surrogates (ED) and > U+10FFFF (F4).
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {  // C0 and C1 could only encode overlong ASCII
    len = 2;
    value = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    value = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;  // below: overlong
    if (b0 == 0xED) hi = 0x9F;  // above: surrogates U+D800..U+DFFF
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    value = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;  // below: overlong
    if (b0 == 0xF4) hi = 0x8F;  // above: > U+10FFFF
  } else {
    return false;  // a stray continuation byte, C0, C1 or F5..FF
  }
  if (pos + static_cast<std::size_t>(len) > s.size()) return false;  // truncated
  for (int k = 1; k < len; ++k) {
    const unsigned char b = byte(pos + static_cast<std::size_t>(k));
    const unsigned char min = (k == 1) ? lo : 0x80;
    const unsigned char max = (k == 1) ? hi : 0xBF;
    if (b < min || b > max) return false;
    value = (value << 6) | (b & 0x3F);
  }
  cp = value;
  pos += static_cast<std::size_t>(len);
  return true;
}

namespace {

// ---------------------------------------------------------------------------------------------
// Character classes. Deliberately coarse: a table of the blocks that are not letters, and
// everything else above U+00BF counts as a letter, so that any script makes words.

using Cls = CharClass;  // tokenizer.h

struct Range {
  char32_t first, last;
  Cls cls;
};

// Sorted, non-overlapping ranges that are not plain letters. Looked up by binary search.
constexpr Range kRanges[] = {
    {0x0000, 0x0008, Cls::kSpace},   // C0 controls
    {0x0009, 0x000D, Cls::kSpace},   // \t \n \v \f \r
    {0x000E, 0x001F, Cls::kSpace},   // C0 controls
    {0x0020, 0x0020, Cls::kSpace},   // space
    {0x0021, 0x0026, Cls::kSymbol},  // ! " # $ % &
    {0x0027, 0x0027, Cls::kInWord},  // '
    {0x0028, 0x002C, Cls::kSymbol},  // ( ) * + ,
    {0x002D, 0x002D, Cls::kInWord},  // -
    {0x002E, 0x002F, Cls::kSymbol},  // . /
    {0x0030, 0x0039, Cls::kDigit},   // 0-9
    {0x003A, 0x0040, Cls::kSymbol},  // : ; < = > ? @
    {0x005B, 0x0060, Cls::kSymbol},  // [ \ ] ^ _ `
    {0x007B, 0x007E, Cls::kSymbol},  // { | } ~
    {0x007F, 0x009F, Cls::kSpace},   // DEL, C1 controls (incl. U+0085 NEL)
    {0x00A0, 0x00A0, Cls::kSpace},   // no-break space
    {0x00A1, 0x00A9, Cls::kSymbol},  // ¡ ¢ £ ¤ ¥ ¦ § ¨ ©
    {0x00AB, 0x00AC, Cls::kSymbol},  // « ¬   (U+00AA ª is a letter)
    {0x00AD, 0x00AD, Cls::kExtend},  // soft hyphen: invisible, keeps "super­cali" one word
    {0x00AE, 0x00B4, Cls::kSymbol},  // ® ¯ ° ± ² ³ ´
    {0x00B6, 0x00B9, Cls::kSymbol},  // ¶ · ¸ ¹   (U+00B5 µ is a letter)
    {0x00BB, 0x00BF, Cls::kSymbol},  // » ¼ ½ ¾ ¿ (U+00BA º is a letter)
    {0x00D7, 0x00D7, Cls::kSymbol},  // ×
    {0x00F7, 0x00F7, Cls::kSymbol},  // ÷
    {0x0300, 0x036F, Cls::kExtend},  // combining diacritical marks
    {0x0375, 0x0375, Cls::kSymbol},  // Greek numeral sign
    {0x037E, 0x037E, Cls::kSymbol},  // Greek question mark
    {0x0384, 0x0385, Cls::kSymbol},  // Greek tonos
    {0x0387, 0x0387, Cls::kSymbol},  // Greek ano teleia
    {0x0482, 0x0482, Cls::kSymbol},  // Cyrillic thousands sign
    {0x0483, 0x0489, Cls::kExtend},  // Cyrillic combining marks (titlo, ...)
    {0x055A, 0x055F, Cls::kSymbol},  // Armenian punctuation
    {0x0589, 0x058A, Cls::kSymbol},  // Armenian full stop, hyphen
    {0x058D, 0x058F, Cls::kSymbol},  // Armenian symbols, dram sign
    {0x0591, 0x05BD, Cls::kExtend},  // Hebrew points
    {0x05BE, 0x05BE, Cls::kSymbol},  // maqaf
    {0x05BF, 0x05BF, Cls::kExtend},
    {0x05C0, 0x05C0, Cls::kSymbol},
    {0x05C1, 0x05C2, Cls::kExtend},
    {0x05C3, 0x05C3, Cls::kSymbol},
    {0x05C4, 0x05C5, Cls::kExtend},
    {0x05C6, 0x05C6, Cls::kSymbol},
    {0x05C7, 0x05C7, Cls::kExtend},
    {0x05F3, 0x05F4, Cls::kSymbol},  // geresh, gershayim
    {0x0600, 0x0605, Cls::kSpace},   // Arabic number signs (format characters)
    {0x0606, 0x060F, Cls::kSymbol},  // Arabic signs, comma, date separator
    {0x0610, 0x061A, Cls::kExtend},  // Arabic marks
    {0x061B, 0x061F, Cls::kSymbol},  // Arabic semicolon, question mark
    {0x064B, 0x065F, Cls::kExtend},  // Arabic harakat
    {0x0660, 0x0669, Cls::kDigit},   // Arabic-Indic digits
    {0x066A, 0x066D, Cls::kSymbol},  // Arabic percent, separators, star
    {0x0670, 0x0670, Cls::kExtend},  // superscript alef
    {0x06D4, 0x06D4, Cls::kSymbol},  // Arabic full stop
    {0x06D6, 0x06DC, Cls::kExtend},
    {0x06DD, 0x06DE, Cls::kSymbol},
    {0x06DF, 0x06E4, Cls::kExtend},
    {0x06E7, 0x06E8, Cls::kExtend},
    {0x06E9, 0x06E9, Cls::kSymbol},
    {0x06EA, 0x06ED, Cls::kExtend},
    {0x06F0, 0x06F9, Cls::kDigit},   // Extended Arabic-Indic digits
    {0x0964, 0x0965, Cls::kSymbol},  // danda, double danda
    {0x0966, 0x096F, Cls::kDigit},   // Devanagari digits
    {0x0E3F, 0x0E3F, Cls::kSymbol},  // Thai baht
    {0x0E4F, 0x0E4F, Cls::kSymbol},
    {0x0E50, 0x0E59, Cls::kDigit},  // Thai digits
    {0x0E5A, 0x0E5B, Cls::kSymbol},
    {0x1680, 0x1680, Cls::kSpace},   // Ogham space mark
    {0x1AB0, 0x1AFF, Cls::kExtend},  // combining diacritical marks extended
    {0x1DC0, 0x1DFF, Cls::kExtend},  // combining diacritical marks supplement
    {0x2000, 0x200B, Cls::kSpace},   // en quad .. zero-width space
    {0x200C, 0x200C, Cls::kExtend},  // ZWNJ: invisible, stays inside (Persian) words
    {0x200D, 0x200D, Cls::kJoiner},  // ZWJ
    {0x200E, 0x200F, Cls::kSpace},   // LRM, RLM
    {0x2010, 0x2010, Cls::kInWord},  // hyphen
    {0x2011, 0x2018, Cls::kSymbol},  // dashes, quotes
    {0x2019, 0x2019, Cls::kInWord},  // right single quotation mark, the typographic apostrophe
    {0x201A, 0x2027, Cls::kSymbol},
    {0x2028, 0x2029, Cls::kSpace},  // line and paragraph separators
    {0x202A, 0x202E, Cls::kSpace},  // bidi embeddings
    {0x202F, 0x202F, Cls::kSpace},  // narrow no-break space
    {0x2030, 0x205E, Cls::kSymbol},
    {0x205F, 0x205F, Cls::kSpace},   // medium mathematical space
    {0x2060, 0x206F, Cls::kSpace},   // word joiner, invisible operators, bidi isolates
    {0x2070, 0x20CF, Cls::kSymbol},  // super/subscripts, currency
    {0x20D0, 0x20FF, Cls::kExtend},  // combining marks for symbols (incl. U+20E3 keycap)
    {0x2100, 0x2BFF, Cls::kSymbol},  // letterlike .. arrows, maths, dingbats, emoji 2600-27BF
    {0x2CE5, 0x2CEA, Cls::kSymbol},  // Coptic symbols
    {0x2CEF, 0x2CF1, Cls::kExtend},  // Coptic marks
    {0x2CF9, 0x2CFF, Cls::kSymbol},  // Coptic punctuation
    {0x2DE0, 0x2DFF, Cls::kExtend},  // Cyrillic Extended-A (combining)
    {0x2E00, 0x2E7F, Cls::kSymbol},  // supplemental punctuation
    {0x2E80, 0x2FFF, Cls::kSymbol},  // CJK and Kangxi radicals, ideographic description
    {0x3000, 0x3000, Cls::kSpace},   // ideographic space
    {0x3001, 0x3004, Cls::kSymbol},  // 、 。 〃 〄   (U+3005..3007 々 〆 〇 are letters)
    {0x3008, 0x3020, Cls::kSymbol},  // brackets, postal marks
    {0x3021, 0x3029, Cls::kLetter},  // Hangzhou numerals (letter numbers)
    {0x302A, 0x302F, Cls::kExtend},  // ideographic tone marks
    {0x3030, 0x3030, Cls::kSymbol},  // wavy dash
    {0x3031, 0x3035, Cls::kLetter},  // kana repeat marks
    {0x3036, 0x3037, Cls::kSymbol},
    {0x3038, 0x303C, Cls::kLetter},
    {0x303D, 0x303F, Cls::kSymbol},
    {0x3099, 0x309A, Cls::kExtend},  // combining kana voicing marks
    {0x309B, 0x309C, Cls::kSymbol},
    {0x30A0, 0x30A0, Cls::kSymbol},  // katakana double hyphen
    {0x30FB, 0x30FB, Cls::kSymbol},  // katakana middle dot
    {0x3190, 0x319F, Cls::kSymbol},  // kanbun
    {0x31C0, 0x31EF, Cls::kSymbol},  // CJK strokes
    {0x3200, 0x33FF, Cls::kSymbol},  // enclosed CJK, CJK compatibility
    {0x4DC0, 0x4DFF, Cls::kSymbol},  // Yijing hexagrams
    {0xA490, 0xA4CF, Cls::kSymbol},  // Yi radicals
    {0xD800, 0xDFFF, Cls::kSymbol},  // surrogates (unreachable: refused by DecodeUtf8)
    {0xE000, 0xF8FF, Cls::kSymbol},  // private use
    {0xFD3E, 0xFD3F, Cls::kSymbol},  // ornate parentheses
    {0xFDFC, 0xFDFF, Cls::kSymbol},
    {0xFE00, 0xFE0F, Cls::kExtend},  // variation selectors (VS16 makes an emoji)
    {0xFE10, 0xFE1F, Cls::kSymbol},  // vertical forms
    {0xFE20, 0xFE2F, Cls::kExtend},  // combining half marks
    {0xFE30, 0xFE6F, Cls::kSymbol},  // CJK compatibility forms, small forms
    {0xFEFF, 0xFEFF, Cls::kSpace},   // BOM / zero-width no-break space
    {0xFF00, 0xFF0F, Cls::kSymbol},  // fullwidth ! " # ... /
    {0xFF10, 0xFF19, Cls::kDigit},   // fullwidth digits
    {0xFF1A, 0xFF20, Cls::kSymbol},  // fullwidth : ; < = > ? @
    {0xFF3B, 0xFF40, Cls::kSymbol},  // fullwidth [ \ ] ^ _ `
    {0xFF5B, 0xFF65, Cls::kSymbol},  // fullwidth { | } ~, halfwidth CJK punctuation
    {0xFFE0, 0xFFEF, Cls::kSymbol},  // fullwidth signs
    {0xFFF0, 0xFFF8, Cls::kSymbol},
    {0xFFF9, 0xFFFB, Cls::kSpace},       // interlinear annotation controls
    {0xFFFC, 0xFFFF, Cls::kSymbol},      // object replacement, U+FFFD, non-characters
    {0x1D000, 0x1D3FF, Cls::kSymbol},    // musical, Tai Xuan Jing, counting rod symbols
    {0x1F000, 0x1F1E5, Cls::kSymbol},    // mahjong, cards, enclosed alphanumerics
    {0x1F1E6, 0x1F1FF, Cls::kRegional},  // regional indicators: flags are pairs
    {0x1F200, 0x1F3FA, Cls::kSymbol},    // emoji
    {0x1F3FB, 0x1F3FF, Cls::kExtend},    // skin-tone modifiers
    {0x1F400, 0x1FBFF, Cls::kSymbol},    // emoji, symbols, legacy computing
    {0xE0000, 0xE0000, Cls::kSymbol},
    {0xE0001, 0xE007F, Cls::kExtend},   // tags (subdivision flags such as England's)
    {0xE0100, 0xE01EF, Cls::kExtend},   // variation selectors supplement
    {0xF0000, 0x10FFFF, Cls::kSymbol},  // supplementary private use
};

Cls Classify(char32_t cp) {  // ClassifyCodePoint, inlined for Tokenize's loop
  if (cp < 0x80) {  // fast path; agrees with the table
    if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) return Cls::kLetter;
  }
  std::size_t lo = 0, hi = sizeof(kRanges) / sizeof(kRanges[0]);  // search [lo, hi)
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (cp < kRanges[mid].first) {
      hi = mid;
    } else if (cp > kRanges[mid].last) {
      lo = mid + 1;
    } else {
      return kRanges[mid].cls;
    }
  }
  return Cls::kLetter;
}

struct CodePoint {
  char32_t cp;
  std::size_t begin, end;  // byte offsets
  Cls cls;
};

std::string Str(std::size_t n) { return std::to_string(n); }

TokenizeResult Fail(TokenizeError error, std::size_t detail, std::string message) {
  TokenizeResult r;
  r.error = error;
  r.detail = detail;
  r.message = std::move(message);
  return r;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

CharClass ClassifyCodePoint(char32_t cp) { return Classify(cp); }

TokenizeResult Tokenize(std::string_view utf8) {
  if (utf8.size() > kMaxSentenceBytes) {
    return Fail(TokenizeError::kTooLong, utf8.size(),
                "the sentence is " + Str(utf8.size()) + " bytes long; the lab takes at most " +
                    Str(kMaxSentenceBytes));
  }

  // Pass 1: decode and classify everything, so that pass 2 can look one code point ahead.
  std::vector<CodePoint> cps;
  cps.reserve(utf8.size());
  for (std::size_t pos = 0; pos < utf8.size();) {
    const std::size_t begin = pos;
    char32_t cp = 0;
    if (!DecodeUtf8(utf8, pos, cp)) {
      return Fail(TokenizeError::kInvalidUtf8, begin,
                  "the sentence is not valid UTF-8 (bad byte at offset " + Str(begin) + ")");
    }
    cps.push_back({cp, begin, pos, Classify(cp)});
  }

  // Pass 2: group. A token is open from its first code point until a space or a code point that
  // cannot continue it. `base` is the class of its last code point that was not an extender,
  // which decides whether a letter continues it.
  std::vector<Token> tokens;
  bool open = false;
  Cls base = Cls::kSymbol;
  bool join_next = false;      // the previous code point was a ZWJ
  bool lone_regional = false;  // the token's last base is a regional indicator still unpaired
  const auto start = [&](const CodePoint& c, bool is_word) {
    tokens.push_back({std::string(), c.begin, c.end, is_word});
    open = true;
  };
  const auto extend = [&](const CodePoint& c) { tokens.back().byte_end = c.end; };
  const auto is_wordish = [](Cls c) { return c == Cls::kLetter || c == Cls::kDigit; };

  for (std::size_t i = 0; i < cps.size(); ++i) {
    const CodePoint& c = cps[i];
    if (c.cls == Cls::kSpace) {
      open = false;
      join_next = false;
      continue;
    }
    if (open && join_next) {  // ZWJ sequence: whatever follows the joiner belongs to the token
      extend(c);
      join_next = (c.cls == Cls::kJoiner);
      if (c.cls != Cls::kExtend && c.cls != Cls::kJoiner) {
        base = c.cls;
        lone_regional = (c.cls == Cls::kRegional);
      }
      continue;
    }
    switch (c.cls) {
      case Cls::kLetter:
      case Cls::kDigit:
        if (open && is_wordish(base)) {
          extend(c);
        } else {
          start(c, true);
        }
        base = c.cls;
        lone_regional = false;
        break;
      case Cls::kInWord:
        // Only between two letters: "don't", "кто-то", but "3-4" and "-x" split.
        if (open && base == Cls::kLetter && i + 1 < cps.size() && cps[i + 1].cls == Cls::kLetter) {
          extend(c);
          extend(cps[i + 1]);
          ++i;
        } else {
          start(c, false);
          base = Cls::kSymbol;
        }
        lone_regional = false;
        break;
      case Cls::kExtend:
      case Cls::kJoiner:
        if (open) {
          extend(c);
        } else {  // a mark after a space has nothing to attach to: it stands alone
          start(c, false);
          base = Cls::kSymbol;
          lone_regional = false;
        }
        join_next = (c.cls == Cls::kJoiner);
        break;
      case Cls::kRegional:
        if (open && lone_regional) {  // the second letter of a flag
          extend(c);
          lone_regional = false;
        } else {
          start(c, false);
          lone_regional = true;
        }
        base = Cls::kRegional;
        break;
      case Cls::kSymbol:
      case Cls::kSpace:  // handled above
        start(c, false);
        base = Cls::kSymbol;
        lone_regional = false;
        break;
    }
  }

  if (tokens.empty()) {
    return Fail(
        TokenizeError::kEmpty, 0,
        utf8.empty() ? "the sentence is empty" : "the sentence has no words, only whitespace");
  }
  if (tokens.size() > kMaxTokens) {
    return Fail(TokenizeError::kTooManyTokens, tokens.size(),
                "the sentence has " + Str(tokens.size()) + " tokens; the lab takes at most " +
                    Str(kMaxTokens));
  }
  for (Token& t : tokens)
    t.text = std::string(utf8.substr(t.byte_begin, t.byte_end - t.byte_begin));
  TokenizeResult result;
  result.tokens = std::move(tokens);
  return result;
}

}  // namespace attn
