// Why softmax and ÷√d_k, measured: the four normalization experiments of the engine (normexp.h).
//   1. the variance of q·k against d_k, with and without the factor (log-log, measured + exact);
//   2. softmax saturation: row entropy and the gradient that reaches the scores against d_k;
//   3. the output's norm as the scores grow, per normalizer, with the max‖vᵢ‖ bound;
//   4. training curves over several seeds (mean line, min-max band), run on demand.
// The current training settings are marked on every plot. Every number is the engine's.
#include "text/i18n.h"
#include "ui/plot.h"
#include "ui/ui.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ui {

namespace {

const ImU32 kUnscaledCol = IM_COL32(240, 110, 110, 255);
const ImU32 kScaledCol = IM_COL32(110, 200, 250, 255);
const ImU32 kBoundCol = IM_COL32(230, 230, 235, 255);

ImU32 NormalizerColour(attn::Normalizer n) {
  switch (n) {
    case attn::Normalizer::kSoftmax: return IM_COL32(245, 155, 40, 255);
    case attn::Normalizer::kSparsemax: return IM_COL32(120, 210, 120, 255);
    case attn::Normalizer::kReluNorm: return IM_COL32(170, 140, 250, 255);
    case attn::Normalizer::kSigmoid: return IM_COL32(90, 200, 230, 255);
    case attn::Normalizer::kNone: return IM_COL32(240, 110, 110, 255);
    case attn::Normalizer::kHardmax: return IM_COL32(200, 200, 200, 255);
  }
  return IM_COL32(255, 255, 255, 255);
}

void Caption(const Text& t, float width) {
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.78f, 0.84f, 1.0f));
  ImGui::TextWrapped("%s", L(t));
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
}

// The experiments' sizes under a plot: "rows of 16 keys, 2000 samples per point".
void SizesLine(const Text& format, const std::string& a, const std::string& b) {
  char buf[200];
  std::snprintf(buf, sizeof buf, L(format), a.c_str(), b.c_str());
  ImGui::TextDisabled("%s", buf);
}
void OutSizesLine(const app::AppState& s) {
  char buf[200];
  std::snprintf(buf, sizeof buf, L(tr::kOutSizes), Count(s.normalization.keys, tr::kKeys).c_str(), s.normalization.d_v);
  ImGui::TextDisabled("%s", buf);
}

PlotMark CurrentDkMark(const app::AppState& s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, L(tr::kYourDk), s.lab.train.config.d_k);
  return PlotMark{static_cast<double>(s.lab.train.config.d_k), buf, IM_COL32(245, 155, 40, 220)};
}

// Plot series over the points of an experiment: a field of a struct array (see PlotSeries).
template <typename Point>
PlotSeries Field(const std::vector<Point>& pts, const double Point::*field, const std::string& label, ImU32 colour) {
  PlotSeries p;
  p.label = label;
  p.colour = colour;
  p.count = static_cast<int>(pts.size());
  p.stride = sizeof(Point);
  p.y = pts.empty() ? nullptr : &(pts.front().*field);
  return p;
}

// The d_k axis of experiments 1 and 2, as doubles (the plot's x).
std::vector<double> DkAxis(const std::vector<int>& d_ks) { return std::vector<double>(d_ks.begin(), d_ks.end()); }

void DrawVariance(Context& ctx, float w, float h) {
  const app::AppState& s = ctx.state;
  const auto& n = s.normalization;
  static std::vector<double> x;
  x = DkAxis(n.d_ks);
  const bool scaled = s.lab.train.config.scaled;
  std::vector<PlotSeries> lines;
  PlotSeries mu = Field(n.variance, &attn::ScoreVariancePoint::var_unscaled, L(tr::kVarMeasuredUnscaled), kUnscaledCol);
  PlotSeries au = Field(n.variance, &attn::ScoreVariancePoint::analytic_unscaled, L(tr::kVarExactUnscaled), kUnscaledCol);
  PlotSeries ms = Field(n.variance, &attn::ScoreVariancePoint::var_scaled, L(tr::kVarMeasuredScaled), kScaledCol);
  PlotSeries as = Field(n.variance, &attn::ScoreVariancePoint::analytic_scaled, L(tr::kVarExactScaled), kScaledCol);
  for (PlotSeries* p : {&mu, &au, &ms, &as}) p->x = x.data();
  mu.markers = ms.markers = true;
  mu.thickness = ms.thickness = 0.0f;
  au.dashed = as.dashed = true;
  au.thickness = as.thickness = 1.2f;
  (scaled ? ms : mu).highlight = true;
  lines = {au, as, mu, ms};
  PlotSpec spec;
  spec.title = L(tr::kVarTitle);
  spec.x_label = "d_k";
  spec.log_x = spec.log_y = true;
  spec.marks.push_back(CurrentDkMark(s));
  spec.figure = "variance";
  Plot("variance", ImVec2(w, h), spec, lines);
}

