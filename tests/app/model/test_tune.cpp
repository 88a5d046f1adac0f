// "Train it more" in the app (tune.cpp): a run goes on in Tick's frames on model->params and the
// head the lab shows changes; its losses and weights are the TuneSession's run straight through
// (what `attnlab model tune` prints); pressing Train again continues; Stop stops; Reset restores
// the shipped weights and the trace every bit; refusals say why.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "app/app.h"
#include "model/format/bundle.h"

using app::AppState;
using app::Json;

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The lab in model mode with the shipped model (loaded from web/model natively).
void LoadModel(AppState& s) {
  app::InitApp(s);
  attn::model::Bundle b;
  std::string error;
  REQUIRE_MESSAGE(attn::model::LoadBundle(std::string(ATTNLAB_SOURCE_DIR) + "/web/model", &b, &error), error);
  auto m = std::make_unique<attn::model::LabModel>();
  m->shipped = std::move(b);
  m->params = m->shipped.params;
  s.model.loaded = std::move(m);
  s.model.status.load = app::ModelLoad::kReady;
  const auto r = app::ApplyPatch(s, Json{{"projection", "model"}, {"sentence", "I love sushi"}, {"layer", 0}, {"head", 0}});
  REQUIRE_MESSAGE(r.ok, r.message);
  REQUIRE_MESSAGE(s.attention.result.error.ok(), s.attention.result.error.message);
}

// Ticks until the run ends (at most `max` frames).
int TickUntilDone(AppState& s, int max = 400) {
  int frames = 0;
  while (app::TuneRunning(s) && frames < max) {
    app::Tick(s);
    ++frames;
  }
  return frames;
}

std::vector<double> Direct(const AppState& s, const std::string& text, int steps, std::string* checksum) {
  std::vector<int> ids;
  REQUIRE(attn::model::TuneStream(s.model.loaded->tokenizer(), text, "text", &ids, nullptr));
  attn::model::TuneSession session;
  REQUIRE(session.Start(s.model.loaded->config(), ids, s.lab.tune, nullptr));
  attn::model::Params<float> p = s.model.loaded->shipped.params;
  std::vector<double> losses;
  while (session.step() < steps) {
    bool done = false;
    attn::model::StepMetrics m;
    REQUIRE(session.Work(p, &done, &m, nullptr));
    if (done) losses.push_back(m.loss);
  }
  *checksum = attn::model::ParamsChecksum(p);
  return losses;
}

}  // namespace

TEST_CASE("tune: refused without the model, before the texts came, and for a text too short") {
  AppState s;
  app::InitApp(s);
  std::string error;
  CHECK_FALSE(app::StartTune(s, &error));
  CHECK(s.model.tune.refusal == app::TuneRefusal::kNoModel);
  LoadModel(s);
  CHECK_FALSE(app::StartTune(s, &error));
  CHECK(s.model.tune.refusal == app::TuneRefusal::kNoText);
  REQUIRE(app::ApplyPatch(s, Json{{"tuneText", "own"}, {"tuneOwn", "hi"}}).ok);
  CHECK_FALSE(app::StartTune(s, &error));
  CHECK(s.model.tune.refusal == app::TuneRefusal::kText);
  CHECK(s.model.tune.problem.code == attn::model::TuneTextProblem::Code::kTooShort);
  CHECK(error.rfind("tuneOwn: expected a text of at least 8 tokens, got ", 0) == 0);
  CHECK_FALSE(app::TuneRunning(s));
  CHECK_FALSE(app::NeedsFrames(s));
}

