// Activation patching's grid as a file (figure_export.h): CSV, SVG on the diverging colours (zero
// in the middle, as on screen), JSON (runPatching's). In the builds with the model's code only
// (CMakeLists.txt: attn_inspect); the default page's build links patching_export_absent.cpp.
#include "api/inspect_json.h"
#include "app/exports/colormap.h"
#include "app/exports/svg_text.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace app {

using namespace svg;

namespace {

bool PerHead(const std::string& what) { return what == "head" || what == "pattern"; }

// The columns' labels: the clean prompt's tokens, or the heads' numbers.
std::vector<std::string> Columns(const LabView& v) {
  std::vector<std::string> out;
  const attn::model::PatchRun& run = *v.inspect.patching;
  for (int c = 0; c < run.cols(); ++c)
    out.push_back(PerHead(*v.inspect.patch_what) ? std::to_string(c) : (*v.inspect.patch_clean)[static_cast<std::size_t>(c)]);
  return out;
}

std::string Csv(const LabView& v) {
  const attn::model::PatchRun& run = *v.inspect.patching;
  const std::vector<std::string> cols = Columns(v);
  std::string out = "\xEF\xBB\xBF";  // BOM: Excel reads UTF-8 (Cyrillic) only with it
  out += CsvField(Say(*v.lab, text::tr::kCsvPatchCorner, v.inspect.patch_what->c_str(),
                      Say(*v.lab, PerHead(*v.inspect.patch_what) ? text::tr::kCsvPatchHead : text::tr::kCsvPatchPosition).c_str()));
  for (const std::string& c : cols) out += "," + CsvField(c);
  out += "\r\n";
  for (int r = 0; r < run.rows(); ++r) {
    out += std::to_string(r);
    for (int c = 0; c < run.cols(); ++c) {
      const double x = run.metric()[static_cast<std::size_t>(r * run.cols() + c)];
      out += "," + (std::isnan(x) ? std::string() : Json(x).dump());
    }
    out += "\r\n";
  }
  return out;
}

std::string Svg(const LabView& v) {
  const attn::model::PatchRun& run = *v.inspect.patching;
  const std::vector<std::string> cols = Columns(v);
  const auto& tok = v.model.loaded->tokenizer();
  const int rows = run.rows(), n = run.cols();
  double m = 1;
  for (double x : run.metric())
    if (!std::isnan(x)) m = std::max(m, std::abs(x));
  auto colour = [&](double x) { return DivergingHex(static_cast<float>((x + m) / (2 * m))); };
  double label_w = 0;
  for (const auto& c : cols) label_w = std::max(label_w, TextWidth(c));
  const double cell_w = std::clamp(640.0 / std::max(n, 1), 16.0, 60.0), cell_h = std::clamp(360.0 / std::max(rows, 1), 12.0, 36.0);
  const double left = 40, top = 44;
  const double width = std::max(left + cell_w * n + 40, 560.0), height = top + cell_h * rows + label_w + 70;
  const std::string title = Say(*v.lab, text::tr::kSvgPatchTitle, v.inspect.patch_what->c_str(), tok.Label(run.spec().target).c_str(),
                                tok.Label(run.spec().foil).c_str());
  std::string o = SvgHeader(width, height, 13, title);
  o += "<text x=\"8\" y=\"22\" font-size=\"14\" fill=\"#111111\">" + XmlEscape(title) + "</text>\n";
  o += "<g id=\"cells\" shape-rendering=\"crispEdges\">\n";
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = run.metric()[static_cast<std::size_t>(r * n + c)];
      o += "<rect x=\"" + Num(left + cell_w * c) + "\" y=\"" + Num(top + cell_h * r) + "\" width=\"" + Num(cell_w) + "\" height=\"" +
           Num(cell_h) + "\" fill=\"" + (std::isnan(x) ? std::string("#c8c8d0") : colour(x)) + "\"><title>" +
           XmlEscape(std::to_string(r) + ", " + cols[static_cast<std::size_t>(c)]) + ": " + (std::isnan(x) ? "—" : Json(x).dump()) +
           "</title></rect>\n";
    }
  o += "</g>\n<g id=\"layers\" text-anchor=\"end\" fill=\"#111111\">\n";
  for (int r = 0; r < rows; ++r)
    o += "<text x=\"" + Num(left - 6) + "\" y=\"" + Num(top + cell_h * (r + 0.5) + 4.5) + "\">" + std::to_string(r) + "</text>\n";
  o += "</g>\n<g id=\"columns\" fill=\"#111111\">\n";
  for (int c = 0; c < n; ++c)
    o += "<text transform=\"translate(" + Num(left + cell_w * (c + 0.5) + 4) + " " + Num(top + cell_h * rows + 8) +
         ") rotate(90)\">" + XmlEscape(cols[static_cast<std::size_t>(c)]) + "</text>\n";
  o += "</g>\n";
  const double ly = top + cell_h * rows + label_w + 24, lw = 240;
  o += DivergingLegend(left, ly, lw, m, 2);
  o += "</svg>\n";
  return o;
}

}  // namespace

std::string PatchingExport(const LabView& v, const std::string& format, std::string* why) {
  if (!v.inspect.patching || !v.model.loaded) {
    *why = "what: expected a picture the lab draws now, got \"patching\" (no patching run yet: runPatching or the "
           "Prediction tab's Run)";
    return "";
  }
  if (format == "csv") return Csv(v);
  if (format == "svg") return Svg(v);
  const auto& tok = v.model.loaded->tokenizer();
  return attn::api::Dump(attn::api::PatchJson(*v.inspect.patching, v.inspect.patch_what->c_str(), *v.inspect.patch_clean,
                                              *v.inspect.patch_corrupted, [&tok](int id) { return tok.Label(id); }));
}

}  // namespace app
