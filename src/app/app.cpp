// AppState's common part (app.h): ApplyPatch hands a patch to each room, Tick gives each room
// its share of the frame, every refusal goes through Refuse, and the requests one room makes of
// another (lab_view.h's LabRequests) are answered here.
#include "app/app.h"

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
  if (source == Source::kExampleBox) s.training.ExampleRefused(r);
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
  s.attention.Recompute(s.lab, s.model.loaded.get());
  s.whatif.Update(s.lab, View(s));
  s.training.Init(s.lab);
}

namespace {
// Every room, in the order each phase runs them: the lesson expands a patch first and runs its
// step's actions last; the attention room's result comes before what reads it (what-if, training).
template <class State, class R = std::conditional_t<std::is_const_v<State>, const Room, Room>>
std::array<R*, 7> Rooms(State& s) {
  return {&s.attention, &s.whatif, &s.training, &s.model, &s.inspect, &s.normalization, &s.lesson};
}
}  // namespace

RoomContext Context(AppState& s) { return RoomContext{s.lab, View(s), LabRequests(s)}; }

attn::api::PatchResult ApplyPatch(AppState& s, const Json& given, Source source) {
  // 1. The patch to apply (the lesson: entering a step brings the step's settings; the patch's
  //    own fields win).
  Json patch = given;
  attn::api::PatchResult refused;  // one for every room's refusal: made once
  for (Room* room : Rooms(s))
    if (!room->Expand(Context(s), &patch, &refused)) return Refuse(s, std::move(refused), source);
  // 2. The settings, row by row (api/state_json.h).
  attn::api::PatchResult r = attn::api::ApplyStatePatch(s.lab, patch);
  if (!r.ok) return Refuse(s, r, source);
  // 3. Each room prepares its part, so that a refusal keeps every room as it was. The maths may
  //    still refuse validated input: the panels always draw a finished, valid result.
  for (Room* room : Rooms(s))
    if (!room->Prepare(Context(s), r.state, &refused)) return Refuse(s, std::move(refused), source);
  // 4. Accepted: every room takes its part (each with a context made after the rooms before it
  //    adopted: the what-if compares the attention room's new result).
  const attn::api::LabState before = std::exchange(s.lab, r.state);
  s.has_refusal = false;
  // The box shows what the learner types; anything else that sets the sentence replaces it.
  if (source != Source::kSentenceBox) s.sentence_edit = s.lab.config.sentence;
  for (Room* room : Rooms(s)) room->Adopt(Context(s), before, source);
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
  for (const Room* room : Rooms(s)) sharing += room->SharesBudget(s.lab) ? 1 : 0;
  for (Room* room : Rooms(s))
    room->Tick(Context(s), room->SharesBudget(s.lab) ? kTrainBudgetMs / std::max(1, sharing) : kTrainBudgetMs, &w);
  return w;
}

LabView View(const AppState& s) {
  LabView view;
  view.lab = &s.lab;
  for (const Room* room : Rooms(s)) room->Publish(&view);
  return view;
}

bool NeedsFrames(const AppState& s) {
  const LabView view = View(s);
  for (const Room* room : Rooms(s))
    if (room->NeedsFrames(s.lab, view)) return true;
  return false;
}

std::string TraceJson(const AppState& s) {
  const attn::LabResult& result = s.attention.result;
  // (ModelCodeInBuild(): a constant false in the default page's build, whose wasm then leaves
  // the model's part of the trace out.)
  if (!attn::model::ModelCodeInBuild() || s.lab.config.projection != attn::Projection::kModel || !result.error.ok()) {
    Json out = attn::api::TraceToJson(s.lab, result);
    // an edited run: the comparison with the plain one (attnlab trace --compare's "comparison")
    if (result.error.ok() && s.whatif.CurrentComparison()) out["comparison"] = s.whatif.ComparisonJson(s.lab);
    return attn::api::Dump(out);
  }
  attn::api::LabState shown = s.lab;  // the trace's "config": the model's effective settings
  shown.config = s.attention.model_result.config;
  Json out = attn::api::TraceToJson(shown, result);
  out["state"] = attn::api::StateToJson(s.lab);
  out["model"] = s.model.TraceJson(s.lab, View(s));
  if (attn::HasEdits(s.lab.config)) out["comparison"] = s.whatif.ComparisonJson(s.lab);  // the edited run (whatif.h)
  return attn::api::Dump(out);
}

std::string StateJson(const AppState& s) { return attn::api::Dump(attn::api::StateToJson(s.lab)); }

// ---- the requests (lab_view.h) ------------------------------------------------------------------
attn::api::PatchResult LabRequests::Apply(const Json& patch, Source source) const { return ApplyPatch(*s_, patch, source); }
attn::api::PatchResult LabRequests::Refuse(attn::api::PatchResult r, Source source) const {
  return app::Refuse(*s_, std::move(r), source);
}
void LabRequests::Notify() const { app::Notify(*s_); }
attn::api::LabState& LabRequests::Lab() const { return s_->lab; }
LabView LabRequests::View() const { return app::View(*s_); }
void LabRequests::ResetTraining() const { s_->training.Reset(s_->lab); }
void LabRequests::TrainUpTo(int steps) const {
  const int done = s_->training.a.trainer.step();
  if (done < steps) s_->training.TrainSteps(Context(*s_), steps - done);
}
void LabRequests::EnsureNormalization() const { s_->normalization.Ensure(); }
void LabRequests::StartProbe() const {
  const ProbeSweep& p = s_->attention.probe;
  if (p.points.empty() && p.queue.empty()) s_->attention.StartProbeSweep(s_->lab.config.seed);
}
void LabRequests::RecomputeResult() const { s_->attention.Recompute(s_->lab, s_->model.loaded.get()); }
void LabRequests::UpdateWhatIf() const { s_->whatif.Update(s_->lab, app::View(*s_)); }
std::string LabRequests::LoadLessonUrl(const std::string& url) const { return s_->lesson.LoadUrl(Context(*s_), url); }

}  // namespace app
