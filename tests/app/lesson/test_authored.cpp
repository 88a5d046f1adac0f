// Lessons as documents in the app: the built-in one read from web/lessons/seed.json is the lesson
// it was (titles, right answers, patches); an authored lesson loads, sets its states, records its
// answers as events and sums them up; a broken one is refused with its path and changes nothing;
// #lessonUrl stays inside the site; and every state the built-in lesson shows gives the same
// numbers on two fresh loads.
#include "app/lesson/lesson.h"

#include "app/app.h"
#include "app/page/page.h"

#include "lesson_app.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using app::AppState;
using attn::api::Json;

// The eight steps as lesson_steps.cpp held them before they moved to seed.json: the English title,
// the right choice, the question's state, the answer's and the extra's (null: none).
struct Before {
  const char* title;
  int right;
  const char* setup;
  const char* reveal;
  const char* extra;
};
const Before kBefore[] = {
    {"1. A weighted sum, and what q, k, v are", 1, R"({"projection": "random"})", R"({"projection": "identity"})", R"({"view": "training", "train": {"task": "verb_object", "example": "я люблю суши"}})"},
    {"2. Two scenarios with the same A", 0, R"({})", R"({"sentence": "я люблю суши суши", "positional": false, "query": 2, "target": 3, "view": "information"})", R"({"sentence": "я люблю суши", "positional": true, "query": 1, "target": -1, "dV": 1})"},
    {"3. What the next layer sees", 2, R"({"projection": "random", "heads": 4, "dV": 2, "view": "weights"})", R"({"view": "information"})", R"(null)"},
    {"4. The relations live in q·kᵢ", 0, R"({"projection": "random"})", R"({})", R"({"projection": "model", "sentence": "я люблю суши, я люблю суши", "layer": 2, "head": 3, "view": "weights"})"},
    {"5. Backpropagation learns the relations", 2, R"({"view": "training", "train": {"task": "verb_object", "example": "я люблю суши"}})", R"({})", R"(null)"},
    {"6. Normalization: a bound, not a size", 1, R"({})", R"({"view": "normalization"})", R"(null)"},
    {"7. A trained layer, for real", 1, R"({"projection": "identity", "view": "weights"})", R"({"projection": "model", "layer": 0, "head": 1, "view": "weights"})", R"({"view": "information"})"},
    {"8. Which words moved the prediction", 1, R"({"projection": "model", "sentence": "я люблю суши", "view": "weights"})", R"({"projection": "model", "view": "prediction"})", R"(null)"},
    {"9. SLP's αᵢⱼ, and the answer", 2, R"({})", R"({"view": "weights"})", R"(null)"},
};

const char* const kTwoSteps = R"({
  "format": "attentionlab-lesson-1", "id": "two-steps", "title": {"en": "Two steps", "ru": "Два шага"},
  "steps": [
    {"title": {"en": "Identity", "ru": "Тождественные"}, "state": {"projection": "identity", "sentence": "a b c", "query": 1},
     "question": {"text": {"en": "Where?"}, "choices": [{"en": "a"}, {"en": "b"}], "right": 1,
                  "explanation": {"en": "b"}, "state": {"temperature": 0.5}},
     "numbers": "queryRows"},
    {"title": {"en": "Random"}, "state": {"projection": "random", "hide": "training"},
     "question": {"text": {"en": "Now?"}, "choices": [{"en": "x"}, {"en": "y"}, {"en": "z"}], "right": 0,
                  "explanation": {"en": "x"}}}
  ]})";

std::string Readout(const AppState& s) {
  std::string out;
  for (const app::LessonLine& l : app::LessonReadout(s)) out += l.en + "\n" + l.ru + "\n";
  return out;
}

// Everything a lesson's state shows: the trace, the numbers under the answer, the training runs.
std::string Shown(const AppState& s) {
  return app::StateJson(s) + app::TraceJson(s) + Readout(s) + app::TrainingJson(s, app::TrainingJsonOf::kLatest);
}

}  // namespace

