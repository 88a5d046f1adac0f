// What if in model mode (issue 23): a word edit runs the model on the edited sentence, knock-outs
// run model::ForwardKnockedOut; the comparison in the what-if room, checked against plain model
// runs and against what a knock-out must do.
#include "app/app.h"
#include "app/exports/figure_export.h"
#include "model/format/bundle.h"
#include "model/lab/model_lab.h"
#include "shipped_model.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace {

using attn::api::Json;
using testing_model::Files;
using testing_model::ShippedFiles;

// The app in model mode with the shipped model loaded, on `sentence`.
void Loaded(app::AppState& s, const std::string& sentence) {
  app::InitApp(s);
  const auto r = app::ApplyPatch(s, Json::parse(R"({"projection": "model", "layer": 1, "head": 4, "query": 1})"));
  REQUIRE_MESSAGE(r.ok, r.message);
  app::ModelRequested(s);
  const Files files = ShippedFiles();
  std::map<std::string, std::string> digests;
  for (const auto& [name, bytes] : files) digests[name] = attn::model::Sha256Hex(bytes);
  std::string error;
  REQUIRE_MESSAGE(app::ModelFilesArrived(s, files, digests, &error), error);
  const auto r2 = app::ApplyPatch(s, attn::api::Obj({{"sentence", sentence}}));
  REQUIRE_MESSAGE(r2.ok, r2.message);
}

}  // namespace

