// The lesson's state logic: the document loaded, which step is shown, the patches that bring the
// lab to a step and its answer, the predictions and their events, the actions a step runs
// (lesson.h). Documents are read in lesson_doc.cpp, the numbers under each answer in
// lesson_readout.cpp.
#include "app/lesson/lesson.h"

#include "app/app.h"

#include "api/fields_json.h"

#include <algorithm>
#include <cmath>

namespace app {

namespace {

constexpr std::size_t kMaxEvents = 64;  // the desktop takes none: the oldest go

const LessonStep* StepOf(const LessonDoc* doc, int step) {
  return doc && step >= 1 && step <= static_cast<int>(doc->steps.size()) ? &doc->steps[step - 1] : nullptr;
}

// A step's action: asked of the rooms that do it (lab_view.h), never done here.
void RunAction(LabRequests& rooms, LessonAction a) {
  switch (a) {
    case LessonAction::kNone: break;
    case LessonAction::kResetTraining: rooms.ResetTraining(); break;
    case LessonAction::kTrain: rooms.TrainUpTo(kLessonTrainSteps); break;
    case LessonAction::kNormalization: rooms.EnsureNormalization(); break;
    case LessonAction::kProbe: rooms.StartProbe(); break;
  }
}

attn::api::PatchResult Unchanged(const AppState& s) {
  attn::api::PatchResult r;
  r.state = s.lab;
  return r;
}

attn::api::PatchResult Refusal(std::string field, std::string message) {
  attn::api::PatchResult r;
  r.ok = false;
  r.api_error = attn::api::ApiError::kBadValue;
  r.field = std::move(field);
  r.message = std::move(message);
  return r;
}

// The built-in lesson when it is the one named and not yet read.
bool EnsureLesson(AppState& s, std::string* error) {
  if (s.lesson.doc) return true;
  if (s.lab.lesson_id != "seed") {  // cannot happen: a loaded lesson keeps its document
    *error = "lesson: the lesson " + attn::api::DescribeJson(s.lab.lesson_id) + " is not loaded";
    return false;
  }
  s.lesson.doc = BuiltinLesson(error);
  return s.lesson.doc != nullptr;
}

}  // namespace

std::shared_ptr<const LessonDoc> BuiltinLesson(std::string* error) {
  static std::shared_ptr<const LessonDoc> builtin;  // read once (a failed fetch is tried again)
  if (builtin) return builtin;
  std::string text, why;
  if (!FetchSiteFile("lessons/seed.json", &text, &why)) {
    if (error) *error = "lesson: the built-in lesson could not be loaded: " + why;
    return nullptr;
  }
  const LessonParse p = ParseLesson(text);
  if (!p.ok) {
    if (error) *error = "lesson: lessons/seed.json is refused: " + p.message;
    return nullptr;
  }
  builtin = p.doc;
  return builtin;
}

const std::vector<LessonStep>& LessonSteps() {
  static const std::vector<LessonStep> none;
  const auto doc = BuiltinLesson();
  return doc ? doc->steps : none;
}

const LessonDoc* LoadedLesson(const AppState& s) { return s.lesson.doc.get(); }

const LessonStep* CurrentLessonStep(const Lesson& lesson, const attn::api::LabState& lab) {
  return StepOf(lesson.doc.get(), lab.lesson);
}
const LessonStep* CurrentLessonStep(const AppState& s) { return CurrentLessonStep(s.lesson, s.lab); }

int LessonPrediction(const attn::api::LabState& lab, int step) {
  if (step < 1 || step > static_cast<int>(lab.predictions.size())) return -1;
  const char c = lab.predictions[step - 1];
  return c >= 'a' && c < 'a' + attn::api::kMaxLessonChoices ? c - 'a' : -1;
}

bool LessonRevealed(const Lesson& lesson, const attn::api::LabState& lab) {
  const LessonStep* st = CurrentLessonStep(lesson, lab);
  return st && (!st->has_question || LessonPrediction(lab, lab.lesson) >= 0);
}
bool LessonRevealed(const AppState& s) { return LessonRevealed(s.lesson, s.lab); }

Json LessonStepPatch(int step, bool revealed, const LessonDoc* doc) {
  const std::shared_ptr<const LessonDoc> builtin = doc ? nullptr : BuiltinLesson();
  const LessonStep* st = StepOf(doc ? doc : builtin.get(), step);
  Json patch = attn::api::LessonDefaults();
  if (st) {
    patch.merge_patch(st->setup);
    if (revealed) patch.merge_patch(st->reveal);
  }
  patch["lesson"] = step;
  return patch;
}

bool WithLessonStep(AppState& s, const Json& patch, Json* out, attn::api::PatchResult* refused) {
  *out = patch;
  // A number (a link's text arrives as a double); the row refuses what is not a step.
  if (!patch.is_object() || !patch.contains("lesson") || !patch["lesson"].is_number()) return true;
  const double value = patch["lesson"].get<double>();
  if (value != std::floor(value) || value < 1 || value > s.lab.lesson_steps) return true;
  const int step = static_cast<int>(value);
  std::string error;
  if (!EnsureLesson(s, &error)) {
    *refused = Refusal("lesson", error);
    return false;
  }
  if (step == s.lab.lesson || !StepOf(LoadedLesson(s), step)) return true;
  attn::api::LabState lab = s.lab;
  if (patch.contains("predictions") && patch["predictions"].is_string())
    lab.predictions = patch["predictions"].get<std::string>();
  const LessonStep* st = StepOf(LoadedLesson(s), step);
  *out = LessonStepPatch(step, !st->has_question || LessonPrediction(lab, step) >= 0, LoadedLesson(s));
  out->merge_patch(patch);
  return true;
}

void RunLessonActions(AppState& s, int previous_lesson) {
  const LessonStep* st = CurrentLessonStep(s);
  if (!st || s.lab.lesson == previous_lesson) return;
  AppRequests rooms(s);
  RunAction(rooms, st->setup_action);
  if (LessonRevealed(s)) RunAction(rooms, st->reveal_action);
}

std::string CheckLessonUrl(const std::string& url) {
  bool ok = url.size() > 5 && url.size() <= 200 && url.compare(url.size() - 5, 5, ".json") == 0;
  std::size_t segment = 0;  // where the current segment starts; none may be "", "." or ".."
  for (std::size_t i = 0; ok && i <= url.size(); ++i) {
    const char c = i < url.size() ? url[i] : '/';
    if (c == '/') {
      const std::size_t n = i - segment;
      ok = n > 0 && !(url[segment] == '.' && (n == 1 || (n == 2 && url[segment + 1] == '.')));
      segment = i + 1;
    } else {
      ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    }
  }
  if (ok) return "";
  return "lessonUrl: expected a relative path to a .json file of this site (letters, digits, _ - . /; no scheme, "
         "no //, no ..), got " + attn::api::DescribeJson(url);
}

attn::api::PatchResult LoadLesson(AppState& s, std::string_view text, const std::string& url, bool open) {
  const LessonParse p = ParseLesson(text);
  if (!p.ok) return Refuse(s, Refusal(p.field.empty() ? "lesson" : p.field, p.message));
  // The lab takes the new document's facts, then its step 1 through ApplyPatch; a refusal there
  // (the maths) puts every piece back.
  const std::shared_ptr<const LessonDoc> doc_before = s.lesson.doc;
  const std::string url_before = s.lesson.url, id_before = s.lab.lesson_id, predictions_before = s.lab.predictions;
  const int lesson_before = s.lab.lesson, steps_before = s.lab.lesson_steps, choices_before = s.lab.lesson_choices;
  s.lesson.doc = p.doc;
  s.lesson.url = url;
  s.lab.lesson_id = p.doc->id;
  s.lab.lesson_steps = static_cast<int>(p.doc->steps.size());
  int most = 2;
  for (const LessonStep& st : p.doc->steps) most = std::max(most, static_cast<int>(st.choices.size()));
  s.lab.lesson_choices = most;
  s.lab.lesson = 0;
  s.lab.predictions = std::string(p.doc->steps.size(), '-');
  Json patch = Json::object();
  patch["lesson"] = open ? 1 : 0;
  patch["predictions"] = s.lab.predictions;
  attn::api::PatchResult r = ApplyPatch(s, patch, Source::kApi);
  if (!r.ok) {  // ApplyPatch kept s.lab; the lesson's own facts go back too
    s.lesson.doc = doc_before;
    s.lesson.url = url_before;
    s.lab.lesson_id = id_before;
    s.lab.predictions = predictions_before;
    s.lab.lesson = lesson_before;
    s.lab.lesson_steps = steps_before;
    s.lab.lesson_choices = choices_before;
    r.state = s.lab;
  }
  return r;
}

std::string LoadLessonUrl(AppState& s, const std::string& url) {
  if (url == s.lesson.url && s.lesson.doc) return "";  // the link of the lesson shown (a hashchange)
  std::string why = CheckLessonUrl(url), text;
  if (why.empty() && !FetchSiteFile(url, &text, &why)) why = "lessonUrl: " + why;
  if (why.empty()) {
    const attn::api::PatchResult r = LoadLesson(s, text, url);
    if (!r.ok) why = "lessonUrl: " + url + ": " + r.message;
  }
  if (!why.empty()) Refuse(s, Refusal("lessonUrl", why));
  return why;
}

Json LessonLoadJson(const AppState& s, const attn::api::PatchResult& r) {
  if (!r.ok) return attn::api::PatchResultToJson(r);
  Json out = Json::object();
  out["ok"] = true;
  out["lessonId"] = s.lab.lesson_id;
  out["steps"] = s.lab.lesson_steps;
  out["state"] = attn::api::StateToJson(s.lab);
  return out;
}

attn::api::PatchResult GoToLesson(AppState& s, int step) { return ApplyPatch(s, Json{{"lesson", step}}); }

namespace {
Json Answer(int step, int choice, bool correct) {
  Json out = Json::object();
  out["step"] = step;
  out["choice"] = choice;
  out["correct"] = correct;
  return out;
}

// Every question of the loaded lesson answered.
bool AllAnswered(const AppState& s) {
  const LessonDoc* doc = LoadedLesson(s);
  for (std::size_t i = 0; doc && i < doc->steps.size(); ++i)
    if (doc->steps[i].has_question && LessonPrediction(s.lab, static_cast<int>(i) + 1) < 0) return false;
  return doc != nullptr;
}
}  // namespace

Json LessonProgress(const AppState& s) {
  const LessonDoc* doc = LoadedLesson(s);
  int total = 0, answered = 0, correct = 0;
  Json answers = Json::array();
  if (doc) {
    for (std::size_t i = 0; i < doc->steps.size(); ++i) {
      const LessonStep& st = doc->steps[i];
      if (!st.has_question) continue;
      ++total;
      const int choice = LessonPrediction(s.lab, static_cast<int>(i) + 1);
      if (choice < 0) continue;
      ++answered;
      correct += choice == st.right ? 1 : 0;
      answers.push_back(Answer(static_cast<int>(i) + 1, choice, choice == st.right));
    }
  }
  Json out = Json::object();
  out["lessonId"] = s.lab.lesson_id;
  out["total"] = total;
  out["answered"] = answered;
  out["correct"] = correct;
  out["answers"] = std::move(answers);
  return out;
}

attn::api::PatchResult AnswerLesson(AppState& s, int choice) {
  const LessonStep* st = CurrentLessonStep(s);
  const int step = s.lab.lesson;
  std::string predictions = s.lab.predictions;
  const bool was_done = AllAnswered(s);
  if (st && st->has_question && choice >= 0 && choice < static_cast<int>(st->choices.size()) &&
      predictions.size() == static_cast<std::size_t>(s.lab.lesson_steps))
    predictions[step - 1] = static_cast<char>('a' + choice);
  // Bad input is refused by the predictions row, in the one wording.
  else predictions = "?";
  Json patch = st ? LessonStepPatch(step, true, LoadedLesson(s)) : Json::object();
  patch["predictions"] = predictions;
  attn::api::PatchResult r = ApplyPatch(s, patch);
  if (!r.ok || !st) return r;
  AppRequests rooms(s);
  RunAction(rooms, st->reveal_action);
  auto& events = s.lesson.events;
  Json answer = Answer(step, choice, choice == st->right);
  answer["type"] = "answer";
  answer["lessonId"] = s.lab.lesson_id;
  events.push_back(std::move(answer));
  if (!was_done && AllAnswered(s)) {
    Json progress = LessonProgress(s);
    progress["type"] = "lessonDone";
    events.push_back(std::move(progress));
  }
  if (events.size() > kMaxEvents) events.erase(events.begin(), events.end() - kMaxEvents);
  return r;
}

std::vector<Json> TakeLessonEvents(AppState& s) {
  std::vector<Json> out;
  out.swap(s.lesson.events);
  return out;
}

attn::api::PatchResult ShowLessonExtra(AppState& s) {
  const LessonStep* st = CurrentLessonStep(s);
  if (!st || !st->has_extra) return Unchanged(s);
  attn::api::PatchResult r = ApplyPatch(s, st->extra);
  AppRequests rooms(s);
  if (r.ok) RunAction(rooms, st->extra_action);
  return r;
}

attn::api::PatchResult RestoreLessonStep(AppState& s) {
  if (!CurrentLessonStep(s)) return Unchanged(s);
  const bool revealed = LessonRevealed(s);
  attn::api::PatchResult r = ApplyPatch(s, LessonStepPatch(s.lab.lesson, revealed, LoadedLesson(s)));
  if (r.ok) RunLessonActions(s, 0);
  return r;
}

// ---- the room (room.h) ------------------------------------------------------------------------
bool Lesson::Expand(AppState& s, Json* patch, attn::api::PatchResult* refused) {
  Json out;
  if (!WithLessonStep(s, *patch, &out, refused)) return false;
  *patch = std::move(out);
  return true;
}
void Lesson::Adopt(AppState& s, const attn::api::LabState& before, Source) { RunLessonActions(s, before.lesson); }

std::vector<LessonLine> LessonReadout(const AppState& s) { return LessonReadout(s.lesson, View(s)); }

}  // namespace app
