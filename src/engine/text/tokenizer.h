// UTF-8 word tokenizer for the lab's sentences.
//
// The rule (also in docs/maths.md):
//   * the input must be valid UTF-8 and at most kMaxSentenceBytes bytes long;
//   * whitespace of any kind (ASCII spaces, tabs, newlines, NBSP, the Unicode spaces U+2000..U+200B,
//     U+3000, U+FEFF, ...) and control characters separate tokens and are dropped;
//   * a word is a run of letters and digits of any script (Latin, Cyrillic, Greek, ...); combining
//     marks stay with the letter before them; an apostrophe (' or ’) or a hyphen between two letters
//     stays inside the word ("don't", "кто-то");
//   * every other character (punctuation, symbols, emoji) is a token of its own; a zero-width
//     joiner or variation selector keeps an emoji sequence together;
//   * at most kMaxTokens tokens: beyond that the sentence is refused, not cut.
#pragma once

#include "engine/base/limits.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// kMaxTokens, kMaxSentenceBytes: limits.h

struct Token {
  std::string text;        // the token's UTF-8 bytes
  std::size_t byte_begin;  // offset in the input, inclusive
  std::size_t byte_end;    // offset in the input, exclusive
  bool is_word;            // letters/digits (true) or a punctuation/symbol token (false)
};

enum class TokenizeError {
  kNone,
  kEmpty,         // no tokens at all (empty or only whitespace)
  kInvalidUtf8,   // detail = byte offset of the first bad byte
  kTooLong,       // detail = byte length
  kTooManyTokens  // detail = number of tokens found
};

struct TokenizeResult {
  std::vector<Token> tokens;  // empty unless error == kNone
  TokenizeError error = TokenizeError::kNone;
  std::size_t detail = 0;
  std::string message;  // English, one line; empty when ok
  bool ok() const { return error == TokenizeError::kNone; }
};

TokenizeResult Tokenize(std::string_view utf8);

// The rule's classes of code points (tokenizer.cpp's table, coarse by design: every code point
// above U+00BF that the table does not list is a letter). Public so that a writer of the same rule
// in another form (model/tokenizer/bpe_hf.cpp: the rule as a regular expression) reads the one table.
enum class CharClass {
  kSpace,     // whitespace, control and invisible format characters: separate, dropped
  kLetter,    // letters of any script
  kDigit,     // digits: make words like letters, but do not hold an apostrophe or hyphen
  kInWord,    // ' ’ - ‐: inside a word when between two letters, else a symbol
  kExtend,    // combining marks, variation selectors, tags, skin tones: join the previous token
  kJoiner,    // U+200D ZWJ: joins the previous token, and the next code point joins too
  kRegional,  // regional indicator letters: two make one flag
  kSymbol     // punctuation, symbols, emoji: one token each
};
CharClass ClassifyCodePoint(char32_t cp);

// Decodes one code point at `pos`; returns false on invalid UTF-8 (overlong, surrogate,
// > U+10FFFF, truncated). On success advances `pos` past it.
bool DecodeUtf8(std::string_view s, std::size_t& pos, char32_t& cp);

}  // namespace attn
