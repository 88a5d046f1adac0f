// The attention room: the engine's numbers for the lab's settings (every panel of the Attention
// tab draws them), the weights the learner dragged in the Information panel, and the probe sweep.
// How a patch applies here: new attention settings are computed first (Prepare) and refused when
// the maths refuses them; Adopt takes the result once every room accepted.
// The trace (getTrace) is the app's (app.h's TraceJson): it adds the model's and the what-if's
// parts. No ImGui, SDL or GL (library attn_app; tests/app/attention).
#pragma once

#include "api/state_json.h"
#include "app/room.h"
#include "engine/information/information.h"
#include "engine/lab/lab.h"
#include "engine/information/probe.h"
#include "model/lab/model_lab.h"

#include <string>
#include <vector>

namespace app {

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

// The lab's result for `config`: model::ComputeModelLab when projection is "model" and the
// model is loaded (`loaded`, the model room's: filling *model_result), else attn::ComputeLab
// (kModelNotLoaded in model mode).
attn::LabResult ComputeResult(const attn::model::LabModel* loaded, const attn::LabConfig& config,
                              attn::model::ModelLabResult* model_result);

// The room (room.h): Prepare computes the new settings' result (refused when the maths refuses
// it), Adopt takes it; Tick runs the probe's queue.
struct Attention final : Room {
  attn::LabResult result;   // the engine's numbers for `lab`; every panel draws from this (in
                            // model mode: the chosen layer and head of the model, or the error
                            // kModelNotLoaded while the files are not there)
  // Model mode: the model's forward behind `result` (tokens, every layer's intermediates, the
  // next tokens). Owned here, not by the model room: one call computes both, so one owner keeps
  // them in step; the model room and the others read it through LabView.
  attn::model::ModelLabResult model_result;
  CustomWeights custom;
  ProbeSweep probe;

  // A patch that leaves the attention settings as they were (training, language, view) keeps
  // the result and the dragged weights. Otherwise the new result, and in model mode the model's;
  // the maths may refuse it (e.g. overflowing scores; model mode before the files are there is
  // accepted: the panels show the loading).
  bool Prepare(const RoomContext& c, const attn::api::LabState& next,
               attn::api::PatchResult* refused) override;
  void Adopt(const RoomContext& c, const attn::api::LabState& before, Source source) override;
  void Tick(const RoomContext& c, double budget_ms, FrameWork* work) override;
  bool NeedsFrames(const attn::api::LabState& lab, const LabView& view) const override;
  void Publish(LabView* view) const override;

  // The result again for the same settings (the model's weights arrived or changed); the
  // dragged weights go.
  void Recompute(const attn::api::LabState& lab, const attn::model::LabModel* loaded);

  // Drags weight `token` of scenario 1 to `value` (the engine keeps the weights in the
  // normalizer's set: on the simplex over the visible keys, or each in [0, 1] for sigmoid and
  // none; a masked key keeps weight 0) and recomputes the information report for them, over the
  // same keys and set as the lab's; ClearCustomWeights returns to the query's own.
  void SetCustomWeight(int token, double value);
  void ClearCustomWeights() { custom = CustomWeights{}; }

  // Queues the probe over d_v in {1, 2, 4, 8, 16} at the current number of tokens, and over 2
  // and 4 heads at d_v = 16 (from `seed`); TickProbe (Tick) runs one queued run per frame,
  // appending to the points.
  void StartProbeSweep(int seed);
  void TickProbe();

 private:
  AttentionChange pending_;  // Prepare's, until Adopt
};

}  // namespace app
