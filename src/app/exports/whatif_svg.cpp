// The what-if's difference as a file (figure_export.h): Δα of the chosen head as CSV and as an
// SVG heatmap on the diverging map (colormap.h: zero in the middle), on the plain run's tokens.
#include "app/exports/colormap.h"
#include "app/exports/svg_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace app {

using namespace svg;

namespace {

constexpr double kDeltaFloor = 1e-3;  // the colour scale's smallest half-width (as on screen)

// What the Δ figure shows, the lab's or the model's: the chosen head's Δα on the plain run's tokens.
struct DeltaFigure {
  std::vector<std::string> tokens;  // (N) the plain run's tokens
  const attn::MatD* d = nullptr;    // (N, N) Δα of the chosen head
  std::vector<char> row_present;    // (N) 0: the query has no counterpart (its row is left empty)
  std::vector<char> col_present;    // (N) 0: the key has no counterpart (the model's edited word)
  int query = -1;                   // the outlined row, -1 = none
  double max_abs = 0;               // over every head: the colour scale is the tab's
  std::string head;                 // "" in the lab (one layer), "layer 2, head 3" in the model
};

bool Cell(const DeltaFigure& f, int i, int j) {
  return f.row_present[static_cast<std::size_t>(i)] && f.col_present[static_cast<std::size_t>(j)];
}

// The one wording of the exports' refusals (the simplex's, the training example's).
std::string NoEdit() {
  return "what: expected a picture the lab draws now, got \"whatif\" (the run has no edit: set whatIfToken, shuffle, "
         "knockoutKeys, knockoutHeads or valueToken)";
}

// The figure of the current settings, or false with the refusal in *why.
bool CurrentDelta(const LabView& v, DeltaFigure* f, std::string* why) {
  const attn::LabConfig& cfg = v.lab->config;
  if (cfg.projection == attn::Projection::kModel) {
    const attn::model::ModelComparison* c = v.whatif.model;
    const std::vector<std::string>& texts = v.attention.model_result->texts;
    const int heads = v.attention.model_result->config.heads;
    const std::size_t k = static_cast<std::size_t>(cfg.layer * heads + cfg.head);
    if (!c || k >= c->d_weights.size() || c->to_edited.size() != texts.size()) {
      *why = !v.whatif.model_error->ok() ? "what: expected a picture the lab draws now, got \"whatif\" (" +
                                              v.whatif.model_error->message + ")"
                                        : NoEdit();
      return false;
    }
    f->tokens = texts;
    f->d = &c->d_weights[k];
    for (int e : c->to_edited) f->row_present.push_back(e >= 0 ? 1 : 0);
    f->col_present = f->row_present;
    f->query = cfg.query < static_cast<int>(texts.size()) ? cfg.query : -1;
    f->max_abs = c->max_abs_d_weight;
    f->head = Say(*v.lab, text::tr::kSvgLayerHead, cfg.layer, cfg.head);
    return true;
  }
  const attn::LabComparison* c = v.whatif.comparison;
  if (!c || c->d_weights.empty()) {
    *why = NoEdit();
    return false;
  }
  const int h = std::clamp(cfg.head, 0, static_cast<int>(c->d_weights.size()) - 1);
  for (const auto& t : c->plain.tokens) f->tokens.push_back(t.text);
  f->d = &c->d_weights[static_cast<std::size_t>(h)];
  f->row_present = c->row_present;
  f->col_present.assign(f->tokens.size(), 1);  // a deleted key's column is -α
  f->query = c->query;
  f->max_abs = c->max_abs_d_weight;
  return true;
}

}  // namespace

std::string WhatIfCsv(const LabView& v, std::string* why) {
  DeltaFigure f;
  if (!CurrentDelta(v, &f, why)) return "";
  const std::string corner = f.head.empty() ? Say(*v.lab, text::tr::kCsvDeltaCorner)
                                            : Say(*v.lab, text::tr::kCsvDeltaCornerHead, f.head.c_str());
  std::string out = "\xEF\xBB\xBF";  // BOM: Excel reads UTF-8 (Cyrillic) only with it
  out += CsvField(corner);
  for (const auto& t : f.tokens) out += "," + CsvField(t);
  out += "\r\n";
  const int n = static_cast<int>(f.tokens.size());
  for (int i = 0; i < n; ++i) {
    out += CsvField(f.tokens[static_cast<std::size_t>(i)]);
    for (int j = 0; j < n; ++j) out += "," + (Cell(f, i, j) ? Json((*f.d)(i, j)).dump() : std::string());
    out += "\r\n";
  }
  return out;
}

