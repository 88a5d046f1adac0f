// Model mode in the app: choosing it asks for the files once, the lab keeps working while they
// come (or fail), and once loaded the result is the model's chosen head.
#include "app/app.h"
#include "app/lesson/lesson.h"
#include "model/format/bundle.h"
#include "model/lab/model_lab.h"
#include "engine/lab/lab_readout.h"
#include "shipped_model.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

namespace {

using attn::api::Json;
using testing_model::Files;
using testing_model::ShippedFiles;

std::map<std::string, std::string> Digests(const Files& files) {
  std::map<std::string, std::string> d;
  for (const auto& [name, bytes] : files) d[name] = attn::model::Sha256Hex(bytes);
  return d;
}

}  // namespace

TEST_SUITE("app") {

TEST_CASE("model mode: asked for once, accepted while loading, then the model's head") {
  app::AppState s;
  app::InitApp(s);
  CHECK_FALSE(app::WantsModel(s));  // the default page asks for nothing
  const auto r = app::ApplyPatch(s, Json{{"projection", "model"}, {"layer", 1}, {"head", 2}, {"query", 3}});
  REQUIRE_MESSAGE(r.ok, r.message);
  CHECK(app::WantsModel(s));
  CHECK(s.attention.result.error.code == attn::ConfigError::kModelNotLoaded);
  app::ModelRequested(s);
  CHECK_FALSE(app::WantsModel(s));
  CHECK(app::NeedsFrames(s));  // the progress bar moves
  app::ModelProgress(s, 0.5);
  CHECK(s.model.status.fraction == 0.5);
  const Files files = ShippedFiles();
  std::string error;
  REQUIRE_MESSAGE(app::ModelFilesArrived(s, files, Digests(files), &error), error);
  CHECK(s.model.status.load == app::ModelLoad::kReady);
  // heads.json: what each head does, one entry per layer and head
  REQUIRE(static_cast<int>(s.model.loaded->heads.size()) == s.model.loaded->config().layers * s.model.loaded->config().heads);
  CHECK(s.model.loaded->heads[3].previous > 0.4);  // layer 0 head 3: the previous-token head
  REQUIRE(s.attention.result.error.ok());
  CHECK(s.attention.model_result.ids.size() == 6);  // <|endoftext|> я " люб" лю " су" ши
  CHECK(s.attention.result.trace.weights(3, 4) == 0.0f);  // causal
  // The trace names the model's settings, and adds the model's own numbers.
  const Json trace = Json::parse(app::TraceJson(s));
  CHECK(trace["config"]["heads"] == 6);
  CHECK(trace["config"]["dK"] == 32);
  CHECK(trace["state"]["layer"] == 1);
  CHECK(trace["model"]["weights"].size() == 4);
  CHECK(trace["model"]["next"].size() == 5);
  CHECK(trace["weights"][3][2] == trace["model"]["weights"][1][2][3][2]);
  // A layer the model does not have is refused in the one wording, the state kept.
  const auto bad = app::ApplyPatch(s, Json{{"layer", 4}});
  CHECK_FALSE(bad.ok);
  CHECK(bad.message == "layer: expected a layer index from 0 to 3, got 4");
  CHECK(s.lab.config.layer == 1);
  // Back to the identity: the seed's lab, the model stays loaded.
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "identity"}, {"head", 0}, {"query", 1}}).ok);
  CHECK(s.attention.result.error.ok());
  CHECK(s.attention.result.tokens.size() == 3);
  CHECK(s.model.loaded != nullptr);
}

TEST_CASE("model mode: a failed load is reported, the lab keeps working, a retry asks again") {
  app::AppState s;
  app::InitApp(s);
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "model"}}).ok);
  app::ModelRequested(s);
  Files files = ShippedFiles();
  for (auto& [name, bytes] : files)
    if (name == "model.safetensors") bytes[1000] ^= 1;  // one bit
  std::string error;
  CHECK_FALSE(app::ModelFilesArrived(s, files, Digests(files), &error));
  CHECK(error.find("model.safetensors: SHA-256 differs") == 0);
  CHECK(s.model.status.load == app::ModelLoad::kFailed);
  CHECK(s.model.loaded == nullptr);
  CHECK_FALSE(app::WantsModel(s));
  app::RetryModel(s);
  CHECK(app::WantsModel(s));
  // Settings still change (the lab works), and going back to identity computes as before.
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "random"}}).ok);
  CHECK(s.attention.result.error.ok());
}

