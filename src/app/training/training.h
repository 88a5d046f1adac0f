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

struct AppState;
enum class Source;

struct TrainRun {
  attn::Trainer trainer;
  attn::ExampleView view;  // the example sentence at the current parameters (refreshed after
  bool has_view = false;   // every batch of steps, not every step)
};

struct TrainingChange;

// The room (room.h): Prepare builds new runs when the settings ask for them (refused when the
// engine refuses them), Adopt takes them; Tick plays or runs them within its share of the budget.
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

  bool Prepare(const AppState& s, const attn::api::LabState& next,
               attn::api::PatchResult* refused) override;
  void Adopt(AppState& s, const attn::api::LabState& before, Source source) override;
  bool SharesBudget(const AppState& s) const override;
  void Tick(AppState& s, double budget_ms, FrameWork* work) override;
  bool NeedsFrames(const AppState& s) const override;
  void Publish(LabView* view) const override;

 private:
  std::shared_ptr<TrainingChange> pending_;  // Prepare's, until Adopt (it holds runs: a pointer)
};

constexpr int kMaxPlaySteps = 50000;  // playing stops here (the history stays small)
constexpr int kRunSteps = 500;        // a long run's default length ("+500 steps")
constexpr int kMaxApiSteps = 5000;    // attentionLab.train(steps) refuses more

// ---- how a patch applies to the runs (ApplyPatch) -------------------------------------------
// New training settings (not play, speed or query), a new language before anything is trained
// (the default example is the language's), or runs not built yet: the runs start again. They
// are built first (PrepareTraining), so that a refusal keeps the old runs; AdoptTraining takes
// them once every room accepted the patch.
struct TrainingChange {
  bool rebuild = false;
  bool ok = true;      // false: the engine refused the runs (error says why)
  Training runs;       // rebuild: the new runs
  std::string error;
};
TrainingChange PrepareTraining(const AppState& s, const attn::api::LabState& next);
void AdoptTraining(AppState& s, TrainingChange&& change, Source source);

// ResetTraining starts runs A (and B) again from step 0 with the current settings.
// TrainSteps runs `steps` steps of both runs in lockstep now; it stops early when run A diverges
// (then lab.train.play becomes false). Both refresh the cached example views.
void InitTraining(AppState& s);
void ResetTraining(AppState& s);
void TrainSteps(AppState& s, int steps);
// A long run: `steps` more steps in the coming frames, as many per frame as fit the budget
// (Tick), shown with a progress bar; StopRun ends it early. A reset or divergence ends it too.
void StartRun(AppState& s, int steps);
void StopRun(AppState& s);
// Tick's part: while playing or in a long run, steps until `budget_ms` (at most lab.train.speed
// steps while playing); returns the steps run, *ms the time they took.
int TickTraining(AppState& s, double budget_ms, double* ms);
bool TrainingNeedsFrames(const AppState& s);

// The example the runs use: the learner's, or when empty the default one in the interface
// language (the verb_object task knows «я люблю суши» and "I love sushi").
std::string ResolveExample(const attn::api::LabState& lab);

// ---- the page API's training JSON (training_json.cpp; web/js/api.js) ------------------------
// One writer for both runs: kLatest is train(steps)'s answer (run A's numbers now at the top
// level, run B's under "b", the compare setting); kHistory is getTraining()'s (the training
// state, the query, each run's history with its numbers now under "current").
enum class TrainingJsonOf { kLatest, kHistory };
std::string TrainingJson(const AppState& s, TrainingJsonOf what);
// train(steps): `steps` checked by a row like every setting (at most kMaxApiSteps), run now,
// then TrainingJson(kLatest); {ok: false, field, error} when refused.
std::string TrainStepsJson(AppState& s, double steps);

}  // namespace app
