// AppState's common part (app.h): ApplyPatch hands a patch to each room, Tick gives each room
// its share of the frame, and every refusal goes through Refuse.
#include "app/app.h"

#include "app/lesson/lesson.h"

namespace app {

void Notify(const AppState& s) {
  if (s.on_state_changed) s.on_state_changed(StateJson(s));
}

attn::api::PatchResult Refuse(AppState& s, attn::api::PatchResult r, Source source) {
  r.ok = false;
  r.state = s.lab;
  s.has_refusal = true;
  s.refusal = r;
  if (source == Source::kExampleBox) {
    s.training.example_error = r.message;
    s.training.example_refusal = r;
  }
  return r;
}

attn::api::PatchResult EngineRefusal(const attn::LabError& e) {
  attn::api::PatchResult r;
  r.ok = false;
  r.api_error = attn::api::ApiError::kEngine;
  r.engine_error = e;
  r.field = e.field;
  r.message = e.message;
  return r;
}

void InitApp(AppState& s) {
  s.lab = attn::api::LabState{};
  s.lesson = Lesson{};
  s.sentence_edit = s.lab.config.sentence;
  s.attention.result = ComputeResult(s, s.lab.config, &s.model.result);
  UpdateWhatIf(s);
  InitTraining(s);
}

attn::api::PatchResult ApplyPatch(AppState& s, const Json& given, Source source) {
  // 1. The lesson: entering a step brings the step's settings; the patch's own fields win.
  Json patch;
  attn::api::PatchResult lesson_refused;
  if (!WithLessonStep(s, given, &patch, &lesson_refused)) return Refuse(s, lesson_refused, source);
  const int previous_lesson = s.lab.lesson;
  // 2. The settings, row by row (api/state_json.h).
  attn::api::PatchResult r = attn::api::ApplyStatePatch(s.lab, patch);
  if (!r.ok) return Refuse(s, r, source);
  // 3. Each room prepares its part, so that a refusal keeps every room as it was. The maths may
  //    still refuse validated input: the panels always draw a finished, valid result.
  AttentionChange attention = PrepareAttention(s, r.state);
  if (Refused(attention)) return Refuse(s, EngineRefusal(attention.result.error), source);
  TrainingChange training = PrepareTraining(s, r.state);
  if (!training.ok) {
    attn::api::PatchResult refused;
    refused.api_error = attn::api::ApiError::kBadValue;
    refused.field = "train";
    refused.message = training.error;
    return Refuse(s, refused, source);
  }
  // 4. Accepted: every room takes its part.
  s.lab = r.state;
  AdoptAttention(s, std::move(attention));
  UpdateWhatIf(s);
  s.has_refusal = false;
  // The box shows what the learner types; anything else that sets the sentence replaces it.
  if (source != Source::kSentenceBox) s.sentence_edit = s.lab.config.sentence;
  AdoptTraining(s, std::move(training), source);
  RunLessonActions(s, previous_lesson);
  Notify(s);
  return r;
}

attn::api::PatchResult ApplyPatchText(AppState& s, const std::string& json_text) {
  Json patch = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (patch.is_discarded()) return Refuse(s, attn::api::ApplyStatePatchText(s.lab, json_text));
  return ApplyPatch(s, patch, Source::kApi);
}

FrameWork Tick(AppState& s) {
  FrameWork w;
  TickProbe(s);
  // Training and the normalization curves share the budget when both run.
  const bool curves = s.normalization.curves_running;
  w.train_steps = TickTraining(s, curves ? kTrainBudgetMs * 0.5 : kTrainBudgetMs, &w.train_ms);
  w.tune_units = TickTune(s, kTrainBudgetMs, &w.tune_ms);
  TickModelProbe(s);
  TickModelKeyEffects(s, kTrainBudgetMs);
  TickNormalization(s, s.lab.train.play ? kTrainBudgetMs * 0.5 : kTrainBudgetMs);
  return w;
}

bool NeedsFrames(const AppState& s) {
  return TrainingNeedsFrames(s) || !s.attention.probe.queue.empty() || ModelNeedsFrames(s) ||
         NormalizationNeedsFrames(s);
}

std::string StateJson(const AppState& s) { return attn::api::Dump(attn::api::StateToJson(s.lab)); }

}  // namespace app
