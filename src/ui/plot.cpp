// The plot widget (plot.h): axes, ticks, series, bands, marks, legend, hover.
#include "ui/plot.h"

#include "ui/ui.h"
#include "app/exports/figure_export.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ui {

namespace {

bool Usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

double XOf(const PlotSeries& s, int i) { return s.x ? s.x[i] : s.x0 + s.dx * i; }
double At(const PlotSeries& s, const double* a, int i) {
  return *reinterpret_cast<const double*>(reinterpret_cast<const char*>(a) + s.stride * static_cast<std::size_t>(i));
}

// Tick values for [lo, hi]: 1-2-5 steps on a linear axis, decades (and 2, 5 within one or two
// decades) on a log axis.
std::vector<double> Ticks(double lo, double hi, bool log, int want) {
  std::vector<double> t;
  if (!(hi > lo)) return t;
  if (log) {
    const int e0 = static_cast<int>(std::floor(std::log10(lo))), e1 = static_cast<int>(std::ceil(std::log10(hi)));
    const int decades = e1 - e0;
    const int stride = std::max(1, decades / std::max(2, want));
    for (int e = e0; e <= e1; ++e) {
      if ((e - e0) % stride) continue;
      const double base = std::pow(10.0, e);
      for (double m : {1.0, 2.0, 5.0}) {
        if (m != 1.0 && decades > 2) continue;
        const double v = base * m;
        if (v >= lo * 0.999 && v <= hi * 1.001) t.push_back(v);
      }
    }
    return t;
  }
  const double raw = (hi - lo) / std::max(1, want);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (mag * m >= raw) { step = mag * m; break; }
  // At least two ticks: smaller 1-2-5 steps until they fit.
  for (int tries = 0; tries < 6; ++tries) {
    t.clear();
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) t.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    if (t.size() >= 2) break;
    const double m = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    step = m > 4 ? step / 2.5 : step / 2;  // 5 -> 2 -> 1 -> 0.5 ...
  }
  return t;
}

std::string TickText(double v, bool log) {
  char buf[32];
  const double a = std::fabs(v);
  if (v == 0) return "0";
  if (log && (a >= 1e4 || a < 1e-3)) std::snprintf(buf, sizeof buf, "1e%d", static_cast<int>(std::lround(std::log10(a))));
  else if (a >= 1e5 || a < 1e-3) std::snprintf(buf, sizeof buf, "%.0e", v);
  else std::snprintf(buf, sizeof buf, "%g", v);
  std::string s = buf;
  if (s[0] == '-') s = "\xE2\x88\x92" + s.substr(1);  // a real minus sign
  return s;
}

void DashedLine(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thickness, float dash = 5.0f) {
  const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f) return;
  for (float t = 0; t < len; t += 2 * dash) {
    const float t1 = std::min(len, t + dash);
    dl->AddLine(ImVec2(a.x + dx * t / len, a.y + dy * t / len), ImVec2(a.x + dx * t1 / len, a.y + dy * t1 / len), col, thickness);
  }
}

}  // namespace

namespace {
UiState* g_ui = nullptr;

std::array<std::uint8_t, 3> Rgb(ImU32 c) {
  return {static_cast<std::uint8_t>(c >> IM_COL32_R_SHIFT), static_cast<std::uint8_t>(c >> IM_COL32_G_SHIFT),
          static_cast<std::uint8_t>(c >> IM_COL32_B_SHIFT)};
}
}  // namespace

void SetPlotUi(UiState* ui) { g_ui = ui; }

