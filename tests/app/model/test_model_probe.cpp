// "Probe this head" in the app (model_probe.cpp): queued by the button, run after one frame that
// says "probing…", on the built-in text of the interface language; the numbers are
// model::ProbeHeadOnText's on the loaded weights, bit for bit (so `attnlab model probe` gives the
// same), and are shown only while they are the current head's.
#include "app/app.h"
#include "model/format/bundle.h"
#include "model/inspect/head_probe.h"
#include "shipped_model.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

using attn::api::Json;

std::string ReadText(const std::string& name) {
  std::ifstream f(std::string(ATTNLAB_SOURCE_DIR) + "/web/tune/" + name, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

TEST_SUITE("app") {

TEST_CASE("model probe: queued, one frame of \"probing…\", then the numbers of ProbeHeadOnText on the interface language's text") {
  app::AppState s;
  app::InitApp(s);
  CHECK_FALSE(app::RunModelProbe(s));  // no model
  CHECK(s.model.probe.error.find("not loaded") != std::string::npos);
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "model"}, {"layer", 0}, {"head", 3}}).ok);
  const testing_model::Files files = testing_model::ShippedFiles();
  std::map<std::string, std::string> digests;
  for (const auto& [name, bytes] : files) digests[name] = attn::model::Sha256Hex(bytes);
  std::string error;
  REQUIRE_MESSAGE(app::ModelFilesArrived(s, files, digests, &error), error);
  CHECK_FALSE(app::RunModelProbe(s));  // the built-in texts have not come yet
  CHECK(s.model.probe.error.find("built-in texts") != std::string::npos);
  CHECK(Json::parse(app::ProbeHeadJson(s))["ok"] == false);

  const std::string en = ReadText("en.txt"), ru = ReadText("ru.txt");
  REQUIRE(en.size() > 1000);
  app::TuneTextsArrived(s, en, ru);
  s.model.probe = {};
  app::StartModelProbe(s);
  CHECK(app::NeedsFrames(s));
  app::Tick(s);  // this frame says "probing…"
  CHECK_FALSE(s.model.probe.has);
  CHECK(s.model.probe.wait == 0);
  app::Tick(s);  // the next one runs it
  REQUIRE(s.model.probe.has);
  CHECK(s.model.probe.wait < 0);
  REQUIRE_MESSAGE(s.model.probe.error.empty(), s.model.probe.error);
  CHECK(app::ModelProbeCurrent(s));
  CHECK_FALSE(app::NeedsFrames(s));

  // The same numbers as ProbeHeadOnText on the shipped weights and the English text.
  attn::model::TextProbe direct;
  REQUIRE(attn::model::ProbeHeadOnText(s.model.loaded->tokenizer(), s.model.loaded->shipped.params, s.model.loaded->config(), en, "text",
                                       0, 3, &direct, &error));
  const attn::model::HeadProbeResult& r = s.model.probe.result.result;
  CHECK(s.model.probe.lang == "en");
  CHECK(s.model.probe.result.tokens == direct.tokens);
  CHECK(s.model.probe.result.train_windows == direct.train_windows);
  CHECK(s.model.probe.result.test_windows == direct.test_windows);
  CHECK(r.accuracy_within == direct.result.accuracy_within);
  CHECK(r.accuracy_beyond == direct.result.accuracy_beyond);
  CHECK(r.position_beyond == direct.result.position_beyond);
  CHECK(r.test_within + r.test_beyond == r.test_samples);
  // The split: no window crosses it, training windows before, test windows after.
  const attn::model::TextProbe& t = s.model.probe.result;
  CHECK(t.split == static_cast<int>(t.tokens * attn::model::kTextProbeTrainShare));
  CHECK(t.train_windows == (t.split - t.window) / t.stride + 1);
  CHECK(t.test_windows == (t.tokens - t.split - t.window) / t.stride + 1);
  CHECK(r.test_samples == t.test_windows * (t.window - 1));
  // Layer 0 head 3, the previous-token head (heads.json: 0.84): named far above chance on both sides of d_head + 1 keys.
  CHECK(r.accuracy_within > 0.5);
  CHECK(r.accuracy_beyond > 0.5);
  CHECK(r.accuracy_beyond > 10 * r.chance_beyond);

  const Json j = app::ModelProbeJson(s);
  CHECK(j["ok"] == true);
  CHECK(j["current"] == true);
  CHECK(j["withinKeys"] == 33);
  CHECK(j["beyond"]["accuracy"].get<double>() == r.accuracy_beyond);

  // Another head, another language, other weights: the result is no longer the current one.
  REQUIRE(app::ApplyPatch(s, Json{{"head", 2}}).ok);
  CHECK_FALSE(app::ModelProbeCurrent(s));
  REQUIRE(app::ApplyPatch(s, Json{{"head", 3}}).ok);
  CHECK(app::ModelProbeCurrent(s));
  REQUIRE(app::ApplyPatch(s, Json{{"lang", "ru"}}).ok);
  CHECK_FALSE(app::ModelProbeCurrent(s));
  const Json ru_probe = Json::parse(app::ProbeHeadJson(s));
  CHECK(ru_probe["ok"] == true);
  CHECK(ru_probe["lang"] == "ru");
  CHECK(ru_probe["tokens"].get<int>() != j["tokens"].get<int>());
}

TEST_CASE("model probe: a text too short for a window on each side of the split is refused in the one wording") {
  attn::model::Bundle b;
  std::string error;
  REQUIRE_MESSAGE(attn::model::LoadBundle(std::string(ATTNLAB_SOURCE_DIR) + "/web/model", &b, &error), error);
  attn::model::TextProbe out;
  CHECK_FALSE(attn::model::ProbeHeadOnText(*b.tokenizer, b.params, b.config, "a short text", "--text", 0, 0, &out, &error));
  CHECK(error.rfind("--text: expected a text of at least ", 0) == 0);
  CHECK(error.find(" tokens, got ") != std::string::npos);
  CHECK_FALSE(attn::model::ProbeHeadOnText(*b.tokenizer, b.params, b.config, "", "--text", 0, 0, &out, &error));
  CHECK_FALSE(attn::model::ProbeHeadOnText(*b.tokenizer, b.params, b.config, std::string(400, 'a'), "--text", 4, 0, &out, &error));
  CHECK(error.rfind("layer: expected a layer index from 0 to 3, got 4", 0) == 0);
  CHECK_FALSE(attn::model::ProbeHeadOnText(*b.tokenizer, b.params, b.config, std::string(400, 'a'), "--text", 0, -1, &out, &error));
  CHECK(error.rfind("head: expected", 0) == 0);
}

}  // TEST_SUITE
