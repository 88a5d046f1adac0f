// Exports (issue 11.5): the CSV, SVG and JSON texts are written from the engine's numbers, the
// SVG is well-formed XML with the shader's colours, and a bad request gets the one wording.
#include "app/app.h"
#include "app/exports/colormap.h"
#include "app/exports/figure_export.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using app::AppState;
using attn::api::Json;

AppState Lab(const char* patch) {
  AppState s;
  app::InitApp(s);
  const auto r = app::ApplyPatch(s, Json::parse(patch));
  REQUIRE(r.ok);
  return s;
}

std::vector<std::string> Split(const std::string& text, const std::string& sep) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (std::size_t next; (next = text.find(sep, at)) != std::string::npos; at = next + sep.size())
    out.push_back(text.substr(at, next - at));
  out.push_back(text.substr(at));
  return out;
}

// A small XML well-formedness check (elements nest and close, attributes are quoted, '&' only
// starts an entity, no raw '<' in text): enough to catch what a string-built SVG gets wrong.
// Returns "" or what is wrong.
std::string XmlProblem(const std::string& x) {
  std::vector<std::string> open;
  std::size_t i = 0;
  int roots = 0;
  auto entity_ok = [&](std::size_t at) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
      if (x.compare(at, std::string(e).size(), e) == 0) return true;
    return false;
  };
  while (i < x.size()) {
    if (x[i] == '&' && !entity_ok(i)) return "bare & at " + std::to_string(i);
    if (x[i] != '<') { ++i; continue; }
    if (x.compare(i, 2, "<?") == 0) { i = x.find("?>", i); if (i == std::string::npos) return "open <?"; i += 2; continue; }
    const std::size_t start = i, end = x.find('>', i);
    if (end == std::string::npos) return "unclosed tag";
    std::string tag = x.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return "'<' inside a tag at " + std::to_string(i);
    i = end + 1;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "</" + tag.substr(1) + "> closes nothing";
      open.pop_back();
      continue;
    }
    const bool empty = tag.back() == '/';
    if (empty) tag.pop_back();
    const std::string name = tag.substr(0, tag.find_first_of(" \n"));
    // attributes: name="value" pairs, values without '<' or a bare '&'
    int quotes = 0;
    for (std::size_t k = 0; k < tag.size(); ++k) {
      if (tag[k] == '"') ++quotes;
      if (tag[k] == '&' && !entity_ok(start + 1 + k)) return "bare & in a tag";
    }
    if (quotes % 2) return "unbalanced quotes in <" + name + ">";
    if (open.empty()) ++roots;
    if (!empty) open.push_back(name);
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  if (roots != 1) return "expected one root element, got " + std::to_string(roots);
  return "";
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

}  // namespace

TEST_CASE("the weights' CSV: a BOM, a header row of keys, N rows, the numbers getTrace() writes") {
  const AppState s = Lab(R"({"sentence": "the cat sat on the mat", "query": 2})");
  const std::string csv = app::WeightsCsv(s);
  REQUIRE(csv.rfind("\xEF\xBB\xBF", 0) == 0);
  std::vector<std::string> lines = Split(csv.substr(3), "\r\n");
  REQUIRE(lines.back().empty());  // the last line ends with CRLF too
  lines.pop_back();
  const int n = static_cast<int>(s.attention.result.tokens.size());
  REQUIRE(n == 6);
  REQUIRE(static_cast<int>(lines.size()) == n + 1);
  const std::vector<std::string> header = Split(lines[0], ",");
  CHECK(header[0] == "query \\ key");
  for (int j = 0; j < n; ++j) CHECK(header[j + 1] == s.attention.result.tokens[j].text);
  const Json trace = Json::parse(app::TraceJson(s));
  for (int i = 0; i < n; ++i) {
    const std::vector<std::string> cells = Split(lines[i + 1], ",");
    REQUIRE(static_cast<int>(cells.size()) == n + 1);
    CHECK(cells[0] == s.attention.result.tokens[i].text);
    for (int j = 0; j < n; ++j) {
      // the engine's float, exactly, and the same text as the trace's JSON
      CHECK(std::strtod(cells[j + 1].c_str(), nullptr) == static_cast<double>(s.attention.result.trace.weights(i, j)));
      CHECK(cells[j + 1] == trace["weights"][i][j].dump());
    }
  }
}

TEST_CASE("the CSV keeps Cyrillic as UTF-8, names its corner in Russian and quotes a comma") {
  const AppState s = Lab(R"({"sentence": "я люблю суши, правда", "lang": "ru"})");
  const std::string csv = app::WeightsCsv(s);
  CHECK(csv.find("люблю") != std::string::npos);
  CHECK(csv.find("запрос \\ ключ") != std::string::npos);
  CHECK(csv.find(",\",\",") != std::string::npos);  // the token "," as a quoted field
  CHECK(Count(csv, "\r\n") == static_cast<int>(s.attention.result.tokens.size()) + 1);
}

