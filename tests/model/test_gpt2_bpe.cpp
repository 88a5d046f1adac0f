// GPT-2's byte-level BPE (model/tokenizer/gpt2_bpe.h) on hand-checked cases, without any npm
// file: the byte symbols, the Unicode classes, the pre-tokenizer (its expected pieces were checked
// with Python's `regex` and GPT-2's pattern), merges on a toy vocabulary, added tokens, readable
// tokens and every refusal of Load. The files: test_gpt2_bpe_files.cpp; GPT-2's real
// vocabulary: test_gpt2_bpe_real.cpp.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "model/tokenizer/gpt2_bpe.h"
#include "model/tokenizer/gpt2_pretokenizer.h"
#include "model/tokenizer/unicode_classes.h"
#include "gpt2_symbols.h"

using namespace attn::model;

namespace {

std::vector<std::string> Gpt2Pieces(const std::string& text) {
  std::vector<Chunk> chunks;
  std::string error;
  REQUIRE_MESSAGE(Gpt2PreTokenize(text, &chunks, &error), error);
  std::vector<std::string> out;
  for (const Chunk& c : chunks) out.push_back(text.substr(c.begin, c.end - c.begin));
  return out;
}

// A toy vocabulary: byte b is id b, then each merge's result (if new) in merge order from 256.
struct Toy {
  std::vector<std::pair<std::string, int>> vocab;
  std::vector<std::pair<std::string, std::string>> merges;
};
Toy MakeToy(const std::vector<std::pair<std::string, std::string>>& merges) {
  Toy t;
  for (int b = 0; b < 256; ++b) t.vocab.emplace_back(Gpt2Sym(static_cast<unsigned char>(b)), b);
  for (const auto& [l, r] : merges) {
    bool known = false;
    for (const auto& [token, id] : t.vocab) known = known || token == l + r;
    if (!known) t.vocab.emplace_back(l + r, static_cast<int>(t.vocab.size()));
  }
  t.merges = merges;
  return t;
}

Gpt2Bpe LoadToy(const Toy& t, const std::vector<Gpt2AddedToken>& added = {}) {
  Gpt2Bpe bpe;
  std::string error;
  REQUIRE_MESSAGE(bpe.Load(t.vocab, t.merges, added, &error), error);
  return bpe;
}

std::vector<std::string> ToyTokens(const Gpt2Bpe& bpe, const std::string& text) {
  std::vector<int> ids;
  std::string error;
  REQUIRE_MESSAGE(bpe.Encode(text, &ids, &error), error);
  std::string back;
  REQUIRE(bpe.Decode(ids, &back, &error));
  CHECK(back == text);  // every encoding round-trips
  std::vector<std::string> out;
  for (int id : ids) out.push_back(bpe.Token(id));
  return out;
}

std::string ToyLoadError(const Toy& t, const std::vector<Gpt2AddedToken>& added = {}) {
  Gpt2Bpe bpe;
  std::string error;
  CHECK_FALSE(bpe.Load(t.vocab, t.merges, added, &error));
  return error;
}

}  // namespace

TEST_CASE("gpt2 bpe: the 256 bytes have distinct printable symbols, as encoder.py's bytes_to_unicode") {
  CHECK(Gpt2ByteSymbol('A') == U'A');
  CHECK(Gpt2ByteSymbol('!') == U'!');
  CHECK(Gpt2ByteSymbol(0xA1) == 0xA1);
  CHECK(Gpt2ByteSymbol(0x00) == 0x100);
  CHECK(Gpt2ByteSymbol('\n') == 0x10A);  // "Ċ"
  CHECK(Gpt2ByteSymbol(' ') == 0x120);   // "Ġ"
  CHECK(Gpt2ByteSymbol(0x7F) == 0x121);
  CHECK(Gpt2ByteSymbol(0xA0) == 0x142);
  CHECK(Gpt2ByteSymbol(0xAD) == 0x143);  // the last stand-in
  for (int b = 0; b < 256; ++b) CHECK(Gpt2SymbolByte(Gpt2ByteSymbol(static_cast<unsigned char>(b))) == b);
  for (char32_t c : {char32_t{0x20}, char32_t{0x7F}, char32_t{0xA0}, char32_t{0xAD}, char32_t{0x144}, char32_t{0x410}})
    CHECK(Gpt2SymbolByte(c) == -1);  // bytes that have a stand-in, and code points beyond
}

