// Tokenizer: the rule in tokenizer.h, case by case. Source is UTF-8; invisible characters are
// written as \u escapes so that the test reads unambiguously.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/text/tokenizer.h"

using attn::Tokenize;
using attn::TokenizeError;
using attn::TokenizeResult;

namespace {

std::vector<std::string> Texts(const TokenizeResult& r) {
  std::vector<std::string> out;
  for (const attn::Token& t : r.tokens) out.push_back(t.text);
  return out;
}

std::vector<std::string> Words(std::initializer_list<const char*> list) {
  return std::vector<std::string>(list.begin(), list.end());
}

// Every token's text must be exactly its byte range of the input.
void CheckOffsets(const std::string& input, const TokenizeResult& r) {
  for (const attn::Token& t : r.tokens) {
    REQUIRE(t.byte_begin < t.byte_end);
    REQUIRE(t.byte_end <= input.size());
    CHECK(input.substr(t.byte_begin, t.byte_end - t.byte_begin) == t.text);
  }
}

}  // namespace

TEST_CASE("tokenizer: the seed sentence has three Cyrillic words") {
  const std::string s = "я люблю суши";
  const TokenizeResult r = Tokenize(s);
  REQUIRE(r.ok());
  CHECK(r.message.empty());
  CHECK(Texts(r) == Words({"я", "люблю", "суши"}));
  // я is 2 bytes, then a space, люблю 10 bytes, a space, суши 8 bytes.
  REQUIRE(r.tokens.size() == 3);
  CHECK(r.tokens[0].byte_begin == 0);
  CHECK(r.tokens[0].byte_end == 2);
  CHECK(r.tokens[1].byte_begin == 3);
  CHECK(r.tokens[1].byte_end == 13);
  CHECK(r.tokens[2].byte_begin == 14);
  CHECK(r.tokens[2].byte_end == 22);
  for (const attn::Token& t : r.tokens) CHECK(t.is_word);
}

TEST_CASE("tokenizer: guillemets and punctuation are tokens of their own") {
  const std::string s = "«я люблю суши»";
  const TokenizeResult r = Tokenize(s);
  REQUIRE(r.ok());
  CHECK(Texts(r) == Words({"«", "я", "люблю", "суши", "»"}));
  CHECK_FALSE(r.tokens.front().is_word);
  CHECK_FALSE(r.tokens.back().is_word);
  CheckOffsets(s, r);
}

TEST_CASE("tokenizer: mixed Latin and Cyrillic with punctuation") {
  const std::string s = "Привет, world!";
  const TokenizeResult r = Tokenize(s);
  REQUIRE(r.ok());
  CHECK(Texts(r) == Words({"Привет", ",", "world", "!"}));
  REQUIRE(r.tokens.size() == 4);
  CHECK(r.tokens[0].is_word);
  CHECK_FALSE(r.tokens[1].is_word);
  CHECK(r.tokens[2].is_word);
  CHECK_FALSE(r.tokens[3].is_word);
  // Привет is 12 bytes; the comma follows it directly; "world" starts after ", ".
  CHECK(r.tokens[1].byte_begin == 12);
  CHECK(r.tokens[1].byte_end == 13);
  CHECK(r.tokens[2].byte_begin == 14);
  CHECK(r.tokens[3].byte_begin == 19);
  CheckOffsets(s, r);
}

TEST_CASE("tokenizer: letters and digits of any script make words") {
  CHECK(Texts(Tokenize("abc123 42, x2")) == Words({"abc123", "42", ",", "x2"}));
  CHECK(Texts(Tokenize("Καλημέρα κόσμε")) == Words({"Καλημέρα", "κόσμε"}));
  CHECK(Texts(Tokenize("Straße ÆØÅ ĳ")) == Words({"Straße", "ÆØÅ", "ĳ"}));
  CHECK(Texts(Tokenize("2×3÷4")) == Words({"2", "×", "3", "÷", "4"}));
  // CJK is written without spaces: a run of ideographs is one token (no dictionary here).
  CHECK(Texts(Tokenize("日本語、人々。")) == Words({"日本語", "、", "人々", "。"}));
  CHECK(Texts(Tokenize("ＡＢ１２！")) == Words({"ＡＢ１２", "！"}));
}

