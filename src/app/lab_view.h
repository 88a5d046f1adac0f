// What the rooms of src/app/ publish for one another: a read-only view of their results
// (LabView), and the few things one room may ask of the others (LabRequests); a room's methods
// get both, with the settings, as a RoomContext. A room that reads or moves another room does it
// through these, never through the other room's header or fields: the lesson's readout and step
// actions, the what-if's plain run, the model's checks of the attention result, the page's link,
// the exports. Each room fills its part of the view (Room::Publish, room.h); app.cpp builds it
// (View) and answers the requests. Pointers point into the rooms, so a view is current until the
// next ApplyPatch or Tick; none is null unless it says so. No ImGui, SDL or GL (library attn_app).
#pragma once

#include "api/state_json.h"
#include "engine/information/information.h"
#include "engine/lab/lab.h"
#include "engine/training/normexp.h"
#include "engine/training/train.h"
#include "engine/whatif/whatif.h"
#include "model/inspect/attribution.h"
#include "model/inspect/patching.h"
#include "model/lab/model_lab.h"
#include "model/lab/model_whatif.h"

#include <string>
#include <vector>

namespace app {

using attn::api::Json;

// Where a patch comes from: the two text boxes keep what the learner typed (and the example
// box shows its own refusal); everything else replaces the boxes' text with the new state.
enum class Source { kUi, kSentenceBox, kExampleBox, kApi };

// One run of the probe sweep (the attention room's Information panel): the accuracy of a
// readout that sees only A, against chance.
struct ProbePoint {
  int tokens, d_v, heads;
  double accuracy, chance;
};

// The information panel's scenario 1 with weights the learner dragged (instead of the query's
// own); cleared by any change of the result (the attention room's; the exports draw it).
struct CustomWeights {
  bool active = false;
  attn::VecD alpha;                     // (N) in the normalizer's set, 0 on masked keys
  attn::InformationReport info;         // AnalyzeInformation for these weights
  std::vector<attn::VecD> vertices;     // SameOutputVertices for these weights
  attn::MatD contributions, contributions2;  // (N, Dv) w_i v_i of both scenarios
};

struct LabView {
  const attn::api::LabState* lab = nullptr;  // the current settings (AppState::lab)

  struct AttentionPart {                      // attention/
    const attn::LabResult* result = nullptr;  // the engine's numbers for the settings
    // Model mode: the model's forward behind `result` (valid when result is). The attention
    // room owns both: one call (model::ComputeModelLab) computes them together.
    const attn::model::ModelLabResult* model_result = nullptr;
    const CustomWeights* custom = nullptr;    // the dragged weights (custom->active)
    const std::vector<ProbePoint>* probe = nullptr;  // the sweep's runs done so far
    int probe_total = 0;                      // runs in the sweep (0: never started)
    bool probe_started = false;               // runs done or queued
  } attention;

  struct TrainingPart {                          // training/, run A (and B)
    int step = 0;                                // steps trained
    int query = 0;                               // the example's query row
    const attn::ExampleView* example = nullptr;  // the example at the current parameters; null
                                                 // until one was computed
    bool compare = false;                        // run B exists
    const attn::ExampleView* example_b = nullptr;  // run B's example (null: none computed)
  } training;

  struct ModelPart {                                     // model/
    const attn::model::LabModel* loaded = nullptr;       // null until its files are loaded
    int weights_version = 0;  // changes whenever the loaded model's weights do (Train it more)
  } model;

  struct NormalizationPart {  // normalization/: the tab's experiments 1-3
    bool computed = false;
    const std::vector<attn::ScoreVariancePoint>* variance = nullptr;
    const std::vector<attn::SaturationPoint>* saturation = nullptr;
    const std::vector<attn::Normalizer>* normalizers = nullptr;  // experiment 3's series
    const std::vector<attn::OutputNormPoint>* output_norm = nullptr;
    int keys = 0;  // the keys of experiments 2 and 3
  } normalization;

  struct WhatIfPart {                                       // whatif/
    const attn::LabComparison* comparison = nullptr;        // null: none for the settings
    const attn::model::ModelComparison* model = nullptr;    // model mode's; null: none
    const attn::LabError* model_error = nullptr;            // why model mode's was refused
  } whatif;

  struct InspectPart {                    // inspect/: the Prediction tab
    // the attribution last computed (of the sentence shown when the tab or the API asked); null: none
    const attn::model::Attribution* attribution = nullptr;
    // the lesson's readout of it (EN, RU lines: the model's next word, the head that pushed it
    // most, that head's largest weight and largest push); null: none yet
    const std::vector<std::pair<std::string, std::string>>* readout = nullptr;
    // activation patching's last run (done, running or cancelled; null: none), its two prompts'
    // tokens and what it swapped ("resid", ...): the grid's exports
    const attn::model::PatchRun* patching = nullptr;
    const std::vector<std::string>* patch_clean = nullptr;
    const std::vector<std::string>* patch_corrupted = nullptr;
    const std::string* patch_what = nullptr;
  } inspect;

  struct LessonPart {                     // lesson/
    const std::string* url = nullptr;     // the #lessonUrl the lesson came from ("": none)
  } lesson;
};

// The example the training runs use (training.cpp), and the normalization curves start from:
// the learner's, or when empty the default one in the interface language (the verb_object task
// knows «я люблю суши» and "I love sushi").
std::string ResolveExample(const attn::api::LabState& lab);

struct AppState;

// What a room may ask of the others, answered by app.cpp on the rooms of the AppState it was
// made for (a plain class: one answer each, no virtual calls in the page's code).
class LabRequests {
 public:
  explicit LabRequests(AppState& s) : s_(&s) {}
  // ApplyPatch (app.h): a lesson's moves, the page's link.
  attn::api::PatchResult Apply(const Json& patch, Source source = Source::kUi) const;
  // The one refusal (app.h's Refuse): kept in the header, the state as it was.
  attn::api::PatchResult Refuse(attn::api::PatchResult r, Source source = Source::kApi) const;
  void Notify() const;                     // the page: the state changed
  // The settings, for the two writes no patch makes: play stopping (training: divergence, the
  // step cap) and the facts a lesson document brings (lessonId, its steps and choices).
  attn::api::LabState& Lab() const;
  LabView View() const;                    // the rooms as they are now
  void ResetTraining() const;              // training/: runs A and B from step 0
  void TrainUpTo(int steps) const;         // training/: run A until it has trained `steps`
  void EnsureNormalization() const;        // normalization/: experiments 1-3 computed
  void StartProbe() const;                 // attention/: the probe sweep, unless done or queued
  void RecomputeResult() const;            // attention/: the result again for the same settings
                                           // (the model's weights arrived or changed)
  void UpdateWhatIf() const;               // whatif/: the comparison for the current result
  std::string LoadLessonUrl(const std::string& url) const;  // lesson/: a link's #lessonUrl

 private:
  AppState* s_;
};

// What a room's method works with besides its own members (room.h).
struct RoomContext {
  const attn::api::LabState& lab;  // the current settings (in Adopt: the new ones)
  LabView view;                    // the other rooms, as they were when the call began
  LabRequests requests;            // what the room may ask of the others
};

}  // namespace app
