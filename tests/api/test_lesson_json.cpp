// A lesson document read and checked (api/lesson_json.h): good documents, and for every field a
// refusal naming its path in the one wording, the limits on lengths and counts, unknown keys.
#include "api/lesson_json.h"

#include <doctest/doctest.h>

#include <functional>
#include <string>

namespace {

using attn::api::Json;

Json Good() {
  return Json::parse(R"({
    "format": "attentionlab-lesson-1", "id": "two-steps", "title": {"en": "Two steps", "ru": "Два шага"},
    "steps": [
      {"title": {"en": "One", "ru": "Один"}, "quote": {"en": "q"}, "text": {"ru": "текст"}, "verdict": "right",
       "state": {"projection": "identity", "hide": "training", "lock": "sentence"}, "run": "probe",
       "question": {"text": {"en": "Where?"}, "choices": [{"en": "a"}, {"en": "b"}], "right": 1,
                    "explanation": {"en": "b."}, "state": {"view": "weights"}, "run": "normalization"},
       "numbers": "queryRows", "extra": {"label": {"en": "More"}, "state": {"dV": 1}, "run": "train"},
       "try": {"en": "Try."}, "point": {"panel": "weights", "token": 1, "head": 0}},
      {"title": {"en": "Two"}}
    ]})");
}

std::string Refused(const std::function<void(Json&)>& change) {
  Json d = Good();
  change(d);
  const attn::api::LessonParse p = attn::api::ParseLessonJson(d);
  CHECK_FALSE(p.ok);
  CHECK(p.doc == nullptr);
  CHECK(p.message.compare(0, p.field.size() + 2, p.field + ": ") == 0);  // the message names its path
  return p.message;
}

}  // namespace

TEST_SUITE("api") {

TEST_CASE("a good lesson document: every field read, a missing language falls back to the other") {
  const attn::api::LessonParse p = attn::api::ParseLessonJson(Good());
  REQUIRE_MESSAGE(p.ok, p.message);
  const attn::api::LessonDoc& d = *p.doc;
  CHECK(d.id == "two-steps");
  CHECK(d.title.ru == "Два шага");
  REQUIRE(d.steps.size() == 2);
  const attn::api::LessonStep& s = d.steps[0];
  CHECK(s.quote.ru == "q");           // en only: ru falls back
  CHECK(s.verdict_text.en == "текст");  // ru only: en falls back
  CHECK(s.verdict == attn::api::Verdict::kRight);
  CHECK(s.setup == Json{{"projection", "identity"}, {"hide", "training"}, {"lock", "sentence"}});
  CHECK(s.setup_action == attn::api::LessonAction::kProbe);
  CHECK(s.has_question);
  CHECK(s.choices.size() == 2);
  CHECK(s.right == 1);
  CHECK(s.reveal == Json{{"view", "weights"}});
  CHECK(s.reveal_action == attn::api::LessonAction::kNormalization);
  CHECK(s.numbers == 1);  // "queryRows"
  CHECK(s.has_extra);
  CHECK(s.extra_action == attn::api::LessonAction::kTrain);
  CHECK(s.point.panel == "weights");
  CHECK(s.point.token == 1);
  CHECK(s.point.head == 0);
  CHECK_FALSE(d.steps[1].has_question);
  CHECK(d.steps[1].point.token == -1);
  CHECK(attn::api::ParseLesson(Good().dump()).ok);
}

TEST_CASE("every field's refusal names its path") {
  using J = Json;
  CHECK(Refused([](J& d) { d["format"] = "attentionlab-lesson-2"; }) ==
        "format: expected \"attentionlab-lesson-1\", got \"attentionlab-lesson-2\"");
  CHECK(Refused([](J& d) { d.erase("format"); }) == "format: expected \"attentionlab-lesson-1\", got nothing");
  CHECK(Refused([](J& d) { d["id"] = "a b"; }) == "id: expected 1 to 64 characters of A-Z a-z 0-9 _ . -, got \"a b\"");
  CHECK(Refused([](J& d) { d["id"] = std::string(65, 'x'); }).find("id: expected 1 to 64 characters") == 0);
  CHECK(Refused([](J& d) { d["id"] = ""; }).find("id: ") == 0);
  CHECK(Refused([](J& d) { d["title"] = "Two"; }) == "title: expected an object {\"en\": \"...\", \"ru\": \"...\"}, got \"Two\"");
  CHECK(Refused([](J& d) { d["title"] = J::object(); }) == "title: expected a text in en or ru (or both), got an object");
  CHECK(Refused([](J& d) { d["title"]["de"] = "Zwei"; }) == "title.de: unknown field (expected one of en, ru)");
  CHECK(Refused([](J& d) { d["title"]["en"] = 2; }) == "title.en: expected a string, got 2");
  CHECK(Refused([](J& d) { d["author"] = "me"; }) == "author: unknown field (expected one of format, id, title, steps)");
  CHECK(Refused([](J& d) { d["steps"] = J::array(); }) == "steps: expected an array of 1 to 32 steps, got 0 steps");
  CHECK(Refused([](J& d) { d["steps"] = J::array(); for (int i = 0; i < 33; ++i) d["steps"].push_back({{"title", {{"en", "x"}}}}); }) ==
        "steps: expected an array of 1 to 32 steps, got 33 steps");
  CHECK(Refused([](J& d) { d["steps"][1] = 5; }) == "steps[1]: expected an object, got 5");
  CHECK(Refused([](J& d) { d["steps"][1].erase("title"); }) == "steps[1].title: expected a title (every step has one), got nothing");
  CHECK(Refused([](J& d) { d["steps"][1]["colour"] = 1; }).find("steps[1].colour: unknown field (expected one of title, quote,") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["title"]["en"] = std::string(201, 'x'); }) ==
        "steps[0].title.en: expected a text of 1 to 200 bytes, got 201 bytes");
  CHECK(Refused([](J& d) { d["steps"][0]["text"]["en"] = std::string(4001, 'x'); }) ==
        "steps[0].text.en: expected a text of 1 to 4000 bytes, got 4001 bytes");
  CHECK(Refused([](J& d) { d["steps"][0]["quote"]["en"] = ""; }) == "steps[0].quote.en: expected a text of 1 to 4000 bytes, got 0 bytes");
  CHECK(Refused([](J& d) { d["steps"][0]["verdict"] = "wrong"; }) ==
        "steps[0].verdict: expected one of right, partlyRight, imprecise, got \"wrong\"");
  CHECK(Refused([](J& d) { d["steps"][0]["run"] = "fly"; }) ==
        "steps[0].run: expected one of resetTraining, train, normalization, probe, got \"fly\"");
  CHECK(Refused([](J& d) { d["steps"][0]["numbers"] = "rows"; }).find("steps[0].numbers: expected one of queryRows, sameOutput,") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["try"] = 1; }).find("steps[0].try: expected an object") == 0);
}