TEST_SUITE("app") {

TEST_CASE("seed.json is the lesson as it was: titles, right answers and patches") {
  const auto& steps = app::LessonSteps();
  REQUIRE(steps.size() == 9);
  // each step's readout, by name now (step 8's, the attribution, came last: index 9)
  const int kNumbers[] = {1, 2, 3, 4, 5, 6, 7, 9, 8};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    CAPTURE(i);
    const Before& b = kBefore[i];
    CHECK(steps[i].title.en == b.title);
    CHECK(steps[i].right == b.right);
    CHECK(steps[i].setup == Json::parse(b.setup));
    CHECK(steps[i].reveal == Json::parse(b.reveal));
    const Json extra = Json::parse(b.extra);
    CHECK(steps[i].has_extra == !extra.is_null());
    if (!extra.is_null()) CHECK(steps[i].extra == extra);
    CHECK(steps[i].numbers == kNumbers[i]);
  }
  CHECK(steps[0].extra_action == app::LessonAction::kTrain);
  CHECK(steps[2].reveal_action == app::LessonAction::kProbe);
  CHECK(steps[4].setup_action == app::LessonAction::kResetTraining);
  CHECK(steps[4].reveal_action == app::LessonAction::kTrain);
  CHECK(steps[5].reveal_action == app::LessonAction::kNormalization);
}

TEST_CASE("the built-in lesson is read only when first needed; getState names it from the start") {
  LessonApp t;
  CHECK(app::LoadedLesson(t.s) == nullptr);
  CHECK(Json::parse(app::StateJson(t.s))["lessonId"] == "seed");
  REQUIRE(app::ApplyPatch(t.s, Json{{"lesson", 2}}).ok);
  REQUIRE(app::LoadedLesson(t.s) != nullptr);
  CHECK(app::LoadedLesson(t.s)->id == "seed");
}

