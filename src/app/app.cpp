// AppState's common part (app.h): ApplyPatch hands a patch to each room, Tick gives each room
// its share of the frame, and every refusal goes through Refuse.
#include "app/app.h"

#include "app/lesson/lesson.h"

#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>

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

namespace {
// Every room, in the order each phase runs them: the lesson expands a patch first and runs its
// step's actions last; the attention room's result comes before what reads it (what-if, training).
template <class State, class R = std::conditional_t<std::is_const_v<State>, const Room, Room>>
std::array<R*, 6> Rooms(State& s) {
  return {&s.attention, &s.whatif, &s.training, &s.model, &s.normalization, &s.lesson};
}
}  // namespace

attn::api::PatchResult ApplyPatch(AppState& s, const Json& given, Source source) {
  // 1. The patch to apply (the lesson: entering a step brings the step's settings; the patch's
  //    own fields win).
  Json patch = given;
  attn::api::PatchResult refused;  // one for every room's refusal: made once
  for (Room* room : Rooms(s))
    if (!room->Expand(s, &patch, &refused)) return Refuse(s, std::move(refused), source);
  // 2. The settings, row by row (api/state_json.h).
  attn::api::PatchResult r = attn::api::ApplyStatePatch(s.lab, patch);
  if (!r.ok) return Refuse(s, r, source);
  // 3. Each room prepares its part, so that a refusal keeps every room as it was. The maths may
  //    still refuse validated input: the panels always draw a finished, valid result.
  for (Room* room : Rooms(s))
    if (!room->Prepare(s, r.state, &refused)) return Refuse(s, std::move(refused), source);
  // 4. Accepted: every room takes its part.
  const attn::api::LabState before = std::exchange(s.lab, r.state);
  s.has_refusal = false;
  // The box shows what the learner types; anything else that sets the sentence replaces it.
  if (source != Source::kSentenceBox) s.sentence_edit = s.lab.config.sentence;
  for (Room* room : Rooms(s)) room->Adopt(s, before, source);
  Notify(s);
  return r;
}

attn::api::PatchResult ApplyPatchText(AppState& s, const std::string& json_text) {
  Json patch = attn::api::ParseJson(json_text);
  if (patch.is_discarded()) return Refuse(s, attn::api::ApplyStatePatchText(s.lab, json_text));
  return ApplyPatch(s, patch, Source::kApi);
}

FrameWork Tick(AppState& s) {
  FrameWork w;
  // Training and the normalization curves share the budget when both run.
  int sharing = 0;
  for (const Room* room : Rooms(s)) sharing += room->SharesBudget(s) ? 1 : 0;
  for (Room* room : Rooms(s))
    room->Tick(s, room->SharesBudget(s) ? kTrainBudgetMs / std::max(1, sharing) : kTrainBudgetMs, &w);
  return w;
}

LabView View(const AppState& s) {
  LabView view;
  view.lab = &s.lab;
  for (const Room* room : Rooms(s)) room->Publish(&view);
  return view;
}

void AppRequests::ResetTraining() { app::ResetTraining(s_); }
void AppRequests::TrainUpTo(int steps) {
  const int done = s_.training.a.trainer.step();
  if (done < steps) TrainSteps(s_, steps - done);
}
void AppRequests::EnsureNormalization() { app::EnsureNormalization(s_); }
void AppRequests::StartProbe() {
  if (s_.attention.probe.points.empty() && s_.attention.probe.queue.empty()) StartProbeSweep(s_);
}

void AppRequests::RecomputeResult() {
  s_.attention.result = ComputeResult(s_, s_.lab.config, &s_.model.result);
  ClearCustomWeights(s_);
}

bool NeedsFrames(const AppState& s) {
  for (const Room* room : Rooms(s))
    if (room->NeedsFrames(s)) return true;
  return false;
}

std::string StateJson(const AppState& s) { return attn::api::Dump(attn::api::StateToJson(s.lab)); }

}  // namespace app
