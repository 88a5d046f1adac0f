// The normalization room: the Normalization tab's experiments (engine/training/normexp.h). 1-3 are
// computed once when first shown, one a frame; the training curves over several seeds run on
// demand, a slice per frame (Tick); the page API's JSON for both. No ImGui, SDL or GL.
#pragma once

#include "app/room.h"
#include "engine/training/normexp.h"
#include "engine/training/train.h"

#include <string>
#include <vector>

namespace app {

// The room (room.h): Tick runs slices of the curves, sharing the budget with training.
struct Normalization final : Room {
  bool computed = false;
  std::vector<int> d_ks;                       // the d_k axis of experiments 1 and 2
  std::vector<attn::ScoreVariancePoint> variance;
  std::vector<attn::SaturationPoint> saturation;
  std::vector<double> magnitudes;              // experiment 3's score magnitudes c
  std::vector<attn::Normalizer> normalizers;   // experiment 3's series, in this order
  std::vector<attn::OutputNormPoint> output_norm;
  int keys = 0, d_v = 0, samples = 0;          // the sizes used (for the captions): samples of
  int saturation_samples = 0;                  // experiment 1, and of experiments 2 and 3
  int stage = 0;                               // experiments computed so far (Step)
  attn::CurveExperiment curves;
  bool curves_started = false, curves_running = false;
  int curve_seeds = 3, curve_steps = 200;
  std::string curves_error;
  attn::TrainConfig curves_base;               // the training settings the curves started from

  bool SharesBudget(const attn::api::LabState& lab) const override;
  void Tick(const RoomContext& c, double budget_ms, FrameWork* work) override;
  bool NeedsFrames(const attn::api::LabState& lab, const LabView& view) const override;
  void Publish(LabView* view) const override;

  // The experiments 1-3: Step computes the next one (true while some remain; the panel calls it
  // once a frame), Ensure all that remain. Then the curves over several seeds (from the current
  // training settings, `lab`).
  bool Step();
  void Ensure();
  bool StartCurves(const attn::api::LabState& lab, int seeds, int steps, std::string* error);
  // Tick's part: slices of the curves until `budget_ms`.
  void TickCurves(double budget_ms);

  // The page API (web/js/api.js): getNormalization()'s data (computing 1-3 if needed), and
  // runNormalization({seeds, steps}).
  std::string NormalizationJson();
  std::string RunCurvesJson(const attn::api::LabState& lab, const std::string& json_options);
};

constexpr int kMaxPageCurveSeeds = 10;    // runNormalization({seeds, steps}): what a page runs
constexpr int kMaxPageCurveSteps = 2000;  // in its frames


}  // namespace app
