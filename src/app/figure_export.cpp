#include "app/figure_export.h"

#include "api/fields_json.h"
#include "app/colormap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

namespace {

bool Ru(const AppState& s) { return s.lab.lang == "ru"; }

// Cyrillic letters as Latin (a plain, readable transliteration: ya, yu, zh, kh, shch...).
const char* Translit(char32_t c) {
  static const char* const kLower[] = {"a", "b", "v", "g", "d", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
                                       "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"};
  if (c >= 0x430 && c <= 0x44F) return kLower[c - 0x430];
  if (c >= 0x410 && c <= 0x42F) return kLower[c - 0x410];
  if (c == 0x451 || c == 0x401) return "yo";
  return nullptr;
}

// Decodes one UTF-8 character at s[i] (advancing i); a broken byte reads as U+FFFD.
char32_t NextChar(const std::string& s, std::size_t& i) {
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

std::string Num(double v, const char* fmt = "%.2f") {
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// The weights as getTrace() writes them: a float widened to double, nlohmann-json's shortest text.
std::string TraceNumber(float w) { return Json(static_cast<double>(w)).dump(); }

std::string CsvField(const std::string& f) {
  if (f.find_first_of(",\"\r\n") == std::string::npos) return f;
  std::string q = "\"";
  for (char c : f) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string Hex(const std::array<std::uint8_t, 3>& rgb) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

// Width of a label in px at font-size 13 (an estimate: SVG has no text metrics; generous).
double TextWidth(const std::string& s) {
  double w = 0;
  for (std::size_t i = 0; i < s.size();) w += NextChar(s, i) < 0x80 ? 7.5 : 8.5;
  return w;
}

constexpr const char* kFont = "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\"";
constexpr const char* kMonoFont = "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\"";
constexpr const char* kAlpha2Colour = "#3caa3c";  // α′ and the same-output set (the screen's green, darker on paper)

// A number as the panels show it: fixed decimals, a real minus sign, "-0.000" as "0.000".
std::string Shown(double v, int decimals) {
  char tmp[48];
  std::snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
  if (tmp[0] != '-') return tmp;
  for (const char* p = tmp + 1; *p; ++p)
    if (*p >= '1' && *p <= '9') return std::string("\xE2\x88\x92") + (tmp + 1);
  return tmp + 1;
}

// A vector as the panels show it: "[0.125, −0.500, …]", at most `max_entries` entries.
std::string ShownVector(const attn::VecD& v, int max_entries, int decimals = 3) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < v.size() && i < max_entries; ++i) out += (i ? ", " : "") + Shown(v(i), decimals);
  if (v.size() > max_entries) out += ", …";
  return out + "]";
}

// A weight vector exactly (nlohmann-json's shortest text of each double): "(0.25, 0.75)".
std::string ExactVector(const attn::VecD& v) {
  std::string out = "(";
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (i ? ", " : "") + Json(v(i)).dump();
  return out + ")";
}

std::string SvgHeader(double width, double height, int font_size, const std::string& title) {
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + Num(width, "%.0f") + "\" height=\"" +
       Num(height, "%.0f") + "\" viewBox=\"0 0 " + Num(width, "%.0f") + " " + Num(height, "%.0f") + "\" " + kFont +
       " font-size=\"" + std::to_string(font_size) + "\">\n";
  o += "<title>" + XmlEscape(title) + "</title>\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  return o;
}
constexpr const char* kQueryColour = "#f59b28";  // the query's row, as on screen

}  // namespace

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters; they cannot be in a token anyway.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string AsciiSlug(const std::string& utf8, std::size_t max_len) {
  std::string slug;
  bool dash = false;
  for (std::size_t i = 0; i < utf8.size();) {
    const char32_t c = NextChar(utf8, i);
    std::string piece;
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) piece = std::string(1, static_cast<char>(c));
    else if (c >= 'A' && c <= 'Z') piece = std::string(1, static_cast<char>(c - 'A' + 'a'));
    else if (const char* t = Translit(c)) piece = t;
    else if (c == 0x44A || c == 0x44C || c == 0x42A || c == 0x42C) piece = "";
    else { dash = !slug.empty(); continue; }
    if (piece.empty()) continue;
    if (dash) slug += '-';
    dash = false;
    if (slug.size() + piece.size() > max_len) break;
    slug += piece;
  }
  return slug;
}

std::string ExportFileName(const AppState& s, const std::string& what, const std::string& ext, bool with_sentence) {
  std::string name = "attention-" + AsciiSlug(what);
  if (with_sentence) {
    const std::string slug = AsciiSlug(s.lab.config.sentence);
    if (!slug.empty()) name += "-" + slug;
  }
  return name + "." + ext;
}

const std::vector<ExportTarget>& ExportTargets() {
  static const std::vector<ExportTarget> kTargets = {
      {"weights", {"png", "svg", "csv", "json"}, true},
      {"trace", {"json"}, true},
      {"vectors", {"png"}, true},
      {"contributions", {"png", "svg"}, true},
      {"simplex", {"png", "svg"}, true},
      {"example_weights", {"png", "svg"}, false},
      {"loss", {"png", "svg"}, false},
      {"accuracy", {"png", "svg"}, false},
      {"attention", {"png", "svg"}, false},
      {"grad_norms", {"png", "svg"}, false},
      {"variance", {"png", "svg"}, false},
      {"sat_entropy", {"png", "svg"}, false},
      {"sat_grad", {"png", "svg"}, false},
      {"output_norm", {"png", "svg"}, false},
      {"curves_scaling", {"png", "svg"}, false},
      {"curves_norms", {"png", "svg"}, false},
  };
  return kTargets;
}

