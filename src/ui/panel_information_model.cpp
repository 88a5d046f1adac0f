// The Information panel in model mode (panel_information.h): the chosen head seen through its
// layer (model/inspect/head_information.h): what the concatenation, W_O, the residual and the MLP
// add to A, with the engine's dimensions, ranks and condition numbers; and "Probe this head".
#include "text/i18n.h"
#include "ui/panel_information.h"
#include "ui/ui.h"

#include <cstdio>
#include <string>

namespace ui {
namespace information {

namespace {

// What the step keeps of the head's input: all of it, or all but a subspace of `head_dim`.
std::string LayerAnswer(int head_dim) {
  char buf[256];
  if (head_dim == 0) return L(tr::kLayerKept);
  std::snprintf(buf, sizeof buf, L(tr::kLayerLost), head_dim);
  return buf;
}

// A bullet whose text wraps at the panel's edge (ImGui's BulletText does not wrap: phones).
void WrappedBullet(const char* text) {
  ImGui::Bullet();
  ImGui::SameLine();
  ImGui::TextWrapped("%s", text);
}

std::string Sig3(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

}  // namespace

void DrawLayerInformation(Context& ctx) {
  if (ctx.state.lab.config.projection != attn::Projection::kModel) return;
  app::EnsureModelInformation(ctx.state);  // the app computes it once per result shown here
  const app::AppState& s = ctx.state;
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);
  if (!s.model.info.ok) {
    ImGui::TextDisabled("%s", L(tr::kLayerNotReady));
    ImGui::PopTextWrapPos();
    return;
  }
  const attn::model::HeadInformation& hi = s.model.info.value;
  const auto& tokens = s.attention.result.tokens;
  char buf[900];
  std::snprintf(buf, sizeof buf, L(tr::kLayerInfoTitle), hi.layer, hi.head);
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", buf);
  std::snprintf(buf, sizeof buf, L(tr::kLayerInfoIntro), Count(hi.keys, tr::kTokens).c_str(), hi.d_head, hi.d_head + 1);
  ImGui::TextWrapped("%s", buf);
  const int width = hi.heads * hi.d_head;
  std::snprintf(buf, sizeof buf, L(tr::kLayerFromA), hi.d_head, LayerAnswer(hi.from_a.info.same_output_dim).c_str());
  WrappedBullet(buf);
  std::snprintf(buf, sizeof buf, L(tr::kLayerFromConcat), hi.heads, width, LayerAnswer(hi.from_concat.head_dim).c_str(),
                hi.from_concat.dim);
  WrappedBullet(buf);
  const bool full = hi.w_o.rank == width;
  std::snprintf(buf, sizeof buf, L(full ? tr::kLayerFromOutput : tr::kLayerFromOutputLow), width,
                LayerAnswer(hi.from_output.head_dim).c_str(), hi.w_o.rank, width, Sig3(hi.w_o.condition).c_str());
  WrappedBullet(buf);
  std::snprintf(buf, sizeof buf, L(tr::kLayerFromResidual), LayerAnswer(hi.from_residual.head_dim).c_str());
  WrappedBullet(buf);
  WrappedBullet(L(tr::kLayerXUnknown));
  std::snprintf(buf, sizeof buf, L(tr::kLayerAfterMlp), hi.mlp.rank, width, Sig3(hi.mlp.condition).c_str());
  WrappedBullet(buf);
  if (hi.from_a.info.recoverable && hi.keys <= hi.d_head + 1) {
    std::snprintf(buf, sizeof buf, L(tr::kLayerTryLonger), hi.d_head + 1, hi.d_head + 1);
    ImGui::TextDisabled("%s", buf);
  }
  // Where the residual's two unknowns open more than A: the second scenario and the ranges.
  const attn::LayerInformation& res = hi.from_residual;
  const int t = hi.target;
  if (!res.recoverable && t >= 0 && t < res.alpha2.size() && t < static_cast<int>(tokens.size())) {
    const double was = hi.from_a.ranges.rows() > t ? hi.from_a.collision.alpha2(t) : 0.0;
    std::snprintf(buf, sizeof buf, L(tr::kLayerResidualScenario), tokens[t].text.c_str(),
                  Num(static_cast<float>(res.alpha2(t)), 3), Num(static_cast<float>(was), 3),
                  Num(static_cast<float>(res.ranges.rows() > t ? s.attention.result.trace.weights(s.attention.result.steps.query, t) : 0.0f), 3));
    ImGui::TextWrapped("%s", buf);
    bool header = false;
    for (int i = 0; i < res.ranges.rows() && i < hi.from_a.ranges.rows() && i < static_cast<int>(tokens.size()); ++i) {
      const double lo = res.ranges(i, 0), up = res.ranges(i, 1);
      // only where the residual widens the range visibly (the list shows 3 decimals)
      if (std::abs(lo - hi.from_a.ranges(i, 0)) < 5e-4 && std::abs(up - hi.from_a.ranges(i, 1)) < 5e-4) continue;
      if (!header) ImGui::TextWrapped("%s", L(tr::kLayerResidualRanges));
      header = true;
      std::snprintf(buf, sizeof buf, L(tr::kRangeLine), tokens[i].text.c_str(), Num(static_cast<float>(lo), 3),
                    Num(static_cast<float>(up), 3), Num(s.attention.result.trace.weights(s.attention.result.steps.query, i), 3));
      WrappedBullet(buf);
    }
  }
  ImGui::PopTextWrapPos();
}

// "Probe this head": the probe on the chosen real head (app model_probe.cpp), shown while it is
// the current head's; one frame says "probing…" before the probe holds the page.
void DrawModelProbe(Context& ctx) {
  app::AppState& s = ctx.state;
  // Not in the default page's build (a constant there: the optimizer drops this section).
  if (!attn::model::ModelCodeInBuild() || s.lab.config.projection != attn::Projection::kModel || !s.model.loaded) return;
  ImGui::Separator();
  const bool queued = s.model.probe.wait >= 0;
  ImGui::BeginDisabled(queued || !s.model.tune.texts_loaded);
  if (ImGui::Button(Label(tr::kHeadProbeRun, "headProbe"))) app::StartModelProbe(s);
  ImGui::EndDisabled();
  if (s.model.probe.wait >= 0) {  // queued now or by the click above
    ImGui::SameLine();
    ImGui::TextDisabled("%s", L(tr::kHeadProbeRunning));
    return;
  }
  if (!app::ModelProbeCurrent(s)) return;
  const app::ModelProbe& p = s.model.probe;
  ImGui::PushTextWrapPos(0.0f);
  if (!p.error.empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.72f, 0.4f, 1.0f), "%s", p.error.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  const attn::model::HeadProbeResult& r = p.result.result;
  const int limit = attn::model::HeadDim(s.model.loaded->config()) + 1;
  char buf[900];
  std::snprintf(buf, sizeof buf, L(tr::kHeadProbeExplain), limit, p.result.tokens);
  ImGui::TextWrapped("%s", buf);
  for (const bool beyond : {false, true}) {
    std::snprintf(buf, sizeof buf, L(tr::kHeadProbeRow), beyond ? ">" : "≤", limit,
                  Num(static_cast<float>(beyond ? r.accuracy_beyond : r.accuracy_within), 3),
                  Num(static_cast<float>(beyond ? r.chance_beyond : r.chance_within), 3),
                  Num(static_cast<float>(beyond ? r.position_beyond : r.position_within), 3),
                  beyond ? r.test_beyond : r.test_within);
    WrappedBullet(buf);
  }
  ImGui::PopTextWrapPos();
}

}  // namespace information
}  // namespace ui