void Plot(const char* id, ImVec2 size, const PlotSpec& spec, const std::vector<PlotSeries>& series) {
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  if (g_ui && !spec.figure.empty()) {  // the export menu, before the plot's own hover area
    AddFigure(*g_ui, spec.figure.c_str(), origin, ImVec2(origin.x + size.x, origin.y + size.y), true, false);
    const ImVec2 top_right(origin.x + size.x - 2, origin.y);
    ExportMenu(*g_ui, spec.figure.c_str(), true, false, &top_right);
    ImGui::SetCursorScreenPos(origin);
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim_col = IM_COL32(150, 160, 175, 255);

  // The data's range (what is usable on the chosen scales).
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  for (const PlotSeries& s : series)
    for (int i = 0; i < s.count; ++i) {
      const double x = XOf(s, i);
      if (!Usable(x, spec.log_x)) continue;
      for (const double* arr : {s.y, s.lo, s.hi}) {
        if (!arr || !Usable(At(s, arr, i), spec.log_y)) continue;
        y_lo = std::min(y_lo, At(s, arr, i));
        y_hi = std::max(y_hi, At(s, arr, i));
      }
      x_lo = std::min(x_lo, x);
      x_hi = std::max(x_hi, x);
    }
  for (const PlotMark& m : spec.marks)
    if (Usable(m.x, spec.log_x)) { x_lo = std::min(x_lo, m.x); x_hi = std::max(x_hi, m.x); }
  if (spec.x_min != spec.x_max) { x_lo = spec.x_min; x_hi = spec.x_max; }
  if (spec.y_min != spec.y_max) {
    y_lo = spec.y_min;
    y_hi = spec.y_max;
  } else if (spec.y_from_zero && !spec.log_y) {
    y_lo = std::min(y_lo, 0.0);
    y_hi = std::max(y_hi, 0.0);
  }
  const bool has_data = std::isfinite(x_lo) && std::isfinite(y_lo);
  if (!has_data) { x_lo = spec.log_x ? 1 : 0; x_hi = spec.log_x ? 10 : 1; y_lo = spec.log_y ? 0.1 : 0; y_hi = 1; }
  if (!(x_hi > x_lo)) { x_hi = spec.log_x ? x_lo * 10 : x_lo + 1; }
  if (!(y_hi > y_lo)) {
    if (spec.log_y) { y_lo /= 2; y_hi *= 2; } else { y_lo -= 0.5; y_hi += 0.5; }
  }
  if (!spec.log_y && spec.y_min == spec.y_max) {  // a little air above and below
    const double pad = (y_hi - y_lo) * 0.05;
    if (!(spec.y_from_zero && y_lo == 0)) y_lo -= pad;
    y_hi += pad;
  }
  if (spec.log_y && spec.y_min == spec.y_max) { y_lo /= 1.3; y_hi *= 1.3; }
  auto tx = [&](double v) { return spec.log_x ? std::log10(v) : v; };
  auto ty = [&](double v) { return spec.log_y ? std::log10(v) : v; };
  const double fx0 = tx(x_lo), fx1 = tx(x_hi), fy0 = ty(y_lo), fy1 = ty(y_hi);

  // The frame: title on top, y ticks on the left, x ticks and label below.
  const std::vector<double> yt = Ticks(y_lo, y_hi, spec.log_y, std::max(2, static_cast<int>(size.y / 45)));
  const std::vector<double> xt = Ticks(x_lo, x_hi, spec.log_x, std::max(2, static_cast<int>(size.x / 80)));
  float ytw = 0;
  for (double v : yt) ytw = std::max(ytw, ImGui::CalcTextSize(TickText(v, spec.log_y).c_str()).x);
  const float left = ytw + 8 + (spec.y_label.empty() ? 0 : 0);
  const float top = spec.title.empty() ? 4 : line + 6;
  const float bottom = line * (spec.x_label.empty() ? 1.4f : 2.5f);
  const ImVec2 p0(origin.x + left, origin.y + top), p1(origin.x + size.x - 6, origin.y + size.y - bottom);
  if (p1.x - p0.x < 20 || p1.y - p0.y < 20) {
    ImGui::Dummy(size);
    ImGui::PopID();
    return;
  }
  if (g_ui && !spec.figure.empty() && g_ui->svg_wanted == spec.figure) {  // the same plot as SVG
    app::SvgPlot svg;
    svg.title = spec.title;
    svg.x_label = spec.x_label;
    svg.y_label = spec.y_label;
    svg.log_x = spec.log_x;
    svg.log_y = spec.log_y;
    svg.x_lo = x_lo; svg.x_hi = x_hi; svg.y_lo = y_lo; svg.y_hi = y_hi;
    for (double v : xt) svg.x_ticks.emplace_back(v, TickText(v, spec.log_x));
    for (double v : yt) svg.y_ticks.emplace_back(v, TickText(v, spec.log_y));
    for (const PlotMark& m : spec.marks) svg.marks.emplace_back(m.x, m.label);
    svg.hlines = spec.hlines;
    for (const PlotSeries& s : series) {
      app::SvgSeries o;
      o.label = s.label;
      o.rgb = Rgb(s.colour);
      o.dashed = s.dashed;
      o.markers = s.markers;
      o.highlight = s.highlight;
      for (int i = 0; s.y && i < s.count; ++i) {
        o.x.push_back(XOf(s, i));
        o.y.push_back(At(s, s.y, i));
        if (s.lo && s.hi) { o.lo.push_back(At(s, s.lo, i)); o.hi.push_back(At(s, s.hi, i)); }
      }
      svg.series.push_back(std::move(o));
    }
    g_ui->svg_out = app::PlotSvg(svg);
  }
  auto px = [&](double v) { return static_cast<float>(p0.x + (tx(v) - fx0) / (fx1 - fx0) * (p1.x - p0.x)); };
  auto py = [&](double v) { return static_cast<float>(p1.y - (ty(v) - fy0) / (fy1 - fy0) * (p1.y - p0.y)); };
  // Long titles stay in the box, left of the export menu's button.
  const float title_right = origin.x + size.x - (spec.figure.empty() ? 0.0f : ImGui::GetFrameHeight() + 6.0f);
  dl->PushClipRect(origin, ImVec2(title_right, origin.y + size.y), true);
  if (!spec.title.empty()) dl->AddText(ImVec2(p0.x, origin.y + 1), IM_COL32(140, 200, 255, 255), spec.title.c_str());
  if (!spec.y_label.empty()) {
    const ImVec2 ts = ImGui::CalcTextSize(spec.title.c_str());
    dl->AddText(ImVec2(p0.x + ts.x + (spec.title.empty() ? 0 : 12), origin.y + 1), dim_col, spec.y_label.c_str());
  }
  dl->PopClipRect();
  dl->AddRectFilled(p0, p1, IM_COL32(22, 24, 30, 255));
  for (double v : yt) {
    const float y = py(v);
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), IM_COL32(60, 64, 75, 255));
    const std::string s = TickText(v, spec.log_y);
    dl->AddText(ImVec2(p0.x - 4 - ImGui::CalcTextSize(s.c_str()).x, y - line * 0.5f), dim_col, s.c_str());
  }
  float last_right = -1e9f;
  for (double v : xt) {
    const float x = px(v);
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), IM_COL32(50, 54, 64, 255));
    const std::string s = TickText(v, spec.log_x);
    const float w = ImGui::CalcTextSize(s.c_str()).x;
    if (x - w * 0.5f > last_right + 4) {
      dl->AddText(ImVec2(x - w * 0.5f, p1.y + 2), dim_col, s.c_str());
      last_right = x + w * 0.5f;
    }
  }
  if (!spec.x_label.empty()) {
    const ImVec2 ts = ImGui::CalcTextSize(spec.x_label.c_str());
    dl->AddText(ImVec2((p0.x + p1.x - ts.x) * 0.5f, p1.y + line + 4), dim_col, spec.x_label.c_str());
  }
  dl->AddRect(p0, p1, IM_COL32(90, 95, 110, 255));

  dl->PushClipRect(p0, p1, true);
  for (double h : spec.hlines)
    if (Usable(h, spec.log_y)) DashedLine(dl, ImVec2(p0.x, py(h)), ImVec2(p1.x, py(h)), IM_COL32(170, 170, 180, 150), 1.0f, 3.0f);
  // Bands first (under every line), then the lines.
  for (const PlotSeries& s : series) {
    if (!s.lo || !s.hi || s.count < 2) continue;
    const ImU32 band = (s.colour & 0x00FFFFFF) | (static_cast<ImU32>(s.highlight ? 70 : 45) << 24);
    for (int i = 0; i + 1 < s.count; ++i) {
      const double xa = XOf(s, i), xb = XOf(s, i + 1);
      if (!Usable(xa, spec.log_x) || !Usable(xb, spec.log_x) || !Usable(At(s, s.lo, i), spec.log_y) || !Usable(At(s, s.hi, i), spec.log_y) ||
          !Usable(At(s, s.lo, i + 1), spec.log_y) || !Usable(At(s, s.hi, i + 1), spec.log_y))
        continue;
      const ImVec2 q[4] = {ImVec2(px(xa), py(At(s, s.hi, i))), ImVec2(px(xb), py(At(s, s.hi, i + 1))), ImVec2(px(xb), py(At(s, s.lo, i + 1))),
                           ImVec2(px(xa), py(At(s, s.lo, i)))};
      dl->AddQuadFilled(q[0], q[1], q[2], q[3], band);
    }
  }
  const float width_px = p1.x - p0.x;
  for (const PlotSeries& s : series) {
    if (!s.y || s.count <= 0) continue;
    const float th = s.highlight ? s.thickness + 1.2f : s.thickness;
    if (s.count > 2 * width_px && !s.x) {
      // Thinned: per pixel column, one stroke from the smallest to the largest value in it.
      int col = -1;
      float lo = 0, hi = 0;
      ImVec2 prev(-1, -1);
      auto flush = [&]() {
        if (col < 0) return;
        const float x = p0.x + col + 0.5f;
        dl->AddLine(ImVec2(x, lo), ImVec2(x, std::max(hi, lo + 1.0f)), s.colour, 1.0f);
        const ImVec2 mid(x, (lo + hi) * 0.5f);
        if (prev.x >= 0) dl->AddLine(prev, mid, s.colour, 1.0f);
        prev = mid;
      };
      for (int i = 0; i < s.count; ++i) {
        const double x = XOf(s, i);
        if (!Usable(x, spec.log_x) || !Usable(At(s, s.y, i), spec.log_y)) continue;
        const int c = static_cast<int>(px(x) - p0.x);
        const float y = py(At(s, s.y, i));
        if (c != col) {
          flush();
          col = c;
          lo = hi = y;
        } else {
          lo = std::min(lo, y);
          hi = std::max(hi, y);
        }
      }
      flush();
      continue;
    }
    ImVec2 prev;
    bool have_prev = false;
    for (int i = 0; i < s.count; ++i) {
      const double x = XOf(s, i);
      if (!Usable(x, spec.log_x) || !Usable(At(s, s.y, i), spec.log_y)) { have_prev = false; continue; }
      // Far outside the frame (a diverging run): clamped so that the line still leaves it.
      const ImVec2 p(px(x), std::clamp(py(At(s, s.y, i)), p0.y - 4000.0f, p1.y + 4000.0f));
      if (have_prev) {
        if (s.dashed) DashedLine(dl, prev, p, s.colour, th);
        else dl->AddLine(prev, p, s.colour, th);
      }
      if (s.markers) dl->AddCircleFilled(p, s.highlight ? 4.0f : 3.0f, s.colour);
      prev = p;
      have_prev = true;
    }
  }
  for (const PlotMark& m : spec.marks) {
    if (!Usable(m.x, spec.log_x)) continue;
    const float x = px(m.x);
    DashedLine(dl, ImVec2(x, p0.y), ImVec2(x, p1.y), m.colour, 1.5f, 4.0f);
    if (!m.label.empty()) {
      const ImVec2 ts = ImGui::CalcTextSize(m.label.c_str());
      const float lx = x + 3 + ts.x > p1.x ? x - 3 - ts.x : x + 3;
      const ImVec2 at(lx, p1.y - line - 2);
      // A dark plate under the label keeps it readable where it crosses a series.
      dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), IM_COL32(22, 24, 30, 210), 2.0f);
      dl->AddText(at, m.colour, m.label.c_str());
    }
  }
  dl->PopClipRect();

  // Legend: one row per labelled series, in the corner of the plot where it hides the fewest
  // points (top-left on a tie).
  int labelled = 0;
  float lw = 0;
  for (const PlotSeries& s : series)
    if (!s.label.empty()) { lw = std::max(lw, ImGui::CalcTextSize(s.label.c_str()).x); ++labelled; }
  if (labelled > 0) {
    const float row = line + 1;
    const float box_w = lw + 32, box_h = row * labelled + 4;
    const ImVec2 corners[4] = {ImVec2(p0.x + 4, p0.y + 3), ImVec2(p1.x - box_w - 4, p0.y + 3),
                               ImVec2(p0.x + 4, p1.y - box_h - 3), ImVec2(p1.x - box_w - 4, p1.y - box_h - 3)};
    int hidden[4] = {0, 0, 0, 0};
    for (const PlotSeries& s : series) {
      if (!s.y) continue;
      const int stride = std::max(1, s.count / 200);
      for (int i = 0; i < s.count; i += stride) {
        if (!Usable(At(s, s.y, i), spec.log_y) || !Usable(XOf(s, i), spec.log_x)) continue;
        const float x = px(XOf(s, i)), y = py(At(s, s.y, i));
        for (int c = 0; c < 4; ++c)
          if (x >= corners[c].x - 2 && x <= corners[c].x + box_w && y >= corners[c].y - 2 && y <= corners[c].y + box_h) ++hidden[c];
      }
    }
    int best = 0;
    for (int c = 1; c < 4; ++c)
      if (hidden[c] < hidden[best]) best = c;
    const float lx = corners[best].x;
    float ly = corners[best].y;
    dl->AddRectFilled(ImVec2(lx - 2, ly - 2), ImVec2(lx + box_w, ly + box_h - 2), IM_COL32(22, 24, 30, 215), 3.0f);
    for (const PlotSeries& s : series) {
      if (s.label.empty()) continue;
      const float cy = ly + row * 0.5f;
      if (s.dashed) DashedLine(dl, ImVec2(lx + 2, cy), ImVec2(lx + 20, cy), s.colour, s.highlight ? 3.0f : 2.0f, 3.0f);
      else dl->AddLine(ImVec2(lx + 2, cy), ImVec2(lx + 20, cy), s.colour, s.highlight ? 3.5f : 2.0f);
      if (s.markers) dl->AddCircleFilled(ImVec2(lx + 11, cy), 3.0f, s.colour);
      dl->AddText(ImVec2(lx + 26, ly), s.highlight ? IM_COL32(255, 255, 255, 255) : text_col, s.label.c_str());
      ly += row;
    }
  }

  // Hover: the values of every series at the x under the mouse.
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("plot", size);
  if (ImGui::IsItemHovered() && has_data) {
    const float mx = ImGui::GetIO().MousePos.x;
    if (mx >= p0.x && mx <= p1.x) {
      dl->AddLine(ImVec2(mx, p0.y), ImVec2(mx, p1.y), IM_COL32(255, 255, 255, 90));
      std::string tip;
      for (const PlotSeries& s : series) {
        if (!s.y || s.count == 0) continue;
        int best = -1;
        float best_d = 1e9f;
        for (int i = 0; i < s.count; ++i) {
          const double x = XOf(s, i);
          if (!Usable(x, spec.log_x)) continue;
          const float d = std::fabs(px(x) - mx);
          if (d < best_d) { best_d = d; best = i; }
        }
        if (best < 0 || best_d > 40) continue;
        char buf[200];
        std::snprintf(buf, sizeof buf, "%s%s (x = %g): %.4g", tip.empty() ? "" : "\n",
                      s.label.empty() ? "·" : s.label.c_str(), XOf(s, best), At(s, s.y, best));
        tip += buf;
      }
      if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
    }
  }
  ImGui::PopID();  // the invisible button above is the widget: the layout advances past it
}