TEST_CASE("gpt2 bpe: a quoted token stays on one line") {
  CHECK(Gpt2Quoted("plain Ġ й") == "\"plain Ġ й\"");
  CHECK(Gpt2Quoted("a\"b\\c\nd\te\x01\x7F") == "\"a\\\"b\\\\c\\nd\\te\\u0001\\u007F\"");
  CHECK(Gpt2Quoted("x\u2028y\u2029z\u0085w") == "\"x\\u2028y\\u2029z\\u0085w\"");
  CHECK(Gpt2Quoted("\xE2\x80") == "\"\xE2\x80\"");  // a cut character is left as it is
}

TEST_CASE("gpt2 bpe: Unicode classes follow General_Category and White_Space") {
  CHECK(std::string(UnicodeVersion()).size() >= 5);
  for (char32_t c : {U'a', U'Z', U'я', U'Ё', U'世', U'ß', U'ǅ', U'ʰ', char32_t{0x1D400}}) CHECK(IsLetter(c));
  for (char32_t c : {U'1', U'_', U' ', char32_t{0x301}, U'😀'}) CHECK_FALSE(IsLetter(c));
  for (char32_t c : {U'0', U'٣', U'Ⅻ', U'½', U'²'}) CHECK(IsNumber(c));
  for (char32_t c : {0x09u, 0x0Du, 0x20u, 0x85u, 0xA0u, 0x1680u, 0x2000u, 0x200Au, 0x2028u, 0x3000u}) CHECK(IsWhiteSpace(c));
  for (char32_t c : {0x08u, 0x0Eu, 0x1Cu, 0x1Fu, 0x200Bu, 0xFEFFu, 0x180Eu, 0x41u}) CHECK_FALSE(IsWhiteSpace(c));
  CHECK(GeneralCategory(0x0301) == Gc::Mn);
  CHECK(IsMark(0x0301));
  CHECK(GeneralCategory(0xE000) == Gc::Co);
  CHECK(GeneralCategory(0xD800) == Gc::Cs);
  CHECK(GeneralCategory(0x0378) == Gc::Cn);    // unassigned
  CHECK(GeneralCategory(0x10FFFF) == Gc::Cn);  // a noncharacter
  CHECK(GeneralCategory(0x110000) == Gc::Cn);  // beyond Unicode
  CHECK(GeneralCategory(0) == Gc::Cc);
  CHECK(GeneralCategory(0x4E00) == Gc::Lo);  // inside a "First>..Last>" range of UnicodeData.txt
  CHECK(GeneralCategory(0x9FFF) == Gc::Lo);
}

