// The attention room: the engine's numbers for the lab's settings (every panel of the Attention
// tab draws them), the weights the learner dragged in the Information panel, and the probe sweep.
// How a patch applies here: new attention settings are computed first (PrepareAttention) and
// refused when the maths refuses them; AdoptAttention takes the result once every room accepted.
// No ImGui, SDL or GL (library attn_app; tests/app/attention).
#pragma once

#include "api/state_json.h"
#include "app/lab_view.h"
#include "app/room.h"
#include "engine/information/information.h"
#include "engine/lab/lab.h"
#include "engine/information/probe.h"
#include "model/lab/model_lab.h"

#include <string>
#include <vector>

namespace app {

struct AppState;

// The information panel's scenario 1 with weights the learner dragged (instead of the query's
// own); cleared by any change of the result.
struct CustomWeights {
  bool active = false;
  attn::VecD alpha;                     // (N) in the normalizer's set, 0 on masked keys
  attn::InformationReport info;         // AnalyzeInformation for these weights
  std::vector<attn::VecD> vertices;     // SameOutputVertices for these weights
  attn::MatD contributions, contributions2;  // (N, Dv) w_i v_i of both scenarios
};

// The probe experiment (information panel): accuracy of a readout that sees only A, run on
// demand because it trains a model (a fraction of a second), one run a frame (ProbePoint: in
// lab_view.h, published).
struct ProbeSweep {
  std::vector<ProbePoint> points;
  std::vector<attn::ProbeConfig> queue;  // runs still to do (the page stays responsive and
  int total = 0;                         // shows progress)
};

struct AttentionChange {
  bool changed = false;
  attn::LabResult result;
  attn::model::ModelLabResult model_result;
};

// The room (room.h): Prepare computes the new settings' result (refused when the maths refuses
// it), Adopt takes it; Tick runs the probe's queue.
struct Attention final : Room {
  attn::LabResult result;   // the engine's numbers for `lab`; every panel draws from this (in
                            // model mode: the chosen layer and head of the model, or the error
                            // kModelNotLoaded while the files are not there)
  CustomWeights custom;
  ProbeSweep probe;

  bool Prepare(const AppState& s, const attn::api::LabState& next,
               attn::api::PatchResult* refused) override;
  void Adopt(AppState& s, const attn::api::LabState& before, Source source) override;
  void Tick(AppState& s, double budget_ms, FrameWork* work) override;
  bool NeedsFrames(const AppState& s) const override;
  void Publish(LabView* view) const override;

 private:
  AttentionChange pending_;  // Prepare's, until Adopt
};

// ---- how a patch applies here (ApplyPatch) ------------------------------------------------
// A patch that leaves the attention settings as they were (training, language, view) keeps the
// result and the dragged weights. Otherwise the new result, and in model mode the model's.
AttentionChange PrepareAttention(const AppState& s, const attn::api::LabState& next);
// The maths refused the settings (e.g. overflowing scores); model mode before the files are
// there is accepted (the panels show the loading).
bool Refused(const AttentionChange& c);
void AdoptAttention(AppState& s, AttentionChange&& change);

// Drags weight `token` of scenario 1 to `value` (the engine keeps the weights in the normalizer's
// set: on the simplex over the visible keys, or each in [0, 1] for sigmoid and none; a masked key
// keeps weight 0) and recomputes the information report for them, over the same keys and set as
// the lab's; ClearCustomWeights returns to the query's own.
void SetCustomWeight(AppState& s, int token, double value);
void ClearCustomWeights(AppState& s);

// Queues the probe over d_v in {1, 2, 4, 8, 16} at the current number of tokens, and over 2 and
// 4 heads at d_v = 16; TickProbe (Tick) runs one queued run per frame, appending to the points.
void StartProbeSweep(AppState& s);
void TickProbe(AppState& s);

// The trace of the chosen head (api::TraceToJson): getTrace(). In model mode its "config" is the
// model's effective one and a "model" object adds the ids, the word groups, every layer's and
// head's weights (rows t, keys 0..t, as `attnlab model run`) and the next tokens. With edits, a
// "comparison" is added: the what-if room's (attnlab trace --compare's "comparison").
std::string TraceJson(const AppState& s);

}  // namespace app