const ExportTarget* FindExportTarget(const std::string& what) {
  for (const ExportTarget& t : ExportTargets())
    if (what == t.what) return &t;
  return nullptr;
}

bool ReadExportRequest(const Json& j, ExportRequest* out, std::string* field, std::string* error) {
  auto refuse = [&](const char* f, const std::string& expected, const Json& got) {
    *field = f;
    *error = std::string(f) + ": expected " + expected + ", got " + attn::api::DescribeJson(got);
    return false;
  };
  if (!j.is_object()) return refuse("", "an object like {what: 'weights', format: 'png'}", j);
  std::string names;
  for (const ExportTarget& t : ExportTargets()) names += std::string(names.empty() ? "" : ", ") + t.what;
  const Json what = j.contains("what") ? j["what"] : Json();
  const ExportTarget* target = what.is_string() ? FindExportTarget(what.get<std::string>()) : nullptr;
  if (!target) return refuse("what", "one of " + names, what);
  const Json format = j.contains("format") ? j["format"] : Json();
  std::string formats;
  bool known = false;
  for (const char* f : target->formats) {
    formats += std::string(formats.empty() ? "" : ", ") + f;
    known = known || (format.is_string() && format.get<std::string>() == f);
  }
  if (!known) return refuse("format", "one of " + formats + " for " + target->what, format);
  out->what = target->what;
  out->format = format.get<std::string>();
  return true;
}

bool ExportFromState(const ExportRequest& r) {
  if (r.format == "png") return false;
  return r.what == "weights" || r.what == "trace" || r.what == "contributions" || r.what == "simplex" ||
         r.what == "example_weights";
}

std::string ExportMime(const std::string& format) {
  if (format == "png") return "image/png";
  if (format == "svg") return "image/svg+xml";
  if (format == "csv") return "text/csv;charset=utf-8";
  return "application/json";
}

ExportFile ExportText(const AppState& s, const ExportRequest& r) {
  ExportFile f;
  const ExportTarget* t = FindExportTarget(r.what);
  f.name = ExportFileName(s, r.format == "json" ? "trace" : r.what, r.format, !t || t->with_sentence);
  f.type = ExportMime(r.format);
  std::string why;
  if (r.format == "csv") f.bytes = WeightsCsv(s);
  else if (r.what == "contributions") f.bytes = ContributionsSvg(s);
  else if (r.what == "simplex") f.bytes = SimplexSvg(s, &why);
  else if (r.what == "example_weights") f.bytes = ExampleWeightsSvg(s, &why);
  else if (r.format == "svg") f.bytes = WeightsSvg(s);
  else f.bytes = TraceJson(s);
  if (!why.empty()) {
    f.field = "what";
    f.error = why;
  }
  return f;
}

std::string WeightsCsv(const AppState& s) {
  const auto& w = s.result.trace.weights;  // (N, N): row = query, column = key
  const auto& tokens = s.result.tokens;
  std::string out = "\xEF\xBB\xBF";  // BOM: Excel reads UTF-8 (Cyrillic) only with it
  out += CsvField(Ru(s) ? "запрос \\ ключ" : "query \\ key");
  for (const auto& t : tokens) out += "," + CsvField(t.text);
  out += "\r\n";
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    out += CsvField(tokens[static_cast<std::size_t>(i)].text);
    for (Eigen::Index j = 0; j < w.cols(); ++j) out += "," + TraceNumber(w(i, j));
    out += "\r\n";
  }
  return out;
}

