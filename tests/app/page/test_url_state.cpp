// The state in a link, through the app: LinkText (what the page writes to location.hash after
// every change) and ApplyLinkJson (what it calls with the hash at load and on hashchange). The
// codec itself is api/url_state; web/js/url_state.js only moves the text. Every field of the state, the
// nested train object included, must come back unchanged.
#include "api/url_state.h"
#include "app/app.h"
#include "app/lesson/lesson.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using attn::api::Json;

const char* const kTrainPrefix = "train.";

// A state in which every field differs from the default, with text that needs encoding.
const char* const kEveryField = R"({
  "sentence": "кот & пёс = друзья + 100% #1 ещё?",
  "query": 3, "projection": "random", "temperature": 0.7, "scaled": false, "dModel": 12, "dK": 6,
  "seed": 7, "positional": false, "heads": 2, "head": 1, "normalizer": "sparsemax", "causal": true,
  "dV": 4, "target": 0, "layer": 2, "lang": "ru", "view": "training", "lesson": 4, "predictions": "ab-c----", "lessonId": "every",
  "whatIfToken": 1, "whatIfWith": "рис", "whatIfMode": "insert", "shuffle": "seeded", "shuffleSeed": 9,
  "knockoutKeys": "0,2", "knockoutHeads": "0:1", "valueToken": 2, "valueA": 0.25, "valueB": -0.5,
  "hide": "normalization,mask", "lock": "sentence,train.task",
  "tuneText": "own", "tuneOwn": "мой текст & 100% #2", "tuneSteps": 7, "tuneBatch": 2, "tuneLength": 16,
  "tuneLr": 0.003, "tuneSeed": 5, "modelUrl": "https://example.org/models/gpt2/",
  "answer": " Paris & #2", "foil": "#17", "corrupted": "кот & пёс = враги + 100% #1 ещё?", "patch": "head",
  "whatIfToken": 1, "whatIfWith": "кошка", "whatIfMode": "insert", "shuffle": "seeded", "shuffleSeed": 9,
  "knockoutKeys": "0,2", "knockoutHeads": "0:0", "valueToken": 2, "valueA": 0.5, "valueB": -0.25,
  "train": {"task": "previous", "length": 5, "optimizer": "sgd", "lr": 0.03, "batch": 8, "seed": 3,
            "normalizer": "relunorm", "scaled": false, "dModel": 16, "dK": 8, "dV": 4, "heads": 2,
            "causal": true, "example": "EXAMPLE", "compare": "lr:0.1", "play": true, "speed": 4,
            "query": 2}
})";

// lessonId changes only with the lesson loaded (app/lesson): an 8-step one, a question of 3 choices.
std::string EightSteps() {
  Json doc = {{"format", "attentionlab-lesson-1"}, {"id", "every"}, {"title", {{"en", "Every field"}}}};
  Json steps = Json::array();
  for (int k = 1; k <= 8; ++k) steps.push_back({{"title", {{"en", "Step " + std::to_string(k)}}}});
  steps[0]["question"] = {{"text", {{"en", "?"}}}, {"choices", {{{"en", "a"}}, {{"en", "b"}}, {{"en", "c"}}}},
                          {"right", 0}, {"explanation", {{"en", "."}}}};
  doc["steps"] = steps;
  return doc.dump();
}

}  // namespace

