// The what-if's difference as a file (figure_export.h): Δα of the chosen head as CSV and as an
// SVG heatmap on the diverging map (colormap.h: zero in the middle), on the plain run's tokens.
#include "app/app.h"
#include "app/exports/colormap.h"
#include "app/exports/svg_text.h"

#include <algorithm>
#include <cmath>

namespace app {

using namespace svg;

namespace {

constexpr double kDeltaFloor = 1e-3;  // the colour scale's smallest half-width (as on screen)

const attn::MatD* ChosenDelta(const AppState& s, const attn::LabComparison** c) {
  *c = CurrentComparison(s);
  if (!*c || (*c)->d_weights.empty()) return nullptr;
  const int h = std::clamp(s.lab.config.head, 0, static_cast<int>((*c)->d_weights.size()) - 1);
  return &(*c)->d_weights[static_cast<std::size_t>(h)];
}

// The one wording of the exports' refusals (the simplex's, the training example's).
std::string NoEdit(const AppState&) {
  return "what: expected a picture the lab draws now, got \"whatif\" (the run has no edit: set whatIfToken, shuffle, "
         "knockoutKeys, knockoutHeads or valueToken)";
}

}  // namespace

std::string WhatIfCsv(const AppState& s, std::string* why) {
  const attn::LabComparison* c = nullptr;
  const attn::MatD* d = ChosenDelta(s, &c);
  if (!d) {
    *why = NoEdit(s);
    return "";
  }
  const auto& tokens = c->plain.tokens;
  std::string out = "\xEF\xBB\xBF";  // BOM: Excel reads UTF-8 (Cyrillic) only with it
  out += CsvField(Ru(s.lab) ? "Δα: запрос \\ ключ" : "Δα: query \\ key");
  for (const auto& t : tokens) out += "," + CsvField(t.text);
  out += "\r\n";
  for (Eigen::Index i = 0; i < d->rows(); ++i) {
    out += CsvField(tokens[static_cast<std::size_t>(i)].text);
    const bool present = c->row_present[static_cast<std::size_t>(i)];
    for (Eigen::Index j = 0; j < d->cols(); ++j) out += "," + (present ? Json((*d)(i, j)).dump() : std::string());
    out += "\r\n";
  }
  return out;
}

std::string WhatIfSvg(const AppState& s, std::string* why) {
  const attn::LabComparison* c = nullptr;
  const attn::MatD* dp = ChosenDelta(s, &c);
  if (!dp) {
    *why = NoEdit(s);
    return "";
  }
  const attn::MatD& d = *dp;
  const auto& tokens = c->plain.tokens;
  const int n = static_cast<int>(d.rows());
  const int q = c->query;
  const bool ru = Ru(s.lab);
  const double m = std::max(kDeltaFloor, c->max_abs_d_weight);
  auto colour = [&](double v) { return DivergingHex(static_cast<float>((v + m) / (2 * m))); };
  double label_w = 0;
  for (const auto& t : tokens) label_w = std::max(label_w, TextWidth(t.text));
  const double cell = std::clamp(480.0 / std::max(n, 1), 14.0, 56.0);
  const bool top_fits = cell >= label_w + 6;
  const double left = label_w + 16, top = 40 + (top_fits ? 20 : label_w + 12);
  const double side = cell * n;
  const double width = std::max(left + side + 70, 560.0), height = top + side + 70;
  const std::string title = ru ? "Δα = α′ − α (изменённый прогон минус исходный): строка — запрос, столбец — ключ"
                               : "Δα = α′ − α (the edited run minus the plain one): row = query, column = key";
  std::string o = SvgHeader(width, height, 13, title);
  o += "<text x=\"8\" y=\"22\" font-size=\"15\" fill=\"#111111\">" + XmlEscape(title) + "</text>\n";
  o += "<g id=\"cells\" shape-rendering=\"crispEdges\">\n";
  for (int i = 0; i < n; ++i) {
    const bool present = c->row_present[static_cast<std::size_t>(i)];
    for (int j = 0; j < n; ++j)
      o += "<rect x=\"" + Num(left + cell * j) + "\" y=\"" + Num(top + cell * i) + "\" width=\"" + Num(cell) +
           "\" height=\"" + Num(cell) + "\" fill=\"" + (present ? colour(d(i, j)) : std::string("#c8c8d0")) + "\"><title>" +
           XmlEscape(tokens[i].text + " → " + tokens[j].text) + ": " + (present ? Json(d(i, j)).dump() : "—") +
           "</title></rect>\n";
  }
  o += "</g>\n";
  if (cell >= 34) {
    o += "<g id=\"values\" text-anchor=\"middle\" font-size=\"" + Num(std::min(13.0, cell / 3.2), "%.1f") + "\">\n";
    for (int i = 0; i < n; ++i) {
      if (!c->row_present[static_cast<std::size_t>(i)]) continue;
      for (int j = 0; j < n; ++j)
        o += "<text x=\"" + Num(left + cell * (j + 0.5)) + "\" y=\"" + Num(top + cell * (i + 0.5) + 4) + "\" fill=\"" +
             (std::abs(d(i, j)) > 0.6 * m ? "#ffffff" : "#141414") + "\">" + XmlEscape(Shown(d(i, j), 2)) + "</text>\n";
    }
    o += "</g>\n";
  }
  o += "<g id=\"queries\" text-anchor=\"end\">\n";
  for (int i = 0; i < n; ++i)
    o += "<text x=\"" + Num(left - 6) + "\" y=\"" + Num(top + cell * (i + 0.5) + 4.5) + "\" fill=\"" +
         (i == q ? std::string(kQueryColour) : std::string("#111111")) + "\"" + (i == q ? " font-weight=\"bold\"" : "") +
         ">" + XmlEscape(tokens[i].text) + "</text>\n";
  o += "</g>\n<g id=\"keys\" fill=\"#111111\">\n";
  for (int j = 0; j < n; ++j) {
    const double x = left + cell * (j + 0.5);
    if (top_fits)
      o += "<text x=\"" + Num(x) + "\" y=\"" + Num(top - 6) + "\" text-anchor=\"middle\">" + XmlEscape(tokens[j].text) + "</text>\n";
    else
      o += "<text transform=\"translate(" + Num(x + 4) + " " + Num(top - 6) + ") rotate(-90)\">" + XmlEscape(tokens[j].text) +
           "</text>\n";
  }
  o += "</g>\n";
  if (q >= 0 && q < n)
    o += "<rect id=\"query-row\" x=\"" + Num(left - 1) + "\" y=\"" + Num(top + cell * q - 1) + "\" width=\"" + Num(side + 2) +
         "\" height=\"" + Num(cell + 2) + "\" fill=\"none\" stroke=\"" + kQueryColour + "\" stroke-width=\"2.5\"/>\n";
  // the legend: the diverging ramp over [-m, m], zero in the middle
  const double ly = top + side + 24, lw = std::min(std::max(side, 160.0), 240.0);
  o += "<defs><linearGradient id=\"diverging\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">\n";
  for (int k = 0; k <= 12; ++k)
    o += "<stop offset=\"" + Num(k / 12.0, "%.4f") + "\" stop-color=\"" + DivergingHex(static_cast<float>(k / 12.0)) + "\"/>\n";
  o += "</linearGradient></defs>\n";
  o += "<rect id=\"legend\" x=\"" + Num(left) + "\" y=\"" + Num(ly) + "\" width=\"" + Num(lw) +
       "\" height=\"12\" fill=\"url(#diverging)\" stroke=\"#888888\" stroke-width=\"0.5\"/>\n";
  o += "<text x=\"" + Num(left) + "\" y=\"" + Num(ly + 28) + "\" fill=\"#111111\">" + XmlEscape("−" + Shown(m, 3)) + "</text>\n";
  o += "<text x=\"" + Num(left + lw / 2) + "\" y=\"" + Num(ly + 28) + "\" text-anchor=\"middle\" fill=\"#111111\">0</text>\n";
  o += "<text x=\"" + Num(left + lw) + "\" y=\"" + Num(ly + 28) + "\" text-anchor=\"end\" fill=\"#111111\">" +
       XmlEscape("+" + Shown(m, 3)) + "</text>\n";
  o += "<text x=\"" + Num(left + lw + 10) + "\" y=\"" + Num(ly + 11) + "\" fill=\"#555555\">Δα</text>\n";
  o += "</svg>\n";
  return o;
}

}  // namespace app
