// The training room (training.h): runs A and B, built for the settings, stepped in lockstep.
#include "app/training/training.h"

#include <algorithm>
#include <chrono>

namespace app {

namespace {

// lab.train.query against the example: a valid row, or the first row that has a right key.
int ResolveQuery(const attn::api::LabState& lab, const attn::Example& ex) {
  const int n = static_cast<int>(ex.tokens.size());
  if (lab.train.query >= 0 && lab.train.query < n) return lab.train.query;
  for (int i = 0; i < n && i < static_cast<int>(ex.sources.size()); ++i)
    if (ex.sources[i] >= 0) return i;
  return 0;
}

void RefreshViews(Training& t) {
  if (t.a.trainer.ready()) {
    t.a.view = attn::ViewExample(t.a.trainer);
    t.a.has_view = true;
  }
  if (t.compare && t.b.trainer.ready()) {
    t.b.view = attn::ViewExample(t.b.trainer);
    t.b.has_view = true;
  }
}

// Builds runs A and B for `lab` into `out`; false with a message when the engine refuses.
bool BuildRuns(const attn::api::LabState& lab, Training& out, std::string* error) {
  attn::TrainConfig a = lab.train.config;
  a.example = ResolveExample(lab);
  out.a = TrainRun{};
  out.b = TrainRun{};
  attn::TrainError e;
  if (!out.a.trainer.Reset(a, &e)) {
    *error = e.message;
    return false;
  }
  attn::TrainConfig b;
  attn::api::CompareError compare_error;
  out.compare = attn::api::CompareConfig(lab.train.compare, a, &b, &compare_error);
  if (!out.compare && !compare_error.message.empty()) {
    *error = compare_error.message;
    return false;
  }
  if (out.compare && !out.b.trainer.Reset(b, &e)) {
    *error = "train.compare: " + e.message;
    return false;
  }
  out.query = ResolveQuery(lab, out.a.trainer.problem().example());
  return true;
}

// Takes the new runs from `fresh`, keeping the interface's own fields (the example box).
void AdoptRuns(Training& t, Training&& fresh) {
  t.a = std::move(fresh.a);
  t.b = std::move(fresh.b);
  t.compare = fresh.compare;
  t.query = fresh.query;
  t.stopped_at_cap = false;
  t.run_to = 0;
  RefreshViews(t);
}

// One step of each live run (lockstep). Returns false when run A can go no further.
bool StepOnce(Training& t) {
  if (!t.a.trainer.ready() || t.a.trainer.diverged()) return false;
  const bool ok = t.a.trainer.Step();
  if (t.compare && t.b.trainer.ready() && !t.b.trainer.diverged()) t.b.trainer.Step();
  return ok;
}

// The example sentence run A watches, as text for the example box.
std::string ExampleText(const attn::Trainer& t) {
  if (!t.ready()) return "";
  return t.problem().config().example.empty() ? t.problem().task().default_example : t.problem().config().example;
}

// Play stops (a setting no patch made: asked of the app, which tells the page).
void StopPlaying(const RoomContext& c, Training& t) {
  t.run_to = 0;  // a long run stops with playing (divergence, the step cap)
  if (!c.lab.train.play) return;
  c.requests.Lab().train.play = false;
  c.requests.Notify();
}

// True when runs A and B would train the same way: play, speed and query change only how the
// runs are stepped and shown, not what they learn.
bool SameTrainingSettings(const attn::api::TrainState& a, const attn::api::TrainState& b) {
  return attn::SameFields(attn::TrainFields(), a.config, b.config) && a.compare == b.compare;
}

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::string ResolveExample(const attn::api::LabState& lab) {
  const attn::TrainConfig& c = lab.train.config;
  if (!c.example.empty() || c.task != attn::TaskKind::kVerbObject) return c.example;
  const attn::Task task = attn::MakeTask(c.task, c.length);
  const std::string wanted = lab.lang == "ru" ? "я люблю суши" : "I love sushi";
  attn::Example ex;
  std::string error;
  return attn::LabelExample(task, wanted, &ex, &error) ? wanted : std::string();
}

void Training::Init(const attn::api::LabState& lab) {
  std::string error;
  if (BuildRuns(lab, *this, &error)) RefreshViews(*this);
  example_edit = ExampleText(a.trainer);
}

void Training::Reset(const attn::api::LabState& lab) {
  Training fresh;
  std::string error;
  if (!BuildRuns(lab, fresh, &error)) return;  // the settings were accepted: cannot happen
  AdoptRuns(*this, std::move(fresh));
}

void Training::StartRun(int steps) {
  if (!a.trainer.ready() || a.trainer.diverged() || steps < 1) return;
  const int from = a.trainer.step();
  run_from = from;
  run_to = std::min(from + steps, kMaxPlaySteps);
  if (run_to <= from) run_to = 0;
}

void Training::TrainSteps(const RoomContext& c, int steps) {
  stopped_at_cap = false;
  for (int i = 0; i < steps; ++i)
    if (!StepOnce(*this)) break;
  if (a.trainer.diverged()) StopPlaying(c, *this);
  RefreshViews(*this);
}

int Training::TickTraining(const RoomContext& c, double budget_ms, double* ms) {
  // As many steps as fit in the frame's budget, measured here (the engine knows no clocks).
  // The example views are refreshed once, after the batch. (c.lab is the app's settings, which
  // StopPlaying changes: read again after it.)
  const attn::api::LabState& lab = c.lab;
  int steps = 0;
  *ms = 0;
  bool long_run = run_to > 0;  // a long run goes as fast as the budget allows, not at `speed`
  if (!lab.train.play && !long_run) return 0;
  const auto t0 = std::chrono::steady_clock::now();
  while (MsSince(t0) < budget_ms && (long_run || lab.train.speed <= 0 || steps < lab.train.speed)) {
    if (long_run && a.trainer.step() >= run_to) {
      run_to = 0;
      long_run = false;
      if (!lab.train.play) break;
      continue;
    }
    if (a.trainer.step() >= kMaxPlaySteps) {
      stopped_at_cap = true;
      StopPlaying(c, *this);
      break;
    }
    if (!StepOnce(*this)) {
      StopPlaying(c, *this);
      break;
    }
    ++steps;
  }
  if (long_run && a.trainer.step() >= run_to) run_to = 0;
  *ms = MsSince(t0);
  if (steps > 0 || !lab.train.play) RefreshViews(*this);
  return steps;
}

// ---- the room (room.h) ------------------------------------------------------------------------
bool Training::Prepare(const RoomContext& c, const attn::api::LabState& next,
                       attn::api::PatchResult* refused) {
  pending_ = std::make_shared<TrainingChange>();
  TrainingChange& change = *pending_;
  const bool train_changed = !SameTrainingSettings(c.lab.train, next.train);
  const bool lang_example = next.lang != c.lab.lang && next.train.config.example.empty() && a.trainer.step() == 0;
  change.rebuild = train_changed || lang_example || !a.trainer.ready();
  if (change.rebuild) change.ok = BuildRuns(next, change.runs, &change.error);
  if (change.ok) return true;
  refused->ok = false;
  refused->api_error = attn::api::ApiError::kBadValue;
  refused->field = "train";
  refused->message = change.error;
  return false;
}
void Training::Adopt(const RoomContext& c, const attn::api::LabState&, Source source) {
  // Taken out first: adopting new runs writes this room's members.
  const std::shared_ptr<TrainingChange> change = std::move(pending_);
  if (!change) return;
  if (change->rebuild) {
    AdoptRuns(*this, std::move(change->runs));
    if (source != Source::kExampleBox) example_edit = ExampleText(a.trainer);
  } else {
    // Only the query row (or play) changed.
    query = ResolveQuery(c.lab, a.trainer.problem().example());
  }
  example_error.clear();
}
bool Training::SharesBudget(const attn::api::LabState& lab) const { return lab.train.play || run_to > 0; }
void Training::Tick(const RoomContext& c, double budget_ms, FrameWork* work) {
  work->train_steps = TickTraining(c, budget_ms, &work->train_ms);
}
bool Training::NeedsFrames(const attn::api::LabState& lab, const LabView&) const { return SharesBudget(lab); }
void Training::Publish(LabView* view) const {
  view->training.step = a.trainer.step();
  view->training.query = query;
  view->training.example = a.has_view ? &a.view : nullptr;
  view->training.compare = compare;
  view->training.example_b = compare && b.has_view ? &b.view : nullptr;
}

}  // namespace app