TEST_SUITE("app") {

TEST_CASE("model what-if: a word edit's next tokens are the model's on the edited sentence") {
  app::AppState s;
  Loaded(s, "я люблю суши");
  const std::vector<attn::model::NextToken> plain = s.attention.model_result.next;
  const auto r = app::ApplyPatch(s, attn::api::Obj({{"whatIfToken", 2}, {"whatIfWith", "рис"}}));
  REQUIRE_MESSAGE(r.ok, r.message);
  const attn::model::ModelComparison* c = app::CurrentModelComparison(s);
  REQUIRE(c != nullptr);
  CHECK(c->sentence == "я люблю рис");
  // the other run, as `attnlab model run "я люблю рис"` computes it
  attn::LabConfig other;
  other.projection = attn::Projection::kModel;
  other.sentence = "я люблю рис";
  other.query = 0;
  attn::LabResult lab;
  attn::model::ModelLabResult extra;
  REQUIRE(attn::model::ComputeModelLab(*s.model.loaded, other, &lab, &extra));
  REQUIRE(c->next_edited.size() == extra.next.size());
  for (std::size_t k = 0; k < extra.next.size(); ++k) {
    CHECK(c->next_edited[k].id == extra.next[k].id);
    CHECK(c->next_edited[k].p == extra.next[k].p);  // the same bits
    CHECK(c->next_plain[k].id == plain[k].id);
  }
  // the untouched words keep their pieces: «я» and «люблю» are aligned, «суши»'s pieces are not
  const int n = static_cast<int>(s.attention.model_result.ids.size());
  REQUIRE(static_cast<int>(c->to_edited.size()) == n);
  CHECK(c->to_edited[0] == 0);
  for (int t = 1; t < n; ++t) {
    const int w = s.attention.model_result.word[static_cast<std::size_t>(t)];
    if (w == 0 || w == 1) CHECK(c->to_edited[static_cast<std::size_t>(t)] == t);
    if (w == 2) CHECK(c->to_edited[static_cast<std::size_t>(t)] == -1);
  }
  // the trace carries it
  const Json trace = Json::parse(app::TraceJson(s));
  REQUIRE(trace.contains("comparison"));
  CHECK(trace["comparison"]["sentence"] == "я люблю рис");
  CHECK(trace["comparison"]["dWeights"].size() == c->d_weights.size());
}

TEST_CASE("model what-if: a knocked-out head changes nothing before its layer, and its keys' weight goes") {
  app::AppState s;
  Loaded(s, "я люблю суши, я люблю суши");
  const int heads = s.model.loaded->config().heads;
  // head 2.3 knocked out: layers 0 and 1 see exactly the same weights
  auto r = app::ApplyPatch(s, attn::api::Obj({{"knockoutHeads", "2:3"}}));
  REQUIRE_MESSAGE(r.ok, r.message);
  const attn::model::ModelComparison* c = app::CurrentModelComparison(s);
  REQUIRE(c != nullptr);
  for (int k = 0; k < 2 * heads; ++k) CHECK(c->d_weights[static_cast<std::size_t>(k)].cwiseAbs().maxCoeff() == 0.0);
  double later = 0;
  for (std::size_t k = 3 * heads; k < c->d_weights.size(); ++k) later = std::max(later, c->d_weights[k].cwiseAbs().maxCoeff());
  CHECK(later > 0);  // layer 3 reads what 2.3 no longer writes
  // key 1 knocked out in the chosen head (1.4): its column's weight goes to 0 in every row that
  // sees another key, so Δα = -α there; the other heads of layer 1 are untouched
  r = app::ApplyPatch(s, attn::api::Obj({{"knockoutHeads", ""}, {"knockoutKeys", "1"}}));
  REQUIRE_MESSAGE(r.ok, r.message);
  c = app::CurrentModelComparison(s);
  REQUIRE(c != nullptr);
  const attn::MatF& alpha = s.attention.model_result.acts.blocks[1].attn.heads[4].weights;  // (T, T)
  const attn::MatD& d = c->d_weights[static_cast<std::size_t>(1 * heads + 4)];
  for (int i = 2; i < alpha.rows(); ++i) CHECK(d(i, 1) == -static_cast<double>(alpha(i, 1)));
  for (int h = 0; h < heads; ++h)
    if (h != 4) CHECK(c->d_weights[static_cast<std::size_t>(1 * heads + h)].cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("model what-if: bad edits are refused in the one wording") {
  app::AppState s;
  Loaded(s, "я люблю суши");
  const attn::api::LabState before = s.lab;
  auto r = app::ApplyPatch(s, attn::api::Obj({{"knockoutKeys", "99"}}));
  CHECK_FALSE(r.ok);
  CHECK(r.field == "knockoutKeys");
  CHECK(r.message.rfind("knockoutKeys: expected model token indices from 0 to ", 0) == 0);
  r = app::ApplyPatch(s, attn::api::Obj({{"knockoutHeads", "9:0"}}));
  CHECK_FALSE(r.ok);
  CHECK(r.field == "knockoutHeads");
  r = app::ApplyPatch(s, attn::api::Obj({{"whatIfToken", 1}, {"whatIfWith", "x"}, {"knockoutHeads", "0:0"}}));
  CHECK_FALSE(r.ok);
  CHECK(r.field == "whatIfToken");
  r = app::ApplyPatch(s, attn::api::Obj({{"shuffle", "reverse"}}));
  CHECK_FALSE(r.ok);
  CHECK(r.field == "shuffle");
  CHECK(s.lab.config.sentence == before.config.sentence);
  CHECK(s.lab.config.knockout_keys.empty());
  CHECK(app::CurrentModelComparison(s) == nullptr);
}

}  // TEST_SUITE

TEST_SUITE("app") {

TEST_CASE("model mode: a change that names no head keeps the chosen head (the lab's `heads` is not the model's)") {
  app::AppState s;
  Loaded(s, "я люблю суши");  // layer 1, head 4 chosen before the sentence changed
  CHECK(s.lab.config.layer == 1);
  CHECK(s.lab.config.head == 4);
  const auto r = app::ApplyPatch(s, attn::api::Obj({{"lang", "ru"}}));
  REQUIRE(r.ok);
  CHECK(s.lab.config.head == 4);
}

}  // TEST_SUITE

TEST_SUITE("app") {

TEST_CASE("model what-if: the Δα export is the chosen head's, the edited word's pieces left empty") {
  app::AppState s;
  Loaded(s, "я люблю суши");
  std::string why;
  CHECK(app::WhatIfCsv(s, &why).empty());  // no edit yet
  CHECK(why.rfind("what: expected a picture the lab draws now, got \"whatif\" (the run has no edit", 0) == 0);
  // a knock-out of key 1 in layer 1, head 4: that head's column 1 is -α there, the CSV says so
  REQUIRE(app::ApplyPatch(s, attn::api::Obj({{"knockoutKeys", "1"}})).ok);
  const attn::model::ModelComparison* c = app::CurrentModelComparison(s);
  REQUIRE(c != nullptr);
  const int heads = s.attention.model_result.config.heads;
  const attn::MatD& d = c->d_weights[static_cast<std::size_t>(1 * heads + 4)];
  why.clear();
  const std::string csv = app::WhatIfCsv(s, &why);
  CHECK(why.empty());
  CHECK(csv.find("Δα (layer 1, head 4): query \\ key") != std::string::npos);
  const int n = static_cast<int>(s.attention.model_result.texts.size());
  // the last row: the last token's Δα over every key, written as the trace writes numbers
  std::string last_row;
  for (int j = 0; j < n; ++j) last_row += "," + Json(d(n - 1, j)).dump();
  CHECK(csv.find(last_row + "\r\n") != std::string::npos);
  CHECK(d(n - 1, 1) < 0);  // the knocked-out key lost its weight
  const std::string svg = app::WhatIfSvg(s, &why);
  CHECK(svg.find("url(#diverging)") != std::string::npos);
  CHECK(svg.find("layer 1, head 4. Δα") != std::string::npos);
  // a word edit: the rows and columns of «суши»'s pieces have no counterpart, left empty
  REQUIRE(app::ApplyPatch(s, attn::api::Obj({{"knockoutKeys", ""}, {"whatIfToken", 2}, {"whatIfWith", "рис"}})).ok);
  const std::string edited = app::WhatIfCsv(s, &why);
  REQUIRE_FALSE(edited.empty());
  const std::string last_piece = s.attention.model_result.texts.back();
  CHECK(edited.find("\r\n" + last_piece + std::string(static_cast<std::size_t>(n), ',') + "\r\n") != std::string::npos);
  // and the file itself through the export request, as the page asks for it
  const app::ExportFile f = app::ExportText(s, {"whatif", "csv"});
  CHECK(f.error.empty());
  CHECK(f.bytes == edited);
}

}  // TEST_SUITE

TEST_SUITE("app") {

TEST_CASE("model mode: each key's effect on the next token is two model runs' difference, one key per frame") {
  app::AppState s;
  Loaded(s, "I love sushi");
  CHECK(app::ModelKeyEffectsJson(s).is_null());  // nothing asked for yet
  app::WantModelKeyEffects(s);
  const int n = static_cast<int>(s.attention.model_result.ids.size());
  CHECK(app::ModelKeyEffectsRunning(s));
  CHECK(app::NeedsFrames(s));
  app::Tick(s);  // at least one key per frame
  const int after_one = static_cast<int>(s.model.effects.value.delta.size());
  CHECK(after_one >= 1);
  CHECK(after_one <= n);
  app::FinishModelKeyEffects(s);
  CHECK_FALSE(app::ModelKeyEffectsRunning(s));
  const attn::model::NextTokenEffects& e = s.model.effects.value;
  REQUIRE(static_cast<int>(e.delta.size()) == n);
  // the same as `attnlab model contributions` (model::KeyNextTokenEffects)
  attn::model::NextTokenEffects all;
  REQUIRE(attn::model::KeyNextTokenEffects(*s.model.loaded, s.lab.config, s.attention.model_result, &all));
  CHECK(all.delta == e.delta);
  CHECK(all.logp == e.logp);
  // and each key's run is the what-if's knock-out of that key: the edited run's probability of
  // the same next token, wherever it is in its top 5
  const int next_id = e.next_id;
  const attn::model::NextTokenEffects kept = e;
  int compared = 0;
  for (int i = 0; i < n; ++i) {
    REQUIRE(app::ApplyPatch(s, attn::api::Obj({{"knockoutKeys", std::to_string(i)}})).ok);
    const attn::model::ModelComparison* c = app::CurrentModelComparison(s);
    REQUIRE(c != nullptr);
    for (const auto& t : c->next_edited)
      if (t.id == next_id) {
        CAPTURE(i);
        CHECK(std::log(static_cast<double>(t.p)) == kept.logp_without[static_cast<std::size_t>(i)]);
        ++compared;
      }
  }
  CHECK(compared >= n - 1);
  // the trace carries it while it is current; another head starts again
  REQUIRE(app::ApplyPatch(s, app::NoEditsPatch()).ok);
  const Json j = app::ModelKeyEffectsJson(s);
  REQUIRE(j.is_object());
  CHECK(j["done"] == n);
  CHECK(j["delta"].get<std::vector<double>>() == kept.delta);
  REQUIRE(app::ApplyPatch(s, attn::api::Obj({{"head", 0}})).ok);
  CHECK(app::ModelKeyEffectsJson(s).is_null());
}

}  // TEST_SUITE
