// The attention room without a window: which patches compute a new result, what the maths still
// refuses, and the probe sweep one run a frame.
#include "app/app.h"

#include <doctest/doctest.h>

namespace {

using attn::api::Json;

attn::api::LabState Patched(const app::AppState& s, const Json& patch) {
  attn::api::PatchResult r = attn::api::ApplyStatePatch(s.lab, patch);
  REQUIRE(r.ok);
  return r.state;
}

}  // namespace

TEST_SUITE("app") {

TEST_CASE("training, language and view leave the result alone; an attention setting computes a new one") {
  app::AppState s;
  app::InitApp(s);
  attn::api::PatchResult refused;
  // The room's two phases by hand (ApplyPatch runs them for every room): the dragged weights stay
  // while the result does, and go with a new one.
  for (const Json& keep : {Json{{"view", "weights"}}, Json{{"lang", "ru"}}, Json{{"train", {{"lr", 0.01}}}}}) {
    CAPTURE(keep.dump());
    app::SetCustomWeight(s, 0, 0.6);
    REQUIRE(s.attention.custom.active);
    CHECK(s.attention.Prepare(app::Context(s), Patched(s, keep), &refused));
    s.attention.Adopt(app::Context(s), s.lab, app::Source::kApi);
    CHECK(s.attention.custom.active);
  }
  CHECK(s.attention.Prepare(app::Context(s), Patched(s, Json{{"temperature", 0.5}}), &refused));
  s.attention.Adopt(app::Context(s), s.lab, app::Source::kApi);
  CHECK_FALSE(s.attention.custom.active);
  CHECK(s.attention.result.error.ok());
}

TEST_CASE("the maths' refusal goes through the one Refuse: the state and result stay, the header says it") {
  app::AppState s;
  app::InitApp(s);
  const std::string before = app::TraceJson(s);
  const attn::api::PatchResult r =
      app::Refuse(s, app::EngineRefusal(attn::LabError{attn::ConfigError::kNumericOverflow, "scores", "scores: refused"}));
  CHECK_FALSE(r.ok);
  CHECK(r.api_error == attn::api::ApiError::kEngine);
  CHECK(r.field == "scores");
  CHECK(s.has_refusal);
  CHECK(s.refusal.message == "scores: refused");
  CHECK(app::TraceJson(s) == before);
  // The next accepted change clears it.
  REQUIRE(app::ApplyPatch(s, Json{{"view", "weights"}}).ok);
  CHECK_FALSE(s.has_refusal);
}

TEST_CASE("the probe sweep: seven runs queued, one a frame") {
  app::AppState s;
  app::InitApp(s);
  app::StartProbeSweep(s);
  CHECK(s.attention.probe.total == 7);
  CHECK(app::NeedsFrames(s));
  app::TickProbe(s);
  CHECK(s.attention.probe.points.size() == 1);
  CHECK(s.attention.probe.queue.size() == 6);
}

}  // TEST_SUITE