std::string WeightsSvg(const AppState& s) {
  const auto& w = s.result.trace.weights;
  const auto& tokens = s.result.tokens;
  const int n = static_cast<int>(w.rows());
  const int q = s.lab.config.query;
  const bool ru = Ru(s);
  double label_w = 0;
  for (const auto& t : tokens) label_w = std::max(label_w, TextWidth(t.text));
  const double cell = std::clamp(480.0 / std::max(n, 1), 14.0, 56.0);
  const bool top_fits = cell >= label_w + 6;  // column labels upright, else turned
  const double left = label_w + 16, top = 40 + (top_fits ? 20 : label_w + 12);
  const double side = cell * n;
  const double width = left + side + 70, height = top + side + 70;
  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + Num(width, "%.0f") + "\" height=\"" +
       Num(height, "%.0f") + "\" viewBox=\"0 0 " + Num(width, "%.0f") + " " + Num(height, "%.0f") + "\" " + kFont +
       " font-size=\"13\">\n";
  const std::string title = ru ? "Веса внимания αᵢⱼ: строка — запрос i, столбец — ключ j"
                               : "Attention weights αᵢⱼ: row = query i, column = key j";
  o += "<title>" + XmlEscape(title) + "</title>\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  o += "<text x=\"8\" y=\"22\" font-size=\"15\" fill=\"#111111\">" + XmlEscape(title) + "</text>\n";
  // The cells: row i = query i, column j = key j, coloured by the shader's viridis over [0, 1].
  o += "<g id=\"cells\" shape-rendering=\"crispEdges\">\n";
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      o += "<rect x=\"" + Num(left + cell * j) + "\" y=\"" + Num(top + cell * i) + "\" width=\"" + Num(cell) +
           "\" height=\"" + Num(cell) + "\" fill=\"" + ViridisHex(w(i, j)) + "\"><title>" +
           XmlEscape(tokens[i].text + " → " + tokens[j].text) + ": " + TraceNumber(w(i, j)) + "</title></rect>\n";
  o += "</g>\n";
  // Masked cells: hatched, as on screen.
  const attn::Mask& mask = s.result.mha.mask;
  if (mask.rows() == n && mask.cols() == n) {
    o += "<g id=\"masked\" stroke=\"#a0a0aa\" stroke-width=\"1\">\n";
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (!mask(i, j))
          o += "<line x1=\"" + Num(left + cell * j) + "\" y1=\"" + Num(top + cell * i) + "\" x2=\"" +
               Num(left + cell * (j + 1)) + "\" y2=\"" + Num(top + cell * (i + 1)) + "\"/>\n";
    o += "</g>\n";
  }
  // The values, when they fit (dark text on the light end of viridis, as on screen).
  if (cell >= 34) {
    o += "<g id=\"values\" text-anchor=\"middle\" font-size=\"" + Num(std::min(13.0, cell / 3.2), "%.1f") + "\">\n";
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        o += "<text x=\"" + Num(left + cell * (j + 0.5)) + "\" y=\"" + Num(top + cell * (i + 0.5) + 4) + "\" fill=\"" +
             (w(i, j) > 0.6f ? "#000000" : "#ffffff") + "\">" + Num(w(i, j)) + "</text>\n";
    o += "</g>\n";
  }
  // Labels: queries on the left, keys on top.
  o += "<g id=\"queries\" text-anchor=\"end\">\n";
  for (int i = 0; i < n; ++i)
    o += "<text x=\"" + Num(left - 6) + "\" y=\"" + Num(top + cell * (i + 0.5) + 4.5) + "\" fill=\"" +
         (i == q ? std::string(kQueryColour) : std::string("#111111")) + "\"" + (i == q ? " font-weight=\"bold\"" : "") +
         ">" + XmlEscape(tokens[i].text) + "</text>\n";
  o += "</g>\n<g id=\"keys\" fill=\"#111111\">\n";
  for (int j = 0; j < n; ++j) {
    const double x = left + cell * (j + 0.5);
    if (top_fits)
      o += "<text x=\"" + Num(x) + "\" y=\"" + Num(top - 6) + "\" text-anchor=\"middle\">" + XmlEscape(tokens[j].text) +
           "</text>\n";
    else
      o += "<text transform=\"translate(" + Num(x + 4) + " " + Num(top - 6) + ") rotate(-90)\">" +
           XmlEscape(tokens[j].text) + "</text>\n";
  }
  o += "</g>\n";
  if (q >= 0 && q < n)
    o += "<rect id=\"query-row\" x=\"" + Num(left - 1) + "\" y=\"" + Num(top + cell * q - 1) + "\" width=\"" +
         Num(side + 2) + "\" height=\"" + Num(cell + 2) + "\" fill=\"none\" stroke=\"" + kQueryColour +
         "\" stroke-width=\"2.5\"/>\n";
  // Axis names and the legend: the colour ramp over the fixed range [0, 1].
  o += "<text x=\"" + Num(left + side / 2) + "\" y=\"" + Num(top + side + 18) + "\" text-anchor=\"middle\" fill=\"#555555\">" +
       (ru ? "ключ j" : "key j") + "</text>\n";
  const double ly = top + side + 32, lw = std::min(side, 240.0);
  o += "<defs><linearGradient id=\"viridis\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">\n";
  for (int k = 0; k <= 16; ++k)
    o += "<stop offset=\"" + Num(k / 16.0, "%.4f") + "\" stop-color=\"" + ViridisHex(k / 16.0f) + "\"/>\n";
  o += "</linearGradient></defs>\n";
  o += "<rect id=\"legend\" x=\"" + Num(left) + "\" y=\"" + Num(ly) + "\" width=\"" + Num(lw) +
       "\" height=\"12\" fill=\"url(#viridis)\"/>\n";
  o += "<text x=\"" + Num(left) + "\" y=\"" + Num(ly + 28) + "\" fill=\"#111111\">0</text>\n";
  o += "<text x=\"" + Num(left + lw) + "\" y=\"" + Num(ly + 28) + "\" text-anchor=\"end\" fill=\"#111111\">1</text>\n";
  o += "<text x=\"" + Num(left + lw / 2) + "\" y=\"" + Num(ly + 28) + "\" text-anchor=\"middle\" fill=\"#555555\">α</text>\n";
  o += "</svg>\n";
  return o;
}

