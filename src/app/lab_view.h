// What the rooms of src/app/ publish for one another: a read-only view of their results
// (LabView), and the few things one room may ask of another (LabRequests). A room that reads or
// moves another room does it through these, never through the other room's header or fields:
// the lesson's readout and step actions, the what-if's plain run, the model's checks of the
// attention result. Each room fills its part of the view (Room::Publish, room.h); app.cpp builds
// it (View) and answers the requests (AppRequests). Pointers point into the rooms, so a view is
// current until the next ApplyPatch or Tick; none is null. No ImGui, SDL or GL (library attn_app).
#pragma once

#include "api/state_json.h"
#include "engine/lab/lab.h"
#include "engine/training/normexp.h"
#include "engine/training/train.h"
#include "model/lab/model_lab.h"

#include <vector>

namespace app {

// One run of the probe sweep (the attention room's Information panel): the accuracy of a
// readout that sees only A, against chance.
struct ProbePoint {
  int tokens, d_v, heads;
  double accuracy, chance;
};

struct LabView {
  const attn::api::LabState* lab = nullptr;  // the current settings (AppState::lab)

  struct AttentionPart {                      // attention/
    const attn::LabResult* result = nullptr;  // the engine's numbers for the settings
    const std::vector<ProbePoint>* probe = nullptr;  // the sweep's runs done so far
    int probe_total = 0;                      // runs in the sweep (0: never started)
    bool probe_started = false;               // runs done or queued
  } attention;

  struct TrainingPart {                          // training/, run A
    int step = 0;                                // steps trained
    int query = 0;                               // the example's query row
    const attn::ExampleView* example = nullptr;  // the example at the current parameters; null
                                                 // until one was computed
  } training;

  struct ModelPart {                                     // model/
    const attn::model::LabModel* loaded = nullptr;       // null until its files are loaded
    const attn::model::ModelLabResult* result = nullptr; // valid when attention.result is, in
                                                         // model mode
  } model;

  struct NormalizationPart {  // normalization/: the tab's experiments 1-3
    bool computed = false;
    const std::vector<attn::ScoreVariancePoint>* variance = nullptr;
    const std::vector<attn::SaturationPoint>* saturation = nullptr;
    const std::vector<attn::Normalizer>* normalizers = nullptr;  // experiment 3's series
    const std::vector<attn::OutputNormPoint>* output_norm = nullptr;
    int keys = 0;  // the keys of experiments 2 and 3
  } normalization;
};

// What a room may ask of the others (a lesson step's actions). app.cpp's AppRequests answers.
class LabRequests {
 public:
  virtual ~LabRequests() = default;
  virtual void ResetTraining() = 0;        // training/: runs A and B from step 0
  virtual void TrainUpTo(int steps) = 0;   // training/: run A until it has trained `steps`
  virtual void EnsureNormalization() = 0;  // normalization/: experiments 1-3 computed
  virtual void StartProbe() = 0;           // attention/: the probe sweep, unless done or queued
  virtual void RecomputeResult() = 0;      // attention/: the result again for the same settings
                                           // (the model's weights arrived or changed)
};

}  // namespace app
