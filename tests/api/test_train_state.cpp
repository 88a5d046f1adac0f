// The nested `train` object of the state: field names, types, refusals naming "train.<field>",
// run B's configuration, and the training / normalization JSON the page API returns.
#include "api/state_json.h"
#include "api/train_json.h"

#include <doctest/doctest.h>

using attn::api::ApplyStatePatch;
using attn::api::ApplyStatePatchText;
using attn::api::Json;
using attn::api::LabState;

TEST_CASE("the state has a train object with every training field and the engine's defaults") {
  const Json j = attn::api::StateToJson(LabState{});
  REQUIRE(j.contains("train"));
  const Json& t = j["train"];
  for (const char* k : {"task", "length", "optimizer", "lr", "batch", "seed", "normalizer", "scaled", "dModel", "dK",
                        "dV", "heads", "causal", "example", "compare", "play", "speed", "query"})
    CHECK_MESSAGE(t.contains(k), k);
  CHECK(t.size() == 18);
  CHECK(t["speed"] == 1);
  const attn::TrainConfig d;
  CHECK(t["task"] == "verb_object");
  CHECK(t["optimizer"] == "adam");
  CHECK(t["lr"].get<double>() == d.lr);
  CHECK(t["batch"] == d.batch);
  CHECK(t["dK"] == d.d_k);
  CHECK(t["scaled"] == true);
  CHECK(t["example"] == "");
  CHECK(t["compare"] == "");
  CHECK(t["play"] == false);
  CHECK(t["query"] == -1);
}

TEST_CASE("a train patch changes only the fields it names; the state round-trips") {
  auto r = ApplyStatePatch(LabState{}, Json{{"train", {{"lr", 0.03}, {"scaled", false}, {"compare", "scaled"}, {"play", true}}}});
  REQUIRE(r.ok);
  CHECK(r.state.train.config.lr == 0.03);
  CHECK_FALSE(r.state.train.config.scaled);
  CHECK(r.state.train.compare == "scaled");
  CHECK(r.state.train.play);
  CHECK(r.state.train.config.d_k == attn::TrainConfig{}.d_k);
  CHECK(r.state.config.sentence == "я люблю суши");  // the attention page's fields are untouched
  // getState() fed back to setState() gives the same state (the CLI and the URL rely on it).
  const Json full = attn::api::StateToJson(r.state);
  const auto again = ApplyStatePatch(LabState{}, full);
  REQUIRE(again.ok);
  CHECK(attn::api::StateToJson(again.state) == full);
}

TEST_CASE("every bad training value is refused naming train.<field>, and nothing changes") {
  struct Case { const char* json; const char* field; };
  const Case cases[] = {
      {R"({"train": 1})", "train"},
      {R"({"train": null})", "train"},
      {R"({"train": {"lr": 0}})", "train.lr"},
      {R"({"train": {"lr": -1}})", "train.lr"},
      {R"({"train": {"lr": 11}})", "train.lr"},
      {R"({"train": {"lr": null}})", "train.lr"},
      {R"({"train": {"lr": "0.1"}})", "train.lr"},
      {R"({"train": {"batch": 0}})", "train.batch"},
      {R"({"train": {"batch": 257}})", "train.batch"},
      {R"({"train": {"batch": 2.5}})", "train.batch"},
      {R"({"train": {"seed": -1}})", "train.seed"},
      {R"({"train": {"task": "translate"}})", "train.task"},
      {R"({"train": {"length": 1}})", "train.length"},
      {R"({"train": {"optimizer": "rmsprop"}})", "train.optimizer"},
      {R"({"train": {"normalizer": "softermax"}})", "train.normalizer"},
      {R"({"train": {"scaled": "no"}})", "train.scaled"},
      {R"({"train": {"play": 1}})", "train.play"},
      {R"({"train": {"dModel": 1}})", "train.dModel"},
      {R"({"train": {"dK": 257}})", "train.dK"},
      {R"({"train": {"dV": 0}})", "train.dV"},
      {R"({"train": {"heads": 9}})", "train.heads"},
      {R"({"train": {"example": 5}})", "train.example"},
      {R"({"train": {"example": "pizza is nice"}})", "train.example"},   // not in the vocabulary
      {R"({"train": {"example": ""}, "train2": 1})", "train2"},
      {R"({"train": {"query": 3}})", "train.query"},                    // the example has 3 tokens
      {R"({"train": {"query": -2}})", "train.query"},
      {R"({"train": {"speed": -1}})", "train.speed"},
      {R"({"train": {"speed": 65}})", "train.speed"},
      {R"({"train": {"speed": 1.5}})", "train.speed"},
      {R"({"train": {"speed": "fast"}})", "train.speed"},
      {R"({"train": {"compare": "colour"}})", "train.compare"},
      {R"({"train": {"compare": "normalizer:bogus"}})", "train.compare"},
      {R"({"train": {"compare": "lr:0"}})", "train.compare"},
      {R"({"train": {"compare": "lr:abc"}})", "train.compare"},
      {R"({"train": {"compare": "dK:1000"}})", "train.compare"},
      {R"({"train": {"compare": 3}})", "train.compare"},
      {R"({"train": {"bogus": 1}})", "train.bogus"},
      {R"({"train": {"lr": 0.1, "batch": 0}})", "train.batch"},          // atomic: lr not applied
  };
  for (const Case& c : cases) {
    CAPTURE(c.json);
    const auto r = ApplyStatePatchText(LabState{}, c.json);
    CHECK_FALSE(r.ok);
    CHECK(r.field == c.field);
    CHECK_FALSE(r.message.empty());
    CHECK(r.state.train.config.lr == attn::TrainConfig{}.lr);
    CHECK(r.state.train.config.batch == attn::TrainConfig{}.batch);
  }
}