TEST_CASE("gpt2 bpe: the pre-tokenizer cuts as GPT-2's regex does") {
  struct Case {
    std::string text;
    std::vector<std::string> pieces;
  };
  const std::vector<Case> cases = {
      {"", {}},
      {"Hello world", {"Hello", " world"}},
      {"a  b", {"a", " ", " b"}},          // the run's last space goes with the word
      {"end   ", {"end", "   "}},          // at the end the whole run
      {"  Hello", {" ", " Hello"}},
      {"   ", {"   "}},
      {" ", {" "}},
      {"it's we'll I'M IT'S 'sup", {"it", "'s", " we", "'ll", " I", "'", "M", " IT", "'", "S", " '", "sup"}},
      {"''s", {"''", "s"}},
      {"a\n\nb", {"a", "\n", "\n", "b"}},  // only an ASCII space joins a word
      {"x\t y", {"x", "\t", " y"}},
      {"12abc 34", {"12", "abc", " 34"}},
      {"!!! ok ?!", {"!!!", " ok", " ?!"}},
      {"e\xCC\x81 x", {"e", "\xCC\x81", " x"}},              // a combining mark is not a letter
      {"\xE2\x85\xAB\xC2\xBD" "7", {"\xE2\x85\xAB\xC2\xBD" "7"}},  // Ⅻ½7: numbers of three kinds
      {"Привет, мир!", {"Привет", ",", " мир", "!"}},
      {"我爱寿司。", {"我爱寿司", "。"}},
      {"a\xC2\xA0" "b", {"a", "\xC2\xA0", "b"}},                 // no-break space: white space
      // White_Space, not JavaScript's \s: U+0085 is white space, U+FEFF is not
      {"a \xC2\x85" "b", {"a", " ", "\xC2\x85", "b"}},
      {"a \xEF\xBB\xBF" "b", {"a", " \xEF\xBB\xBF", "b"}},
  };
  for (const Case& c : cases) {
    INFO("text: \"" << c.text << "\"");
    CHECK(Gpt2Pieces(c.text) == c.pieces);
  }
  std::vector<Chunk> chunks;
  std::string error;
  CHECK_FALSE(Gpt2PreTokenize("ok \xC3", &chunks, &error));
  CHECK(error == "gpt2 tokenizer: invalid UTF-8 at byte 3");
}

TEST_CASE("gpt2 bpe: merges by rank, every occurrence left to right, within each piece") {
  const Toy toy = MakeToy({{"a", "b"}, {"ab", "c"}, {kGpt2Space, "a"}, {"a", "a"}, {kGpt2Space + "a", "b"}});
  const Gpt2Bpe bpe = LoadToy(toy);
  CHECK(bpe.size() == 256 + 5);
  CHECK(ToyTokens(bpe, "abc") == std::vector<std::string>{"abc"});
  CHECK(ToyTokens(bpe, "abab") == std::vector<std::string>{"ab", "ab"});
  CHECK(ToyTokens(bpe, "aaa") == std::vector<std::string>{"aa", "a"});  // left to right
  CHECK(ToyTokens(bpe, "aaaa") == std::vector<std::string>{"aa", "aa"});
  // (a, b) ranks before (Ġ, a): " ab" becomes "Ġ" "ab", and (Ġ, ab) is no merge
  CHECK(ToyTokens(bpe, " ab") == std::vector<std::string>{kGpt2Space, "ab"});
  CHECK(ToyTokens(bpe, " ac") == std::vector<std::string>{kGpt2Space + "a", "c"});
  CHECK(ToyTokens(bpe, "ab ab") == std::vector<std::string>{"ab", kGpt2Space, "ab"});
  CHECK(ToyTokens(bpe, "a\nb") == std::vector<std::string>{"a", Gpt2Sym('\n'), "b"});  // merges never cross pieces
  CHECK(ToyTokens(bpe, "").empty());
  std::vector<int> ids;
  std::string error;
  REQUIRE(bpe.Encode(std::string(5000, 'a'), &ids, &error));  // a long word: n log n, not n^2
  CHECK(ids.size() == 2500);
}

TEST_CASE("gpt2 bpe: a pair that a merge creates waits until the pass of the lower rank ends (encoder.py)") {
  // (ab, a) ranks before (a, b), which makes it: encoder.py merges every "a b" of "abab" in one
  // pass and then finds no "ab a"; merging "ab a" as soon as it appears would give "aba" "b".
  const Gpt2Bpe bpe = LoadToy(MakeToy({{"ab", "a"}, {"a", "b"}}));
  CHECK(ToyTokens(bpe, "abab") == std::vector<std::string>{"ab", "ab"});
  CHECK(ToyTokens(bpe, "aba") == std::vector<std::string>{"aba"});
}

