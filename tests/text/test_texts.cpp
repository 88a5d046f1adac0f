// Every string of the lab, read from the headers themselves: those of src/text/ and the tables'
// headers generated from src/text/strings/*.json (so a new string, or a new table, is checked
// without being listed here): the English and the Russian take the same printf arguments in the
// same order, and the Russian uses the terms of Russian ML courses. And each generated header says
// what its table says, string for string.
#include "text/i18n.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#if !defined(ATTNLAB_TEXT_DIR) || !defined(ATTNLAB_TEXT_TABLES_DIR)
#error "ATTNLAB_TEXT_DIR must name src/text, ATTNLAB_TEXT_TABLES_DIR the tables' generated headers"
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

// The headers of a folder, in order.
std::vector<std::string> Headers(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& f : std::filesystem::directory_iterator(dir))
    if (f.path().extension() == ".h") out.push_back(f.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The definitions of every header of src/text/ and of the generated tables.
std::vector<Entry> ReadAllTexts() {
  std::vector<Entry> out;
  for (const char* dir : {ATTNLAB_TEXT_DIR, ATTNLAB_TEXT_TABLES_DIR}) {
    for (const std::string& h : Headers(dir)) {
      std::vector<Entry> some = ReadTexts(h);
      out.insert(out.end(), some.begin(), some.end());
    }
  }
  return out;
}

// A literal's text as the compiler reads it: the escapes the generator writes (\\ \" \n \t
// \uXXXX) undone.
std::string Unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) { out += s[i]; continue; }
    const char c = s[++i];
    if (c == 'n') out += '\n';
    else if (c == 't') out += '\t';
    else if (c == 'u' && i + 4 < s.size()) {
      const unsigned code = std::stoul(s.substr(i + 1, 4), nullptr, 16);
      i += 4;
      if (code < 0x80) out += static_cast<char>(code);
      else if (code < 0x800) out += {static_cast<char>(0xC0 | (code >> 6)), static_cast<char>(0x80 | (code & 0x3F))};
      else out += {static_cast<char>(0xE0 | (code >> 12)), static_cast<char>(0x80 | ((code >> 6) & 0x3F)),
                   static_cast<char>(0x80 | (code & 0x3F))};
    } else out += c;  // \\ and \"
  }
  return out;
}

// A table's strings, in order, as Entry: a Text's en and ru, or a Plural's forms one after another.
std::vector<Entry> ReadTable(const std::string& path) {
  std::ifstream in(path);
  const nlohmann::json table = nlohmann::json::parse(in);
  std::vector<Entry> out;
  for (const auto& group : table.at("groups")) {
    for (const auto& s : group.at("strings")) {
      Entry e{s.at("key").get<std::string>(), {}};
      for (const char* lang : {"en", "ru"}) {
        if (s.at(lang).is_string()) e.parts.push_back(s.at(lang).get<std::string>());
        else for (const auto& form : s.at(lang)) e.parts.push_back(form.get<std::string>());
      }
      out.push_back(e);
    }
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

TEST_CASE("every table of src/text/strings/ is a generated header, string for string") {
  int tables = 0, strings = 0;
  for (const auto& f : std::filesystem::directory_iterator(std::string(ATTNLAB_TEXT_DIR) + "/strings")) {
    if (f.path().extension() != ".json") continue;
    const std::string header = std::string(ATTNLAB_TEXT_TABLES_DIR) + "/" + f.path().stem().string() + "_strings.h";
    CAPTURE(header);
    REQUIRE(std::filesystem::exists(header));
    const std::vector<Entry> table = ReadTable(f.path().string());
    std::map<std::string, Entry> code;
    for (const Entry& e : ReadTexts(header)) code[e.name] = e;
    CHECK(code.size() == table.size());
    for (const Entry& e : table) {
      CAPTURE(e.name);
      REQUIRE(code.count(e.name) == 1);
      REQUIRE(code[e.name].parts.size() == e.parts.size());
      for (std::size_t p = 0; p < e.parts.size(); ++p) CHECK(Unescape(code[e.name].parts[p]) == e.parts[p]);
    }
    ++tables;
    strings += static_cast<int>(table.size());
  }
  CHECK(tables >= 7);
  CHECK(Headers(ATTNLAB_TEXT_TABLES_DIR).size() == static_cast<std::size_t>(tables));  // no header of a removed table
  CHECK(strings > 150);
}
