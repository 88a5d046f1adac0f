// NFC (model/tokenizer/unicode_nfc.h) against every line of Unicode's NormalizationTest.txt
// (Debian's unicode-data; its source and NFC columns, written into the build folder by
// cmake/unicode_nfc.py), and what Russian text needs: й and ё composed, the rest untouched.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "engine/text/tokenizer.h"  // DecodeUtf8
#include "model/tokenizer/unicode_nfc.h"

using namespace attn::model;

namespace {

std::string Utf8(const std::string& hex_list) {  // "0041 0301" -> its UTF-8
  std::istringstream in(hex_list);
  std::string out, hex;
  while (in >> hex) {
    const char32_t cp = static_cast<char32_t>(std::stoul(hex, nullptr, 16));
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("nfc: every line of NormalizationTest.txt") {
  std::ifstream f(ATTNLAB_NFC_TESTS);
  REQUIRE_MESSAGE(f.good(), ATTNLAB_NFC_TESTS);
  std::string line;
  int lines = 0, wrong = 0;
  std::string first_wrong;
  while (std::getline(f, line)) {
    const std::size_t semi = line.find(';');
    if (semi == std::string::npos) continue;
    const std::string source = Utf8(line.substr(0, semi)), nfc = Utf8(line.substr(semi + 1));
    ++lines;
    if (Nfc(source) != nfc && wrong++ == 0) first_wrong = line;
  }
  CHECK(lines > 18000);
  CHECK_MESSAGE(wrong == 0, first_wrong);
}

TEST_CASE("nfc: Russian and ASCII text pass as they are; decomposed й and ё are composed") {
  CHECK(Nfc("I love sushi") == "I love sushi");
  CHECK(Nfc("я люблю суши") == "я люблю суши");
  CHECK(Nfc("\xD0\xB8\xCC\x86") == "\xD0\xB9");  // и + U+0306 -> й
  CHECK(Nfc("\xD0\xB5\xCC\x88") == "\xD1\x91");  // е + U+0308 -> ё
  CHECK(Nfc("e\xCC\x81") == "\xC3\xA9");          // e + U+0301 -> é
  CHECK(Nfc("\xE1\x84\x80\xE1\x85\xA1") == "\xEA\xB0\x80");  // Hangul L + V -> 가
  CHECK(CombiningClass(0x0301) == 230);
  CHECK(CombiningClass('a') == 0);
}