TEST_CASE("tune: a run in the frames changes the head, is the session's run bit for bit, continues, stops, resets") {
  AppState s;
  LoadModel(s);
  const std::string en = ReadFile(std::string(ATTNLAB_SOURCE_DIR) + "/web/tune/en.txt");
  const std::string ru = ReadFile(std::string(ATTNLAB_SOURCE_DIR) + "/web/tune/ru.txt");
  app::TuneTextsArrived(s, en, ru);
  CHECK(app::TuneText(s) == en);  // auto, English interface
  REQUIRE(app::ApplyPatch(s, Json{{"lang", "ru"}}).ok);
  CHECK(app::TuneText(s) == ru);
  REQUIRE(app::ApplyPatch(s, Json{{"lang", "en"}, {"tuneSteps", 2}}).ok);
  const std::string before = app::TraceJson(s);
  const attn::MatF weights_before = s.attention.result.trace.weights;

  std::string error;
  REQUIRE_MESSAGE(app::StartTune(s, &error), error);
  CHECK(app::NeedsFrames(s));
  CHECK(TickUntilDone(s) > 1);  // in several frames
  CHECK(s.model.tune.session.step() == 2);
  CHECK(s.model.tune.trained);
  CHECK(s.attention.result.error.ok());
  CHECK(s.attention.result.trace.weights != weights_before);  // the head the lab shows changed
  CHECK_FALSE(app::TraceJson(s) == before);

  std::string direct_sum;
  const std::vector<double> direct = Direct(s, en, 4, &direct_sum);
  std::vector<double> page;
  for (const auto& m : s.model.tune.session.history()) page.push_back(m.loss);
  CHECK(page == std::vector<double>(direct.begin(), direct.begin() + 2));

  // Train again, same text and settings: the run continues (2 + 2 = 4 steps straight through).
  REQUIRE(app::StartTune(s, &error));
  TickUntilDone(s);
  page.clear();
  for (const auto& m : s.model.tune.session.history()) page.push_back(m.loss);
  CHECK(page == direct);
  CHECK(attn::model::ParamsChecksum(s.model.loaded->params) == direct_sum);
  const Json status = app::TuneStatusJson(s);
  CHECK(status["checksum"] == direct_sum);
  CHECK(status["losses"].size() == 4);

  // Stop: no unit runs after it.
  REQUIRE(app::ApplyPatch(s, Json{{"tuneSteps", 100}}).ok);
  REQUIRE(app::StartTune(s, &error));
  app::Tick(s);
  app::Tick(s);
  app::StopTune(s);
  const int step = s.model.tune.session.step(), unit = s.model.tune.session.unit();
  for (int k = 0; k < 5; ++k) app::Tick(s);
  CHECK(s.model.tune.session.step() == step);
  CHECK(s.model.tune.session.unit() == unit);
  CHECK_FALSE(app::TuneRunning(s));

  // Reset: the shipped weights and the trace before, every bit.
  app::ResetTune(s);
  CHECK_FALSE(s.model.tune.trained);
  CHECK(s.model.tune.session.step() == 0);
  CHECK(attn::model::ParamsChecksum(s.model.loaded->params) == attn::model::ParamsChecksum(s.model.loaded->shipped.params));
  REQUIRE(app::ApplyPatch(s, Json{{"tuneSteps", 2}}).ok);  // the state as before too
  const bool same_trace = app::TraceJson(s) == before;  // not printed: megabytes
  CHECK(same_trace);
}

TEST_CASE("tune: a model over the memory limit is refused with its numbers before anything is widened; the shipped one is not") {
  AppState s;
  LoadModel(s);
  app::TuneTextsArrived(s, ReadFile(std::string(ATTNLAB_SOURCE_DIR) + "/web/tune/en.txt"),
                        ReadFile(std::string(ATTNLAB_SOURCE_DIR) + "/web/tune/ru.txt"));
  std::string error;
  // The shipped model: 2.6 M parameters, 69 MiB: it starts.
  CHECK(attn::model::TuneMemoryOf(s.model.loaded->config()).fits());
  REQUIRE_MESSAGE(app::StartTune(s, &error), error);
  app::StopTune(s);
  app::ResetTune(s);

  // The same lab holding a model of GPT-2 small's shape: only its config is read before the
  // refusal, so this one's config is enough (its weights stay the shipped model's, untouched).
  attn::model::ModelConfig& config = s.model.loaded->shipped.config;
  const attn::model::ModelConfig shipped = config;
  config.vocab = 50257;
  config.d_model = 768;
  config.layers = 12;
  config.heads = 12;
  config.context = 1024;
  config.mlp = 3072;
  config.attn_bias = config.out_bias = true;
  const std::string checksum = attn::model::ParamsChecksum(s.model.loaded->params);
  const std::string refusal =
      "tune: a model of 124.4 M parameters needs 3323 MiB to train (28 bytes a parameter: the weights in float, two "
      "gradients, AdamW's moments), more than the limit of 1024 MiB";
  CHECK_FALSE(app::StartTune(s, &error));
  CHECK(error == refusal);
  CHECK(s.model.tune.refusal == app::TuneRefusal::kTooBig);
  CHECK(s.model.tune.memory.parameters == 124439808);
  CHECK(s.model.tune.memory.mib() == 3323);
  CHECK(s.model.tune.memory.limit_mib() == 1024);
  CHECK_FALSE(s.model.tune.session.started());
  CHECK_FALSE(app::TuneRunning(s));
  CHECK(attn::model::ParamsChecksum(s.model.loaded->params) == checksum);  // nothing trained or widened
  // The page's tuneModel says the same, with no field to blame.
  const Json answer = Json::parse(app::TuneModelJson(s, "{\"steps\": 2}"));
  CHECK(answer["ok"] == false);
  CHECK(answer["field"] == "");
  CHECK(answer["error"] == refusal);
  config = shipped;
}
