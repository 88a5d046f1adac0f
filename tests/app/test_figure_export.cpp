// Exports (issue 11.5): the CSV, SVG and JSON texts are written from the engine's numbers, the
// SVG is well-formed XML with the shader's colours, and a bad request gets the one wording.
#include "app/app.h"
#include "app/colormap.h"
#include "app/figure_export.h"

#include <doctest/doctest.h>

#include <cmath>
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
  const int n = static_cast<int>(s.result.tokens.size());
  REQUIRE(n == 6);
  REQUIRE(static_cast<int>(lines.size()) == n + 1);
  const std::vector<std::string> header = Split(lines[0], ",");
  CHECK(header[0] == "query \\ key");
  for (int j = 0; j < n; ++j) CHECK(header[j + 1] == s.result.tokens[j].text);
  const Json trace = Json::parse(app::TraceJson(s));
  for (int i = 0; i < n; ++i) {
    const std::vector<std::string> cells = Split(lines[i + 1], ",");
    REQUIRE(static_cast<int>(cells.size()) == n + 1);
    CHECK(cells[0] == s.result.tokens[i].text);
    for (int j = 0; j < n; ++j) {
      // the engine's float, exactly, and the same text as the trace's JSON
      CHECK(std::strtod(cells[j + 1].c_str(), nullptr) == static_cast<double>(s.result.trace.weights(i, j)));
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
  CHECK(Count(csv, "\r\n") == static_cast<int>(s.result.tokens.size()) + 1);
}

TEST_CASE("the weights' SVG is well-formed, has N*N cells in the shader's colours and the tokens as text") {
  const AppState s = Lab(R"({"sentence": "a < b & \"c\" 'd'", "query": 1})");
  const std::string svg = app::WeightsSvg(s);
  CHECK(XmlProblem(svg) == "");
  const int n = static_cast<int>(s.result.tokens.size());
  CHECK(Count(svg, "<rect x=") >= n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) CHECK(svg.find("fill=\"" + app::ViridisHex(s.result.trace.weights(i, j)) + "\"") != std::string::npos);
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
  CHECK(error.rfind("what: expected one of weights, trace, vectors, loss", 0) == 0);
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
