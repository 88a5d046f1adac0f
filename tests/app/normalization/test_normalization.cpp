// The normalization room without a window: the experiments one a frame, the curves' options read
// by rows, and when the room needs frames.
#include "app/app.h"

#include <doctest/doctest.h>

namespace {
using attn::api::Json;
}  // namespace

TEST_SUITE("app") {

TEST_CASE("the experiments come one a frame, three in all, and keep the frames going until done") {
  app::AppState s;
  app::InitApp(s);
  CHECK_FALSE(app::NormalizationNeedsFrames(s));
  CHECK(app::StepNormalization(s));
  CHECK(app::NormalizationNeedsFrames(s));
  CHECK(app::StepNormalization(s));
  CHECK_FALSE(app::StepNormalization(s));
  CHECK(s.normalization.computed);
  CHECK_FALSE(app::NormalizationNeedsFrames(s));
  CHECK_FALSE(app::StepNormalization(s));  // done: nothing more
  const Json j = Json::parse(app::NormalizationJson(s));
  CHECK(j["ok"] == true);
  CHECK(j["curves"].is_null());
  CHECK(j["scoreVariance"].size() == s.normalization.d_ks.size());
}

TEST_CASE("runNormalization's options: rows with the one wording; the curves then run in Tick's slices") {
  app::AppState s;
  app::InitApp(s);
  const Json bad = Json::parse(app::RunCurvesJson(s, R"({"seeds": 11})"));
  CHECK(bad["ok"] == false);
  CHECK(bad["field"] == "seeds");
  CHECK(Json::parse(app::RunCurvesJson(s, R"({"speed": 1})"))["field"] == "speed");
  CHECK(Json::parse(app::RunCurvesJson(s, "[]"))["ok"] == false);
  CHECK_FALSE(s.normalization.curves_started);
  const Json ok = Json::parse(app::RunCurvesJson(s, R"({"seeds": 1, "steps": 2})"));
  REQUIRE(ok["ok"] == true);
  CHECK(app::NormalizationNeedsFrames(s));
  for (int i = 0; i < 1000 && s.normalization.curves_running; ++i) app::TickNormalization(s, 50.0);
  CHECK_FALSE(s.normalization.curves_running);
}

}  // TEST_SUITE