std::string ShortNumber(double v) {
  char buf[32];
  const double a = std::fabs(v);
  if (!std::isfinite(v)) std::snprintf(buf, sizeof buf, "%g", v);
  else if (a == 0 || (a >= 0.01 && a < 1000)) std::snprintf(buf, sizeof buf, "%.3f", v);
  else std::snprintf(buf, sizeof buf, "%.1e", v);
  std::string s = buf;
  // "8.4e-06" -> "8.4e−6": no exponent padding, and real minus signs.
  const std::size_t e = s.find('e');
  if (e != std::string::npos) {
    std::string mant = s.substr(0, e), exp = s.substr(e + 1);
    const bool neg = !exp.empty() && exp[0] == '-';
    if (!exp.empty() && (exp[0] == '-' || exp[0] == '+')) exp = exp.substr(1);
    while (exp.size() > 1 && exp[0] == '0') exp = exp.substr(1);
    s = mant + "e" + (neg ? "\xE2\x88\x92" : "") + exp;
  }
  if (!s.empty() && s[0] == '-') s = "\xE2\x88\x92" + s.substr(1);
  return s;
}

void SignedBar(double value, double scale, float width, ImU32 positive, ImU32 negative, bool from_left) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const std::string s = ShortNumber(value);
  const float total = std::max(20.0f, width);
  // The bar on the left, the number right-aligned after it.
  const float num_w = ImGui::CalcTextSize("−0.000").x + 6;
  const float w = std::max(16.0f, total - num_w);
  dl->AddRectFilled(ImVec2(p.x, p.y + 1), ImVec2(p.x + w, p.y + line - 1), IM_COL32(40, 44, 54, 255));
  const float zero = from_left ? p.x : p.x + w * 0.5f;
  const float span = from_left ? w : w * 0.5f;
  if (std::isfinite(value) && scale > 0) {
    const float len = static_cast<float>(std::clamp(value / scale, -1.0, 1.0)) * span;
    dl->AddRectFilled(ImVec2(std::min(zero, zero + len), p.y + 2), ImVec2(std::max(zero, zero + len), p.y + line - 2),
                      value >= 0 ? positive : negative);
  }
  if (!from_left) dl->AddLine(ImVec2(zero, p.y), ImVec2(zero, p.y + line), IM_COL32(200, 200, 210, 160));
  const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
  dl->AddText(ImVec2(p.x + total - ts.x, p.y), IM_COL32(235, 235, 240, 255), s.c_str());
  ImGui::Dummy(ImVec2(total, line));
}

}  // namespace ui