TEST_SUITE("app") {

TEST_CASE("URL state: every field of the state, the nested train object included, survives state -> hash -> setState") {
  const Json defaults = attn::api::StateToJson(attn::api::LabState{});
  Json wanted = Json::parse(kEveryField);
  wanted["train"]["example"] = attn::MakeTask(attn::TaskKind::kPreviousToken, 5).default_example;

  app::AppState source;
  app::InitApp(source);
  REQUIRE(app::LoadLesson(source, EightSteps()).ok);
  const attn::api::PatchResult set = app::ApplyPatch(source, wanted);
  REQUIRE_MESSAGE(set.ok, set.field << ": " << set.message);
  const Json state = Json::parse(app::StateJson(source));

  // The test covers every field: a field added to the state must be added to kEveryField.
  for (const auto& [k, v] : defaults.items()) {
    const std::string key = k;  // CAPTURE's lambda cannot capture a structured binding
    CAPTURE(key);
    REQUIRE(state.contains(k));
    if (k != "train") CHECK(state[k] != v);
  }
  for (const auto& [k, v] : defaults["train"].items()) {
    const std::string key = k;  // CAPTURE's lambda cannot capture a structured binding
    CAPTURE(key);
    REQUIRE(state["train"].contains(k));
    CHECK(state["train"][k] != v);
  }
  CHECK(state.size() == wanted.size());
  CHECK(state["train"].size() == wanted["train"].size());

  const std::string hash = app::LinkText(source);
  CAPTURE(hash);
  CHECK(hash.find("sentence=%D0%BA%D0%BE%D1%82%20%26%20") != std::string::npos);  // "кот & " encoded
  const attn::api::LinkPatch read = attn::api::ReadLink(hash);
  CHECK(read.errors.empty());
  CHECK(read.keys.size() == (state.size() - 1) + state["train"].size());  // every field written

  app::AppState reader;
  app::InitApp(reader);
  REQUIRE(app::LoadLesson(reader, EightSteps()).ok);  // a link names the lesson; its document is loaded
  const Json r = Json::parse(app::ApplyLinkJson(reader, hash, "en"));
  REQUIRE_MESSAGE(r["ok"] == true, r.dump());
  const Json back = Json::parse(app::StateJson(reader));
  for (const auto& [k, v] : state.items()) {
    const std::string key = k;  // CAPTURE's lambda cannot capture a structured binding
    CAPTURE(key);
    CHECK(back[k] == v);
  }
  CHECK(app::StateJson(reader) == app::StateJson(source));
  CHECK(app::TraceJson(reader) == app::TraceJson(source));
}

TEST_CASE("URL state: the default state writes only the top-level fields, and reading them changes nothing") {
  app::AppState s;
  app::InitApp(s);
  const Json state = Json::parse(app::StateJson(s));
  const std::string hash = app::LinkText(s);
  CHECK(hash.find(kTrainPrefix) == std::string::npos);
  app::AppState reader;
  app::InitApp(reader);
  const Json r = Json::parse(app::ApplyLinkJson(reader, hash, ""));
  REQUIRE(r["ok"] == true);
  CHECK(app::StateJson(reader) == app::StateJson(s));
}

TEST_CASE("URL state: numbers round-trip through their shortest text") {
  for (double t : {0.1, 0.7, 1.0 / 3.0, 2.5e-3, 7.0, 123.456}) {
    CAPTURE(t);
    app::AppState s;
    app::InitApp(s);
    REQUIRE(app::ApplyPatch(s, {{"temperature", t}}).ok);
    app::AppState reader;
    app::InitApp(reader);
    REQUIRE(Json::parse(app::ApplyLinkJson(reader, app::LinkText(s), ""))["ok"] == true);
    CHECK(reader.lab.config.temperature == t);
  }
}

TEST_CASE("URL state: a bad link applies what it can, names the rest, and keeps the refusal in the header") {
  app::AppState s;
  app::InitApp(s);
  const Json r = Json::parse(app::ApplyLinkJson(s, "#sentence=%D0%BC%D1%8B%20%D0%BB%D1%8E%D0%B1%D0%B8%D0%BC%20"
                                                   "%D0%BA%D0%BE%D1%84%D0%B5&query=2&dModel=999&colour=red", "ru"));
  CHECK(r["ok"] == false);
  REQUIRE(r["errors"].size() == 2);
  CHECK(s.lab.config.sentence == "мы любим кофе");
  CHECK(s.lab.config.query == 2);
  CHECK(s.lab.lang == "ru");  // the fallback language: the link names none
  CHECK(s.has_refusal);
  CHECK(s.refusal.field == "dModel");
  CHECK(s.attention.result.tokens.size() == 3);  // the result follows the accepted fields
  // A link that names a language keeps it.
  app::AppState t;
  app::InitApp(t);
  CHECK(Json::parse(app::ApplyLinkJson(t, "#lang=en", "ru"))["ok"] == true);
  CHECK(t.lab.lang == "en");
}

}  // TEST_SUITE