TEST_CASE("tokenizer: messy whitespace separates and is dropped") {
  // tab, space, NBSP, ideographic space, newlines, em space, zero-width space, BOM
  const std::string s = "\t я\u00A0люблю\u3000суши\n\r\n \u2003\u200B\uFEFF";
  const TokenizeResult r = Tokenize(s);
  REQUIRE(r.ok());
  CHECK(Texts(r) == Words({"я", "люблю", "суши"}));
  REQUIRE(r.tokens.size() == 3);
  CHECK(r.tokens[0].byte_begin == 2);   // after "\t "
  CHECK(r.tokens[1].byte_begin == 6);   // after я (2) and NBSP (2)
  CHECK(r.tokens[2].byte_begin == 19);  // after люблю (10) and U+3000 (3)
  CHECK(r.tokens[2].byte_end == 27);
  CheckOffsets(s, r);

  // Zero-width space and BOM split words even though nothing is visible.
  CHECK(Texts(Tokenize("a\u200Bb\uFEFFc")) == Words({"a", "b", "c"}));
  // Control characters separate too.
  CHECK(Texts(Tokenize(std::string("a\x01") + "b\x7F" + "c")) == Words({"a", "b", "c"}));
  CHECK(Texts(Tokenize(std::string("a\0b", 3))) == Words({"a", "b"}));
}

TEST_CASE("tokenizer: apostrophes and hyphens between two letters stay in the word") {
  CHECK(Texts(Tokenize("don't")) == Words({"don't"}));
  CHECK(Texts(Tokenize("don’t")) == Words({"don’t"}));
  CHECK(Texts(Tokenize("кто-то")) == Words({"кто-то"}));
  CHECK(Texts(Tokenize("кто‐то")) == Words({"кто‐то"}));  // U+2010 hyphen
  CHECK(Texts(Tokenize("rock'n'roll")) == Words({"rock'n'roll"}));
  CHECK(Texts(Tokenize("Jean-Luc's")) == Words({"Jean-Luc's"}));
  // Not between two letters: a token of its own.
  CHECK(Texts(Tokenize("'quoted'")) == Words({"'", "quoted", "'"}));
  CHECK(Texts(Tokenize("well- done")) == Words({"well", "-", "done"}));
  CHECK(Texts(Tokenize("-x")) == Words({"-", "x"}));
  CHECK(Texts(Tokenize("a--b")) == Words({"a", "-", "-", "b"}));
  CHECK(Texts(Tokenize("3-4")) == Words({"3", "-", "4"}));  // digits, not letters
  CHECK(Texts(Tokenize("a-1")) == Words({"a", "-", "1"}));
  CHECK(Texts(Tokenize("3-D 90's")) == Words({"3", "-", "D", "90", "'", "s"}));
  CHECK(Texts(Tokenize("x—y")) == Words({"x", "—", "y"}));  // an em dash is punctuation
  const TokenizeResult r = Tokenize("кто-то пришёл");
  REQUIRE(r.tokens.size() == 2);
  CHECK(r.tokens[0].is_word);
  CHECK(r.tokens[0].byte_end == 11);  // 5 Cyrillic letters (10 bytes) and '-' (1)
}

TEST_CASE("tokenizer: combining marks stay with the letter before them") {
  // e + U+0301 COMBINING ACUTE ACCENT: decomposed "café" is one word of 6 bytes.
  const std::string cafe = "cafe\u0301";
  const TokenizeResult r = Tokenize(cafe + " ok");
  REQUIRE(r.ok());
  CHECK(Texts(r) == Words({cafe.c_str(), "ok"}));
  CHECK(r.tokens[0].byte_end == 6);
  CHECK(r.tokens[0].is_word);
  // A stress mark on Cyrillic, in the middle of the word and at its end.
  CHECK(Texts(Tokenize("сту\u0301дент моя\u0301")) == Words({"сту\u0301дент", "моя\u0301"}));
  // Several marks in a row.
  CHECK(Texts(Tokenize("a\u0308\u0301b c")) == Words({"a\u0308\u0301b", "c"}));
  // A mark with no letter before it stands alone rather than vanishing.
  CHECK(Texts(Tokenize("\u0301a")) == Words({"\u0301", "a"}));
}

