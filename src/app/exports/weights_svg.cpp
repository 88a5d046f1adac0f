// The weights as a file (figure_export.h): the CSV and the heatmap's SVG.
#include "app/exports/svg_text.h"
#include "app/exports/colormap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

using namespace svg;

std::string WeightsCsv(const LabView& v) {
  const auto& w = v.attention.result->trace.weights;  // (N, N): row = query, column = key
  const auto& tokens = v.attention.result->tokens;
  std::string out = "\xEF\xBB\xBF";  // BOM: Excel reads UTF-8 (Cyrillic) only with it
  out += CsvField(Say(*v.lab, text::tr::kCsvCorner));
  for (const auto& t : tokens) out += "," + CsvField(t.text);
  out += "\r\n";
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    out += CsvField(tokens[static_cast<std::size_t>(i)].text);
    for (Eigen::Index j = 0; j < w.cols(); ++j) out += "," + TraceNumber(w(i, j));
    out += "\r\n";
  }
  return out;
}

std::string WeightsSvg(const LabView& v) {
  const auto& w = v.attention.result->trace.weights;
  const auto& tokens = v.attention.result->tokens;
  const int n = static_cast<int>(w.rows());
  const int q = v.attention.result->steps.query;  // the run's index (an edit can move the query)
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
  const std::string title = Say(*v.lab, text::tr::kSvgWeightsTitle);
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
  const attn::Mask& mask = v.attention.result->mha.mask;
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
       Say(*v.lab, text::tr::kSvgKeyAxis) + "</text>\n";
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


}  // namespace app