TEST_CASE("gpt2 bpe: bytes of a character split over tokens decode exactly and read as <0xNN>") {
  const Toy toy = MakeToy({{Gpt2Sym(0xC3), Gpt2Sym(0xA9)}, {Gpt2Sym(0xE2), Gpt2Sym(0x80)}});  // "é"; the first 2 bytes of "—"
  const Gpt2Bpe bpe = LoadToy(toy);
  // "c" "a" "f" "é" | "Ġ" "\xE2\x80" "\x94" | "Ġ" "o" "k" | "\n"
  CHECK(ToyTokens(bpe, "café — ok\n").size() == 11);
  const int e_acute = bpe.Id(Gpt2Sym(0xC3) + Gpt2Sym(0xA9));
  const int dash_head = bpe.Id(Gpt2Sym(0xE2) + Gpt2Sym(0x80));
  CHECK(bpe.Readable(e_acute) == "é");
  CHECK(bpe.Readable(dash_head) == "<0xE2><0x80>");
  CHECK(bpe.Readable(0x94) == "<0x94>");
  CHECK(bpe.Readable(' ') == " ");
  CHECK(bpe.Readable('\n') == "<0x0A>");  // control characters as bytes too
  CHECK(bpe.Readable(0x7F) == "<0x7F>");
  CHECK(bpe.Readable(-1) == "<no token -1>");
  CHECK(bpe.Readable(12345) == "<no token 12345>");
  std::string bytes, error;
  CHECK(bpe.Decode({dash_head, 0x94}, &bytes, &error));
  CHECK(bytes == "\xE2\x80\x94");
  CHECK(bpe.Decode({0xFF}, &bytes, &error));  // a lone byte that is no UTF-8: decoded as it is
  CHECK(bytes == "\xFF");
  CHECK_FALSE(bpe.Decode({1, 99999}, &bytes, &error));
  CHECK(error == "gpt2 tokenizer: id 99999 (position 1) names no token");
}

TEST_CASE("gpt2 bpe: invalid UTF-8 is refused with its byte, never encoded") {
  const Gpt2Bpe bpe = LoadToy(MakeToy({}));
  for (const auto& [text, at] : std::vector<std::pair<std::string, int>>{
           {"ab\xFF", 2}, {"\xC0\xAF", 0}, {"x\xED\xA0\x80", 1}, {"ok \xE2\x80", 3}, {"\x80", 0}}) {
    std::vector<int> ids = {7};
    std::string error;
    CHECK_FALSE(bpe.Encode(text, &ids, &error));
    CHECK(error == "gpt2 tokenizer: invalid UTF-8 at byte " + std::to_string(at));
    CHECK(ids.empty());
  }
}

TEST_CASE("gpt2 bpe: added tokens are found before pre-tokenization, leftmost then longest") {
  const Toy toy = MakeToy({{kGpt2Space, "a"}});
  const std::vector<Gpt2AddedToken> added = {
      {"<|endoftext|>", 300, true}, {"<x>", 301, false}, {"<x>y", 302, false}, {"bc", 303, false}, {"abcd", 304, false}};
  const Gpt2Bpe bpe = LoadToy(toy, added);
  CHECK(bpe.IsSpecial(300));
  CHECK_FALSE(bpe.IsSpecial(301));
  CHECK(bpe.Id("<|endoftext|>") == 300);
  std::vector<int> ids;
  std::string error;
  REQUIRE(bpe.Encode("a<|endoftext|> a", &ids, &error));
  CHECK(ids == std::vector<int>{'a', 300, bpe.Id(kGpt2Space + "a")});  // " a" after it is a piece of its own
  REQUIRE(bpe.Encode("<x>yz", &ids, &error));
  CHECK(ids == std::vector<int>{302, 'z'});  // longest at one place
  REQUIRE(bpe.Encode("zabcd", &ids, &error));
  CHECK(ids == std::vector<int>{'z', 304});  // leftmost first, even though "bc" is shorter
  REQUIRE(bpe.Encode("<|endoftext|><|endoftext|>", &ids, &error));
  CHECK(ids == std::vector<int>{300, 300});
  REQUIRE(bpe.EncodeOrdinary("a<x>", &ids, &error));
  CHECK(ids == std::vector<int>{'a', '<', 'x', '>'});
  std::string text;
  REQUIRE(bpe.Decode({'a', 300, 302}, &text, &error));
  CHECK(text == "a<|endoftext|><x>y");
  CHECK(bpe.Readable(300) == "<|endoftext|>");
}