std::string ContributionsSvg(const AppState& s) {
  const attn::LabResult& r = s.result;
  const bool ru = Ru(s), custom = s.custom.active;
  const attn::InformationReport& info = custom ? s.custom.info : r.information;
  const attn::VecD alpha = custom ? s.custom.alpha : attn::VecD(r.trace.weights.row(r.steps.query).transpose().cast<double>());
  const attn::MatD& c1 = custom ? s.custom.contributions : r.contributions;
  const attn::MatD& c2 = custom ? s.custom.contributions2 : r.contributions2;
  const int n = static_cast<int>(r.tokens.size());
  const std::string target = r.target >= 0 && r.target < n ? r.tokens[r.target].text : "?";
  const double col = 380, gap = 28, margin = 16, label_w = 90, bar_w = col - label_w - 66, row_h = 38;
  const double width = margin * 2 + col * 2 + gap, top = 56;
  const double height = top + row_h * n + 78;
  const std::string title = ru ? "Веса внимания и вклад каждого слова wᵢvᵢ в выход A: два сценария"
                               : "Attention weights and each word's contribution wᵢvᵢ to the output A: two scenarios";
  std::string o = SvgHeader(width, height, 13, title);
  o += "<text x=\"" + Num(margin) + "\" y=\"20\" font-size=\"14\" fill=\"#111111\">" + XmlEscape(title) + "</text>\n";
  struct Scenario {
    const char* id;
    std::string title;
    const attn::VecD* w;
    const attn::MatD* contributions;
    const attn::VecD* output;
    const char* colour;
    const char* output_name;
  };
  std::string t1 = custom ? (ru ? "Сценарий 1: ваши веса α (заданы вручную)" : "Scenario 1: your weights α (dragged)")
                          : (ru ? "Сценарий 1: веса запроса α" : "Scenario 1: the query's weights α");
  std::string t2 = info.set == attn::FeasibleSet::kAffine
                       ? (ru ? "Сценарий 2: α′ с весом на «" + target + "» больше на единицу"
                             : "Scenario 2: α′ with one more unit of weight on «" + target + "»")
                       : (ru ? "Сценарий 2: α′ с наибольшим весом на «" + target + "»"
                             : "Scenario 2: α′ with the most weight on «" + target + "»");
  const Scenario scenarios[2] = {{"alpha", t1, &alpha, &c1, &info.collision.output, kQueryColour, "A"},
                                 {"alpha2", t2, &info.collision.alpha2, &c2, &info.collision.output2, kAlpha2Colour, "A′"}};
  for (int k = 0; k < 2; ++k) {
    const Scenario& sc = scenarios[k];
    const double x0 = margin + k * (col + gap);
    o += "<g id=\"" + std::string(sc.id) + "\">\n";
    o += "<text x=\"" + Num(x0) + "\" y=\"44\" fill=\"" + sc.colour + "\" font-weight=\"bold\">" + XmlEscape(sc.title) + "</text>\n";
    for (int i = 0; i < n; ++i) {
      const double y = top + row_h * i;
      const bool masked = i < static_cast<int>(r.visible.size()) && !r.visible[static_cast<std::size_t>(i)];
      o += "<text x=\"" + Num(x0) + "\" y=\"" + Num(y + 14) + "\" fill=\"" + (masked ? "#999999" : "#111111") + "\">" +
           XmlEscape(r.tokens[i].text) + "</text>\n";
      const double bx = x0 + label_w;
      if (masked || i >= sc.w->size()) {
        o += "<text x=\"" + Num(bx) + "\" y=\"" + Num(y + 14) + "\" fill=\"#999999\">" + (ru ? "(замаскирован)" : "(masked)") + "</text>\n";
        continue;
      }
      const double w = (*sc.w)(i);
      o += "<rect class=\"track\" x=\"" + Num(bx) + "\" y=\"" + Num(y + 3) + "\" width=\"" + Num(bar_w) +
           "\" height=\"13\" fill=\"#e6e8ee\"/>\n";
      o += "<rect class=\"bar\" x=\"" + Num(bx) + "\" y=\"" + Num(y + 3) + "\" width=\"" + Num(bar_w * std::clamp(w, 0.0, 1.0)) +
           "\" height=\"13\" fill=\"" + sc.colour + "\"><title>" + XmlEscape(r.tokens[i].text) + ": " + Json(w).dump() +
           "</title></rect>\n";
      o += "<text class=\"weight\" x=\"" + Num(bx + bar_w + 6) + "\" y=\"" + Num(y + 14) + "\" fill=\"#111111\">" +
           Shown(w, 3) + "</text>\n";
      if (i < sc.contributions->rows())
        o += "<text class=\"contribution\" x=\"" + Num(bx) + "\" y=\"" + Num(y + 31) + "\" " + kMonoFont +
             " font-size=\"11\" fill=\"#666666\">× v = " +
             ShownVector(sc.contributions->row(i).transpose(), 4) + "</text>\n";
    }
    o += "<text class=\"output\" x=\"" + Num(x0) + "\" y=\"" + Num(top + row_h * n + 14) + "\" " + kMonoFont +
         " fill=\"#111111\">" + sc.output_name + " = " + ShownVector(*sc.output, 6) + "</text>\n";
    o += "</g>\n";
  }
  o += "<text x=\"" + Num(margin) + "\" y=\"" + Num(top + row_h * n + 44) + "\" fill=\"#111111\">max |A − A′| = " +
       Num(info.collision.max_output_diff, "%.1e") +
       (ru ? ": два выхода — один и тот же вектор" : ": the two outputs are the same vector") + "</text>\n";
  o += "</svg>\n";
  return o;
}