std::string WhatIfSvg(const LabView& v, std::string* why) {
  DeltaFigure f;
  if (!CurrentDelta(v, &f, why)) return "";
  const attn::MatD& d = *f.d;
  const std::vector<std::string>& tokens = f.tokens;
  const int n = static_cast<int>(d.rows());
  const int q = f.query;
  const double m = std::max(kDeltaFloor, f.max_abs);
  auto colour = [&](double x) { return DivergingHex(static_cast<float>((x + m) / (2 * m))); };
  double label_w = 0;
  for (const auto& t : tokens) label_w = std::max(label_w, TextWidth(t));
  const double cell = std::clamp(480.0 / std::max(n, 1), 14.0, 56.0);
  const bool top_fits = cell >= label_w + 6;
  const double left = label_w + 16, top = 40 + (top_fits ? 20 : label_w + 12);
  const double side = cell * n;
  const double width = std::max(left + side + 70, 560.0), height = top + side + 70;
  std::string title = Say(*v.lab, text::tr::kSvgDeltaTitle);
  if (!f.head.empty()) title = f.head + ". " + title;
  std::string o = SvgHeader(width, height, 13, title);
  o += "<text x=\"8\" y=\"22\" font-size=\"15\" fill=\"#111111\">" + XmlEscape(title) + "</text>\n";
  o += "<g id=\"cells\" shape-rendering=\"crispEdges\">\n";
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const bool present = Cell(f, i, j);
      o += "<rect x=\"" + Num(left + cell * j) + "\" y=\"" + Num(top + cell * i) + "\" width=\"" + Num(cell) +
           "\" height=\"" + Num(cell) + "\" fill=\"" + (present ? colour(d(i, j)) : std::string("#c8c8d0")) + "\"><title>" +
           XmlEscape(tokens[i] + " → " + tokens[j]) + ": " + (present ? Json(d(i, j)).dump() : "—") +
           "</title></rect>\n";
    }
  }
  o += "</g>\n";
  if (cell >= 34) {
    o += "<g id=\"values\" text-anchor=\"middle\" font-size=\"" + Num(std::min(13.0, cell / 3.2), "%.1f") + "\">\n";
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j)
        if (Cell(f, i, j))
          o += "<text x=\"" + Num(left + cell * (j + 0.5)) + "\" y=\"" + Num(top + cell * (i + 0.5) + 4) + "\" fill=\"" +
             (std::abs(d(i, j)) > 0.6 * m ? "#ffffff" : "#141414") + "\">" + XmlEscape(Shown(d(i, j), 2)) + "</text>\n";
    }
    o += "</g>\n";
  }
  o += "<g id=\"queries\" text-anchor=\"end\">\n";
  for (int i = 0; i < n; ++i)
    o += "<text x=\"" + Num(left - 6) + "\" y=\"" + Num(top + cell * (i + 0.5) + 4.5) + "\" fill=\"" +
         (i == q ? std::string(kQueryColour) : std::string("#111111")) + "\"" + (i == q ? " font-weight=\"bold\"" : "") +
         ">" + XmlEscape(tokens[i]) + "</text>\n";
  o += "</g>\n<g id=\"keys\" fill=\"#111111\">\n";
  for (int j = 0; j < n; ++j) {
    const double x = left + cell * (j + 0.5);
    if (top_fits)
      o += "<text x=\"" + Num(x) + "\" y=\"" + Num(top - 6) + "\" text-anchor=\"middle\">" + XmlEscape(tokens[j]) + "</text>\n";
    else
      o += "<text transform=\"translate(" + Num(x + 4) + " " + Num(top - 6) + ") rotate(-90)\">" + XmlEscape(tokens[j]) +
           "</text>\n";
  }
  o += "</g>\n";
  if (q >= 0 && q < n)
    o += "<rect id=\"query-row\" x=\"" + Num(left - 1) + "\" y=\"" + Num(top + cell * q - 1) + "\" width=\"" + Num(side + 2) +
         "\" height=\"" + Num(cell + 2) + "\" fill=\"none\" stroke=\"" + kQueryColour + "\" stroke-width=\"2.5\"/>\n";
  // the legend: the diverging ramp over [-m, m], zero in the middle
  const double ly = top + side + 24, lw = std::min(std::max(side, 160.0), 240.0);
  o += DivergingLegend(left, ly, lw, m, 3);
  o += "<text x=\"" + Num(left + lw + 10) + "\" y=\"" + Num(ly + 11) + "\" fill=\"#555555\">Δα</text>\n";
  o += "</svg>\n";
  return o;
}

}  // namespace app
