// The training room: runs A and B of the Training tab (run A trains lab.train.config; run B, when
// lab.train.compare names a change, trains A's config with that one change, from the same seed,
// in lockstep), how a patch rebuilds them, their share of Tick, and the page API's training JSON.
// No ImGui, SDL or GL (library attn_app; tests/app/training).
#pragma once

#include "api/state_json.h"
#include "app/room.h"
#include "engine/training/train.h"

#include <memory>
#include <string>

namespace app {


struct TrainRun {
  attn::Trainer trainer;
  attn::ExampleView view;  // the example sentence at the current parameters (refreshed after
  bool has_view = false;   // every batch of steps, not every step)
};

struct TrainingChange;

constexpr int kMaxPlaySteps = 50000;  // playing stops here (the history stays small)
constexpr int kRunSteps = 500;        // a long run's default length ("+500 steps")
constexpr int kMaxApiSteps = 5000;    // attentionLab.train(steps) refuses more

// The page API's training JSON (training_json.cpp; web/js/api.js): one writer for both runs:
// kLatest is train(steps)'s answer (run A's numbers now at the top level, run B's under "b", the
// compare setting); kHistory is getTraining()'s (the training state, the query, each run's
// history with its numbers now under "current").
enum class TrainingJsonOf { kLatest, kHistory };

// The room (room.h): Prepare builds new runs when the settings ask for them (refused when the
// engine refuses them), Adopt takes them; Tick plays or runs them within its share of the budget.
//
// How a patch applies to the runs: new training settings (not play, speed or query), a new
// language before anything is trained (the default example is the language's), or runs not
// built yet: the runs start again. They are built first (Prepare), so that a refusal keeps the
// old runs; Adopt takes them once every room accepted the patch.
struct Training final : Room {
  TrainRun a, b;
  bool compare = false;        // run B exists
  int query = 0;               // lab.train.query resolved against the example (-1: automatic)
  std::string example_edit;    // the example box (may hold text the engine refused); like
                               // sentence_edit, replaced by ApplyPatch unless typed in the box
  std::string example_error;   // the last refusal of the example box, shown under it
  attn::api::PatchResult example_refusal;  // the same refusal with its codes (translations)
  bool stopped_at_cap = false; // playing stopped at kMaxPlaySteps
  int run_from = 0, run_to = 0; // a long run ("+500 steps") from step run_from to run_to, in
                                // frames, with a progress bar; run_to = 0: none

  bool Prepare(const RoomContext& c, const attn::api::LabState& next,
               attn::api::PatchResult* refused) override;
  void Adopt(const RoomContext& c, const attn::api::LabState& before, Source source) override;
  bool SharesBudget(const attn::api::LabState& lab) const override;
  void Tick(const RoomContext& c, double budget_ms, FrameWork* work) override;
  bool NeedsFrames(const attn::api::LabState& lab, const LabView& view) const override;
  void Publish(LabView* view) const override;

  // Init builds runs A (and B) for `lab` (the app's first state); Reset starts them again from
  // step 0 with the current settings. TrainSteps runs `steps` steps of both runs in lockstep
  // now; it stops early when run A diverges (then lab.train.play becomes false: a request). All
  // refresh the cached example views.
  void Init(const attn::api::LabState& lab);
  void Reset(const attn::api::LabState& lab);
  void TrainSteps(const RoomContext& c, int steps);
  // A long run: `steps` more steps in the coming frames, as many per frame as fit the budget
  // (Tick), shown with a progress bar; StopRun ends it early. A reset or divergence ends it too.
  void StartRun(int steps);
  void StopRun() { run_to = 0; }
  // Tick's part: while playing or in a long run, steps until `budget_ms` (at most
  // lab.train.speed steps while playing); returns the steps run, *ms the time they took.
  int TickTraining(const RoomContext& c, double budget_ms, double* ms);
  // The example box's patch was refused: the box says why (app.h's Refuse).
  void ExampleRefused(const attn::api::PatchResult& r) {
    example_error = r.message;
    example_refusal = r;
  }

  std::string TrainingJson(const attn::api::LabState& lab, TrainingJsonOf what) const;  // training_json.cpp
  // train(steps): `steps` checked by a row like every setting (at most kMaxApiSteps), run now,
  // then TrainingJson(kLatest); {ok: false, field, error} when refused.
  std::string TrainStepsJson(const RoomContext& c, double steps);

 private:
  std::shared_ptr<TrainingChange> pending_;  // Prepare's, until Adopt (it holds runs: a pointer)
};

struct TrainingChange {
  bool rebuild = false;
  bool ok = true;      // false: the engine refused the runs (error says why)
  Training runs;       // rebuild: the new runs
  std::string error;
};

}  // namespace app
