// The lesson's state logic: which step is shown, the patches that bring the lab to a step and its
// answer, the predictions, the actions a step runs (lesson.h). The steps themselves are in
// lesson_steps.cpp, the numbers under each answer in lesson_readout.cpp.
#include "app/lesson/lesson.h"

#include "app/app.h"

#include "api/fields_json.h"

namespace app {

// ---- state and moves ---------------------------------------------------------------------------

namespace {

const LessonStep* StepAt(int step) {
  const auto& steps = LessonSteps();
  return step >= 1 && step <= static_cast<int>(steps.size()) ? &steps[step - 1] : nullptr;
}

Json Parse(const char* text) { return text ? Json::parse(text) : Json::object(); }

// The lab's defaults: every row of the lab's settings table at its initial value.
Json LabDefaults() {
  Json out = Json::object();
  attn::api::FieldsToJson(attn::LabFields(), attn::LabConfig{}, out);
  out["view"] = "steps";
  return out;
}

void RunAction(AppState& s, LessonAction a) {
  switch (a) {
    case LessonAction::kNone: break;
    case LessonAction::kResetTraining: ResetTraining(s); break;
    case LessonAction::kTrain:
      if (s.training.a.trainer.step() < kLessonTrainSteps)
        TrainSteps(s, kLessonTrainSteps - s.training.a.trainer.step());
      break;
    case LessonAction::kNormalization: EnsureNormalization(s); break;
    case LessonAction::kProbe:
      if (s.attention.probe.points.empty() && s.attention.probe.queue.empty()) StartProbeSweep(s);
      break;
  }
}

}  // namespace

const LessonStep* CurrentLessonStep(const AppState& s) { return StepAt(s.lab.lesson); }

int LessonPrediction(const attn::api::LabState& lab, int step) {
  if (step < 1 || step > static_cast<int>(lab.predictions.size())) return -1;
  const char c = lab.predictions[step - 1];
  return c >= 'a' && c < 'a' + kLessonChoices ? c - 'a' : -1;
}

bool LessonRevealed(const AppState& s) { return LessonPrediction(s.lab, s.lab.lesson) >= 0; }

Json LessonStepPatch(int step, bool revealed) {
  const LessonStep* st = StepAt(step);
  Json patch = LabDefaults();
  if (st) {
    patch.merge_patch(Parse(st->setup));
    if (revealed) patch.merge_patch(Parse(st->reveal));
  }
  patch["lesson"] = step;
  return patch;
}

Json WithLessonStep(const AppState& s, const Json& patch) {
  // A number (a link's text arrives as a double); the row refuses what is not a step.
  if (!patch.is_object() || !patch.contains("lesson") || !patch["lesson"].is_number()) return patch;
  const double value = patch["lesson"].get<double>();
  if (value != std::floor(value) || value < 0 || value > kLessonSteps) return patch;
  const int step = static_cast<int>(value);
  if (step == s.lab.lesson || !StepAt(step)) return patch;
  attn::api::LabState lab = s.lab;
  if (patch.contains("predictions") && patch["predictions"].is_string())
    lab.predictions = patch["predictions"].get<std::string>();
  Json merged = LessonStepPatch(step, LessonPrediction(lab, step) >= 0);
  merged.merge_patch(patch);
  return merged;
}

void RunLessonActions(AppState& s, int previous_lesson) {
  const LessonStep* st = CurrentLessonStep(s);
  if (!st || s.lab.lesson == previous_lesson) return;
  RunAction(s, st->setup_action);
  if (LessonRevealed(s)) RunAction(s, st->reveal_action);
}

attn::api::PatchResult GoToLesson(AppState& s, int step) { return ApplyPatch(s, Json{{"lesson", step}}); }

attn::api::PatchResult AnswerLesson(AppState& s, int choice) {
  const LessonStep* st = CurrentLessonStep(s);
  std::string predictions = s.lab.predictions;
  if (st && choice >= 0 && choice < kLessonChoices && predictions.size() == static_cast<std::size_t>(kLessonSteps))
    predictions[s.lab.lesson - 1] = static_cast<char>('a' + choice);
  // Bad input is refused by the predictions row, in the one wording.
  else predictions = "?";
  Json patch = st ? LessonStepPatch(s.lab.lesson, true) : Json::object();
  patch["predictions"] = predictions;
  attn::api::PatchResult r = ApplyPatch(s, patch);
  if (r.ok && st) RunAction(s, st->reveal_action);
  return r;
}

namespace {
attn::api::PatchResult Unchanged(const AppState& s) {
  attn::api::PatchResult r;
  r.state = s.lab;
  return r;
}
}  // namespace

attn::api::PatchResult ShowLessonExtra(AppState& s) {
  const LessonStep* st = CurrentLessonStep(s);
  if (!st || !st->extra) return Unchanged(s);
  attn::api::PatchResult r = ApplyPatch(s, Parse(st->extra));
  if (r.ok) RunAction(s, st->extra_action);
  return r;
}

attn::api::PatchResult RestoreLessonStep(AppState& s) {
  if (!CurrentLessonStep(s)) return Unchanged(s);
  const bool revealed = LessonRevealed(s);
  attn::api::PatchResult r = ApplyPatch(s, LessonStepPatch(s.lab.lesson, revealed));
  if (r.ok) RunLessonActions(s, 0);
  return r;
}

}  // namespace app
