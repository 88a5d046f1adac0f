// The attention room (attention.h): the result, the dragged weights, the probe sweep.
#include "app/attention/attention.h"

#include "engine/geometry/same_output.h"

#include <algorithm>

namespace app {

namespace {

// True when `a` and `b` give the same LabResult: every row of the lab's settings table is equal
// (training, language and view are not in it).
bool SameAttentionSettings(const attn::api::LabState& a, const attn::api::LabState& b) {
  return attn::SameFields(attn::LabFields(), a.config, b.config);
}

bool ModelMode(const attn::LabConfig& c) { return c.projection == attn::Projection::kModel; }

}  // namespace

attn::LabResult ComputeResult(const attn::model::LabModel* loaded, const attn::LabConfig& config,
                              attn::model::ModelLabResult* model_result) {
  // ModelCodeInBuild(): a constant false in the default page (absent.cpp), so that the
  // optimizer drops the model's path from it.
  if (!attn::model::ModelCodeInBuild() || !ModelMode(config) || !loaded) {
    *model_result = attn::model::ModelLabResult{};
    return attn::ComputeLab(config);
  }
  attn::LabResult r;
  attn::model::ComputeModelLab(*loaded, config, &r, model_result);
  return r;
}

void Attention::Recompute(const attn::api::LabState& lab, const attn::model::LabModel* loaded) {
  result = ComputeResult(loaded, lab.config, &model_result);
  ClearCustomWeights();
}

void Attention::SetCustomWeight(int token, double value) {
  const attn::LabResult& r = result;
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

void Attention::StartProbeSweep(int seed) {
  ProbeSweep& p = probe;
  p.points.clear();
  p.queue.clear();
  const int n = std::max(2, static_cast<int>(result.tokens.size()));
  auto queue = [&](int d_v, int heads) {
    attn::ProbeConfig cfg;
    cfg.tokens = n;
    cfg.d_v = d_v;
    cfg.heads = heads;
    cfg.seed = seed;
    p.queue.push_back(cfg);
  };
  for (int d_v : {1, 2, 4, 8, 16}) queue(d_v, 1);
  for (int heads : {2, 4}) queue(16, heads);
  p.total = static_cast<int>(p.queue.size());
}

void Attention::TickProbe() {
  ProbeSweep& p = probe;
  if (p.queue.empty()) return;
  const attn::ProbeConfig cfg = p.queue.front();
  p.queue.erase(p.queue.begin());
  const attn::ProbeResult r = attn::RunProbe(cfg);
  p.points.push_back({cfg.tokens, cfg.d_v, cfg.heads, r.accuracy, r.chance});
}

// ---- the room (room.h) ------------------------------------------------------------------------
bool Attention::Prepare(const RoomContext& c, const attn::api::LabState& next,
                        attn::api::PatchResult* refused) {
  pending_.changed = !SameAttentionSettings(c.lab, next);
  if (pending_.changed) {
    pending_.model_result = attn::model::ModelLabResult{};
    pending_.result = ComputeResult(c.view.model.loaded, next.config, &pending_.model_result);
  }
  if (!pending_.changed || pending_.result.error.ok() ||
      pending_.result.error.code == attn::ConfigError::kModelNotLoaded)
    return true;
  *refused = EngineRefusal(pending_.result.error);
  return false;
}
void Attention::Adopt(const RoomContext&, const attn::api::LabState&, Source) {
  if (!pending_.changed) return;
  result = std::move(pending_.result);
  model_result = std::move(pending_.model_result);
  custom = CustomWeights{};
  pending_.changed = false;
}
void Attention::Tick(const RoomContext&, double, FrameWork*) { TickProbe(); }
bool Attention::NeedsFrames(const attn::api::LabState&, const LabView&) const { return !probe.queue.empty(); }
void Attention::Publish(LabView* view) const {
  view->attention.result = &result;
  view->attention.model_result = &model_result;
  view->attention.custom = &custom;
  view->attention.probe = &probe.points;
  view->attention.probe_total = probe.total;
  view->attention.probe_started = !probe.points.empty() || !probe.queue.empty();
}

}  // namespace app
