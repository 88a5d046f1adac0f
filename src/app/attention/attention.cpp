// The attention room (attention.h): the result, the dragged weights, the probe sweep, the trace.
#include "app/app.h"

#include "engine/geometry/same_output.h"

#include <algorithm>

namespace app {

namespace {

// True when `a` and `b` give the same LabResult: every row of the lab's settings table is equal
// (training, language and view are not in it).
bool SameAttentionSettings(const attn::api::LabState& a, const attn::api::LabState& b) {
  return attn::SameFields(attn::LabFields(), a.config, b.config);
}

}  // namespace

AttentionChange PrepareAttention(const AppState& s, const attn::api::LabState& next) {
  AttentionChange c;
  c.changed = !SameAttentionSettings(s.lab, next);
  if (c.changed) c.result = ComputeResult(s, next.config, &c.model_result);
  return c;
}

bool Refused(const AttentionChange& c) {
  return c.changed && !c.result.error.ok() && c.result.error.code != attn::ConfigError::kModelNotLoaded;
}

void AdoptAttention(AppState& s, AttentionChange&& c) {
  if (!c.changed) return;
  s.attention.result = std::move(c.result);
  s.model.result = std::move(c.model_result);
  s.attention.custom = CustomWeights{};
}

void SetCustomWeight(AppState& s, int token, double value) {
  const attn::LabResult& r = s.attention.result;
  CustomWeights& custom = s.attention.custom;
  if (!r.error.ok()) return;
  const attn::VecD base = custom.active ? custom.alpha
                                        : attn::VecD(r.trace.weights.row(r.steps.query).transpose().cast<double>());
  const attn::MatD values = r.trace.V.cast<double>();  // (N, Dv)
  attn::InformationScope scope;  // the lab's: the query's visible keys, the normalizer's set
  scope.set = r.information.set;
  scope.visible = r.visible;
  custom.alpha = attn::SetWeightIn(scope.set, base, token, value, scope.visible);
  custom.info = attn::AnalyzeInformation(values, custom.alpha, r.target, scope);
  custom.vertices = attn::SameOutputVerticesIn(values, custom.alpha, scope);
  custom.contributions = attn::Contributions(values, custom.alpha);
  custom.contributions2 = attn::Contributions(values, custom.info.collision.alpha2);
  custom.active = true;
}

void ClearCustomWeights(AppState& s) { s.attention.custom = CustomWeights{}; }

void StartProbeSweep(AppState& s) {
  ProbeSweep& p = s.attention.probe;
  p.points.clear();
  p.queue.clear();
  const int n = std::max(2, static_cast<int>(s.attention.result.tokens.size()));
  auto queue = [&](int d_v, int heads) {
    attn::ProbeConfig cfg;
    cfg.tokens = n;
    cfg.d_v = d_v;
    cfg.heads = heads;
    cfg.seed = s.lab.config.seed;
    p.queue.push_back(cfg);
  };
  for (int d_v : {1, 2, 4, 8, 16}) queue(d_v, 1);
  for (int heads : {2, 4}) queue(16, heads);
  p.total = static_cast<int>(p.queue.size());
}

void TickProbe(AppState& s) {
  ProbeSweep& p = s.attention.probe;
  if (p.queue.empty()) return;
  const attn::ProbeConfig cfg = p.queue.front();
  p.queue.erase(p.queue.begin());
  const attn::ProbeResult r = attn::RunProbe(cfg);
  p.points.push_back({cfg.tokens, cfg.d_v, cfg.heads, r.accuracy, r.chance});
}

std::string TraceJson(const AppState& s) {
  const attn::LabResult& result = s.attention.result;
  // (ModelCodeInBuild(): a constant false in the default page's build, whose wasm then leaves
  // the model's part of the trace out.)
  if (!attn::model::ModelCodeInBuild() || s.lab.config.projection != attn::Projection::kModel || !result.error.ok()) {
    Json out = attn::api::TraceToJson(s.lab, result);
    // an edited run: the comparison with the plain one (attnlab trace --compare's "comparison")
    if (result.error.ok() && CurrentComparison(s)) out["comparison"] = ComparisonJson(s);
    return attn::api::Dump(out);
  }
  attn::api::LabState shown = s.lab;  // the trace's "config": the model's effective settings
  shown.config = s.model.result.config;
  Json out = attn::api::TraceToJson(shown, result);
  out["state"] = attn::api::StateToJson(s.lab);
  out["model"] = ModelTraceJson(s);
  if (attn::HasEdits(s.lab.config)) out["comparison"] = ComparisonJson(s);  // the edited run (whatif.h)
  return attn::api::Dump(out);
}

// ---- the room (room.h) ------------------------------------------------------------------------
bool Attention::Prepare(const AppState& s, const attn::api::LabState& next,
                        attn::api::PatchResult* refused) {
  pending_ = PrepareAttention(s, next);
  if (!Refused(pending_)) return true;
  *refused = EngineRefusal(pending_.result.error);
  return false;
}
void Attention::Adopt(AppState& s, const attn::api::LabState&, Source) {
  AdoptAttention(s, std::move(pending_));  // this room's own members: moved from pending_
  pending_.changed = false;
}
void Attention::Tick(AppState& s, double, FrameWork*) { TickProbe(s); }
bool Attention::NeedsFrames(const AppState&) const { return !probe.queue.empty(); }
void Attention::Publish(LabView* view) const {
  view->attention.result = &result;
  view->attention.probe = &probe.points;
  view->attention.probe_total = probe.total;
  view->attention.probe_started = !probe.points.empty() || !probe.queue.empty();
}

}  // namespace app