std::string SimplexSvg(const AppState& s, std::string* why) {
  const attn::LabResult& r = s.result;
  const bool ru = Ru(s), custom = s.custom.active;
  const attn::InformationReport& info = custom ? s.custom.info : r.information;
  const std::vector<int>& keys = r.information.visible;  // the corners: the keys the query sees
  const int n = static_cast<int>(keys.size());
  if (r.information.set != attn::FeasibleSet::kSimplex || (n != 3 && n != 4)) {
    *why = "what: expected a picture the lab draws now, got \"simplex\" (the simplex is drawn for 3 or 4 keys the query "
           "sees with weights that sum to 1; here " + std::to_string(n) + " keys" +
           (r.information.set != attn::FeasibleSet::kSimplex ? ", weights that need not sum to 1)" : ")");
    return "";
  }
  const attn::VecD alpha = custom ? s.custom.alpha : attn::VecD(r.trace.weights.row(r.steps.query).transpose().cast<double>());
  const double size = 320, ox = 40, oy = 48, width = size + 2 * ox, height = oy + size + 84;
  const double corner_at[4][2] = {{0.08, 0.9}, {0.92, 0.9}, {0.5, 0.1}, {0.62, 0.6}};  // as on screen
  double cx[4], cy[4];
  for (int i = 0; i < 4; ++i) {
    cx[i] = ox + size * corner_at[i][0];
    cy[i] = oy + size * corner_at[i][1];
  }
  // Barycentric coordinates to the picture: the point Σᵢ wᵢ cornerᵢ over the keys the query sees.
  auto at = [&](const attn::VecD& w) {
    double x = 0, y = 0;
    for (int i = 0; i < n; ++i) {
      x += w(keys[i]) * cx[i];
      y += w(keys[i]) * cy[i];
    }
    return std::pair<double, double>(x, y);
  };
  auto seen = [&](const attn::VecD& w) {  // the weights of the corners' keys
    attn::VecD v(n);
    for (int i = 0; i < n; ++i) v(i) = w(keys[i]);
    return v;
  };
  const std::string title = ru ? "Веса — точка симплекса; все точки зелёного отрезка или области через неё дают тот же A"
                               : "The weights as a point in the simplex; the green segment or area through it gives the same A";
  std::string o = SvgHeader(width, height, 13, title);
  o += "<text x=\"8\" y=\"20\" font-size=\"13\" fill=\"#111111\">" +
       XmlEscape(ru ? "Веса — точка симплекса" : "The weights as a point in the simplex") + "</text>\n";
  o += "<g id=\"edges\" stroke=\"#8c96aa\" stroke-width=\"1.2\">\n";
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      o += "<line x1=\"" + Num(cx[i]) + "\" y1=\"" + Num(cy[i]) + "\" x2=\"" + Num(cx[j]) + "\" y2=\"" + Num(cy[j]) + "\"/>\n";
  o += "</g>\n<g id=\"corners\" fill=\"#111111\" text-anchor=\"middle\">\n";
  for (int i = 0; i < n; ++i) {
    o += "<circle class=\"corner\" cx=\"" + Num(cx[i]) + "\" cy=\"" + Num(cy[i]) + "\" r=\"2\"/>\n";
    o += "<text x=\"" + Num(cx[i]) + "\" y=\"" + Num(cy[i] + (i == 2 ? -8.0 : 18.0)) + "\">" +
         XmlEscape(r.tokens[static_cast<std::size_t>(keys[i])].text) + "</text>\n";
  }
  o += "</g>\n";
  // The weights that give the same A: a point, a segment or a polygon through α, its vertices
  // ordered around their centre (as the panel draws them).
  const std::vector<attn::VecD>& vertices = custom ? s.custom.vertices : r.same_output_vertices;
  std::vector<std::pair<double, double>> poly;
  for (const attn::VecD& v : vertices) poly.push_back(at(v));
  if (poly.size() >= 2) {
    double mx = 0, my = 0;
    for (const auto& p : poly) { mx += p.first / poly.size(); my += p.second / poly.size(); }
    std::sort(poly.begin(), poly.end(), [&](const auto& a, const auto& b) {
      return std::atan2(a.second - my, a.first - mx) < std::atan2(b.second - my, b.first - mx);
    });
    std::string points;
    for (const auto& p : poly) points += (points.empty() ? "" : " ") + Num(p.first) + "," + Num(p.second);
    const std::string tag = poly.size() >= 3 ? "polygon" : "polyline";
    o += "<" + tag + " id=\"same-output\" points=\"" + points + "\" fill=\"" + (poly.size() >= 3 ? kAlpha2Colour : "none") +
         "\" fill-opacity=\"0.22\" stroke=\"" + kAlpha2Colour + "\" stroke-width=\"3\" stroke-linejoin=\"round\"/>\n";
  }
  o += "<g id=\"vertices\" fill=\"" + std::string(kAlpha2Colour) + "\">\n";
  for (const attn::VecD& v : vertices) {
    const auto [x, y] = at(v);
    o += "<circle class=\"vertex\" cx=\"" + Num(x) + "\" cy=\"" + Num(y) + "\" r=\"2.5\"><title>" + ExactVector(seen(v)) +
         "</title></circle>\n";
  }
  o += "</g>\n";
  const auto [ax, ay] = at(alpha);
  o += "<circle id=\"alpha\" cx=\"" + Num(ax) + "\" cy=\"" + Num(ay) + "\" r=\"6\" fill=\"" + kQueryColour + "\"><title>α = " +
       ExactVector(seen(alpha)) + "</title></circle>\n";
  if (info.collision.alpha2.size() == alpha.size()) {
    const auto [bx, by] = at(info.collision.alpha2);
    o += "<circle id=\"alpha2\" cx=\"" + Num(bx) + "\" cy=\"" + Num(by) + "\" r=\"7\" fill=\"none\" stroke=\"" + kAlpha2Colour +
         "\" stroke-width=\"2.5\"><title>α′ = " + ExactVector(seen(info.collision.alpha2)) + "</title></circle>\n";
  }
  // The legend.
  const double ly = oy + size + 22;
  o += "<circle cx=\"" + Num(ox) + "\" cy=\"" + Num(ly - 4) + "\" r=\"5\" fill=\"" + kQueryColour + "\"/>\n";
  o += "<text x=\"" + Num(ox + 10) + "\" y=\"" + Num(ly) + "\" fill=\"#111111\">" +
       XmlEscape(custom ? (ru ? "α: ваши веса" : "α: your weights") : (ru ? "α: веса запроса" : "α: the query's weights")) + "</text>\n";
  o += "<circle cx=\"" + Num(ox) + "\" cy=\"" + Num(ly + 16) + "\" r=\"5\" fill=\"none\" stroke=\"" + kAlpha2Colour +
       "\" stroke-width=\"2\"/>\n";
  o += "<text x=\"" + Num(ox + 10) + "\" y=\"" + Num(ly + 20) + "\" fill=\"#111111\">" +
       XmlEscape(ru ? "α′: тот же A, наибольший вес на другом слове" : "α′: the same A, the most weight on another word") +
       "</text>\n";
  o += "<text x=\"" + Num(ox) + "\" y=\"" + Num(ly + 40) + "\" fill=\"#555555\" font-size=\"11\">" +
       XmlEscape(ru ? "зелёным: все веса с тем же A" : "green: every weight pattern with the same A") + "</text>\n";
  o += "</svg>\n";
  return o;
}

