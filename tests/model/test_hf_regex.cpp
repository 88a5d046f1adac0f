// The tokenizers' regular expressions (model/tokenizer/hf_regex.h): Llama 3's and Qwen's
// pre-tokenizer patterns cut texts as Oniguruma does (pieces worked out by hand, alternative by
// alternative), the syntax around them, each refusal by name, and the bounded search.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/text/tokenizer.h"  // DecodeUtf8
#include "model/tokenizer/hf_regex.h"

using namespace attn::model;

namespace {

const char* kLlama3 =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const char* kQwen =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

std::vector<char32_t> Cps(const std::string& s) {
  std::vector<char32_t> out;
  for (std::size_t pos = 0; pos < s.size();) {
    char32_t cp;
    REQUIRE(attn::DecodeUtf8(s, pos, cp));
    out.push_back(cp);
  }
  return out;
}

std::string Utf8Of(const std::vector<char32_t>& cps, std::size_t b, std::size_t e) {
  std::string out;
  for (std::size_t i = b; i < e; ++i) {
    const char32_t cp = cps[i];
    if (cp < 0x80) out += static_cast<char>(cp);
    else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { out += static_cast<char>(0xE0 | (cp >> 12)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
    else { out += static_cast<char>(0xF0 | (cp >> 18)); out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
  }
  return out;
}

// The successive matches of `pattern` in `text` (find_iter).
std::vector<std::string> Matches(const char* pattern, const std::string& text) {
  HfRegex re;
  std::string error;
  INFO(error);
  REQUIRE(re.Compile(pattern, &error));
  const std::vector<char32_t> cps = Cps(text);
  long long budget = HfRegex::Budget(cps.size());
  std::vector<std::string> out;
  std::size_t from = 0, b, e;
  bool gave_up = false;
  while (from <= cps.size() && re.Find(cps, from, &b, &e, &budget, &gave_up)) {
    if (e == b) { from = b + 1; continue; }
    out.push_back(Utf8Of(cps, b, e));
    from = e;
  }
  CHECK_FALSE(gave_up);
  return out;
}

std::string Refusal(const char* pattern) {
  HfRegex re;
  std::string error;
  return re.Compile(pattern, &error) ? std::string() : error;
}

}  // namespace

TEST_CASE("hf regex: Llama 3's pattern cuts a text alternative by alternative") {
  CHECK(Matches(kLlama3, "Hello, world!  It's 12345 ok\n\n x") ==
        std::vector<std::string>{"Hello", ",", " world", "!", " ", " It", "'s", " ", "123", "45", " ok", "\n\n", " x"});
  CHECK(Matches(kLlama3, "IT'S DON'T we'Ll") == std::vector<std::string>{"IT", "'S", " DON", "'T", " we", "'Ll"});
  CHECK(Matches(kLlama3, "я люблю суши") == std::vector<std::string>{"я", " люблю", " суши"});
  CHECK(Matches(kLlama3, "a\t\tb\r\n\r\nc  \n") == std::vector<std::string>{"a", "\t", "\tb", "\r\n\r\n", "c", "  \n"});
  CHECK(Matches(kLlama3, "(x) -- \xF0\x9F\x98\x80!\n") == std::vector<std::string>{"(x", ")", " --", " \xF0\x9F\x98\x80!\n"});
  CHECK(Matches(kQwen, "12345") == std::vector<std::string>{"1", "2", "3", "4", "5"});
}

TEST_CASE("hf regex: classes, escapes, quantifiers, laziness, lookahead") {
  CHECK(Matches(R"([a-c]+|\d)", "abcd12") == std::vector<std::string>{"abc", "1", "2"});
  CHECK(Matches(R"([^a-c\s]+)", "abxy zz") == std::vector<std::string>{"xy", "zz"});
  CHECK(Matches(R"(a{2}|b{1,}|c{,2})", "aaabbbccc") == std::vector<std::string>{"aa", "bbb", "cc", "c"});
  CHECK(Matches(R"(a+?)", "aaa") == std::vector<std::string>{"a", "a", "a"});
  CHECK(Matches(R"(a(?=b))", "aab") == std::vector<std::string>{"a"});
  CHECK(Matches(R"(\x41\x{42}\u0043)", "ABC") == std::vector<std::string>{"ABC"});
  CHECK(Matches(R"(\p{Lu}\p{Ll}+)", "Hello World") == std::vector<std::string>{"Hello", "World"});
  CHECK(Matches(R"(\P{L}+)", "ab12!c") == std::vector<std::string>{"12!"});
  CHECK(Matches(R"(.+)", "ab\ncd") == std::vector<std::string>{"ab", "cd"});
  CHECK(Matches(R"((?i:[a-c]+))", "AbCd") == std::vector<std::string>{"AbC"});
  CHECK(Matches(R"(\.|\{|x{)", ".{x{") == std::vector<std::string>{".", "{", "x{"});
}

TEST_CASE("hf regex: what it does not implement is refused by name") {
  CHECK(Refusal(R"(\w+)") == "the escape \\w is not supported (at character 1 of the pattern)");
  CHECK(Refusal(R"(^a)") == "the anchor ^ is not supported (at character 1 of the pattern)");
  CHECK(Refusal(R"((?<=a)b)") == "the group \"(?<\" is not supported (at character 1 of the pattern)");
  CHECK(Refusal(R"(a++)") == "a quantifier right after another (possessive or nested quantifiers) is not supported (at character 3 of the pattern)");
  CHECK(Refusal(R"([[:alpha:]])") == "a class inside a class (or a POSIX class) is not supported (at character 2 of the pattern)");
  CHECK(Refusal(R"(\p{Han})") == "the class \\p{Han} is not supported (only General_Category names such as L, Lu, N, P) (at character 1 of the pattern)");
  CHECK(Refusal(R"((a*)*)") == "an unbounded repetition of something that can match nothing is not supported (at character 6 of the pattern)");
  CHECK(Refusal(R"((ab)") == "( is never closed (at character 1 of the pattern)");
  CHECK(Refusal(R"([ab)") == "[ is never closed (at character 1 of the pattern)");
  CHECK(Refusal(R"(ab))") == ") without its ( (at character 3 of the pattern)");
  CHECK(Refusal(R"(*a)") == "* with nothing to repeat (at character 1 of the pattern)");
  CHECK(Refusal(R"(a{2000})") == "a repetition count above 1000 is not supported (at character 2 of the pattern)");
}

TEST_CASE("hf regex: a pattern that backtracks without end gives up instead of running on") {
  HfRegex re;
  REQUIRE(re.Compile(R"((a|a)+b)"));
  const std::vector<char32_t> text(40, U'a');
  long long budget = HfRegex::Budget(text.size());
  std::size_t b, e;
  bool gave_up = false;
  CHECK_FALSE(re.Find(text, 0, &b, &e, &budget, &gave_up));
  CHECK(gave_up);
}
