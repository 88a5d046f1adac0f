// A line plot as SVG (figure_export.h): the interface's layout of a plot (ranges, ticks, series)
// drawn again as text.
#include "app/exports/svg_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

using namespace svg;

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