TEST_CASE("an authored lesson: loaded, its step 1 opened, its states set, answers as events, the summary") {
  LessonApp t;
  const attn::api::PatchResult r = app::LoadLesson(t.s, kTwoSteps);
  REQUIRE_MESSAGE(r.ok, r.message);
  CHECK(t.s.lab.lesson_id == "two-steps");
  CHECK(t.s.lab.lesson == 1);
  CHECK(t.s.lab.predictions == "--");
  CHECK(t.s.lab.config.sentence == "a b c");
  CHECK(t.s.lab.config.projection == attn::Projection::kIdentity);
  CHECK(app::LessonReadout(t.s).empty());
  CHECK(app::TakeLessonEvents(t.s).empty());

  REQUIRE(app::AnswerLesson(t.s, 0).ok);  // wrong
  CHECK(t.s.lab.predictions == "a-");
  CHECK(t.s.lab.config.temperature == 0.5);  // the answer's state
  CHECK_FALSE(app::LessonReadout(t.s).empty());  // "queryRows"
  std::vector<Json> events = app::TakeLessonEvents(t.s);
  REQUIRE(events.size() == 1);
  CHECK(events[0] == Json{{"type", "answer"}, {"step", 1}, {"choice", 0}, {"correct", false}, {"lessonId", "two-steps"}});

  REQUIRE(app::GoToLesson(t.s, 2).ok);
  CHECK(t.s.lab.config.projection == attn::Projection::kRandom);
  CHECK(t.s.lab.hide == "training");
  CHECK(t.s.lab.config.temperature == 1.0);  // over the lab's defaults again
  REQUIRE(app::AnswerLesson(t.s, 0).ok);  // right
  events = app::TakeLessonEvents(t.s);
  REQUIRE(events.size() == 2);
  CHECK(events[0]["correct"] == true);
  CHECK(events[1]["type"] == "lessonDone");
  CHECK(events[1]["total"] == 2);
  CHECK(events[1]["answered"] == 2);
  CHECK(events[1]["correct"] == 1);
  const Json progress = app::LessonProgress(t.s);
  CHECK(progress["answers"] == Json::parse(R"([{"step": 1, "choice": 0, "correct": false}, {"step": 2, "choice": 0, "correct": true}])"));
  // Answered again: refused (a prediction counts once), no event, the answer kept.
  const attn::api::PatchResult again = app::AnswerLesson(t.s, 1);
  CHECK_FALSE(again.ok);
  CHECK(again.field == "choice");
  CHECK(again.message == "choice: step 2 is answered already (a prediction counts once: its answer is shown)");
  CHECK(app::TakeLessonEvents(t.s).empty());
  CHECK(t.s.lab.predictions == "aa");
  // The page clears the answers for a class to start over: then a new answer counts.
  REQUIRE(app::ApplyPatch(t.s, Json{{"predictions", "--"}}).ok);
  CHECK(app::LessonProgress(t.s)["answered"] == 0);
  CHECK(app::AnswerLesson(t.s, 5).message == "choice: expected an integer from 0 to 2 (the step's choices), got 5");
  REQUIRE(app::AnswerLesson(t.s, 1).ok);
  events = app::TakeLessonEvents(t.s);
  REQUIRE(events.size() == 1);
  CHECK(events[0]["choice"] == 1);
  REQUIRE(app::GoToLesson(t.s, 0).ok);
  CHECK(app::AnswerLesson(t.s, 0).message == "choice: no lesson step is shown (open one first: setState({lesson: 1}))");
  REQUIRE(app::GoToLesson(t.s, 2).ok);

  // The lesson's own step count: lesson 3 and 8 predictions are refused in the one wording.
  const attn::api::PatchResult three = app::ApplyPatch(t.s, Json{{"lesson", 3}});
  CHECK(three.message == "lesson: expected an integer from 0 to 2, got 3");
  CHECK(app::ApplyPatch(t.s, Json{{"predictions", "--------"}}).message ==
        "predictions: expected 2 characters, each - (not yet) or a, b, c (the choice), got \"--------\"");
  CHECK(app::ApplyPatch(t.s, Json{{"lessonId", "seed"}}).message ==
        "lessonId: expected \"two-steps\" (the lesson loaded; setLesson loads another), got \"seed\"");
  CHECK(app::ApplyPatch(t.s, Json{{"lessonId", "two-steps"}}).ok);  // getState() given back is accepted
}

TEST_CASE("a broken document is refused with its path; the lab and the lesson before it stay") {
  LessonApp t;
  REQUIRE(app::LoadLesson(t.s, kTwoSteps).ok);
  REQUIRE(app::AnswerLesson(t.s, 1).ok);
  const std::string before = app::StateJson(t.s) + app::TraceJson(t.s);
  const app::LessonDoc* doc = app::LoadedLesson(t.s);
  Json broken = Json::parse(kTwoSteps);
  broken["id"] = "broken";
  broken["steps"][1]["question"]["choices"] = Json::array({{{"en", "only"}}});
  const attn::api::PatchResult r = app::LoadLesson(t.s, broken.dump());
  CHECK_FALSE(r.ok);
  CHECK(r.field == "steps[1].question.choices");
  CHECK(r.message == "steps[1].question.choices: expected an array of 2 to 6 choices, got 1 choice");
  CHECK(app::StateJson(t.s) + app::TraceJson(t.s) == before);
  CHECK(app::LoadedLesson(t.s) == doc);
  CHECK(t.s.has_refusal);  // the header says why
  CHECK(app::LessonLoadJson(t.s, r) == Json{{"ok", false}, {"field", "steps[1].question.choices"}, {"error", r.message}});
  CHECK_FALSE(app::LoadLesson(t.s, "{not json").ok);
  CHECK(app::StateJson(t.s) + app::TraceJson(t.s) == before);
}