void DrawSaturation(Context& ctx, float w, float h) {
  const app::AppState& s = ctx.state;
  const auto& n = s.normalization;
  static std::vector<double> x;
  x = DkAxis(n.d_ks);
  const bool scaled = s.lab.train.config.scaled;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const bool stacked = w < 600.0f;  // a phone: one above the other
  const float half = stacked ? w : (w - gap) * 0.5f;
  struct Pair { const double attn::SaturationPoint::*un; const double attn::SaturationPoint::*sc; const Text* title; bool log; };
  const Pair pairs[] = {{&attn::SaturationPoint::entropy_unscaled, &attn::SaturationPoint::entropy_scaled, &tr::kSatEntropy, false},
                        {&attn::SaturationPoint::grad_unscaled, &attn::SaturationPoint::grad_scaled, &tr::kSatGrad, false}};
  for (int k = 0; k < 2; ++k) {
    if (k && !stacked) ImGui::SameLine();
    PlotSeries un = Field(n.saturation, pairs[k].un, L(tr::kUnscaledShort), kUnscaledCol);
    PlotSeries sc = Field(n.saturation, pairs[k].sc, L(tr::kScaledShort), kScaledCol);
    un.x = sc.x = x.data();
    un.markers = sc.markers = true;
    (scaled ? sc : un).highlight = true;
    PlotSpec spec;
    spec.title = L(*pairs[k].title);
    spec.x_label = "d_k";
    spec.log_x = true;
    spec.y_from_zero = true;
    spec.marks.push_back(CurrentDkMark(s));
    spec.figure = k ? "sat_grad" : "sat_entropy";
    Plot(k ? "sat_grad" : "sat_entropy", ImVec2(half, h), spec, {un, sc});
  }
}

void DrawOutputNorm(Context& ctx, float w, float h) {
  const app::AppState& s = ctx.state;
  const auto& n = s.normalization;
  static std::vector<double> x;
  static std::vector<std::vector<double>> ys;
  // The engine gives one vector per magnitude; the plot wants one array per normalizer.
  x.clear();
  ys.assign(n.normalizers.size(), {});
  std::vector<double> bound;
  for (const auto& p : n.output_norm) {
    x.push_back(p.magnitude);
    bound.push_back(p.bound);
    for (std::size_t k = 0; k < n.normalizers.size() && k < p.norm.size(); ++k) ys[k].push_back(p.norm[k]);
  }
  static std::vector<double> bound_keep;
  bound_keep = bound;
  std::vector<PlotSeries> lines;
  for (std::size_t k = 0; k < n.normalizers.size(); ++k) {
    PlotSeries p;
    p.label = attn::NormalizerName(n.normalizers[k]);
    p.colour = NormalizerColour(n.normalizers[k]);
    p.x = x.data();
    p.y = ys[k].data();
    p.count = static_cast<int>(ys[k].size());
    p.markers = true;
    p.highlight = n.normalizers[k] == s.lab.train.config.normalizer;
    lines.push_back(p);
  }
  PlotSeries b;
  b.label = L(tr::kBound);
  b.colour = kBoundCol;
  b.x = x.data();
  b.y = bound_keep.data();
  b.count = static_cast<int>(bound_keep.size());
  b.dashed = true;
  b.thickness = 1.2f;
  lines.push_back(b);
  PlotSpec spec;
  spec.title = L(tr::kOutTitle);
  spec.x_label = L(tr::kOutAxis);
  spec.log_x = spec.log_y = true;
  spec.figure = "output_norm";
  Plot("output_norm", ImVec2(w, h), spec, lines);
}

