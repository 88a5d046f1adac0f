// The lesson's state logic: the document loaded, which step is shown, the patches that bring the
// lab to a step and its answer, the predictions and their events, the actions a step runs
// (lesson.h). Documents are read in lesson_doc.cpp, the numbers under each answer in
// lesson_readout.cpp.
#include "app/lesson/lesson.h"

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
void RunAction(const LabRequests& rooms, LessonAction a) {
  switch (a) {
    case LessonAction::kNone: break;
    case LessonAction::kResetTraining: rooms.ResetTraining(); break;
    case LessonAction::kTrain: rooms.TrainUpTo(kLessonTrainSteps); break;
    case LessonAction::kNormalization: rooms.EnsureNormalization(); break;
    case LessonAction::kProbe: rooms.StartProbe(); break;
  }
}

attn::api::PatchResult Unchanged(const attn::api::LabState& lab) {
  attn::api::PatchResult r;
  r.state = lab;
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
bool EnsureLesson(Lesson& lesson, const attn::api::LabState& lab, std::string* error) {
  if (lesson.doc) return true;
  if (lab.lesson_id != "seed") {  // cannot happen: a loaded lesson keeps its document
    *error = "lesson: the lesson " + attn::api::DescribeJson(lab.lesson_id) + " is not loaded";
    return false;
  }
  lesson.doc = BuiltinLesson(error);
  return lesson.doc != nullptr;
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

const LessonStep* CurrentLessonStep(const Lesson& lesson, const attn::api::LabState& lab) {
  return StepOf(lesson.doc.get(), lab.lesson);
}

int LessonPrediction(const attn::api::LabState& lab, int step) {
  if (step < 1 || step > static_cast<int>(lab.predictions.size())) return -1;
  const char c = lab.predictions[step - 1];
  return c >= 'a' && c < 'a' + attn::api::kMaxLessonChoices ? c - 'a' : -1;
}

bool LessonRevealed(const Lesson& lesson, const attn::api::LabState& lab) {
  const LessonStep* st = CurrentLessonStep(lesson, lab);
  return st && (!st->has_question || LessonPrediction(lab, lab.lesson) >= 0);
}

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

namespace {
bool WithLessonStep(Lesson& lesson, const attn::api::LabState& current, const Json& patch, Json* out,
                    attn::api::PatchResult* refused) {
  *out = patch;
  // A number (a link's text arrives as a double); the row refuses what is not a step.
  if (!patch.is_object() || !patch.contains("lesson") || !patch["lesson"].is_number()) return true;
  const double value = patch["lesson"].get<double>();
  if (value != std::floor(value) || value < 1 || value > current.lesson_steps) return true;
  const int step = static_cast<int>(value);
  std::string error;
  if (!EnsureLesson(lesson, current, &error)) {
    *refused = Refusal("lesson", error);
    return false;
  }
  const LessonDoc* doc = lesson.doc.get();
  if (step == current.lesson || !StepOf(doc, step)) return true;
  attn::api::LabState lab = current;
  if (patch.contains("predictions") && patch["predictions"].is_string())
    lab.predictions = patch["predictions"].get<std::string>();
  const LessonStep* st = StepOf(doc, step);
  *out = LessonStepPatch(step, !st->has_question || LessonPrediction(lab, step) >= 0, doc);
  out->merge_patch(patch);
  return true;
}
}  // namespace

void Lesson::RunActions(const RoomContext& c, int previous_lesson) {
  const LessonStep* st = CurrentLessonStep(*this, c.lab);
  if (!st || c.lab.lesson == previous_lesson) return;
  RunAction(c.requests, st->setup_action);
  if (LessonRevealed(*this, c.lab)) RunAction(c.requests, st->reveal_action);
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

attn::api::PatchResult Lesson::Load(const RoomContext& c, std::string_view text, const std::string& from_url,
                                    bool open) {
  const LessonParse p = ParseLesson(text);
  if (!p.ok) return c.requests.Refuse(Refusal(p.field.empty() ? "lesson" : p.field, p.message));
  // The lab takes the new document's facts (no patch sets them: lessonId is read-only), then its
  // step 1 through ApplyPatch; a refusal there (the maths) puts every piece back.
  attn::api::LabState& lab = c.requests.Lab();
  const std::shared_ptr<const LessonDoc> doc_before = doc;
  const std::string url_before = url, id_before = lab.lesson_id, predictions_before = lab.predictions;
  const int lesson_before = lab.lesson, steps_before = lab.lesson_steps, choices_before = lab.lesson_choices;
  doc = p.doc;
  url = from_url;
  lab.lesson_id = p.doc->id;
  lab.lesson_steps = static_cast<int>(p.doc->steps.size());
  int most = 2;
  for (const LessonStep& st : p.doc->steps) most = std::max(most, static_cast<int>(st.choices.size()));
  lab.lesson_choices = most;
  lab.lesson = 0;
  lab.predictions = std::string(p.doc->steps.size(), '-');
  Json patch = Json::object();
  patch["lesson"] = open ? 1 : 0;
  patch["predictions"] = lab.predictions;
  attn::api::PatchResult r = c.requests.Apply(patch, Source::kApi);
  if (!r.ok) {  // ApplyPatch kept the lab; the lesson's own facts go back too
    doc = doc_before;
    url = url_before;
    lab.lesson_id = id_before;
    lab.predictions = predictions_before;
    lab.lesson = lesson_before;
    lab.lesson_steps = steps_before;
    lab.lesson_choices = choices_before;
    r.state = lab;
  }
  return r;
}

std::string Lesson::LoadUrl(const RoomContext& c, const std::string& from_url) {
  if (from_url == url && doc) return "";  // the link of the lesson shown (a hashchange)
  std::string why = CheckLessonUrl(from_url), text;
  if (why.empty() && !FetchSiteFile(from_url, &text, &why)) why = "lessonUrl: " + why;
  if (why.empty()) {
    const attn::api::PatchResult r = Load(c, text, from_url, true);
    if (!r.ok) why = "lessonUrl: " + from_url + ": " + r.message;
  }
  if (!why.empty()) c.requests.Refuse(Refusal("lessonUrl", why));
  return why;
}

Json LessonLoadJson(const attn::api::LabState& lab, const attn::api::PatchResult& r) {
  if (!r.ok) return attn::api::PatchResultToJson(r);
  Json out = Json::object();
  out["ok"] = true;
  out["lessonId"] = lab.lesson_id;
  out["steps"] = lab.lesson_steps;
  out["state"] = attn::api::StateToJson(lab);
  return out;
}

attn::api::PatchResult Lesson::GoTo(const RoomContext& c, int step) {
  return c.requests.Apply(Json{{"lesson", step}});
}

namespace {
Json AnswerJson(int step, int choice, bool correct) {
  Json out = Json::object();
  out["step"] = step;
  out["choice"] = choice;
  out["correct"] = correct;
  return out;
}

// Every question of the loaded lesson answered.
bool AllAnswered(const LessonDoc* doc, const attn::api::LabState& lab) {
  for (std::size_t i = 0; doc && i < doc->steps.size(); ++i)
    if (doc->steps[i].has_question && LessonPrediction(lab, static_cast<int>(i) + 1) < 0) return false;
  return doc != nullptr;
}
}  // namespace

Json Lesson::Progress(const attn::api::LabState& lab) const {
  const LessonDoc* d = doc.get();
  int total = 0, answered = 0, correct = 0;
  Json answers = Json::array();
  if (d) {
    for (std::size_t i = 0; i < d->steps.size(); ++i) {
      const LessonStep& st = d->steps[i];
      if (!st.has_question) continue;
      ++total;
      const int choice = LessonPrediction(lab, static_cast<int>(i) + 1);
      if (choice < 0) continue;
      ++answered;
      correct += choice == st.right ? 1 : 0;
      answers.push_back(AnswerJson(static_cast<int>(i) + 1, choice, choice == st.right));
    }
  }
  Json out = Json::object();
  out["lessonId"] = lab.lesson_id;
  out["total"] = total;
  out["answered"] = answered;
  out["correct"] = correct;
  out["answers"] = std::move(answers);
  return out;
}

attn::api::PatchResult Lesson::Answer(const RoomContext& c, int choice) {
  const LessonStep* st = CurrentLessonStep(*this, c.lab);
  const int step = c.lab.lesson;
  std::string predictions = c.lab.predictions;
  const bool was_done = AllAnswered(doc.get(), c.lab);
  // Said in the course author's terms, before the predictions row would refuse it in its own.
  if (!st || !st->has_question) {
    return c.requests.Refuse(Refusal("choice", st ? "choice: the lesson's step " + std::to_string(step) + " asks no question"
                                                  : "choice: no lesson step is shown (open one first: setState({lesson: 1}))"));
  }
  // A prediction counts once: answering shows the right answer, so a changed answer would grade
  // nothing (the panel's choices are gone once answered; docs/lessons.md says so).
  if (LessonPrediction(c.lab, step) >= 0)
    return c.requests.Refuse(Refusal("choice", "choice: step " + std::to_string(step) +
                                                   " is answered already (a prediction counts once: its answer is shown)"));
  if (choice < 0 || choice >= static_cast<int>(st->choices.size())) {
    return c.requests.Refuse(Refusal("choice", "choice: expected an integer from 0 to " + std::to_string(st->choices.size() - 1) +
                                                   " (the step's choices), got " + std::to_string(choice)));
  }
  if (predictions.size() == static_cast<std::size_t>(c.lab.lesson_steps)) predictions[step - 1] = static_cast<char>('a' + choice);
  else predictions = "?";  // a row out of step with the lesson: refused by the predictions row, in its wording
  Json patch = LessonStepPatch(step, true, doc.get());
  patch["predictions"] = predictions;
  attn::api::PatchResult r = c.requests.Apply(patch);
  if (!r.ok) return r;
  RunAction(c.requests, st->reveal_action);
  Json answer = AnswerJson(step, choice, choice == st->right);
  answer["type"] = "answer";
  answer["lessonId"] = c.lab.lesson_id;
  events.push_back(std::move(answer));
  if (!was_done && AllAnswered(doc.get(), c.lab)) {
    Json progress = Progress(c.lab);
    progress["type"] = "lessonDone";
    events.push_back(std::move(progress));
  }
  if (events.size() > kMaxEvents) events.erase(events.begin(), events.end() - kMaxEvents);
  return r;
}

std::vector<Json> Lesson::TakeEvents() {
  std::vector<Json> out;
  out.swap(events);
  return out;
}

attn::api::PatchResult Lesson::ShowExtra(const RoomContext& c) {
  const LessonStep* st = CurrentLessonStep(*this, c.lab);
  if (!st || !st->has_extra) return Unchanged(c.lab);
  attn::api::PatchResult r = c.requests.Apply(st->extra);
  if (r.ok) RunAction(c.requests, st->extra_action);
  return r;
}

attn::api::PatchResult Lesson::Restore(const RoomContext& c) {
  if (!CurrentLessonStep(*this, c.lab)) return Unchanged(c.lab);
  const bool revealed = LessonRevealed(*this, c.lab);
  attn::api::PatchResult r = c.requests.Apply(LessonStepPatch(c.lab.lesson, revealed, doc.get()));
  if (r.ok) RunActions(c, 0);
  return r;
}

// ---- the room (room.h) ------------------------------------------------------------------------
bool Lesson::Expand(const RoomContext& c, Json* patch, attn::api::PatchResult* refused) {
  Json out;
  if (!WithLessonStep(*this, c.lab, *patch, &out, refused)) return false;
  *patch = std::move(out);
  return true;
}
void Lesson::Adopt(const RoomContext& c, const attn::api::LabState& before, Source) { RunActions(c, before.lesson); }
void Lesson::Publish(LabView* view) const { view->lesson.url = &url; }

}  // namespace app
