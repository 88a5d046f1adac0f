// What the exports' writers share (figure_export.h): numbers and vectors as the panels show
// them, the weights as getTrace() writes them, CSV fields, colours, the SVG header and fonts.
// Only the files of src/app/exports/ include this.
#pragma once

#include "api/state_json.h"
#include "app/exports/figure_export.h"
#include "app/exports/colormap.h"
#include "text/export_strings.h"
#include "text/lab_strings.h"  // the panels' words a figure repeats

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

namespace app {
namespace svg {

// A string of the text tables (src/text/) in the state's language, its printf arguments filled
// in (any length: a token is the learner's own text).
template <class... A>
std::string Say(const attn::api::LabState& lab, const text::Text& t, A... args) {
  const char* fmt = text::In(lab.lang, t);
  if constexpr (sizeof...(A) == 0) {
    return fmt;
  } else {
    std::string out(static_cast<std::size_t>(std::snprintf(nullptr, 0, fmt, args...)), '\0');
    std::snprintf(out.data(), out.size() + 1, fmt, args...);
    return out;
  }
}

// Cyrillic letters as Latin (a plain, readable transliteration: ya, yu, zh, kh, shch...).
inline const char* Translit(char32_t c) {
  static const char* const kLower[] = {"a", "b", "v", "g", "d", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
                                       "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"};
  if (c >= 0x430 && c <= 0x44F) return kLower[c - 0x430];
  if (c >= 0x410 && c <= 0x42F) return kLower[c - 0x410];
  if (c == 0x451 || c == 0x401) return "yo";
  return nullptr;
}

// Decodes one UTF-8 character at s[i] (advancing i); a broken byte reads as U+FFFD.
inline char32_t NextChar(const std::string& s, std::size_t& i) {
  const auto b = static_cast<unsigned char>(s[i++]);
  if (b < 0x80) return b;
  const int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : -1;
  if (extra < 0) return 0xFFFD;
  char32_t c = b & (0x3F >> extra);
  for (int k = 0; k < extra; ++k) {
    if (i >= s.size() || (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) return 0xFFFD;
    c = (c << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
  }
  return c;
}

inline std::string Num(double v, const char* fmt = "%.2f") {
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// The weights as getTrace() writes them: a float widened to double, nlohmann-json's shortest text.
inline std::string TraceNumber(float w) { return Json(static_cast<double>(w)).dump(); }

inline std::string CsvField(const std::string& f) {
  if (f.find_first_of(",\"\r\n") == std::string::npos) return f;
  std::string q = "\"";
  for (char c : f) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

inline std::string Hex(const std::array<std::uint8_t, 3>& rgb) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

// Width of a label in px at font-size 13 (an estimate: SVG has no text metrics; generous).
inline double TextWidth(const std::string& s) {
  double w = 0;
  for (std::size_t i = 0; i < s.size();) w += NextChar(s, i) < 0x80 ? 7.5 : 8.5;
  return w;
}

inline constexpr const char* kFont = "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\"";
inline constexpr const char* kMonoFont = "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\"";
inline constexpr const char* kAlpha2Colour = "#3caa3c";  // α′ and the same-output set (the screen's green, darker on paper)

// A number as the panels show it: fixed decimals, a real minus sign, "-0.000" as "0.000".
inline std::string Shown(double v, int decimals) {
  char tmp[48];
  std::snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
  if (tmp[0] != '-') return tmp;
  for (const char* p = tmp + 1; *p; ++p)
    if (*p >= '1' && *p <= '9') return std::string("\xE2\x88\x92") + (tmp + 1);
  return tmp + 1;
}

// A vector as the panels show it: "[0.125, −0.500, …]", at most `max_entries` entries.
inline std::string ShownVector(const attn::VecD& v, int max_entries, int decimals = 3) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < v.size() && i < max_entries; ++i) out += (i ? ", " : "") + Shown(v(i), decimals);
  if (v.size() > max_entries) out += ", …";
  return out + "]";
}

// A weight vector exactly (nlohmann-json's shortest text of each double): "(0.25, 0.75)".
inline std::string ExactVector(const attn::VecD& v) {
  std::string out = "(";
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (i ? ", " : "") + Json(v(i)).dump();
  return out + ")";
}

inline std::string SvgHeader(double width, double height, int font_size, const std::string& title) {
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + Num(width, "%.0f") + "\" height=\"" +
       Num(height, "%.0f") + "\" viewBox=\"0 0 " + Num(width, "%.0f") + " " + Num(height, "%.0f") + "\" " + kFont +
       " font-size=\"" + std::to_string(font_size) + "\">\n";
  o += "<title>" + XmlEscape(title) + "</title>\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  return o;
}
// The legend of a map on the diverging colours (colormap.h): the ramp over [-m, m] at (left, y),
// `width` wide, zero in the middle, its ends written with `decimals` (the what-if's Δα, patching).
inline std::string DivergingLegend(double left, double y, double width, double m, int decimals) {
  std::string o = "<defs><linearGradient id=\"diverging\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">\n";
  for (int k = 0; k <= 12; ++k)
    o += "<stop offset=\"" + Num(k / 12.0, "%.4f") + "\" stop-color=\"" + DivergingHex(static_cast<float>(k / 12.0)) + "\"/>\n";
  o += "</linearGradient></defs>\n";
  o += "<rect id=\"legend\" x=\"" + Num(left) + "\" y=\"" + Num(y) + "\" width=\"" + Num(width) +
       "\" height=\"12\" fill=\"url(#diverging)\" stroke=\"#888888\" stroke-width=\"0.5\"/>\n";
  o += "<text x=\"" + Num(left) + "\" y=\"" + Num(y + 28) + "\" fill=\"#111111\">" + XmlEscape("−" + Shown(m, decimals)) + "</text>\n";
  o += "<text x=\"" + Num(left + width / 2) + "\" y=\"" + Num(y + 28) + "\" text-anchor=\"middle\" fill=\"#111111\">0</text>\n";
  o += "<text x=\"" + Num(left + width) + "\" y=\"" + Num(y + 28) + "\" text-anchor=\"end\" fill=\"#111111\">" +
       XmlEscape("+" + Shown(m, decimals)) + "</text>\n";
  return o;
}

inline constexpr const char* kQueryColour = "#f59b28";  // the query's row, as on screen

}  // namespace svg
}  // namespace app