TEST_CASE("a new task or length without an example goes back to that task's default example") {
  auto r = ApplyStatePatch(LabState{}, Json{{"train", {{"example", "мы любим чай"}, {"query", 1}}}});
  REQUIRE(r.ok);
  CHECK(r.state.train.query == 1);
  r = ApplyStatePatch(r.state, Json{{"train", {{"task", "previous"}}}});
  REQUIRE(r.ok);
  CHECK(r.state.train.config.example.empty());
  CHECK(r.state.train.query == -1);  // a new example: the automatic query again
  // A row of the default example, then a shorter length: the automatic query again, not a refusal.
  r = ApplyStatePatch(LabState{}, Json{{"train", {{"task", "previous"}, {"length", 8}, {"query", 7}}}});
  REQUIRE(r.ok);
  CHECK(r.state.train.query == 7);
  r = ApplyStatePatch(r.state, Json{{"train", {{"length", 4}}}});
  REQUIRE(r.ok);
  CHECK(r.state.train.query == -1);
  // A task with an example that does not fit it is refused, naming the example.
  const auto bad = ApplyStatePatch(LabState{}, Json{{"train", {{"task", "max"}, {"example", "я люблю суши"}}}});
  CHECK_FALSE(bad.ok);
  CHECK(bad.field == "train.example");
}

TEST_CASE("run B is run A with exactly the one change compare names") {
  const attn::TrainConfig a;
  attn::TrainConfig b;
  attn::api::CompareError error;
  CHECK_FALSE(attn::api::CompareConfig("", a, &b, &error));
  CHECK(error.message.empty());
  CHECK(error.code == attn::api::CompareError::Code::kNone);
  REQUIRE(attn::api::CompareConfig("scaled", a, &b, &error));
  CHECK(b.scaled == !a.scaled);
  b.scaled = a.scaled;
  CHECK(attn::SameFields(attn::TrainFields(), a, b));
  REQUIRE(attn::api::CompareConfig("normalizer:sparsemax", a, &b, &error));
  CHECK(b.normalizer == attn::Normalizer::kSparsemax);
  REQUIRE(attn::api::CompareConfig("optimizer:sgd", a, &b, &error));
  CHECK(b.optimizer == attn::Optimizer::kSgd);
  REQUIRE(attn::api::CompareConfig("lr:0.03", a, &b, &error));
  CHECK(b.lr == 0.03);
  REQUIRE(attn::api::CompareConfig("dK:64", a, &b, &error));
  CHECK(b.d_k == 64);
  CHECK(b.seed == a.seed);  // the same seed: the only difference is the named one
  for (const char* bad : {"scaled:true", "lr:", "lr:1e400", "dK:2.5", "dK:-1", "heads:2", "normalizer:"}) {
    CAPTURE(bad);
    CHECK_FALSE(attn::api::CompareConfig(bad, a, &b, &error));
    CHECK_FALSE(error.message.empty());
    CHECK(error.code != attn::api::CompareError::Code::kNone);
  }
}

