// The inspect room (app/inspect; the Prediction tab, issue 40) on the shipped model: the page
// API's lens and attribution are the engine's numbers for the sentence shown (the same JSON as
// `attnlab model lens / attribute`: api/inspect_json.h), the state's answer and foil refused by
// name, patching and generation as jobs in the frames (progress, Cancel, stale jobs stopped),
// each with the engine's results.
#include "../model/loaded_model.h"
#include "api/inspect_json.h"
#include "app/app.h"
#include "model/arch/sampling.h"
#include "model/inspect/attribution.h"
#include "model/inspect/lens.h"
#include "model/inspect/patching.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace {

using attn::api::Json;
using testing_model::LoadShippedModel;

void InspectOpen(app::AppState& s, const std::string& sentence) {
  app::InitApp(s);
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "model"}, {"sentence", sentence}}).ok);
  LoadShippedModel(s);
  REQUIRE(s.attention.result.error.ok());
}

// Frames until no job runs (at most `frames`); the frames it took.
int InspectFrames(app::AppState& s, int frames) {
  int n = 0;
  while (app::NeedsFrames(s) && n < frames) {
    app::Tick(s);
    ++n;
  }
  return n;
}

std::string InspectLabel(const app::AppState& s, int id) { return s.model.loaded->tokenizer().Label(id); }

}  // namespace

TEST_SUITE("app") {

TEST_CASE("inspect: getLens and getAttribution are the engine's numbers for the sentence shown") {
  app::AppState s;
  InspectOpen(s, "я люблю суши");
  const attn::model::LabModel& m = *s.model.loaded;
  const attn::model::ModelLabResult& shown = s.attention.model_result;
  const auto label = [&s](int id) { return InspectLabel(s, id); };

  const Json lens = app::LensJson(s);
  REQUIRE_MESSAGE(lens["ok"] == true, lens.dump());
  attn::model::LogitLens direct;
  REQUIRE(attn::model::ComputeLogitLens(m.params, m.config(), shown.acts, -1, &direct));
  Json expected = attn::api::LensJson(direct, shown.texts, label);
  Json got = lens;
  got.erase("ok");
  got.erase("ms");
  CHECK(got == expected);
  CHECK(lens["rows"] == m.config().layers + 1);
  CHECK(lens["tokens"].size() == shown.ids.size());
  // the last row's top token at the last position is the model's own prediction
  CHECK(lens["top"][m.config().layers][shown.ids.size() - 1]["id"] == shown.next.front().id);

  const Json a = app::AttributionJson(s, Json());
  REQUIRE_MESSAGE(a["ok"] == true, a.dump());
  CHECK(a["target"]["id"] == shown.next.front().id);
  CHECK(a["foil"].is_null());
  CHECK(std::abs(a["sum"].get<double>() - a["logit"].get<double>()) < 1e-4);
  double parts = 0;
  for (const Json& p : a["parts"]) parts += p["value"].get<double>();
  CHECK(std::abs(parts - a["logit"].get<double>()) < 1e-4);
  CHECK(a["heads"].size() == static_cast<std::size_t>(m.config().layers * m.config().heads));
  // a target and a foil given to the call: the logit difference, the state unchanged
  const int second = shown.next[1].id;
  const Json d = app::AttributionJson(s, Json{{"target", second}, {"foil", shown.next.front().id}});
  REQUIRE_MESSAGE(d["ok"] == true, d.dump());
  CHECK(d["target"]["id"] == second);
  CHECK(d["foil"]["id"] == shown.next.front().id);
  CHECK(d["logit"].get<double>() < 0);  // the second likeliest minus the likeliest
  CHECK(std::abs(d["sum"].get<double>() - d["logit"].get<double>()) < 1e-4);
  CHECK(s.lab.answer.empty());
  // refusals name the option
  CHECK(app::AttributionJson(s, Json{{"target", 1e9}})["field"] == "target");
  CHECK(app::AttributionJson(s, Json{{"foil", "not one token at all"}})["field"] == "foil");
  CHECK(app::AttributionJson(s, Json{{"tagret", 3}})["field"] == "tagret");
  CHECK(app::AttributionJson(s, Json(5))["ok"] == false);
}

TEST_CASE("inspect: the state's answer and foil name one token of the model, refused by name otherwise") {
  app::AppState s;
  InspectOpen(s, "я люблю суши");
  const auto many = app::ApplyPatch(s, Json{{"answer", "люблю суши и чай"}});
  CHECK_FALSE(many.ok);
  CHECK(many.field == "answer");
  CHECK(many.message.find("tokens") != std::string::npos);
  const auto far = app::ApplyPatch(s, Json{{"foil", "#99999999"}});
  CHECK_FALSE(far.ok);
  CHECK(far.field == "foil");
  CHECK(far.message.find("#0 to #") != std::string::npos);
  REQUIRE(app::ApplyPatch(s, Json{{"answer", "#5"}}).ok);
  const Json lens = app::LensJson(s);
  REQUIRE(lens["ok"] == true);
  CHECK(lens["chosenTarget"] == true);
  for (const Json& t : lens["targets"]) CHECK(t["id"] == 5);
  CHECK(app::AttributionJson(s, Json())["target"]["id"] == 5);
  // the lens is kept while nothing it depends on changes, computed again when the answer does
  const std::string key = s.inspect.Work().lens.key;
  CHECK(app::LensCurrent(s));
  REQUIRE(app::ApplyPatch(s, Json{{"head", 2}}).ok);
  CHECK(app::LensCurrent(s));
  CHECK(s.inspect.Work().lens.key == key);
  REQUIRE(app::ApplyPatch(s, Json{{"answer", ""}}).ok);
  CHECK_FALSE(app::LensCurrent(s));
  // asked for by the tab: computed in the next frame
  app::WantLens(s);
  CHECK(app::NeedsFrames(s));
  app::Tick(s);
  CHECK(app::LensCurrent(s));
  // outside model mode: refused, field projection
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "identity"}, {"layer", 0}, {"head", 0}}).ok);
  CHECK(app::LensJson(s)["field"] == "projection");
}