TEST_CASE("gpt2 bpe: Load refuses a broken vocabulary, merges or added tokens, and keeps what it had") {
  Toy t = MakeToy({{"a", "b"}});
  Gpt2Bpe bpe = LoadToy(t);
  Toy no_byte = t;
  no_byte.vocab.erase(no_byte.vocab.begin() + 'q');
  CHECK(ToyLoadError(no_byte) == "vocabulary: no token for the byte 0x71 (\"q\"): not a byte-level vocabulary");
  Toy twice = t;
  twice.vocab.emplace_back("a", 400);
  CHECK(ToyLoadError(twice) == "vocabulary: token \"a\" appears twice");
  Toy same_id = t;
  same_id.vocab.emplace_back("zz", 5);
  CHECK(ToyLoadError(same_id) == "vocabulary: id 5 is given to both \"" + Gpt2Sym(5) + "\" and \"zz\"");
  Toy negative = t;
  negative.vocab.emplace_back("zz", -3);
  CHECK(ToyLoadError(negative) == "vocabulary: token \"zz\" has the negative id -3");
  Toy huge = t;
  huge.vocab.emplace_back("zz", Gpt2Bpe::kMaxId + 1);
  CHECK(ToyLoadError(huge) == "vocabulary: id 1048576 is above 1048575");
  Toy empty_token = t;
  empty_token.vocab.emplace_back("", 300);
  CHECK(ToyLoadError(empty_token) == "vocabulary: a token is the empty string");
  Toy unknown_part = t;
  unknown_part.merges.emplace_back("ab", "zz");
  CHECK(ToyLoadError(unknown_part) == "merges: merge 2 \"ab zz\": \"zz\" is not in the vocabulary");
  Toy no_result = t;
  no_result.merges.emplace_back("b", "a");
  CHECK(ToyLoadError(no_result) == "merges: merge 2 \"b a\": the merged token \"ba\" is not in the vocabulary");
  Toy repeated = t;
  repeated.merges.emplace_back("a", "b");
  CHECK(ToyLoadError(repeated) == "merges: merge 2 \"a b\" appears twice");
  CHECK(ToyLoadError(t, {{"", 300, true}}) == "added tokens: an added token is the empty string");
  CHECK(ToyLoadError(t, {{"<s>", 300, true}, {"<s>", 301, true}}) == "added tokens: \"<s>\" is added twice");
  CHECK(ToyLoadError(t, {{"ab", 300, true}}) == "added tokens: \"ab\" has id 300 but is token 256 of the vocabulary");
  CHECK(ToyLoadError(t, {{"<s>", 256, true}}) == "added tokens: \"<s>\" has id 256, which is \"ab\"");
  CHECK(ToyLoadError(t, {{"<s>", -1, true}}) == "added tokens: \"<s>\" has the negative id -1");
  CHECK(ToyLoadError(Toy{}) == "vocabulary: the vocabulary is empty");
  Toy line_break = t;  // a token with a line break still gives a one-line message
  line_break.vocab.emplace_back("\norma", 5);
  CHECK(ToyLoadError(line_break) == "vocabulary: id 5 is given to both \"" + Gpt2Sym(5) + "\" and \"\\norma\"");
  std::string error;
  CHECK_FALSE(bpe.Load(repeated.vocab, repeated.merges, {}, &error));
  CHECK(bpe.size() == 257);  // unchanged
  CHECK(ToyTokens(bpe, "ab") == std::vector<std::string>{"ab"});
}