TEST_CASE("a refused compare says why in a code an interface can translate: the form, or the value's row") {
  const attn::TrainConfig a;
  attn::TrainConfig b;
  attn::api::CompareError error;
  using Code = attn::api::CompareError::Code;
  CHECK_FALSE(attn::api::CompareConfig("heads:2", a, &b, &error));
  CHECK(error.code == Code::kMalformed);
  CHECK(error.got == "\"heads:2\"");
  CHECK_FALSE(attn::api::CompareConfig("dK:-1", a, &b, &error));
  CHECK(error.code == Code::kValue);
  CHECK(error.field == "dK");
  REQUIRE(error.rule.has_value());
  CHECK(error.rule->kind == attn::FieldKind::kInteger);
  CHECK(error.got == "-1");
  const auto r = ApplyStatePatch(LabState{}, Json{{"train", {{"compare", "lr:-1"}}}});
  CHECK_FALSE(r.ok);
  CHECK(r.field == "train.compare");
  CHECK(r.compare.code == Code::kValue);
  CHECK(r.compare.field == "lr");
}

TEST_CASE("a refused example carries its reason and words, not only the English line") {
  const auto unknown = ApplyStatePatch(LabState{}, Json{{"train", {{"example", "я люблю пиццу"}}}});
  CHECK_FALSE(unknown.ok);
  CHECK(unknown.field == "train.example");
  CHECK(unknown.example.code == attn::ExampleRefusal::kUnknownWord);
  CHECK(unknown.example.word == "пиццу");
  CHECK_FALSE(unknown.example.vocabulary.empty());
  const auto length = ApplyStatePatch(LabState{}, Json{{"train", {{"task", "previous"}, {"length", 5}, {"example", "a b c"}}}});
  CHECK_FALSE(length.ok);
  CHECK(length.example.code == attn::ExampleRefusal::kWrongLength);
  CHECK(length.example.count == 3);
  CHECK(length.example.limit == 5);
  const auto order = ApplyStatePatch(LabState{}, Json{{"train", {{"example", "суши люблю"}}}});
  CHECK(order.example.code == attn::ExampleRefusal::kNeedsVerbThenObject);
}

TEST_CASE("view accepts training and normalization") {
  for (const char* v : {"training", "normalization"}) {
    const auto r = ApplyStatePatch(LabState{}, Json{{"view", v}});
    REQUIRE(r.ok);
    CHECK(r.state.view == v);
  }
}

TEST_CASE("the training JSON: metrics after steps, history per metric, nulls before the first step") {
  attn::Trainer t;
  REQUIRE(t.Reset(attn::TrainConfig{}));
  attn::ExampleView v = attn::ViewExample(t);
  Json j = attn::api::RunToJson(t, v, 1);
  CHECK(j["step"] == 0);
  CHECK(j["loss"].is_null());
  CHECK(j["tokens"] == Json::array({"я", "люблю", "суши"}));
  REQUIRE(j["exampleWeights"].size() == 1);
  CHECK(j["exampleWeights"][0].size() == 3);
  for (int i = 0; i < 5; ++i) REQUIRE(t.Step());
  v = attn::ViewExample(t);
  j = attn::api::RunToJson(t, v, 1);
  CHECK(j["step"] == 5);
  CHECK(j["loss"].get<double>() == t.history().back().loss);
  CHECK(j["gradNorm"]["WQ"].get<double>() == t.history().back().grad_norm_q);
  CHECK(j["exampleWeights"][0][1][2].get<double>() == v.forward.attn.heads[0].weights(1, 2));
  CHECK(j["diverged"] == false);
  const Json h = attn::api::HistoryToJson(t);
  CHECK(h["steps"] == Json::array({1, 2, 3, 4, 5}));
  CHECK(h["loss"].size() == 5);
  CHECK(h["gradNorm"]["total"].size() == 5);
}
