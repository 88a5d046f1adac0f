// The shipped model (web/model, written by scripts/train_model.sh): every file loads through
// the checks, and scoring the first validation targets of each row gives exactly the number
// recorded in eval.json when the files were written (checkNats, every bit). The text comes from
// Debian's packages: the fortunes (scripts/setup.sh) and the manuals (scripts/corpus.sh).
// Release build only (suite "long"): under the sanitizers `scripts/test.sh` runs the shipped
// model through `attnlab model run` and compares its bytes with the release build's.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "model/format/bundle.h"
#include "model/corpus/corpus.h"
#include "model/corpus/evaluate.h"
#include "model/corpus/validation.h"

using namespace attn::model;

namespace {

// scripts/corpus.sh's stamp says "unpinned" when Debian's mirror no longer had a version of the
// manuals the model was scored on: their text may differ, so their rows' exact scores are skipped.
bool ManualsPinned() {
  std::ifstream f(std::string(ATTNLAB_SOURCE_DIR) + "/.deps/corpus/stamp");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str().find("\nunpinned") == std::string::npos;
}

}  // namespace

TEST_SUITE("long") {
TEST_CASE("shipped model: loads and reproduces its recorded validation loss exactly on every row") {
  const std::string dir = std::string(ATTNLAB_SOURCE_DIR) + "/web/model";
  Bundle b;
  std::string error;
  REQUIRE_MESSAGE(LoadBundle(dir, &b, &error), error);
  const auto eval = nlohmann::json::parse(b.eval_json);
  Validation v;  // the run's text, rebuilt and split as training did (model/corpus/validation.h)
  REQUIRE_MESSAGE(LoadValidation(b, dir, &v, &error), error);
  struct Row {
    const char* name;
    const TokenStream* stream;
    bool fortunes_only;
  };
  int rows = 0;
  for (const Row& row : {Row{"en", &v.en, false}, Row{"ru", &v.ru, false}, Row{"fortunesEn", &v.fortunes_en, true},
                         Row{"fortunesRu", &v.fortunes_ru, true}}) {
    if (!eval.contains(row.name)) continue;
    ++rows;
    CAPTURE(row.name);
    const TokenStream& s = *row.stream;
    if (!row.fortunes_only && !ManualsPinned()) {
      MESSAGE(row.name << ": skipped, the manuals on this machine are not the versions the model was scored on");
      continue;
    }
    CHECK(s.entries == eval[row.name]["entries"].get<int>());
    Score check;
    REQUIRE_MESSAGE(ScoreModel(b.params, b.config, s, 2, &check, &error, eval["checkTargets"].get<int>()), error);
    CHECK(std::stod(eval[row.name]["checkNats"].get<std::string>()) == check.nats);
    // The model beats the bigram (recorded): by 30 % on all the validation text of each
    // language (issue 21's aim; this model 33.5 / 37.7 %), by a fifth on the fortunes alone
    // (this model 21.9 / 23.1 %: the quarter issue 21 asks for is not reached there, docs/model.md;
    // the 9000-step model before it, 19.5 / 19.2 %, would fail here).
    CHECK(eval[row.name]["vsBigram"].get<double>() >= (row.fortunes_only ? 0.20 : 0.30));
  }
  CHECK(rows == 4);  // both languages, all the text and the fortunes alone
}

TEST_CASE("shipped model: heads.json names a previous-token head and an induction head") {
  const std::string dir = std::string(ATTNLAB_SOURCE_DIR) + "/web/model";
  Bundle b;
  std::string error;
  REQUIRE_MESSAGE(LoadBundle(dir, &b, &error), error);
  REQUIRE_MESSAGE(!b.heads_json.empty(), "web/model has no heads.json");
  const auto report = nlohmann::json::parse(b.heads_json);
  const auto& heads = report["heads"];
  REQUIRE(static_cast<int>(heads.size()) == b.config.layers * b.config.heads);
  double previous = 0, induction = 0;
  for (const auto& h : heads) {
    previous = std::max(previous, h["previous"].get<double>());
    induction = std::max(induction, h["induction"].get<double>());
  }
  CHECK(previous > 0.5);
  CHECK(induction >= 0.3);  // issue 21: at least one induction head (this model: 2.1 0.56, 2.3 0.44)
  // and the second copy of a repeated random sequence is predicted clearly better than the first
  CHECK(report["lossSecondCopy"].get<double>() < 0.8 * report["lossFirstCopy"].get<double>());
}

TEST_CASE("shipped model: the seed lesson's model states show the heads it names") {
  // The lesson (web/lessons/seed.json) shows the shipped model's induction head by its place:
  // a new model must come with the lesson pointed at its own induction head.
  const std::string dir = std::string(ATTNLAB_SOURCE_DIR) + "/web/model";
  Bundle b;
  std::string error;
  REQUIRE_MESSAGE(LoadBundle(dir, &b, &error), error);
  const auto heads = nlohmann::json::parse(b.heads_json)["heads"];
  std::ifstream f(std::string(ATTNLAB_SOURCE_DIR) + "/web/lessons/seed.json");
  const auto lesson = nlohmann::json::parse(f);
  int shown = 0;
  for (const auto& step : lesson["steps"]) {
    if (!step.contains("extra")) continue;
    const auto& st = step["extra"]["state"];
    if (st.value("projection", "") != "model" || !st.contains("layer")) continue;
    const int layer = st["layer"].get<int>(), head = st["head"].get<int>();
    CAPTURE(layer);
    CAPTURE(head);
    REQUIRE(layer < b.config.layers);
    REQUIRE(head < b.config.heads);
    const auto& h = heads[static_cast<std::size_t>(layer * b.config.heads + head)];
    CHECK(h["layer"].get<int>() == layer);
    CHECK(h["head"].get<int>() == head);
    CHECK(h["induction"].get<double>() >= 0.3);  // the step's label calls it the induction head
    ++shown;
  }
  CHECK(shown == 1);
}

}  // TEST_SUITE("long")