TEST_CASE("the weights' SVG is well-formed, has N*N cells in the shader's colours and the tokens as text") {
  const AppState s = Lab(R"({"sentence": "a < b & \"c\" 'd'", "query": 1})");
  const std::string svg = app::WeightsSvg(s);
  CHECK(XmlProblem(svg) == "");
  const int n = static_cast<int>(s.attention.result.tokens.size());
  CHECK(Count(svg, "<rect x=") >= n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) CHECK(svg.find("fill=\"" + app::ViridisHex(s.attention.result.trace.weights(i, j)) + "\"") != std::string::npos);
  CHECK(svg.find(">&lt;</text>") != std::string::npos);
  CHECK(svg.find(">&amp;</text>") != std::string::npos);
  CHECK(svg.find("id=\"query-row\"") != std::string::npos);
  CHECK(XmlProblem("<svg><g></svg>") != "");  // the checker itself can fail
  CHECK(XmlProblem("<svg>a & b</svg>") != "");
}

TEST_CASE("the SVG of a long sentence turns its key labels and still parses") {
  const AppState s = Lab(R"({"sentence": "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"})");
  const std::string svg = app::WeightsSvg(s);
  CHECK(XmlProblem(svg) == "");
  CHECK(svg.find("rotate(-90)") != std::string::npos);
}

TEST_CASE("the JSON export is getTrace()'s text") {
  const AppState s = Lab(R"({"sentence": "I love sushi"})");
  const app::ExportFile f = app::ExportText(s, {"weights", "json"});
  CHECK(f.bytes == app::TraceJson(s));
  CHECK(f.type == "application/json");
  CHECK(f.name == "attention-trace-i-love-sushi.json");
}

TEST_CASE("file names are ASCII: Cyrillic transliterated, the rest cut to dashes") {
  const AppState ru = Lab(R"({"sentence": "я люблю суши", "lang": "ru"})");
  CHECK(app::ExportFileName(ru, "weights", "png", true) == "attention-weights-ya-lyublyu-sushi.png");
  CHECK(app::ExportFileName(ru, "loss", "svg", false) == "attention-loss.svg");
  CHECK(app::AsciiSlug("Hello, World! Ёжик съел щи") == "hello-world-yozhik-sel-shchi");
  CHECK(app::AsciiSlug("αβγ") == "");
  CHECK(app::AsciiSlug(std::string(100, 'a')).size() <= 40);
}

TEST_CASE("a bad export request is refused in the one wording") {
  app::ExportRequest r;
  std::string field, error;
  CHECK(app::ReadExportRequest(Json::parse(R"({"what": "weights", "format": "csv"})"), &r, &field, &error));
  CHECK(r.format == "csv");
  CHECK_FALSE(app::ReadExportRequest(Json::parse(R"({"what": "loss", "format": "csv"})"), &r, &field, &error));
  CHECK(field == "format");
  CHECK(error == "format: expected one of png, svg for loss, got \"csv\"");
  CHECK_FALSE(app::ReadExportRequest(Json::parse(R"({"what": 3, "format": "png"})"), &r, &field, &error));
  CHECK(field == "what");
  CHECK(error.rfind("what: expected one of weights, trace, vectors, contributions, simplex, whatif, example_weights, loss", 0) == 0);
  CHECK(error.find(", got 3") != std::string::npos);
  CHECK_FALSE(app::ReadExportRequest(Json::parse("[1]"), &r, &field, &error));
}

TEST_CASE("one colour map: viridis' ends, and the shader's GLSL carries the same table") {
  const auto lo = app::Viridis(0.0f), hi = app::Viridis(1.0f);
  // matplotlib's table: #440154 ... #fde725; the polynomial fit is within 5/255 at the ends
  CHECK(std::abs(lo[0] - 68) <= 5);
  CHECK(std::abs(lo[1] - 1) <= 5);
  CHECK(std::abs(lo[2] - 84) <= 5);
  CHECK(std::abs(hi[0] - 253) <= 5);
  CHECK(std::abs(hi[1] - 231) <= 5);
  CHECK(std::abs(hi[2] - 37) <= 5);
  CHECK(app::Viridis(-1.0f) == lo);  // clamped
  const std::string glsl = app::ViridisGlsl();
  for (int k = 0; k < 7; ++k) {
    const std::size_t at = glsl.find("c" + std::to_string(k) + " = vec3(");
    REQUIRE(at != std::string::npos);
    const char* p = glsl.c_str() + glsl.find('(', at) + 1;
    char* end = nullptr;
    for (int c = 0; c < 3; ++c) {
      CHECK(std::strtod(p, &end) == app::kViridis[k][c]);
      p = end + 1;
    }
  }
}