TEST_CASE("tokenizer: emoji are tokens, ZWJ sequences stay together") {
  const std::string heart = "\u2764\uFE0F";  // HEAVY BLACK HEART + VARIATION SELECTOR-16
  const std::string sushi = "\U0001F363";
  const TokenizeResult r = Tokenize("я " + heart + " суши " + sushi + "!");
  REQUIRE(r.ok());
  CHECK(Texts(r) == Words({"я", heart.c_str(), "суши", sushi.c_str(), "!"}));
  REQUIRE(r.tokens.size() == 5);
  CHECK_FALSE(r.tokens[1].is_word);
  CHECK(r.tokens[1].byte_end - r.tokens[1].byte_begin == 6);  // U+2764 (3) + U+FE0F (3)
  CHECK_FALSE(r.tokens[3].is_word);

  // man ZWJ woman ZWJ girl ZWJ boy: 4 emoji of 4 bytes and 3 joiners of 3 bytes.
  const std::string family = "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466";
  const TokenizeResult f = Tokenize("a " + family + " b");
  REQUIRE(f.ok());
  CHECK(Texts(f) == Words({"a", family.c_str(), "b"}));
  CHECK(f.tokens[1].byte_end - f.tokens[1].byte_begin == 25);
  CHECK_FALSE(f.tokens[1].is_word);

  const std::string thumb = "\U0001F44D", medium = "\U0001F3FD";  // skin-tone modifier
  CHECK(Texts(Tokenize(thumb + medium + thumb)) ==
        Words({(thumb + medium).c_str(), thumb.c_str()}));
  CHECK(Texts(Tokenize(sushi + sushi)) == Words({sushi.c_str(), sushi.c_str()}));
  // Regional indicators pair up into flags: R U, J P.
  const std::string ru = "\U0001F1F7\U0001F1FA", jp = "\U0001F1EF\U0001F1F5";
  CHECK(Texts(Tokenize(ru + jp)) == Words({ru.c_str(), jp.c_str()}));
  CHECK(Texts(Tokenize("суши" + sushi)) == Words({"суши", sushi.c_str()}));
  // Keycap: '1' + VS16 + U+20E3 COMBINING ENCLOSING KEYCAP stays one token.
  CHECK(Texts(Tokenize("1\uFE0F\u20E3 x")) == Words({"1\uFE0F\u20E3", "x"}));
}