TEST_CASE("inspect: runPatching runs in the frames, its grid is PatchRun's, Cancel stops it, a change makes it stale") {
  app::AppState s;
  InspectOpen(s, "I love sushi");
  const Json refused = app::RunPatchingJson(s, Json{{"corrupted", "I love sushi very much"}});
  CHECK(refused["ok"] == false);
  CHECK(refused["field"] == "corrupted");
  CHECK(refused["error"].get<std::string>().find("as many tokens as the sentence (") != std::string::npos);
  CHECK(app::RunPatchingJson(s, Json{{"what", "everything"}})["field"] == "what");
  CHECK(app::RunPatchingJson(s, Json{{"corupted", "x"}})["field"] == "corupted");

  const Json start = app::RunPatchingJson(s, Json{{"clean", "I love sushi"}, {"corrupted", "I like sushi"}, {"what", "resid"}});
  REQUIRE_MESSAGE(start["ok"] == true, start.dump());
  CHECK(start["running"] == true);
  CHECK(s.lab.corrupted == "I like sushi");
  CHECK(s.lab.patch == "resid");
  const int total = start["total"];
  CHECK(total == s.model.loaded->config().layers * static_cast<int>(s.attention.model_result.ids.size()));
  InspectFrames(s, 10000);
  const Json done = app::PatchingJson(s);
  CHECK(done["running"] == false);
  CHECK(done["done"] == total);
  CHECK(done["current"] == true);
  // the engine's run, directly
  const attn::model::LabModel& m = *s.model.loaded;
  attn::model::PatchSpec spec;
  spec.clean = s.attention.model_result.ids;
  REQUIRE(attn::model::EncodeModelText(m, "I like sushi", "corrupted", &spec.corrupted).ok());
  attn::model::PatchRun run;
  REQUIRE(run.Start(m.params, m.config(), spec));
  while (!run.done()) REQUIRE(run.Step(8));
  for (int r = 0; r < run.rows(); ++r)
    for (int c = 0; c < run.cols(); ++c)
      CHECK(done["metric"][r][c].get<double>() == run.metric()[static_cast<std::size_t>(r * run.cols() + c)]);
  CHECK(done["ldClean"].get<double>() == run.ld_clean());
  // layer 0's residual stream: only the position that differs (" love" / " like") matters there
  const int differs = 2;  // <|endoftext|> I love
  CHECK(std::abs(done["metric"][0][differs].get<double>() - 1.0) < 1e-6);
  CHECK(std::abs(done["metric"][0][1].get<double>()) < 1e-12);

  // Cancel: the grid so far, null where not run
  REQUIRE(app::RunPatchingJson(s, Json{{"what", "head"}})["ok"] == true);
  app::Tick(s);
  app::CancelPatching(s);
  const Json cancelled = app::PatchingJson(s);
  CHECK(cancelled["running"] == false);
  CHECK(cancelled["cancelled"] == true);
  CHECK(cancelled["done"].get<int>() < cancelled["total"].get<int>());
  CHECK_FALSE(app::NeedsFrames(s));

  // a change of what it runs on stops a running job
  REQUIRE(app::RunPatchingJson(s, Json{{"what", "mlp"}})["ok"] == true);
  REQUIRE(app::ApplyPatch(s, Json{{"corrupted", "I hate sushi"}}).ok);
  CHECK_FALSE(app::PatchingCurrent(s));
  app::Tick(s);
  CHECK_FALSE(s.inspect.Work().patching.running);
  CHECK(app::PatchingJson(s)["current"] == false);
}