TEST_CASE("#lessonUrl: a relative path inside the site, loaded before the link's other fields") {
  for (const char* good : {"lessons/seed.json", "lessons/mine-2.json", "a.json"}) CHECK(app::CheckLessonUrl(good).empty());
  for (const char* bad : {"https://evil.example/x.json", "//evil.example/x.json", "/lessons/x.json", "../x.json",
                          "lessons/../../x.json", "lessons/./x.json", "lessons/x.txt", "lessons\\x.json", "javascript:x.json",
                          "lessons//x.json", ""})
    CHECK(app::CheckLessonUrl(bad).find("lessonUrl: expected a relative path to a .json file of this site") == 0);
  LessonApp t;
  REQUIRE(app::LoadLesson(t.s, kTwoSteps).ok);
  // Natively the site holds only the built-in lesson (embedded).
  Json r = Json::parse(app::ApplyLinkJson(t.s, "#lessonUrl=lessons%2Fseed.json&lesson=3", ""));
  CHECK(r["ok"] == true);
  CHECK(t.s.lab.lesson_id == "seed");
  CHECK(t.s.lab.lesson == 3);
  CHECK(app::LinkText(t.s).find("#lessonUrl=lessons/seed.json&") == 0);  // written back
  r = Json::parse(app::ApplyLinkJson(t.s, "#lessonUrl=https%3A%2F%2Fevil.example%2Fx.json&lesson=2", ""));
  CHECK(r["ok"] == false);
  CHECK(r["errors"][0]["field"] == "lessonUrl");
  CHECK(t.s.lab.lesson == 2);  // the rest of the link still applies
  LessonApp u;  // lessonUrl last: the rest of the link is read without it
  r = Json::parse(app::ApplyLinkJson(u.s, "#lang=ru&lessonUrl=lessons/seed.json", ""));
  CHECK(r["ok"] == true);
  CHECK((u.s.lab.lesson_id == "seed" && u.s.lab.lesson == 1 && u.s.lab.lang == "ru"));
  // A link of a lesson loaded by setLesson, opened where it is not: its step and predictions stay out.
  LessonApp w;
  r = Json::parse(app::ApplyLinkJson(w.s, "#lesson=2&predictions=ab&lessonId=two-steps&temperature=2", ""));
  CHECK(r["errors"].dump().find("\"field\":\"lessonId\"") != std::string::npos);
  CHECK((w.s.lab.lesson == 0 && w.s.lab.config.temperature == 2.0));
  r = Json::parse(app::ApplyLinkJson(t.s, "#lessonUrl=lessons%2Fnone.json", ""));
  CHECK(r["errors"][0]["error"].get<std::string>().find("lessonUrl: lessons/none.json") == 0);
}

TEST_CASE("every state of the built-in lesson shows the same numbers on two fresh loads") {
  for (int k = 1; k <= app::kLessonSteps; ++k) {
    CAPTURE(k);
    LessonApp a, b;
    for (AppState* s : {&a.s, &b.s}) REQUIRE(app::GoToLesson(*s, k).ok);
    CHECK(Shown(a.s) == Shown(b.s));  // the question
    for (AppState* s : {&a.s, &b.s}) REQUIRE(app::AnswerLesson(*s, app::LessonSteps()[k - 1].right).ok);
    for (AppState* s : {&a.s, &b.s})
      while (!s->attention.probe.queue.empty()) app::Tick(*s);  // step 3's probe runs in frames
    CHECK(Shown(a.s) == Shown(b.s));  // the answer
    if (!app::LessonSteps()[k - 1].has_extra) continue;
    for (AppState* s : {&a.s, &b.s}) REQUIRE(app::ShowLessonExtra(*s).ok);
    CHECK(Shown(a.s) == Shown(b.s));  // the second demonstration
  }
}

}  // TEST_SUITE