TEST_CASE("a plot's SVG: well-formed, lines broken where a point cannot be drawn, text escaped") {
  app::SvgPlot p;
  p.title = "loss <log> & more";
  p.x_label = "step";
  p.log_y = true;
  p.x_lo = 1; p.x_hi = 4; p.y_lo = 0.1; p.y_hi = 10;
  p.x_ticks = {{1, "1"}, {4, "4"}};
  p.y_ticks = {{0.1, "0.1"}, {1, "1"}, {10, "10"}};
  app::SvgSeries s;
  s.label = "A";
  s.x = {1, 2, 3, 4};
  s.y = {5, -1, 2, 1};  // -1 has no place on a log scale
  p.series.push_back(s);
  const std::string svg = app::PlotSvg(p);
  CHECK(XmlProblem(svg) == "");
  CHECK(svg.find("loss &lt;log&gt; &amp; more") != std::string::npos);
  CHECK(Count(svg, " M") == 1);  // the line starts again after the missing point
}

namespace {

// The number in attribute `name` of the first element after `anchor` (e.g. "id=\"alpha\"").
double AttrAfter(const std::string& svg, const std::string& anchor, const std::string& name, std::size_t* at = nullptr) {
  std::size_t from = svg.find(anchor, at ? *at : 0);
  REQUIRE(from != std::string::npos);
  const std::size_t tag = svg.rfind('<', from);
  const std::size_t a = svg.find(" " + name + "=\"", tag);
  REQUIRE(a != std::string::npos);
  if (at) *at = from + anchor.size();
  return std::strtod(svg.c_str() + a + name.size() + 3, nullptr);
}

// The panels' way of writing a weight: 3 decimals (the weights here are positive).
std::string Fixed(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

TEST_CASE("the contributions' SVG: a bar per token and scenario as long as its weight, the numbers and A") {
  for (const char* lang : {"en", "ru"}) {
    const AppState s = Lab((std::string(R"({"sentence": "the cat sat on the mat", "query": 2, "lang": ")") + lang + "\"}").c_str());
    const std::string svg = app::ContributionsSvg(s);
    CHECK(XmlProblem(svg) == "");
    const int n = static_cast<int>(s.attention.result.tokens.size());
    const attn::VecD alpha = s.attention.result.trace.weights.row(2).transpose().cast<double>();
    const attn::VecD& alpha2 = s.attention.result.information.collision.alpha2;
    REQUIRE(alpha2.size() == n);
    CHECK(Count(svg, "class=\"bar\"") == 2 * n);
    std::size_t at = svg.find("<g id=\"alpha\">");
    REQUIRE(at != std::string::npos);
    for (const attn::VecD* w : {&alpha, &alpha2}) {
      if (w == &alpha2) at = svg.find("<g id=\"alpha2\">");
      for (int i = 0; i < n; ++i) {
        std::size_t track_at = at;
        const double track = AttrAfter(svg, "class=\"track\"", "width", &track_at);
        const double bar = AttrAfter(svg, "class=\"bar\"", "width", &at);
        CHECK(std::abs(bar - track * (*w)(i)) <= 0.006);  // written with 2 decimals
        // the exact weight in the bar's tooltip, the panel's 3 decimals beside it
        CHECK(svg.find(": " + Json((*w)(i)).dump() + "</title>", at) != std::string::npos);
        CHECK(svg.find(">" + Fixed((*w)(i), 3) + "</text>", at) != std::string::npos);
      }
    }
    CHECK(Count(svg, "class=\"contribution\"") == 2 * n);
    CHECK(svg.find(std::string(lang) == "ru" ? "Сценарий 1" : "Scenario 1") != std::string::npos);
    CHECK(svg.find("A = [") != std::string::npos);
    CHECK(svg.find("A′ = [") != std::string::npos);
    // A's first entry as the panel writes it
    const double a0 = s.attention.result.information.collision.output(0);
    CHECK(svg.find("A = [" + (a0 < 0 ? std::string("−") + Fixed(-a0, 3) : Fixed(a0, 3))) != std::string::npos);
  }
}

TEST_CASE("the simplex's SVG: α where its weights put it between the corners, the same-output set, α′") {
  const AppState s = Lab(R"({"sentence": "I love sushi", "query": 2, "dV": 1})");
  std::string why;
  const std::string svg = app::SimplexSvg(s, &why);
  REQUIRE(why == "");
  CHECK(XmlProblem(svg) == "");
  REQUIRE(s.attention.result.information.visible.size() == 3);
  CHECK(Count(svg, "class=\"corner\"") == 3);
  double cx[3], cy[3];
  std::size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    std::size_t before = at;
    cx[i] = AttrAfter(svg, "class=\"corner\"", "cx", &before);
    cy[i] = AttrAfter(svg, "class=\"corner\"", "cy", &at);
  }
  const attn::VecD alpha = s.attention.result.trace.weights.row(2).transpose().cast<double>();
  double x = 0, y = 0;
  for (int i = 0; i < 3; ++i) {
    x += alpha(i) * cx[i];
    y += alpha(i) * cy[i];
  }
  CHECK(std::abs(AttrAfter(svg, "id=\"alpha\"", "cx") - x) <= 0.011);
  CHECK(std::abs(AttrAfter(svg, "id=\"alpha\"", "cy") - y) <= 0.011);
  CHECK(svg.find("α = (" + Json(alpha(0)).dump() + ", " + Json(alpha(1)).dump() + ", " + Json(alpha(2)).dump() + ")") !=
        std::string::npos);
  // d_v = 1 with 3 keys: the same A is a segment (or more), never just the point
  CHECK(s.attention.result.same_output_vertices.size() >= 2);
  CHECK(Count(svg, "class=\"vertex\"") == static_cast<int>(s.attention.result.same_output_vertices.size()));
  CHECK(svg.find("id=\"same-output\"") != std::string::npos);
  CHECK(svg.find("id=\"alpha2\"") != std::string::npos);

  const AppState five = Lab(R"({"sentence": "the cat sat on the mat", "query": 4})");
  CHECK(app::SimplexSvg(five, &why) == "");
  CHECK(why.rfind("what: expected a picture the lab draws now, got \"simplex\"", 0) == 0);
  const app::ExportFile f = app::ExportText(five, {"simplex", "svg"});
  CHECK(f.field == "what");
  CHECK(f.bytes == "");
}

TEST_CASE("the training example's SVG: every head of run A (and B) with the engine's weights") {
  AppState s = Lab(R"({"lang": "ru", "train": {"heads": 2}})");
  REQUIRE(s.training.a.has_view);
  std::string why;
  std::string svg = app::ExampleWeightsSvg(s, &why);
  REQUIRE(why == "");
  CHECK(XmlProblem(svg) == "");
  const auto& v = s.training.a.view;
  const int n = static_cast<int>(v.tokens.size());
  REQUIRE(v.forward.attn.heads.size() == 2);
  CHECK(Count(svg, "class=\"head\"") == 2);
  for (int h = 0; h < 2; ++h)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double w = v.forward.attn.heads[h].weights(i, j);
        CHECK(svg.find("fill=\"" + app::ViridisHex(static_cast<float>(w)) + "\"><title>" + app::XmlEscape(v.tokens[i] + " → " + v.tokens[j]) +
                       ": " + Json(w).dump() + "</title>") != std::string::npos);
      }
  CHECK(svg.find("Голова 1 из 0–1") != std::string::npos);  // heads counted from 0, as in the state
  CHECK(svg.find("id=\"run-b\"") == std::string::npos);
  const app::ExportFile f = app::ExportText(s, {"example_weights", "svg"});
  CHECK(f.name == "attention-example-weights.svg");
  CHECK(f.error == "");

