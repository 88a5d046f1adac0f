// The training room without a window: which patches rebuild runs A and B, the one training JSON
// (train(steps) and getTraining()), and its share of Tick.
#include "app/app.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using attn::api::Json;

app::AppState Fresh() {
  app::AppState s;
  app::InitApp(s);
  return s;
}

attn::api::LabState Patched(const app::AppState& s, const char* patch) {
  attn::api::PatchResult r = attn::api::ApplyStatePatch(s.lab, Json::parse(patch));
  REQUIRE(r.ok);
  return r.state;
}

}  // namespace

TEST_SUITE("app") {

TEST_CASE("play, speed and query keep the runs; a new training setting rebuilds them, refusals keep them") {
  app::AppState s = Fresh();
  for (const char* keep : {R"({"train": {"play": true}})", R"({"train": {"speed": 3}})", R"({"train": {"query": 1}})",
                           R"({"temperature": 0.5})"}) {
    CAPTURE(keep);
    // The room's two phases by hand: a run that keeps its steps was not rebuilt.
    app::TrainSteps(s, 1);
    const int steps = s.training.a.trainer.step();
    attn::api::PatchResult refused;
    CHECK(s.training.Prepare(app::Context(s), Patched(s, keep), &refused));
    s.training.Adopt(app::Context(s), s.lab, app::Source::kApi);
    CHECK(s.training.a.trainer.step() == steps);
  }
  attn::api::PatchResult refused;
  CHECK(s.training.Prepare(app::Context(s), Patched(s, R"({"train": {"lr": 0.05}})"), &refused));
  s.training.Adopt(app::Context(s), s.lab, app::Source::kApi);
  CHECK(s.training.a.trainer.ready());
  CHECK(s.training.a.trainer.step() == 0);
  // Before anything is trained, a new language brings its default example.
  CHECK(s.training.Prepare(app::Context(s), Patched(s, R"({"lang": "ru"})"), &refused));
  s.training.Adopt(app::Context(s), s.lab, app::Source::kApi);
  CHECK(s.training.example_edit == "я люблю суши");
  // Through ApplyPatch: trained steps survive a change of speed, not of the learning rate.
  app::AppState t = Fresh();
  app::TrainSteps(t, 2);
  REQUIRE(app::ApplyPatch(t, Json{{"train", {{"speed", 5}}}}).ok);
  CHECK(t.training.a.trainer.step() == 2);
  REQUIRE(app::ApplyPatch(t, Json{{"train", {{"lr", 0.05}}}}).ok);
  CHECK(t.training.a.trainer.step() == 0);
}

TEST_CASE("one training JSON: train(steps)'s latest numbers and getTraining()'s histories agree") {
  app::AppState s = Fresh();
  REQUIRE(app::ApplyPatch(s, Json{{"train", {{"compare", "lr:0.05"}}}}).ok);
  const Json latest = Json::parse(app::TrainStepsJson(s, 3));
  REQUIRE(latest["ok"] == true);
  CHECK(latest["compare"] == "lr:0.05");
  CHECK(latest["b"].is_object());
  const Json history = Json::parse(app::TrainingJson(s, app::TrainingJsonOf::kHistory));
  CHECK(history["ok"] == true);
  CHECK(history["query"] == s.training.query);
  CHECK(history["state"]["compare"] == "lr:0.05");
  // The numbers now are written once: the same in both answers.
  Json a = latest;
  a.erase("ok");
  a.erase("b");
  a.erase("compare");
  CHECK(history["a"]["current"] == a);
  CHECK(history["b"]["current"] == latest["b"]);
  // Without run B, "b" is null in both.
  app::AppState plain = Fresh();
  CHECK(Json::parse(app::TrainingJson(plain, app::TrainingJsonOf::kLatest))["b"].is_null());
  CHECK(Json::parse(app::TrainingJson(plain, app::TrainingJsonOf::kHistory))["b"].is_null());
}

TEST_CASE("Tick's share: nothing while paused, at most `speed` steps a frame while playing") {
  app::AppState s = Fresh();
  double ms = -1;
  CHECK(app::TickTraining(s, app::kTrainBudgetMs, &ms) == 0);
  CHECK(ms == 0);
  CHECK_FALSE(app::TrainingNeedsFrames(s));
  REQUIRE(app::ApplyPatch(s, Json{{"train", {{"play", true}, {"speed", 1}}}}).ok);
  CHECK(app::TrainingNeedsFrames(s));
  CHECK(app::TickTraining(s, 1000.0, &ms) == 1);
  CHECK(s.training.a.trainer.step() == 1);
}

}  // TEST_SUITE