TEST_CASE("model mode: modelUrl names another model; while it comes, and when it fails or is cancelled, the model held stays") {
  app::AppState s;
  app::InitApp(s);
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "model"}}).ok);
  app::ModelRequested(s);
  const Files files = ShippedFiles();
  std::string error;
  REQUIRE_MESSAGE(app::ModelFilesArrived(s, files, Digests(files), &error), error);
  const attn::model::LabModel* shipped = s.model.loaded.get();
  CHECK_FALSE(app::WantsModel(s));
  // a checkpoint's address: asked for, with the shipped model still in use while it comes
  REQUIRE(app::ApplyPatch(s, Json{{"modelUrl", "https://example.org/gpt2/"}}).ok);
  CHECK(app::WantsModel(s));
  app::ModelRequested(s);
  CHECK_FALSE(app::WantsModel(s));
  CHECK(s.model.status.load == app::ModelLoad::kLoading);
  CHECK(s.model.status.name == "https://example.org/gpt2/");
  app::ModelLoading(s, "gpt2");  // the page names it by its repository
  app::ModelBytes(s, 25, 100);
  CHECK(s.model.status.fraction == 0.25);
  CHECK(s.model.status.total_bytes == 100);
  app::ModelBytes(s, 250, 100);  // never past the end
  CHECK(s.model.status.bytes == 100);
  CHECK(s.attention.result.error.ok());  // the lab shows the shipped model meanwhile
  CHECK(s.model.loaded.get() == shipped);
  // a refusal: reported, the model held kept and in use; Try again asks for the same address
  app::ModelLoadFailed(s, "config.json: HTTP 404");
  CHECK(s.model.status.load == app::ModelLoad::kFailed);
  CHECK(s.model.loaded.get() == shipped);
  CHECK(s.attention.result.error.ok());
  CHECK_FALSE(app::WantsModel(s));
  app::RetryModel(s);
  CHECK(app::WantsModel(s));
  app::ModelRequested(s);
  // a cancel: the model held, ready as before, saying so; nothing asked again
  app::ModelLoadCancelled(s);
  CHECK(s.model.status.load == app::ModelLoad::kReady);
  CHECK(s.model.status.message == "the download was cancelled");
  CHECK(s.model.loaded.get() == shipped);
  CHECK_FALSE(app::WantsModel(s));
  // back to the lab's own: asked for again (the platform fetches web/model)
  REQUIRE(app::ApplyPatch(s, Json{{"modelUrl", ""}}).ok);
  CHECK(app::WantsModel(s));
  // outside model mode nothing is asked for
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "identity"}, {"query", 1}, {"head", 0}}).ok);
  CHECK_FALSE(app::WantsModel(s));
  // without a model held, a cancel is a failure to say
  app::AppState t;
  app::InitApp(t);
  REQUIRE(app::ApplyPatch(t, Json{{"projection", "model"}, {"modelUrl", "https://example.org/gpt2/"}}).ok);
  app::ModelRequested(t);
  app::ModelLoadCancelled(t);
  CHECK(t.model.status.load == app::ModelLoad::kFailed);
  CHECK(t.model.status.message == "the download was cancelled");
  // the link keeps the address
  CHECK(app::LinkText(t).find("modelUrl=https") != std::string::npos);
}

}  // TEST_SUITE

TEST_SUITE("app") {

TEST_CASE("lesson step 4's second demonstration: the induction head finds the token after the earlier copy") {
  app::AppState s;
  app::InitApp(s);
  REQUIRE(app::GoToLesson(s, 4).ok);
  REQUIRE(app::AnswerLesson(s, 0).ok);
  REQUIRE(app::ShowLessonExtra(s).ok);
  CHECK(s.lab.config.projection == attn::Projection::kModel);
  const Files files = ShippedFiles();
  std::string error;
  REQUIRE_MESSAGE(app::ModelFilesArrived(s, files, Digests(files), &error), error);
  REQUIRE(s.attention.result.error.ok());
  // The step's head is one that heads.json measures as an induction head (at least issue 21's
  // 0.3 on repeated random sequences), and the gallery names it so.
  const int L = s.lab.config.layer, h = s.lab.config.head, H = s.model.loaded->config().heads;
  const attn::model::HeadScores& scores = s.model.loaded->heads[static_cast<std::size_t>(L * H + h)];
  CHECK(scores.induction >= 0.3);
  CHECK(attn::model::KindOf(scores, attn::model::kHeadLabelAt) == attn::model::HeadKind::kInduction);
  const std::vector<app::LessonLine> lines = app::LessonReadout(s);
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0].en.rfind("Head " + std::to_string(L) + "." + std::to_string(h) + ": a repeated token's query", 0) == 0);
  // «я люблю суши, я люблю суши»: « люб», «лю», « су», «ши» repeat; the rows and their mean
  // are the engine's InductionRows on the head's weights, well above spreading evenly.
  const auto rows = attn::InductionRows(
      s.attention.model_result.ids, s.attention.model_result.acts.blocks[static_cast<std::size_t>(L)].attn.heads[static_cast<std::size_t>(h)].weights);
  REQUIRE(rows.size() == 4);
  REQUIRE(lines.size() == rows.size() + 2);
  double mean = 0, even = 0;
  for (const auto& r : rows) mean += r.weight_after_copy / 4, even += r.spread_evenly / 4;
  CHECK(mean > 3 * even);
  char expected[128];
  std::snprintf(expected, sizeof expected, "mean over 4 repeated tokens: %.2f; spread evenly: %.2f", mean, even);
  CHECK(lines.back().en == expected);
}

}  // TEST_SUITE
