// Issue 40's tools against an independent float64 PyTorch reference (scripts/inspect_reference.py
// wrote tests/model/inspect_reference.json from the same checkpoints: the lab's own model, two
// GPT-2-family and four Llama-family fixtures): the logit lens's probabilities, direct logit
// attribution's parts and per-key parts, and activation patching's logit differences and
// normalized metric, every number within 1e-4 (the metric where the clean and corrupted logit
// differences are at least 0.1 apart: it divides by that gap).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "checkpoint_reference.h"
#include "quick.h"
#include "model/format/hf_checkpoint.h"
#include "model/inspect/attribution.h"
#include "model/inspect/lens.h"
#include "model/inspect/patching.h"
#include "shipped_lab_model.h"

using namespace attn;
using namespace attn::model;
using Json = nlohmann::json;

namespace {

const Json& InspectReference() {
  static const Json j = Json::parse(checkpoint_reference::ReadText(std::string(ATTNLAB_SOURCE_DIR) + "/tests/model/inspect_reference.json"));
  return j;
}

struct Worst {
  double err = 0;
  std::string where;
  void Add(double e, const std::string& w) {
    if (e > err) {
      err = e;
      where = w;
    }
  }
};

// Every tool on one model against its entry of the reference; the worst errors reported.
void CompareModel(const std::string& name, const Params<float>& p, const ModelConfig& c) {
  const Json& m = InspectReference()["models"][name];
  REQUIRE_MESSAGE(!m.is_null(), name << " is not in inspect_reference.json");
  Worst lens_err, dla_err, key_err, ld_err, metric_err;
  int id_mismatches = 0;
  for (const Json& pr : m["prompts"]) {
    const std::vector<int> ids = pr["ids"].get<std::vector<int>>();
    const std::string where = name + " \"" + pr["text"].get<std::string>() + "\"";
    Sequence s;
    s.tokens = ids;
    s.targets.assign(ids.size(), -1);
    SequenceActs<float> acts;
    std::string error;
    REQUIRE_MESSAGE(Forward(acts, p, c, s, &error, true), error);
    // the lens, the columns' own targets and a chosen one
    const Json& lj = pr["lens"];
    LogitLens own, chosen;
    REQUIRE_MESSAGE(ComputeLogitLens(p, c, acts, -1, &own, &error), error);
    REQUIRE_MESSAGE(ComputeLogitLens(p, c, acts, lj["chosen_target"].get<int>(), &chosen, &error), error);
    CHECK(own.targets == lj["default_target"].get<std::vector<int>>());
    for (int k = 0; k < own.rows; ++k) {
      for (int t = 0; t < own.positions; ++t) {
        const std::string at = where + " lens (" + std::to_string(k) + ", " + std::to_string(t) + ")";
        id_mismatches += own.At(k, t).top.id != lj["top1_id"][k][t].get<int>();
        lens_err.Add(std::abs(own.At(k, t).top.p - lj["top1_prob"][k][t].get<double>()), at + " top-1 p");
        lens_err.Add(std::abs(own.At(k, t).target_p - lj["default_target_prob"][k][t].get<double>()), at + " target p");
        lens_err.Add(std::abs(chosen.At(k, t).target_p - lj["chosen_target_prob"][k][t].get<double>()), at + " chosen p");
      }
      for (int i = 0; i < 5; ++i)
        lens_err.Add(std::abs(own.last_top5[static_cast<std::size_t>(k)][static_cast<std::size_t>(i)].p - lj["last_top5_probs"][k][i].get<double>()),
                     where + " lens top 5 at the last position");
    }
    // attribution, of the logit and of the difference with the foil; parts matched by name
    // (a part the model lacks -- the lab's own model has no b_O -- is 0)
    const Json& aj = pr["attribution"];
    for (const bool diff : {false, true}) {
      Attribution a;
      REQUIRE_MESSAGE(ComputeAttribution(p, c, ids, acts, aj["target"].get<int>(), diff ? aj["foil"].get<int>() : -1, &a, &error), error);
      const double logit = aj[diff ? "logit_diff" : "logit_target"].get<double>();
      dla_err.Add(std::abs(a.logit - logit) / std::fmax(1.0, std::abs(logit)), where + " the logit itself");
      dla_err.Add(std::abs(a.sum - logit) / std::fmax(1.0, std::abs(logit)), where + " the parts' sum");
      const Json& names = aj["part_names"];
      for (std::size_t i = 0; i < names.size(); ++i) {
        const int layer = aj["part_layers"][i].get<int>(), head = aj["part_heads"][i].get<int>();
        double mine = 0;
        for (const AttributionPart& q : a.parts)
          if (names[i] == q.Name() && q.layer == layer && q.head == head) mine = q.value;
        const double want = aj[diff ? "parts_diff" : "parts_target"][i].get<double>();
        dla_err.Add(std::abs(mine - want), where + " part " + names[i].get<std::string>() + " " + std::to_string(layer) + "." + std::to_string(head));
      }
      for (const HeadSources& h : a.heads) {
        for (std::size_t j = 0; j < h.attribution.size(); ++j) {
          const std::string at = where + " head " + std::to_string(h.layer) + "." + std::to_string(h.head) + " key " + std::to_string(j);
          key_err.Add(std::abs(h.attribution[j] - aj[diff ? "per_key_diff" : "per_key_target"][h.layer][h.head][j].get<double>()), at + " attribution");
          key_err.Add(std::abs(h.weight[j] - aj["alpha"][h.layer][h.head][j].get<double>()), at + " weight");
          key_err.Add(std::abs(h.contribution[j] - aj["contribution_norm"][h.layer][h.head][j].get<double>()), at + " contribution");
        }
      }
    }
  }
  // patching: every kind, the logit differences and (a gap of 0.1 or more) the metric
  // (under the sanitizers, quick.h: the first pair, and the residual stream and the heads only)
  const bool quick = testing_quick::Quick();
  for (const Json& pj : m["patching"]) {
    if (quick && &pj != &m["patching"][0]) break;
    const std::string where = name + " " + pj["name"].get<std::string>();
    const double gap = pj["ld_clean"].get<double>() - pj["ld_corrupted"].get<double>();
    for (const char* what : {"resid", "head", "attn", "mlp", "pattern"}) {
      if (quick && std::string(what) != "resid" && std::string(what) != "head") continue;
      PatchSpec spec;
      spec.clean = pj["clean_ids"].get<std::vector<int>>();
      spec.corrupted = pj["corrupted_ids"].get<std::vector<int>>();
      spec.target = pj["target"].get<int>();
      spec.foil = pj["foil"].get<int>();
      REQUIRE(ParsePatchWhat(what, &spec.what));
      PatchRun run;
      std::string error;
      REQUIRE_MESSAGE(run.Start(p, c, spec, &error), error);
      ld_err.Add(std::abs(run.ld_clean() - pj["ld_clean"].get<double>()), where + " LD clean");
      ld_err.Add(std::abs(run.ld_corrupted() - pj["ld_corrupted"].get<double>()), where + " LD corrupted");
      while (!run.done()) REQUIRE_MESSAGE(run.Step(8, &error), error);
      const Json& grid = pj[what];
      for (int r = 0; r < run.rows(); ++r) {
        for (int col = 0; col < run.cols(); ++col) {
          const double mine = run.metric()[static_cast<std::size_t>(r * run.cols() + col)];
          const double ld = mine * (run.ld_clean() - run.ld_corrupted()) + run.ld_corrupted();
          const std::string at = where + " " + what + " (" + std::to_string(r) + ", " + std::to_string(col) + ")";
          ld_err.Add(std::abs(ld - pj[std::string(what) + "_ld"][r][col].get<double>()), at + " LD");
          if (std::abs(gap) >= 0.1) metric_err.Add(std::abs(mine - grid[r][col].get<double>()), at + " metric");
        }
      }
    }
  }
  MESSAGE(name << ": lens " << lens_err.err << " (" << lens_err.where << "; top-1 ids differing: " << id_mismatches
               << "), attribution parts " << dla_err.err << " (" << dla_err.where << "), per key " << key_err.err << " ("
               << key_err.where << "), patching LD " << ld_err.err << " (" << ld_err.where << "), metric " << metric_err.err
               << " (" << metric_err.where << ")");
  CHECK_MESSAGE(lens_err.err <= 1e-4, lens_err.where);
  CHECK(id_mismatches == 0);
  CHECK_MESSAGE(dla_err.err <= 1e-4, dla_err.where);
  CHECK_MESSAGE(key_err.err <= 1e-4, key_err.where);
  CHECK_MESSAGE(ld_err.err <= 1e-4, ld_err.where);
  CHECK_MESSAGE(metric_err.err <= 1e-4, metric_err.where);
}

void CompareFolder(const std::string& dir, const std::string& name) {
  HfCheckpoint ck;
  std::string error;
  REQUIRE_MESSAGE(ReadHfFolder(dir + "/" + name, &ck, &error), error);
  CompareModel(name, ck.params, ck.config);
}

}  // namespace

TEST_CASE("inspect: the lens, attribution and patching on the lab's own model equal PyTorch's within 1e-4") {
  CompareModel("ours", testing_model::Shipped().params, testing_model::Shipped().config());
}

TEST_SUITE("gpt2") {
TEST_CASE("inspect: the lens, attribution and patching on GPT-2-family checkpoints equal PyTorch's within 1e-4") {
  const std::string dir = checkpoint_reference::FixtureFolder("ATTNLAB_GPT2_FIXTURES", "/usr/bin/python3 scripts/gpt2_fixture.py --out DIR");
  for (const char* name : {"f32-small3", "f16-vocab"}) CompareFolder(dir, name);
}
}  // TEST_SUITE

TEST_SUITE("llama") {
TEST_CASE("inspect: the lens, attribution and patching on Llama-family checkpoints equal PyTorch's within 1e-4") {
  const std::string dir = checkpoint_reference::FixtureFolder("ATTNLAB_LLAMA_FIXTURES", "/usr/bin/python3 scripts/llama_fixture.py --out DIR");
  for (const char* name : {"qwen3", "llama-mqa", "mistral", "llama-attention-bias"}) CompareFolder(dir, name);
}
}  // TEST_SUITE
