// app::NeedsFrames: the page idles (draws nothing) unless the app is working in its frames.
#include "app/app.h"

#include <doctest/doctest.h>

#include <string>

TEST_SUITE("app") {

TEST_CASE("a fresh lab needs no frames: the page can idle at zero draws") {
  app::AppState s;
  app::InitApp(s);
  CHECK_FALSE(app::NeedsFrames(s));
  app::Tick(s);
  CHECK_FALSE(app::NeedsFrames(s));
  // A change of settings is drawn because it is a change, not because the app is busy.
  CHECK(app::ApplyPatch(s, attn::api::Json{{"temperature", 0.5}}).ok);
  CHECK_FALSE(app::NeedsFrames(s));
}

TEST_CASE("playing, a long run, the probe and the normalization work keep the frames going until done") {
  app::AppState s;
  app::InitApp(s);

  CHECK(app::ApplyPatch(s, attn::api::Json{{"train", {{"play", true}}}}).ok);
  CHECK(app::NeedsFrames(s));
  CHECK(app::ApplyPatch(s, attn::api::Json{{"train", {{"play", false}}}}).ok);
  CHECK_FALSE(app::NeedsFrames(s));

  app::StartRun(s, 3);
  CHECK(app::NeedsFrames(s));
  for (int i = 0; i < 100 && app::NeedsFrames(s); ++i) app::Tick(s);
  CHECK_FALSE(app::NeedsFrames(s));
  CHECK(s.training.a.trainer.step() == 3);

  app::StartProbeSweep(s);
  CHECK(app::NeedsFrames(s));
  for (int i = 0; i < 100 && app::NeedsFrames(s); ++i) app::Tick(s);
  CHECK_FALSE(app::NeedsFrames(s));
  CHECK(s.attention.probe.points.size() == static_cast<size_t>(s.attention.probe.total));

  // The normalization panel computes its experiments one per frame once shown.
  CHECK(app::StepNormalization(s));
  CHECK(app::NeedsFrames(s));
  app::EnsureNormalization(s);
  CHECK_FALSE(app::NeedsFrames(s));

  std::string error;
  REQUIRE(app::StartCurves(s, 1, 2, &error));
  CHECK(app::NeedsFrames(s));
  for (int i = 0; i < 1000 && app::NeedsFrames(s); ++i) app::Tick(s);
  CHECK_FALSE(app::NeedsFrames(s));
}

}  // TEST_SUITE
