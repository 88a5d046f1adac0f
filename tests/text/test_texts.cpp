// Every string of the lab, read from the headers of src/text/ themselves (so a new string, or a new
// file of strings, is checked without being listed here): the English and the Russian take the same printf arguments in the same
// order, and the Russian uses the terms of Russian ML courses.
#include "text/i18n.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef ATTNLAB_TEXT_DIR
#error "ATTNLAB_TEXT_DIR must name src/text"
#endif

namespace {

struct Entry {
  std::string name;
  std::vector<std::string> parts;  // en, ru (Text) or en one, en other, ru one, few, many (Plural)
};

// The `inline constexpr Text kName{"...", "..."};` (and Plural) definitions: string literals
// (adjacent ones joined) separated by commas.
std::vector<Entry> ReadTexts(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  std::vector<Entry> out;
  for (const char* kind : {"inline constexpr Text ", "inline constexpr Plural "}) {
    for (std::size_t at = s.find(kind); at != std::string::npos; at = s.find(kind, at + 1)) {
      Entry e;
      std::size_t i = at + std::string(kind).size();
      while (s[i] != '{') e.name += s[i++];
      std::string current;
      bool have = false;
      for (; i < s.size() && s.compare(i, 2, "};") != 0; ++i) {
        if (s[i] == '"') {
          for (++i; s[i] != '"'; ++i) {
            if (s[i] == '\\') current += s[i++];
            current += s[i];
          }
          have = true;
        } else if (s[i] == ',' && have) {
          e.parts.push_back(current);
          current.clear();
          have = false;
        }
      }
      if (have) e.parts.push_back(current);
      out.push_back(e);
    }
  }
  return out;
}

// The printf conversions of a format, in order ("%s", "%d", "%.1f" -> "s", "d", "f"); "%%" is none.
std::string Conversions(const std::string& f) {
  std::string out;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') continue;
    if (i + 1 < f.size() && f[i + 1] == '%') { ++i; continue; }
    std::size_t j = i + 1;
    while (j < f.size() && std::string("-+ #0123456789.*hlLqjzt").find(f[j]) != std::string::npos) ++j;
    if (j < f.size()) out += f.substr(i + 1, j - i);  // flags and length too: "lld" vs "d" differ
    out += ' ';
    i = j;
  }
  return out;
}

// The definitions of every header of src/text/.
std::vector<Entry> ReadAllTexts() {
  std::vector<std::string> headers;
  for (const auto& f : std::filesystem::directory_iterator(ATTNLAB_TEXT_DIR))
    if (f.path().extension() == ".h") headers.push_back(f.path().string());
  std::sort(headers.begin(), headers.end());
  std::vector<Entry> out;
  for (const std::string& h : headers) {
    std::vector<Entry> some = ReadTexts(h);
    out.insert(out.end(), some.begin(), some.end());
  }
  return out;
}

}  // namespace

TEST_CASE("every Text takes the same printf arguments in English and Russian") {
  const std::vector<Entry> texts = ReadAllTexts();
  REQUIRE(texts.size() > 150);
  int checked = 0;
  for (const Entry& e : texts) {
    if (e.parts.size() != 2) continue;  // a Plural
    CAPTURE(e.name);
    CHECK(Conversions(e.parts[0]) == Conversions(e.parts[1]));
    ++checked;
  }
  CHECK(checked > 150);
}

TEST_CASE("every Plural has two English and three Russian forms, none with a printf conversion") {
  int plurals = 0;
  for (const Entry& e : ReadAllTexts()) {
    if (e.parts.size() == 2) continue;
    CAPTURE(e.name);
    CHECK(e.parts.size() == 5);
    for (const std::string& p : e.parts) CHECK(p.find('%') == std::string::npos);
    ++plurals;
  }
  CHECK(plurals >= 10);
}

TEST_CASE("the Russian uses the terms of Russian ML courses") {
  // «шаблон внимания» is «паттерн»; the hull's fill is «заливка»; the draggable bars «столбики»;
  // d_v is the values' «размерность».
  for (const Entry& e : ReadAllTexts()) {
    if (e.parts.size() != 2) continue;
    CAPTURE(e.name);
    const std::string& ru = e.parts[1];
    for (const char* banned : {"шаблон", "тень", "полос", "ширина значений", "перетащены"}) {
      CAPTURE(banned);
      CHECK(ru.find(banned) == std::string::npos);
    }
  }
}