TEST_CASE("a step's states are checked by the state's own validation, over the state they apply to") {
  using J = Json;
  CHECK(Refused([](J& d) { d["steps"][0]["state"]["temperature"] = -1; }) ==
        "steps[0].state.temperature: expected a number from 0.001 to 1000, got -1");
  CHECK(Refused([](J& d) { d["steps"][0]["state"]["colour"] = 1; }).find("steps[0].state.colour: unknown field") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["state"]["hide"] = "everything"; }).find("steps[0].state.hide: ") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["state"] = J::array(); }) == "steps[0].state: expected an object, got an array");
  CHECK(Refused([](J& d) { d["steps"][0]["state"]["lesson"] = 2; }) ==
        "steps[0].state.lesson: expected no lesson field in a step's state (the lesson sets it), got 2");
  CHECK(Refused([](J& d) { d["steps"][0]["state"]["predictions"] = "--"; }).find("steps[0].state.predictions: ") == 0);
  // The question's state applies over the step's: the head must exist among the step's heads.
  CHECK(Refused([](J& d) { d["steps"][0]["state"]["heads"] = 2; d["steps"][0]["question"]["state"]["head"] = 3; })
            .find("steps[0].question.state.head: ") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["extra"]["state"]["dK"] = 0; }).find("steps[0].extra.state.dK: ") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["extra"]["state"]["train"] = {{"lr", 99}}; }).find("steps[0].extra.state.train.lr: ") == 0);
}

TEST_CASE("questions, extras and points: counts, indices and names") {
  using J = Json;
  CHECK(Refused([](J& d) { d["steps"][0]["question"]["choices"] = J::array({{{"en", "a"}}}); }) ==
        "steps[0].question.choices: expected an array of 2 to 6 choices, got 1 choice");
  CHECK(Refused([](J& d) { for (int i = 0; i < 5; ++i) d["steps"][0]["question"]["choices"].push_back({{"en", "c"}}); }) ==
        "steps[0].question.choices: expected an array of 2 to 6 choices, got 7 choices");
  CHECK(Refused([](J& d) { d["steps"][0]["question"]["choices"][1] = "b"; }).find("steps[0].question.choices[1]: expected an object") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["question"]["right"] = 2; }) == "steps[0].question.right: expected an integer from 0 to 1, got 2");
  CHECK(Refused([](J& d) { d["steps"][0]["question"]["right"] = 0.5; }) == "steps[0].question.right: expected an integer from 0 to 1, got 0.5");
  CHECK(Refused([](J& d) { d["steps"][0]["question"]["right"] = "1"; }).find("steps[0].question.right: ") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["question"].erase("explanation"); }).find("steps[0].question.explanation: ") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["question"]["hint"] = 1; }).find("steps[0].question.hint: unknown field") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["question"]["run"] = 3; }).find("steps[0].question.run: ") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["extra"].erase("label"); }).find("steps[0].extra.label: ") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["extra"]["x"] = 1; }).find("steps[0].extra.x: unknown field") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["point"]["panel"] = "moon"; }).find("steps[0].point.panel: expected a part of the lab") == 0);
  CHECK(Refused([](J& d) { d["steps"][0]["point"]["token"] = 64; }) == "steps[0].point.token: expected an integer from 0 to 63, got 64");
  CHECK(Refused([](J& d) { d["steps"][0]["point"]["head"] = -1; }) == "steps[0].point.head: expected an integer from 0 to 7, got -1");
  CHECK(Refused([](J& d) { d["steps"][0]["point"]["layer"] = 1; }).find("steps[0].point.layer: unknown field") == 0);
}

TEST_CASE("the whole text: not JSON, too large, not an object") {
  CHECK(attn::api::ParseLesson("{").message == "lesson: expected a JSON document, got text that is not valid JSON");
  CHECK(attn::api::ParseLesson(std::string(256 * 1024 + 1, ' ')).message ==
        "lesson: expected a document of at most 256 KB, got 262145 bytes");
  CHECK(attn::api::ParseLesson("[]").message == "lesson: expected an object, got an array");
  CHECK(attn::api::ParseLesson("{\"format\": \"attentionlab-lesson-1\", \"id\": \"x\", \"title\": {\"en\": \"t\"}, "
                               "\"steps\": [{\"title\": {\"en\": \"s\"}}]}")
            .ok);
}

}  // TEST_SUITE
