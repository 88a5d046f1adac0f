#include "app/app.h"

#include <algorithm>

namespace app {

namespace {

void Notify(const AppState& s) {
  if (s.on_state_changed) s.on_state_changed(StateJson(s));
}

}  // namespace

void InitApp(AppState& s) {
  s.lab = attn::api::LabState{};
  s.sentence_edit = s.lab.config.sentence;
  s.result = attn::ComputeLab(s.lab.config);
}

attn::api::PatchResult ApplyPatch(AppState& s, const Json& patch, Source source) {
  attn::api::PatchResult r = attn::api::ApplyStatePatch(s.lab, patch);
  if (!r.ok) {
    s.has_refusal = true;
    s.refusal = r;
    return r;
  }
  // Validated input that the maths still refuses (e.g. overflowing scores) is refused too:
  // the panels always draw a finished, valid result.
  attn::LabResult result = attn::ComputeLab(r.state.config);
  if (!result.error.ok()) {
    r.ok = false;
    r.state = s.lab;
    r.api_error = attn::api::ApiError::kEngine;
    r.engine_error = result.error;
    r.field = result.error.field;
    r.message = result.error.message;
    s.has_refusal = true;
    s.refusal = r;
    return r;
  }
  s.lab = r.state;
  s.result = std::move(result);
  s.custom = AppState::CustomWeights{};
  s.has_refusal = false;
  // The box shows what the learner types; anything else that sets the sentence replaces it.
  if (source != Source::kSentenceBox) s.sentence_edit = s.lab.config.sentence;
  Notify(s);
  return r;
}

attn::api::PatchResult ApplyPatchText(AppState& s, const std::string& json_text) {
  Json patch = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (patch.is_discarded()) {
    attn::api::PatchResult r = attn::api::ApplyStatePatchText(s.lab, json_text);
    s.has_refusal = true;
    s.refusal = r;
    return r;
  }
  return ApplyPatch(s, patch, Source::kApi);
}

void SetCustomWeight(AppState& s, int token, double value) {
  const attn::LabResult& r = s.result;
  if (!r.error.ok()) return;
  const attn::VecD base = s.custom.active ? s.custom.alpha
                                          : attn::VecD(r.trace.weights.row(r.steps.query).transpose().cast<double>());
  const attn::MatD values = r.trace.V.cast<double>();  // (N, Dv)
  s.custom.alpha = attn::SetWeightOnSimplex(base, token, value);
  s.custom.info = attn::AnalyzeInformation(values, s.custom.alpha, r.target);
  s.custom.vertices = values.rows() <= 6 ? attn::SameOutputVertices(values, s.custom.alpha) : std::vector<attn::VecD>{};
  s.custom.contributions = attn::Contributions(values, s.custom.alpha);
  s.custom.contributions2 = attn::Contributions(values, s.custom.info.collision.alpha2);
  s.custom.active = true;
}

void ClearCustomWeights(AppState& s) { s.custom = AppState::CustomWeights{}; }

void StartProbeSweep(AppState& s) {
  s.probe.clear();
  s.probe_queue.clear();
  const int n = std::max(2, static_cast<int>(s.result.tokens.size()));
  auto queue = [&](int d_v, int heads) {
    attn::ProbeConfig cfg;
    cfg.tokens = n;
    cfg.d_v = d_v;
    cfg.heads = heads;
    cfg.seed = s.lab.config.seed;
    s.probe_queue.push_back(cfg);
  };
  for (int d_v : {1, 2, 4, 8, 16}) queue(d_v, 1);
  for (int heads : {2, 4}) queue(16, heads);
  s.probe_total = static_cast<int>(s.probe_queue.size());
}

void Tick(AppState& s) {
  if (s.probe_queue.empty()) return;
  const attn::ProbeConfig cfg = s.probe_queue.front();
  s.probe_queue.erase(s.probe_queue.begin());
  const attn::ProbeResult r = attn::RunProbe(cfg);
  s.probe.push_back({cfg.tokens, cfg.d_v, cfg.heads, r.accuracy, r.chance});
}

std::string StateJson(const AppState& s) { return attn::api::Dump(attn::api::StateToJson(s.lab)); }

std::string TraceJson(const AppState& s) { return attn::api::Dump(attn::api::TraceToJson(s.lab, s.result)); }

}  // namespace app