// Experiment 4: the controls, then the scaling group and the normalizer group side by side.
void DrawCurves(Context& ctx, float w, float h, bool narrow) {
  app::AppState& s = ctx.state;
  auto& n = s.normalization;
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.8f, 1.0f, 1.0f));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);  // on a phone the title takes two lines
  ImGui::TextWrapped("%s", L(tr::kCurvesTitle));
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  const bool locked = Locked(ctx, "normalization");  // a locked tab: the course page runs the experiment
  ImGui::BeginDisabled(n.curves_running || locked);
  if (ImGui::Button(Label(tr::kCurvesRun, "run_curves"))) {
    std::string error;
    app::StartCurves(s, n.curve_seeds, n.curve_steps, &error);
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  // The sliders show the count with its noun ("3 seeds", «300 шагов»): no label needed.
  const std::string seeds_format = std::string("%d") + kNoBreakSpace + Word(n.curve_seeds, tr::kSeeds);
  const std::string steps_format = std::string("%d") + kNoBreakSpace + Word(n.curve_steps, tr::kStepsCount);
  ImGui::BeginDisabled(locked);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::SliderInt("##curve_seeds", &n.curve_seeds, 1, 10, seeds_format.c_str(), ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderInt("##curve_steps", &n.curve_steps, 20, 2000, steps_format.c_str(),
                   ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::EndDisabled();
  if (n.curves_started) {
    if (!narrow) ImGui::SameLine();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * n.curves.progress());
    ImGui::ProgressBar(static_cast<float>(n.curves.progress()), ImVec2(narrow ? -1.0f : ImGui::GetFontSize() * 10, 0), buf);
  }
  if (!n.curves_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.42f, 0.38f, 1.0f));
    ImGui::TextWrapped("%s", n.curves_error.c_str());
    ImGui::PopStyleColor();
  }
  static const Text* kMetricNames[] = {&tr::kCurveLoss, &tr::kCurveAccuracy, &tr::kCurveAttention};
  for (int m = 0; m < 3; ++m) {
    if (m) ImGui::SameLine();
    if (ImGui::RadioButton(Label(*kMetricNames[m], m == 0 ? "cm_loss" : m == 1 ? "cm_acc" : "cm_attn"), ctx.ui.curve_metric == m))
      ctx.ui.curve_metric = m;
  }
  if (!n.curves_started) {
    Caption(tr::kCurvesNotRun, w);
    return;
  }
  const auto& series = n.curves.series();
  const attn::TrainConfig& cur = s.lab.train.config;
  std::vector<PlotSeries> scaling, norms;
  for (std::size_t k = 0; k < series.size(); ++k) {
    const attn::CurveSeries& cs = series[k];
    PlotSeries p;
    const std::vector<double>* y = ctx.ui.curve_metric == 0 ? &cs.loss_mean : ctx.ui.curve_metric == 1 ? &cs.acc_mean : &cs.attn_mean;
    p.y = y->data();
    p.count = static_cast<int>(y->size());
    if (ctx.ui.curve_metric == 0 && cs.loss_min.size() == y->size()) { p.lo = cs.loss_min.data(); p.hi = cs.loss_max.data(); }
    if (ctx.ui.curve_metric == 1 && cs.acc_min.size() == y->size()) { p.lo = cs.acc_min.data(); p.hi = cs.acc_max.data(); }
    char label[96];
    if (k < 4) {  // DefaultCurveSpecs: softmax with and without the factor, at d_k = 4 and 64
      std::snprintf(label, sizeof label, "%s, d_k = %d", cs.config.scaled ? L(tr::kScaledShort) : L(tr::kUnscaledShort), cs.config.d_k);
      p.label = label;
      p.colour = cs.config.d_k <= 4 ? IM_COL32(120, 210, 120, 255) : IM_COL32(245, 155, 40, 255);
      p.dashed = !cs.config.scaled;
      p.highlight = cs.config.scaled == cur.scaled && cs.config.d_k == cur.d_k;
      scaling.push_back(p);
    } else {
      std::snprintf(label, sizeof label, "%s, d_k = %d", attn::NormalizerName(cs.config.normalizer), cs.config.d_k);
      p.label = label;
      p.colour = NormalizerColour(cs.config.normalizer);
      p.highlight = cs.config.normalizer == cur.normalizer;
      norms.push_back(p);
    }
  }
  PlotSpec spec;
  spec.x_label = L(tr::kStepAxis);
  spec.log_y = ctx.ui.curve_metric == 0;
  if (ctx.ui.curve_metric != 0) { spec.y_min = 0; spec.y_max = 1; }
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float pw = narrow ? w : (w - gap) * 0.5f;
  spec.title = L(tr::kCurvesScaling);
  spec.figure = "curves_scaling";
  Plot("curves_scaling", ImVec2(pw, h), spec, scaling);
  if (!narrow) ImGui::SameLine();
  spec.title = L(tr::kCurvesNormalizers);
  spec.figure = "curves_norms";
  Plot("curves_norms", ImVec2(pw, h), spec, norms);
  char buf[200];
  std::snprintf(buf, sizeof buf, L(tr::kCurvesSettings), Count(n.curves.seeds(), tr::kSeeds).c_str(),
                Count(n.curves.steps(), tr::kStepsCount).c_str(), n.curves_base.lr,
                n.curves_base.optimizer == attn::Optimizer::kAdam ? "Adam" : "SGD", TaskLabel(n.curves_base.task));
  ImGui::TextDisabled("%s", buf);
  for (const attn::CurveSeries& cs : series)
    if (cs.diverged > 0) {
      // The engine's English line only when it gave no code (a run it could not start).
      const std::string why = cs.divergence.cause != attn::DivergenceCause::kNone ? DivergenceMessage(cs.divergence)
                                                                                   : cs.message;
      char line[600];
      std::snprintf(line, sizeof line, L(tr::kCurvesDiverged), CurveLabel(cs.config).c_str(),
                    Count(cs.diverged, tr::kRunsIn).c_str(), cs.diverged_seed, why.c_str());
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.42f, 0.38f, 1.0f));
      ImGui::TextWrapped("%s", line);
      ImGui::PopStyleColor();
    }
  Caption(tr::kCurvesCaption, w);
}

}  // namespace