std::string ExampleWeightsSvg(const AppState& s, std::string* why) {
  const bool ru = Ru(s);
  struct Run {
    const AppState::TrainRun* run;
    std::string title;
    const char* colour;
  };
  std::vector<Run> runs;
  const bool compare = s.training.compare;
  runs.push_back({&s.training.a,
                  compare ? "A" : (ru ? "Внимание на примере (строка — запрос, столбец — ключ)"
                                      : "The example's attention (row = query, column = key)"),
                  kQueryColour});
  if (compare)
    runs.push_back({&s.training.b, (ru ? "B (сравнение: " : "B (compare: ") + s.lab.train.compare + ")", "#5aa0f0"});
  for (const Run& run : runs) {
    const auto& v = run.run->view;
    const std::size_t n = v.tokens.size();
    if (!run.run->has_view || v.forward.attn.heads.empty() || n == 0 ||
        v.forward.attn.heads[0].weights.rows() != static_cast<Eigen::Index>(n)) {
      *why = "what: expected a picture the lab draws now, got \"example_weights\" (the training example has no "
             "finite weights to draw)";
      return "";
    }
  }
  const int h = static_cast<int>(s.training.a.view.forward.attn.heads.size());
  const int n = static_cast<int>(s.training.a.view.tokens.size());
  const int q = s.training.query;
  double label_w = 0;
  for (const auto& t : s.training.a.view.tokens) label_w = std::max(label_w, TextWidth(t));
  const double cell = std::clamp(260.0 / std::max(n, 1), 14.0, 44.0), side = cell * n;
  double top_label = 0;  // the keys on top: upright when they fit, else turned
  for (const auto& t : s.training.a.view.tokens) top_label = std::max(top_label, TextWidth(t));
  const bool upright = cell >= top_label + 4;
  const double head_w = label_w + 10 + side + 18, block_h = 30 + (upright ? 18 : top_label + 8) + side + (h > 1 ? 24 : 8);
  const std::string title = ru ? "Внимание на обучающем примере: строка — запрос, столбец — ключ"
                               : "Attention on the training example: row = query, column = key";
  const double margin = 12;
  double width = std::max(margin * 2 + head_w * h, margin * 2 + TextWidth(title) * 14 / 13);
  for (const Run& run : runs) width = std::max(width, margin * 2 + TextWidth(run.title));
  const double height = 34 + block_h * runs.size() + 8;
  std::string o = SvgHeader(width, height, 12, title);
  o += "<text x=\"" + Num(margin) + "\" y=\"20\" font-size=\"14\" fill=\"#111111\">" + XmlEscape(title) + "</text>\n";
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const auto& v = runs[k].run->view;
    const double y0 = 34 + block_h * k;
    o += "<g id=\"run-" + std::string(k == 0 ? "a" : "b") + "\">\n";
    o += "<text x=\"" + Num(margin) + "\" y=\"" + Num(y0 + 16) + "\" fill=\"" + runs[k].colour + "\" font-weight=\"bold\">" +
         XmlEscape(runs[k].title) + "</text>\n";
    for (int head = 0; head < static_cast<int>(v.forward.attn.heads.size()); ++head) {
      const attn::MatD& w = v.forward.attn.heads[static_cast<std::size_t>(head)].weights;
      const double left = margin + head_w * head + label_w + 10, top = y0 + 30 + (upright ? 18 : top_label + 8);
      o += "<g class=\"head\" data-head=\"" + std::to_string(head) + "\">\n";
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          o += "<rect x=\"" + Num(left + cell * j) + "\" y=\"" + Num(top + cell * i) + "\" width=\"" + Num(cell) +
               "\" height=\"" + Num(cell) + "\" fill=\"" + ViridisHex(static_cast<float>(w(i, j))) + "\"><title>" +
               XmlEscape(v.tokens[i] + " → " + v.tokens[j]) + ": " + Json(w(i, j)).dump() + "</title></rect>\n";
      if (cell >= 34)
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            o += "<text x=\"" + Num(left + cell * (j + 0.5)) + "\" y=\"" + Num(top + cell * (i + 0.5) + 4) +
                 "\" text-anchor=\"middle\" font-size=\"11\" fill=\"" + (w(i, j) > 0.6 ? "#000000" : "#ffffff") + "\">" +
                 Shown(w(i, j), 2) + "</text>\n";
      for (int i = 0; i < n; ++i) {
        o += "<text x=\"" + Num(left - 5) + "\" y=\"" + Num(top + cell * (i + 0.5) + 4) + "\" text-anchor=\"end\" fill=\"" +
             (i == q ? std::string(kQueryColour) : std::string("#111111")) + "\"" + (i == q ? " font-weight=\"bold\"" : "") +
             ">" + XmlEscape(v.tokens[i]) + "</text>\n";
        const double x = left + cell * (i + 0.5);
        if (upright)
          o += "<text x=\"" + Num(x) + "\" y=\"" + Num(top - 5) + "\" text-anchor=\"middle\" fill=\"#111111\">" +
               XmlEscape(v.tokens[i]) + "</text>\n";
        else
          o += "<text transform=\"translate(" + Num(x + 4) + " " + Num(top - 5) + ") rotate(-90)\" fill=\"#111111\">" +
               XmlEscape(v.tokens[i]) + "</text>\n";
      }
      if (q >= 0 && q < n)
        o += "<rect class=\"query-row\" x=\"" + Num(left - 1) + "\" y=\"" + Num(top + cell * q - 1) + "\" width=\"" + Num(side + 2) +
             "\" height=\"" + Num(cell + 2) + "\" fill=\"none\" stroke=\"" + kQueryColour + "\" stroke-width=\"2.5\"/>\n";
      if (h > 1) {
        char caption[64];
        std::snprintf(caption, sizeof caption, ru ? "Голова %d из %d" : "Head %d of %d", head + 1, h);
        o += "<text x=\"" + Num(left) + "\" y=\"" + Num(top + side + 16) + "\" fill=\"#555555\">" + caption + "</text>\n";
      }
      o += "</g>\n";
    }
    o += "</g>\n";
  }
  o += "</svg>\n";
  return o;
}

