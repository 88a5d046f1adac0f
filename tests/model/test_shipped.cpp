// The shipped model (web/model, written by scripts/train_model.sh): every file loads through
// the checks, and scoring the first validation targets of each language gives exactly the
// number recorded in eval.json when the files were written (checkNats, every bit).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "model/bundle.h"
#include "model/corpus.h"
#include "model/evaluate.h"

using namespace attn::model;

TEST_CASE("shipped model: loads and reproduces its recorded validation loss exactly") {
  const std::string dir = std::string(ATTNLAB_SOURCE_DIR) + "/web/model";
  Bundle b;
  std::string error;
  REQUIRE_MESSAGE(LoadBundle(dir, &b, &error), error);
  const auto eval = nlohmann::json::parse(b.eval_json);
  const auto config = nlohmann::json::parse(b.config_json);
  std::vector<SourceFile> files;
  REQUIRE_MESSAGE(ReadFortuneFolder(config["run"]["enFolder"].get<std::string>(), Lang::kEn, &files, &error), error);
  REQUIRE_MESSAGE(ReadFortuneFolder(config["run"]["ruFolder"].get<std::string>(), Lang::kRu, &files, &error), error);
  const Corpus corpus = BuildCorpus(std::move(files));
  for (const Lang lang : {Lang::kEn, Lang::kRu}) {
    const std::string name = LangName(lang);
    TokenStream s;
    REQUIRE(EncodeEntries(b.bpe, corpus.validation, lang, false, &s, &error));
    CHECK(s.entries == eval[name]["entries"].get<int>());
    Score check;
    REQUIRE_MESSAGE(ScoreModel(b.params, b.config, s, 2, &check, &error, eval["checkTargets"].get<int>()), error);
    CAPTURE(name);
    CHECK(std::stod(eval[name]["checkNats"].get<std::string>()) == check.nats);
    // And the model beats the bigram by at least 10% on the whole validation text (recorded).
    CHECK(eval[name]["vsBigram"].get<double>() >= 0.10);
  }
}