  s = Lab(R"({"lang": "en", "train": {"compare": "scaled"}})");
  REQUIRE(s.training.compare);
  svg = app::ExampleWeightsSvg(s, &why);
  CHECK(XmlProblem(svg) == "");
  CHECK(svg.find("id=\"run-b\"") != std::string::npos);
  CHECK(svg.find("B (compare: scaled)") != std::string::npos);
}

TEST_CASE("the new pictures' names: what, formats and file names") {
  const AppState ru = Lab(R"({"sentence": "я люблю суши", "lang": "ru"})");
  app::ExportRequest r;
  std::string field, error;
  for (const char* what : {"contributions", "simplex", "example_weights"}) {
    CHECK(app::ReadExportRequest(Json{{"what", what}, {"format", "svg"}}, &r, &field, &error));
    CHECK(app::ReadExportRequest(Json{{"what", what}, {"format", "png"}}, &r, &field, &error));
    CHECK_FALSE(app::ReadExportRequest(Json{{"what", what}, {"format", "csv"}}, &r, &field, &error));
    CHECK(app::ExportFromState({what, "svg"}));
    CHECK_FALSE(app::ExportFromState({what, "png"}));
  }
  CHECK(app::ExportText(ru, {"contributions", "svg"}).name == "attention-contributions-ya-lyublyu-sushi.svg");
  CHECK(app::ExportText(ru, {"simplex", "svg"}).name == "attention-simplex-ya-lyublyu-sushi.svg");
}