TEST_CASE("inspect: generate samples a token per frame with the cache: the tokens of the whole-text forward") {
  app::AppState s;
  InspectOpen(s, "я люблю");
  const attn::model::LabModel& m = *s.model.loaded;
  for (const double temperature : {0.0, 0.9}) {
    CAPTURE(temperature);
    const Json start = app::GenerateJson(s, Json{{"n", 12}, {"temperature", temperature}, {"topK", 40}, {"topP", 0.95}, {"seed", 7}});
    REQUIRE_MESSAGE(start["ok"] == true, start.dump());
    InspectFrames(s, 100);
    const Json g = app::GenerationJson(s);
    CHECK(g["running"] == false);
    attn::model::SamplingConfig cfg;
    cfg.temperature = temperature;
    cfg.top_k = 40;
    cfg.top_p = 0.95;
    cfg.seed = 7;
    attn::model::Generation direct;
    REQUIRE(attn::model::Generate(m.params, m.config(), s.attention.model_result.ids, 12, m.tokenizer().EndOfText(), cfg,
                                  /*cached=*/false, &direct));
    REQUIRE(g["tokens"].size() == direct.tokens.size());
    for (std::size_t i = 0; i < direct.tokens.size(); ++i) {
      CHECK(g["tokens"][i]["id"] == direct.tokens[i]);
      CHECK(g["tokens"][i]["text"] == InspectLabel(s, direct.tokens[i]));
    }
    CHECK(g["stopped"] == direct.stopped);
  }
  // a chip opened: the attribution of the token it chose, at the text before it
  const Json g = app::GenerationJson(s);
  REQUIRE(g["tokens"].size() >= 3);
  app::ChooseGeneratedStep(s, 2);
  const app::GenerateJob& job = s.inspect.Work().generation;
  REQUIRE_MESSAGE(job.chosen_ok, job.chosen_error);
  CHECK(job.chosen_value.target == g["tokens"][2]["id"].get<int>());
  CHECK(job.chosen_texts.size() == s.attention.model_result.ids.size() + 2);
  CHECK(std::abs(job.chosen_value.sum - job.chosen_value.logit) < 1e-4);
  // bad options, by name
  CHECK(app::GenerateJson(s, Json{{"n", 0}})["field"] == "n");
  CHECK(app::GenerateJson(s, Json{{"n", 2.5}})["field"] == "n");
  CHECK(app::GenerateJson(s, Json{{"topP", 0}})["field"] == "topP");
  CHECK(app::GenerateJson(s, Json{{"temperature", -1}})["field"] == "temperature");
  CHECK(app::GenerateJson(s, Json{{"top_k", 3}})["field"] == "top_k");
  // new weights stop a generation that runs on the old ones
  REQUIRE(app::GenerateJson(s, Json{{"n", 50}})["ok"] == true);
  ++s.model.weights_version;
  app::Tick(s);
  CHECK_FALSE(s.inspect.Work().generation.running);
  CHECK(s.inspect.Work().generation.cancelled);
}

}  // TEST_SUITE
