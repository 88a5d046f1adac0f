// The Information panel's pictures as SVG (figure_export.h): the contributions' bars and the
// simplex.
#include "app/exports/svg_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

using namespace svg;

std::string ContributionsSvg(const LabView& v) {
  const attn::LabResult& r = *v.attention.result;
  const bool custom = v.attention.custom->active;
  const attn::InformationReport& info = custom ? v.attention.custom->info : r.information;
  const attn::VecD alpha = custom ? v.attention.custom->alpha : attn::VecD(r.trace.weights.row(r.steps.query).transpose().cast<double>());
  const attn::MatD& c1 = custom ? v.attention.custom->contributions : r.contributions;
  const attn::MatD& c2 = custom ? v.attention.custom->contributions2 : r.contributions2;
  const int n = static_cast<int>(r.tokens.size());
  const std::string target = r.target >= 0 && r.target < n ? r.tokens[r.target].text : "?";
  const double col = 380, gap = 28, margin = 16, label_w = 90, bar_w = col - label_w - 66, row_h = 38;
  const double width = margin * 2 + col * 2 + gap, top = 56;
  const double height = top + row_h * n + 78;
  const std::string title = Say(*v.lab, text::tr::kSvgContributionsTitle);
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
  std::string t1 = Say(*v.lab, custom ? text::tr::kScenario1Custom : text::tr::kScenario1);
  std::string t2 = Say(*v.lab, info.set == attn::FeasibleSet::kAffine ? text::tr::kSvgScenario2Affine : text::tr::kScenario2,
                       target.c_str());
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
        o += "<text x=\"" + Num(bx) + "\" y=\"" + Num(y + 14) + "\" fill=\"#999999\">" + Say(*v.lab, text::tr::kMaskedBar) + "</text>\n";
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
       Say(*v.lab, text::tr::kSvgSameOutput) + "</text>\n";
  o += "</svg>\n";
  return o;
}

std::string SimplexSvg(const LabView& view, std::string* why) {
  const attn::LabResult& r = *view.attention.result;
  const bool custom = view.attention.custom->active;
  const attn::InformationReport& info = custom ? view.attention.custom->info : r.information;
  const std::vector<int>& keys = r.information.visible;  // the corners: the keys the query sees
  const int n = static_cast<int>(keys.size());
  if (r.information.set != attn::FeasibleSet::kSimplex || (n != 3 && n != 4)) {
    *why = "what: expected a picture the lab draws now, got \"simplex\" (the simplex is drawn for 3 or 4 keys the query "
           "sees with weights that sum to 1; here " + std::to_string(n) + " keys" +
           (r.information.set != attn::FeasibleSet::kSimplex ? ", weights that need not sum to 1)" : ")");
    return "";
  }
  const attn::VecD alpha = custom ? view.attention.custom->alpha : attn::VecD(r.trace.weights.row(r.steps.query).transpose().cast<double>());
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
  const std::string title = Say(*view.lab, text::tr::kSvgSimplexTitle);
  std::string o = SvgHeader(width, height, 13, title);
  o += "<text x=\"8\" y=\"20\" font-size=\"13\" fill=\"#111111\">" +
       XmlEscape(Say(*view.lab, text::tr::kSvgSimplexHeading)) + "</text>\n";
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
  const std::vector<attn::VecD>& vertices = custom ? view.attention.custom->vertices : r.same_output_vertices;
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
       XmlEscape(Say(*view.lab, custom ? text::tr::kSvgLegendAlphaCustom : text::tr::kSvgLegendAlpha)) + "</text>\n";
  o += "<circle cx=\"" + Num(ox) + "\" cy=\"" + Num(ly + 16) + "\" r=\"5\" fill=\"none\" stroke=\"" + kAlpha2Colour +
       "\" stroke-width=\"2\"/>\n";
  o += "<text x=\"" + Num(ox + 10) + "\" y=\"" + Num(ly + 20) + "\" fill=\"#111111\">" +
       XmlEscape(Say(*view.lab, text::tr::kSvgLegendAlpha2)) +
       "</text>\n";
  o += "<text x=\"" + Num(ox) + "\" y=\"" + Num(ly + 40) + "\" fill=\"#555555\" font-size=\"11\">" +
       XmlEscape(Say(*view.lab, text::tr::kSvgLegendSameA)) + "</text>\n";
  o += "</svg>\n";
  return o;
}

}  // namespace app