void DrawNormalizationPanel(Context& ctx) {
  app::AppState& s = ctx.state;
  if (!s.normalization.computed) {
    // Computed when first shown, one experiment per frame, so the page never stalls long.
    app::StepNormalization(s);
    if (BeginPanel(ctx, L(tr::kNormalization), "normalization", ImVec2(0, 0))) {
      ImGui::TextUnformatted(L(tr::kNormComputing));
      ImGui::ProgressBar(s.normalization.stage / 3.0f, ImVec2(ImGui::GetFontSize() * 12, 0));
    }
    EndPanel();
    return;
  }
  if (BeginPanel(ctx, L(tr::kNormalization), "normalization", ImVec2(0, 0))) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const bool narrow = avail < 760.0f;
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    ImGui::TextWrapped("%s", L(tr::kNormIntro));
    if (narrow) {
      // A phone: one plot after the other, each with its caption.
      const float h = 220.0f;
      DrawVariance(ctx, avail, h);
      Caption(tr::kVarCaption, avail);
      ImGui::Separator();
      DrawSaturation(ctx, avail, h);
      SizesLine(tr::kSatSizes, Count(s.normalization.keys, tr::kKeysOf), Count(s.normalization.saturation_samples, tr::kSamples));
      Caption(tr::kSatCaption, avail);
      ImGui::Separator();
      DrawOutputNorm(ctx, avail, h);
      OutSizesLine(s);
      Caption(tr::kOutCaption, avail);
      ImGui::Separator();
      DrawCurves(ctx, avail, h, true);
    } else {
      // A laptop: three columns. Row 1: variance | saturation (two plots); row 2: output
      // norm | the training curves (two plots), so that every experiment is on the first screen.
      const float third = (avail - 2 * gap) / 3.0f, two_thirds = 2 * third + gap;
      const float h = std::max(180.0f, std::min(240.0f, (ImGui::GetContentRegionAvail().y - 260.0f) * 0.5f));
      ImGui::BeginGroup();
      DrawVariance(ctx, third, h);
      Caption(tr::kVarCaption, third);
      ImGui::EndGroup();
      ImGui::SameLine(0, gap);
      ImGui::BeginGroup();
      ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(gap, ImGui::GetStyle().ItemSpacing.y));
      DrawSaturation(ctx, two_thirds, h);
      ImGui::PopStyleVar();
      SizesLine(tr::kSatSizes, Count(s.normalization.keys, tr::kKeysOf), Count(s.normalization.saturation_samples, tr::kSamples));
      Caption(tr::kSatCaption, two_thirds);
      ImGui::EndGroup();
      ImGui::Separator();
      ImGui::BeginGroup();
      DrawOutputNorm(ctx, third, h);
      OutSizesLine(s);
      Caption(tr::kOutCaption, third);
      ImGui::EndGroup();
      ImGui::SameLine(0, gap);
      ImGui::BeginGroup();
      ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(gap, ImGui::GetStyle().ItemSpacing.y));
      DrawCurves(ctx, two_thirds, h, false);
      ImGui::PopStyleVar();
      ImGui::EndGroup();
    }
  }
  EndPanel();
}

}  // namespace ui
