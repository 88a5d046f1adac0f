// The Training tab's example heatmaps as SVG (figure_export.h): every head of run A (and B).
#include "app/exports/svg_text.h"
#include "app/exports/colormap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

using namespace svg;

std::string ExampleWeightsSvg(const LabView& view, std::string* why) {
  struct Run {
    const attn::ExampleView* view;  // null: none computed
    std::string title;
    const char* colour;
  };
  std::vector<Run> runs;
  const bool compare = view.training.compare;
  runs.push_back({view.training.example,
                  compare ? "A" : Say(*view.lab, text::tr::kSvgExampleRun),
                  kQueryColour});
  if (compare)
    runs.push_back({view.training.example_b, Say(*view.lab, text::tr::kSvgCompareRun, view.lab->train.compare.c_str()), "#5aa0f0"});
  for (const Run& run : runs) {
    if (!run.view || run.view->forward.attn.heads.empty() || run.view->tokens.empty() ||
        run.view->forward.attn.heads[0].weights.rows() != static_cast<Eigen::Index>(run.view->tokens.size())) {
      *why = "what: expected a picture the lab draws now, got \"example_weights\" (the training example has no "
             "finite weights to draw)";
      return "";
    }
  }
  const int h = static_cast<int>(view.training.example->forward.attn.heads.size());
  const int n = static_cast<int>(view.training.example->tokens.size());
  const int q = view.training.query;
  double label_w = 0;
  for (const auto& t : view.training.example->tokens) label_w = std::max(label_w, TextWidth(t));
  const double cell = std::clamp(260.0 / std::max(n, 1), 14.0, 44.0), side = cell * n;
  double top_label = 0;  // the keys on top: upright when they fit, else turned
  for (const auto& t : view.training.example->tokens) top_label = std::max(top_label, TextWidth(t));
  const bool upright = cell >= top_label + 4;
  const double head_w = label_w + 10 + side + 18, block_h = 30 + (upright ? 18 : top_label + 8) + side + (h > 1 ? 24 : 8);
  const std::string title = Say(*view.lab, text::tr::kSvgExampleTitle);
  const double margin = 12;
  double width = std::max(margin * 2 + head_w * h, margin * 2 + TextWidth(title) * 14 / 13);
  for (const Run& run : runs) width = std::max(width, margin * 2 + TextWidth(run.title));
  const double height = 34 + block_h * runs.size() + 8;
  std::string o = SvgHeader(width, height, 12, title);
  o += "<text x=\"" + Num(margin) + "\" y=\"20\" font-size=\"14\" fill=\"#111111\">" + XmlEscape(title) + "</text>\n";
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const attn::ExampleView& v = *runs[k].view;
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
        const std::string caption = Say(*view.lab, text::tr::kHeadOf, head, h - 1);
        o += "<text x=\"" + Num(left) + "\" y=\"" + Num(top + side + 16) + "\" fill=\"#555555\">" + caption + "</text>\n";
      }
      o += "</g>\n";
    }
    o += "</g>\n";
  }
  o += "</svg>\n";
  return o;
}

}  // namespace app
