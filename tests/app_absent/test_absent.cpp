// The app as the default page links it: src/model/lab/absent.cpp instead of the model's code (the
// page moves to index-model.wasm when model mode is chosen, web/js/model_switch.js). Whatever reaches this
// build in model mode (the page's files, a tune request) is refused with a message; the lab
// keeps its state and keeps working.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "../app/model/shipped_model.h"
#include "app/app.h"
#include "model/lab/model_lab.h"

#include <doctest/doctest.h>

#include <string>

using attn::api::Json;

TEST_CASE("the default page's build: model mode asks for the model, and its files are refused cleanly") {
  CHECK_FALSE(attn::model::ModelCodeInBuild());
  app::AppState s;
  app::InitApp(s);
  const auto r = app::ApplyPatch(s, Json{{"projection", "model"}, {"layer", 1}, {"head", 2}});
  REQUIRE_MESSAGE(r.ok, r.message);
  CHECK(app::WantsModel(s));  // the platform is asked: in the page, lab.js switches builds
  app::ModelRequested(s);
  CHECK(s.attention.result.error.code == attn::ConfigError::kModelNotLoaded);

  // Should the files reach this build anyway, it says it has no model code.
  std::string error;
  CHECK_FALSE(app::ModelFilesArrived(s, testing_model::ShippedFiles(), {}, &error));
  CHECK(error.find("no model code") != std::string::npos);
  CHECK(s.model.status.load == app::ModelLoad::kFailed);
  CHECK(s.model.loaded == nullptr);

  // Tuning has nothing to tune; the lab goes back to identity and computes as ever.
  CHECK_FALSE(app::StartTune(s));
  CHECK_FALSE(Json::parse(app::TuneModelJson(s, "{}"))["ok"].get<bool>());
  // So has the probe on a real head.
  app::TuneTextsArrived(s, "some text", "немного текста");
  CHECK_FALSE(app::RunModelProbe(s));
  CHECK_FALSE(Json::parse(app::ProbeHeadJson(s))["ok"].get<bool>());
  // And the Prediction tab's calls (the inspect room's stand-in): refused, naming the projection.
  CHECK(app::LensJson(s)["field"] == "projection");
  CHECK(app::AttributionJson(s, Json::object())["field"] == "projection");
  CHECK(app::RunPatchingJson(s, Json{{"corrupted", "x"}})["field"] == "projection");
  CHECK(app::GenerateJson(s, Json{{"n", 3}})["field"] == "projection");
  CHECK(app::PatchingJson(s).is_null());
  CHECK_FALSE(app::StartPatching(s));
  const auto back = app::ApplyPatch(s, Json{{"projection", "identity"}});
  REQUIRE_MESSAGE(back.ok, back.message);
  CHECK(s.attention.result.error.ok());
  CHECK(s.attention.result.trace.weights.rows() > 0);
}