std::string PlotSvg(const SvgPlot& p) {
  const double W = 640, H = 400, left = 64, right = 16, top = p.title.empty() ? 16 : 36, bottom = p.x_label.empty() ? 34 : 52;
  const double x0 = left, x1 = W - right, y0 = top, y1 = H - bottom;
  auto fx = [&](double v) { return p.log_x ? std::log10(v) : v; };
  auto fy = [&](double v) { return p.log_y ? std::log10(v) : v; };
  const double ax = fx(p.x_lo), bx = fx(p.x_hi), ay = fy(p.y_lo), by = fy(p.y_hi);
  auto px = [&](double v) { return x0 + (fx(v) - ax) / (bx - ax) * (x1 - x0); };
  auto py = [&](double v) { return y1 - (fy(v) - ay) / (by - ay) * (y1 - y0); };
  auto usable = [&](double v, bool log) { return std::isfinite(v) && (!log || v > 0); };
  auto inside = [&](double x, double y) {
    return usable(x, p.log_x) && usable(y, p.log_y) && std::isfinite(px(x)) && std::isfinite(py(y));
  };
  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"640\" height=\"400\" viewBox=\"0 0 640 400\" ";
  o += std::string(kFont) + " font-size=\"12\">\n";
  if (!p.title.empty()) o += "<title>" + XmlEscape(p.title) + "</title>\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  if (!p.title.empty()) o += "<text x=\"" + Num(x0) + "\" y=\"20\" font-size=\"14\" fill=\"#111111\">" + XmlEscape(p.title) + "</text>\n";
  o += "<defs><clipPath id=\"area\"><rect x=\"" + Num(x0) + "\" y=\"" + Num(y0) + "\" width=\"" + Num(x1 - x0) +
       "\" height=\"" + Num(y1 - y0) + "\"/></clipPath></defs>\n";
  // Grid and ticks.
  o += "<g id=\"axes\" fill=\"#333333\" stroke-width=\"1\">\n";
  for (const auto& [v, text] : p.y_ticks) {
    if (!usable(v, p.log_y)) continue;
    const double y = py(v);
    o += "<line x1=\"" + Num(x0) + "\" x2=\"" + Num(x1) + "\" y1=\"" + Num(y) + "\" y2=\"" + Num(y) + "\" stroke=\"#e3e3e8\"/>\n";
    o += "<text x=\"" + Num(x0 - 6) + "\" y=\"" + Num(y + 4) + "\" text-anchor=\"end\">" + XmlEscape(text) + "</text>\n";
  }
  for (const auto& [v, text] : p.x_ticks) {
    if (!usable(v, p.log_x)) continue;
    const double x = px(v);
    o += "<line x1=\"" + Num(x) + "\" x2=\"" + Num(x) + "\" y1=\"" + Num(y0) + "\" y2=\"" + Num(y1) + "\" stroke=\"#e3e3e8\"/>\n";
    o += "<text x=\"" + Num(x) + "\" y=\"" + Num(y1 + 16) + "\" text-anchor=\"middle\">" + XmlEscape(text) + "</text>\n";
  }
  o += "<rect x=\"" + Num(x0) + "\" y=\"" + Num(y0) + "\" width=\"" + Num(x1 - x0) + "\" height=\"" + Num(y1 - y0) +
       "\" fill=\"none\" stroke=\"#888888\"/>\n";
  if (!p.x_label.empty())
    o += "<text x=\"" + Num((x0 + x1) / 2) + "\" y=\"" + Num(H - 10) + "\" text-anchor=\"middle\">" + XmlEscape(p.x_label) + "</text>\n";
  if (!p.y_label.empty())
    o += "<text transform=\"translate(14 " + Num((y0 + y1) / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         XmlEscape(p.y_label) + "</text>\n";
  o += "</g>\n<g id=\"data\" clip-path=\"url(#area)\" fill=\"none\">\n";
  for (double h : p.hlines)
    if (usable(h, p.log_y))
      o += "<line x1=\"" + Num(x0) + "\" x2=\"" + Num(x1) + "\" y1=\"" + Num(py(h)) + "\" y2=\"" + Num(py(h)) +
           "\" stroke=\"#777777\" stroke-dasharray=\"2 3\"/>\n";
  for (const auto& [v, label] : p.marks)
    if (usable(v, p.log_x))
      o += "<line x1=\"" + Num(px(v)) + "\" x2=\"" + Num(px(v)) + "\" y1=\"" + Num(y0) + "\" y2=\"" + Num(y1) +
           "\" stroke=\"#f59b28\"><title>" + XmlEscape(label) + "</title></line>\n";
  for (const SvgSeries& s : p.series) {
    const std::string colour = Hex(s.rgb);
    const std::size_t n = std::min(s.x.size(), s.y.size());
    if (s.lo.size() == n && s.hi.size() == n && n > 0) {  // the band: lo left to right, hi back
      std::string d;
      for (std::size_t i = 0; i < n; ++i)
        if (inside(s.x[i], s.lo[i])) d += (d.empty() ? "M" : " L") + Num(px(s.x[i])) + " " + Num(py(s.lo[i]));
      for (std::size_t i = n; i-- > 0;)
        if (inside(s.x[i], s.hi[i])) d += (d.empty() ? "M" : " L") + Num(px(s.x[i])) + " " + Num(py(s.hi[i]));
      if (!d.empty()) o += "<path d=\"" + d + " Z\" fill=\"" + colour + "\" fill-opacity=\"0.18\" stroke=\"none\"/>\n";
    }
    std::string d;
    bool pen = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!inside(s.x[i], s.y[i])) { pen = false; continue; }
      d += (pen ? " L" : (d.empty() ? "M" : " M")) + Num(px(s.x[i])) + " " + Num(py(s.y[i]));
      pen = true;
    }
    o += "<path d=\"" + d + "\" stroke=\"" + colour + "\" stroke-width=\"" + (s.highlight ? "2.6" : "1.6") + "\"" +
         (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + "><title>" + XmlEscape(s.label) + "</title></path>\n";
    if (s.markers)
      for (std::size_t i = 0; i < n; ++i)
        if (inside(s.x[i], s.y[i]))
          o += "<circle cx=\"" + Num(px(s.x[i])) + "\" cy=\"" + Num(py(s.y[i])) + "\" r=\"2.5\" fill=\"" + colour + "\"/>\n";
  }
  o += "</g>\n";
  // The legend on a white plate, in the top or bottom corner where it hides the fewest points.
  int labelled = 0;
  double text_w = 0;
  for (const SvgSeries& s : p.series)
    if (!s.label.empty()) { ++labelled; text_w = std::max(text_w, TextWidth(s.label) * 0.92); }
  if (labelled > 0) {
    const double box_w = text_w + 40, box_h = 16.0 * labelled + 8;
    const double corners[4][2] = {{x1 - box_w - 6, y0 + 6}, {x0 + 6, y0 + 6}, {x1 - box_w - 6, y1 - box_h - 6}, {x0 + 6, y1 - box_h - 6}};
    int best = 0, best_hidden = -1;
    for (int c = 0; c < 4; ++c) {
      int hidden = 0;
      for (const SvgSeries& s : p.series)
        for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i)
          if (inside(s.x[i], s.y[i]) && px(s.x[i]) >= corners[c][0] && px(s.x[i]) <= corners[c][0] + box_w &&
              py(s.y[i]) >= corners[c][1] && py(s.y[i]) <= corners[c][1] + box_h)
            ++hidden;
      if (best_hidden < 0 || hidden < best_hidden) { best = c; best_hidden = hidden; }
    }
    const double lx = corners[best][0], ly0 = corners[best][1];
    o += "<g id=\"legend\">\n<rect x=\"" + Num(lx) + "\" y=\"" + Num(ly0) + "\" width=\"" + Num(box_w) + "\" height=\"" +
         Num(box_h) + "\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#cccccc\"/>\n";
    double ly = ly0 + 16;
    for (const SvgSeries& s : p.series) {
      if (s.label.empty()) continue;
      o += "<line x1=\"" + Num(lx + 6) + "\" x2=\"" + Num(lx + 28) + "\" y1=\"" + Num(ly - 4) + "\" y2=\"" + Num(ly - 4) +
           "\" stroke=\"" + Hex(s.rgb) + "\" stroke-width=\"2.5\"" + (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
      o += "<text x=\"" + Num(lx + 34) + "\" y=\"" + Num(ly) + "\" fill=\"#111111\"" + (s.highlight ? " font-weight=\"bold\"" : "") +
           ">" + XmlEscape(s.label) + "</text>\n";
      ly += 16;
    }
    o += "</g>\n";
  }
  o += "</svg>\n";
  return o;
}

}  // namespace app