TEST_CASE("tokenizer: invalid UTF-8 is refused with the offset of the bad sequence") {
  struct Case {
    const char* name;
    std::string bytes;
    std::size_t offset;
  };
  const Case cases[] = {
      {"stray continuation byte", std::string("a\x80") + "b", 1},
      {"overlong 2-byte '/'", "ok \xC0\xAF", 3},
      {"overlong 2-byte with C1", "\xC1\xBF", 0},
      {"overlong 3-byte", "ab\xE0\x80\x80", 2},
      {"overlong 4-byte", "\xF0\x80\x80\x80", 0},
      {"surrogate U+D800", "я\xED\xA0\x80", 2},
      {"surrogate U+DFFF", "\xED\xBF\xBF", 0},
      {"above U+10FFFF", "\xF4\x90\x80\x80", 0},
      {"F5 lead byte", "\xF5\x80\x80\x80", 0},
      {"FF byte", "x\xFF", 1},
      {"truncated at the end", "ab\xE2\x82", 2},
      {"truncated before ASCII", std::string("\xE2\x82") + "a", 0},
      {"truncated 4-byte", "\xF0\x9F\x8D", 0},
      {"lead byte then lead byte", "\xD0\xD0\xB1", 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const TokenizeResult r = Tokenize(c.bytes);
    CHECK(r.error == TokenizeError::kInvalidUtf8);
    CHECK(r.detail == c.offset);
    CHECK(r.tokens.empty());
    CHECK(r.message.find("UTF-8") != std::string::npos);
    CHECK(r.message.find('\n') == std::string::npos);
  }
}

TEST_CASE("tokenizer: DecodeUtf8 at the boundaries of each length") {
  struct Case {
    std::string bytes;
    char32_t cp;
  };
  const Case cases[] = {
      {std::string("\0", 1), 0x0},
      {"\x7F", 0x7F},
      {"\xC2\x80", 0x80},
      {"\xDF\xBF", 0x7FF},
      {"\xE0\xA0\x80", 0x800},
      {"\xED\x9F\xBF", 0xD7FF},
      {"\xEE\x80\x80", 0xE000},
      {"\xEF\xBF\xBF", 0xFFFF},
      {"\xF0\x90\x80\x80", 0x10000},
      {"\xF4\x8F\xBF\xBF", 0x10FFFF},
  };
  for (const Case& c : cases) {
    std::size_t pos = 0;
    char32_t cp = 0xFFFFFFFF;
    CAPTURE(static_cast<unsigned long>(c.cp));
    REQUIRE(attn::DecodeUtf8(c.bytes, pos, cp));
    CHECK(cp == c.cp);
    CHECK(pos == c.bytes.size());
  }
  // Decoding continues from pos; failure leaves pos on the bad byte.
  const std::string s = "я\x80";
  std::size_t pos = 0;
  char32_t cp = 0;
  REQUIRE(attn::DecodeUtf8(s, pos, cp));
  CHECK(cp == 0x44F);
  CHECK(pos == 2);
  CHECK_FALSE(attn::DecodeUtf8(s, pos, cp));
  CHECK(pos == 2);
  pos = 3;
  CHECK_FALSE(attn::DecodeUtf8(s, pos, cp));  // past the end
}

TEST_CASE("tokenizer: empty and whitespace-only sentences are refused") {
  for (const std::string& s : {std::string(), std::string("   "), std::string("\t\n\r\n"),
                               std::string("\u00A0\u3000\u200B\uFEFF")}) {
    const TokenizeResult r = Tokenize(s);
    CHECK(r.error == TokenizeError::kEmpty);
    CHECK_FALSE(r.ok());
    CHECK_FALSE(r.message.empty());
    CHECK(r.tokens.empty());
  }
}

TEST_CASE("tokenizer: 64 tokens are accepted, 65 refused, not cut") {
  std::string s;
  for (int i = 0; i < 64; ++i) s += (i % 2 ? "слово " : "word ");
  const TokenizeResult ok = Tokenize(s);
  REQUIRE(ok.ok());
  CHECK(ok.tokens.size() == attn::kMaxTokens);

  const TokenizeResult over = Tokenize(s + "x");
  CHECK(over.error == TokenizeError::kTooManyTokens);
  CHECK(over.detail == 65);
  CHECK(over.tokens.empty());
  CHECK(over.message == "the sentence has 65 tokens; the lab takes at most 64");

  // Punctuation counts: 32 words with a comma each is 64 tokens, one more period is 65.
  std::string p;
  for (int i = 0; i < 32; ++i) p += "a, ";
  CHECK(Tokenize(p).ok());
  CHECK(Tokenize(p + ".").error == TokenizeError::kTooManyTokens);

  std::string many;
  for (int i = 0; i < 500; ++i) many += "w ";
  const TokenizeResult r500 = Tokenize(many);
  CHECK(r500.error == TokenizeError::kTooManyTokens);
  CHECK(r500.detail >= attn::kMaxTokens + 1);
}

TEST_CASE("tokenizer: more than kMaxSentenceBytes bytes is refused") {
  const std::string longest(attn::kMaxSentenceBytes, 'a');  // one 4096-letter word
  const TokenizeResult ok = Tokenize(longest);
  REQUIRE(ok.ok());
  CHECK(ok.tokens.size() == 1);

  const TokenizeResult r = Tokenize(longest + "a");
  CHECK(r.error == TokenizeError::kTooLong);
  CHECK(r.detail == attn::kMaxSentenceBytes + 1);
  CHECK(r.message == "the sentence is 4097 bytes long; the lab takes at most 4096");
}
