// The app layer without a window: ApplyPatch keeps the state valid, keeps what a patch does not
// touch (the lab result, the dragged weights, the training runs) and moves indices that a
// smaller sentence or fewer heads would leave dangling.
#include "app/app.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using app::AppState;
using attn::api::Json;

// A fresh app that counts its change notifications.
struct TestApp {
  AppState s;
  int notified = 0;
  std::string last_notified;
  TestApp() {
    app::InitApp(s);
    s.on_state_changed = [this](const std::string& json) {
      ++notified;
      last_notified = json;
    };
  }
};

Json Patch(const char* text) { return Json::parse(text); }

int TrainStep(const AppState& s) { return s.training.a.trainer.step(); }

}  // namespace

TEST_SUITE("app") {

TEST_CASE("the app starts on the default state with a result and a training run") {
  TestApp t;
  CHECK(app::StateJson(t.s) == attn::api::Dump(attn::api::StateToJson(attn::api::LabState{})));
  CHECK(t.s.attention.result.error.ok());
  CHECK(t.s.sentence_edit == t.s.lab.config.sentence);
  CHECK(t.s.training.a.trainer.ready());
  CHECK(t.s.training.a.has_view);
  CHECK_FALSE(t.s.training.compare);
  CHECK(TrainStep(t.s) == 0);
  CHECK_FALSE(t.s.training.example_edit.empty());
}

TEST_CASE("an accepted patch changes the state, recomputes the result and notifies once") {
  TestApp t;
  const attn::api::PatchResult r = app::ApplyPatch(t.s, Patch(R"({"temperature": 0.5, "query": 2})"));
  REQUIRE(r.ok);
  CHECK(t.s.lab.config.temperature == 0.5);
  CHECK(t.s.attention.result.steps.query == 2);
  CHECK_FALSE(t.s.has_refusal);
  CHECK(t.notified == 1);
  CHECK(t.last_notified == app::StateJson(t.s));
}

TEST_CASE("a refused patch keeps the previous state, result, runs and dragged weights") {
  struct Case {
    const char* name;
    const char* patch;   // JSON text, through ApplyPatchText like the page's setState
    const char* field;   // the field the refusal names
  };
  const std::vector<Case> cases = {
      {"malformed JSON", R"({"temperature": )", ""},
      {"not an object", R"([1, 2])", ""},
      {"unknown field", R"({"colour": "red"})", "colour"},
      {"wrong type", R"({"temperature": "hot"})", "temperature"},
      {"value out of range", R"({"temperature": -1})", "temperature"},
      {"query beyond the sentence", R"({"query": 40})", "query"},
      {"empty sentence", R"({"sentence": ""})", "sentence"},
      {"one bad field among good ones", R"({"temperature": 0.5, "dModel": 100000})", "dModel"},
      {"bad training value", R"({"train": {"lr": -1}})", "train.lr"},
      {"unknown training field", R"({"train": {"momentum": 0.9}})", "train.momentum"},
      {"example the task does not know", R"({"train": {"example": "qqq zzz"}})", "train"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    TestApp t;
    REQUIRE(app::ApplyPatch(t.s, Patch(R"({"sentence": "the cat sat on the mat", "query": 3})")).ok);
    app::TrainSteps(t.s, 3);
    app::SetCustomWeight(t.s, 0, 0.7);
    REQUIRE(t.s.attention.custom.active);
    const std::string state = app::StateJson(t.s);
    const std::string trace = app::TraceJson(t.s);
    const attn::VecD alpha = t.s.attention.custom.alpha;
    const int notified = t.notified;

    const attn::api::PatchResult r = app::ApplyPatchText(t.s, c.patch);
    CHECK_FALSE(r.ok);
    CHECK(r.field.rfind(c.field, 0) == 0);  // "train" also matches "train.example"
    CHECK_FALSE(r.message.empty());
    CHECK(app::StateJson(t.s) == state);
    CHECK(app::TraceJson(t.s) == trace);
    CHECK(TrainStep(t.s) == 3);
    CHECK(t.s.attention.custom.active);
    CHECK(t.s.attention.custom.alpha == alpha);
    CHECK(t.s.has_refusal);
    CHECK(t.s.refusal.message == r.message);
    CHECK(t.notified == notified);
    CHECK(t.s.sentence_edit == "the cat sat on the mat");
  }
}

TEST_CASE("the refusal is cleared by the next accepted change") {
  TestApp t;
  CHECK_FALSE(app::ApplyPatch(t.s, Patch(R"({"temperature": 0})")).ok);
  CHECK(t.s.has_refusal);
  CHECK(app::ApplyPatch(t.s, Patch(R"({"temperature": 2})")).ok);
  CHECK_FALSE(t.s.has_refusal);
}

TEST_CASE("the sentence box keeps refused text; any other source replaces it") {
  TestApp t;
  const std::string before = t.s.lab.config.sentence;
  t.s.sentence_edit = "";  // the learner emptied the box
  CHECK_FALSE(app::ApplyPatch(t.s, {{"sentence", ""}}, app::Source::kSentenceBox).ok);
  CHECK(t.s.sentence_edit.empty());
  CHECK(t.s.lab.config.sentence == before);
  t.s.sentence_edit = "one two";
  CHECK(app::ApplyPatch(t.s, {{"sentence", "one two"}}, app::Source::kSentenceBox).ok);
  CHECK(t.s.sentence_edit == "one two");
  CHECK(app::ApplyPatchText(t.s, R"({"sentence": "three four five"})").ok);
  CHECK(t.s.sentence_edit == "three four five");
}

TEST_CASE("a refusal from the example box is shown under the box and keeps the runs") {
  TestApp t;
  app::TrainSteps(t.s, 2);
  const attn::api::PatchResult r = app::ApplyPatch(t.s, Patch(R"({"train": {"example": "qqq zzz"}})"), app::Source::kExampleBox);
  CHECK_FALSE(r.ok);
  CHECK_FALSE(t.s.training.example_error.empty());
  CHECK(t.s.training.example_refusal.example.code == attn::ExampleRefusal::kUnknownWord);  // for translations
  CHECK(t.s.training.example_refusal.example.word == "qqq");
  CHECK(TrainStep(t.s) == 2);
  CHECK(app::ApplyPatch(t.s, Patch(R"({"train": {"lr": 0.02}})")).ok);
  CHECK(t.s.training.example_error.empty());
}

TEST_CASE("a patch that leaves the attention settings alone keeps the lab result and the dragged weights") {
  const std::vector<const char*> patches = {
      R"({"lang": "ru"})",
      R"({"view": "training"})",
      R"({"train": {"play": true}})",
      R"({"train": {"speed": 8}})",
      R"({"train": {"query": 0}})",
      R"({"train": {"lr": 0.03}})",
      R"({"train": {"compare": "scaled"}})",
      R"({"lang": "ru", "view": "weights", "train": {"task": "previous"}})",
      R"({"temperature": 1})",  // the same value again
  };
  for (const char* p : patches) {
    CAPTURE(p);
    TestApp t;
    app::SetCustomWeight(t.s, 0, 0.8);
    REQUIRE(t.s.attention.custom.active);
    const attn::VecD alpha = t.s.attention.custom.alpha;
    const attn::MatF weights = t.s.attention.result.trace.weights;
    const attn::MatF outputs = t.s.attention.result.mha.output;
    REQUIRE(app::ApplyPatch(t.s, Patch(p)).ok);
    CHECK(t.s.attention.custom.active);
    CHECK(t.s.attention.custom.alpha == alpha);
    CHECK(t.s.attention.result.trace.weights == weights);
    CHECK(t.s.attention.result.mha.output == outputs);
  }
}

TEST_CASE("a patch that changes an attention setting recomputes the result and forgets the dragged weights") {
  for (const char* p : {R"({"temperature": 0.5})", R"({"query": 0})", R"({"normalizer": "sparsemax"})",
                        R"({"sentence": "a new sentence here"})", R"({"seed": 2, "projection": "random"})"}) {
    CAPTURE(p);
    TestApp t;
    app::SetCustomWeight(t.s, 0, 0.8);
    const std::string trace = app::TraceJson(t.s);
    REQUIRE(app::ApplyPatch(t.s, Patch(p)).ok);
    CHECK_FALSE(t.s.attention.custom.active);
    CHECK(app::TraceJson(t.s) != trace);
  }
}

TEST_CASE("a training setting change resets the runs; play, speed, query, language and view do not") {
  struct Case {
    const char* patch;
    bool resets;
  };
  const std::vector<Case> cases = {
      {R"({"train": {"play": true}})", false},
      {R"({"train": {"play": true, "speed": 0}})", false},
      {R"({"train": {"speed": 5}})", false},
      {R"({"train": {"query": 0}})", false},
      {R"({"lang": "ru"})", false},  // after the first step the example stays (see below)
      {R"({"view": "normalization"})", false},
      {R"({"temperature": 0.25})", false},
      {R"({"train": {"lr": 0.02}})", true},
      {R"({"train": {"optimizer": "sgd"}})", true},
      {R"({"train": {"seed": 9}})", true},
      {R"({"train": {"batch": 4}})", true},
      {R"({"train": {"heads": 2}})", true},
      {R"({"train": {"normalizer": "sigmoid"}})", true},
      {R"({"train": {"scaled": false}})", true},
      {R"({"train": {"task": "reverse"}})", true},
      {R"({"train": {"compare": "optimizer:sgd"}})", true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.patch);
    TestApp t;
    app::TrainSteps(t.s, 4);
    REQUIRE(TrainStep(t.s) == 4);
    REQUIRE(app::ApplyPatch(t.s, Patch(c.patch)).ok);
    CHECK(TrainStep(t.s) == (c.resets ? 0 : 4));
    CHECK(t.s.training.a.trainer.ready());
    CHECK(t.s.training.a.has_view);
  }
}

TEST_CASE("compare makes run B from the same seed, and turning it off removes run B") {
  TestApp t;
  REQUIRE(app::ApplyPatch(t.s, Patch(R"({"train": {"compare": "lr:0.1"}})")).ok);
  REQUIRE(t.s.training.compare);
  CHECK(t.s.training.b.trainer.problem().config().lr == 0.1);
  CHECK(t.s.training.b.trainer.problem().config().seed == t.s.training.a.trainer.problem().config().seed);
  app::TrainSteps(t.s, 3);
  CHECK(t.s.training.b.trainer.step() == 3);
  REQUIRE(app::ApplyPatch(t.s, Patch(R"({"train": {"compare": ""}})")).ok);
  CHECK_FALSE(t.s.training.compare);
  CHECK(TrainStep(t.s) == 0);
}

TEST_CASE("the language picks the default example only before anything is trained") {
  TestApp t;
  REQUIRE(app::ApplyPatch(t.s, Patch(R"({"lang": "ru"})")).ok);
  CHECK(t.s.training.example_edit == "я люблю суши");
  app::TrainSteps(t.s, 1);
  REQUIRE(app::ApplyPatch(t.s, Patch(R"({"lang": "en"})")).ok);
  CHECK(t.s.training.example_edit == "я люблю суши");
  CHECK(TrainStep(t.s) == 1);
}

TEST_CASE("query, head and target move to valid values when the sentence shrinks and heads shrink") {
  TestApp t;
  REQUIRE(app::ApplyPatch(t.s, Patch(R"({"sentence": "one two three four five six seven", "query": 6,
                                          "target": 5, "heads": 4, "head": 3})")).ok);
  REQUIRE(t.s.lab.config.query == 6);

  SUBCASE("a shorter sentence: the query moves to the last token, the target to automatic") {
    REQUIRE(app::ApplyPatch(t.s, Patch(R"({"sentence": "one two"})")).ok);
    CHECK(t.s.lab.config.query == 1);
    CHECK(t.s.lab.config.target == -1);
    CHECK(t.s.attention.result.steps.query == 1);
    CHECK(t.s.attention.result.target >= 0);
    CHECK(t.s.attention.result.target < 2);
  }
  SUBCASE("typed in the sentence box, token by token") {
    for (const char* text : {"one two three four five", "one two three", "one"}) {
      CAPTURE(text);
      REQUIRE(app::ApplyPatch(t.s, {{"sentence", text}}, app::Source::kSentenceBox).ok);
      const int n = static_cast<int>(t.s.attention.result.tokens.size());
      CHECK(t.s.lab.config.query < n);
      CHECK(t.s.lab.config.target < n);
      CHECK(t.s.attention.result.steps.query == t.s.lab.config.query);
    }
  }
  SUBCASE("a query that still exists stays") {
    REQUIRE(app::ApplyPatch(t.s, Patch(R"({"sentence": "a b c d e f g h", "query": 2})")).ok);
    REQUIRE(app::ApplyPatch(t.s, Patch(R"({"sentence": "a b c d"})")).ok);
    CHECK(t.s.lab.config.query == 2);
  }
  SUBCASE("fewer heads: the chosen head moves to the last one") {
    REQUIRE(app::ApplyPatch(t.s, Patch(R"({"heads": 2})")).ok);
    CHECK(t.s.lab.config.head == 1);
    CHECK(t.s.attention.result.mha.heads.size() == 2);
    REQUIRE(app::ApplyPatch(t.s, Patch(R"({"heads": 1})")).ok);
    CHECK(t.s.lab.config.head == 0);
  }
  SUBCASE("a new, shorter training example without a query: the query row is automatic again") {
    REQUIRE(app::ApplyPatch(t.s, Patch(R"({"train": {"example": "we really want hot coffee", "query": 4}})")).ok);
    CHECK(t.s.training.query == 4);
    REQUIRE(app::ApplyPatch(t.s, Patch(R"({"train": {"example": "they like tea"}})")).ok);
    CHECK(t.s.lab.train.query == -1);
    REQUIRE(t.s.training.a.trainer.problem().example().tokens.size() == 3);
    CHECK(t.s.training.query == 1);  // the verb, the first row with a right key
  }
}

TEST_CASE("dragged weights stay on the simplex and are cleared on request") {
  TestApp t;
  app::SetCustomWeight(t.s, 0, 0.9);
  REQUIRE(t.s.attention.custom.active);
  CHECK(t.s.attention.custom.alpha(0) == doctest::Approx(0.9));
  CHECK(t.s.attention.custom.alpha.sum() == doctest::Approx(1.0));
  CHECK(t.s.attention.custom.alpha.minCoeff() >= 0.0);
  app::ClearCustomWeights(t.s);
  CHECK_FALSE(t.s.attention.custom.active);
}

TEST_CASE("the page's train(steps) runs whole steps and refuses anything else") {
  TestApp t;
  for (double bad : {-1.0, 1.5, 1e9, static_cast<double>(app::kMaxApiSteps + 1)}) {
    CAPTURE(bad);
    const Json r = Json::parse(app::TrainStepsJson(t.s, bad));
    CHECK(r["ok"] == false);
    CHECK(r["field"] == "steps");
  }
  CHECK(TrainStep(t.s) == 0);
  const Json r = Json::parse(app::TrainStepsJson(t.s, 3));
  CHECK(r["ok"] == true);
  CHECK(TrainStep(t.s) == 3);
}

TEST_CASE("Tick trains while playing, at most `speed` steps a frame, and not when paused") {
  TestApp t;
  app::Tick(t.s);
  CHECK(TrainStep(t.s) == 0);
  REQUIRE(app::ApplyPatch(t.s, Patch(R"({"train": {"play": true, "speed": 2}})")).ok);
  const app::FrameWork w = app::Tick(t.s);
  CHECK(w.train_steps >= 1);
  CHECK(w.train_steps <= 2);
  CHECK(TrainStep(t.s) == w.train_steps);
}

TEST_CASE("a long run stops at its last step") {
  TestApp t;
  app::StartRun(t.s, 3);
  CHECK(t.s.training.run_to == 3);
  for (int i = 0; i < 100 && t.s.training.run_to > 0; ++i) app::Tick(t.s);
  CHECK(t.s.training.run_to == 0);
  CHECK(TrainStep(t.s) == 3);
}

}  // TEST_SUITE
