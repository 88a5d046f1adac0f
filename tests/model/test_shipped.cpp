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

#include "model/bundle.h"
#include "model/corpus.h"
#include "model/evaluate.h"

using namespace attn::model;

namespace {

// A folder of the run's configuration: absolute as written, or relative to the repository.
std::string Folder(const nlohmann::json& run, const char* key) {
  const std::string f = run.value(key, std::string());
  return f.empty() || f[0] == '/' ? f : std::string(ATTNLAB_SOURCE_DIR) + "/" + f;
}

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
  const auto run = nlohmann::json::parse(b.config_json)["run"];
  std::vector<SourceFile> files;
  REQUIRE_MESSAGE(ReadFortuneFolder(Folder(run, "enFolder"), Lang::kEn, &files, &error), error);
  REQUIRE_MESSAGE(ReadFortuneFolder(Folder(run, "ruFolder"), Lang::kRu, &files, &error), error);
  for (const auto& [key, lang] : {std::pair{"enDocs", Lang::kEn}, std::pair{"ruDocs", Lang::kRu}}) {
    const std::string folder = Folder(run, key);
    if (folder.empty()) continue;
    REQUIRE_MESSAGE(ReadDocumentFolder(folder, lang, &files, &error), error << " (scripts/corpus.sh)");
  }
  const Corpus corpus = BuildCorpus(std::move(files));
  struct Row {
    const char* name;
    Lang lang;
    bool fortunes_only;
  };
  int rows = 0;
  for (const Row& row : {Row{"en", Lang::kEn, false}, Row{"ru", Lang::kRu, false}, Row{"fortunesEn", Lang::kEn, true},
                         Row{"fortunesRu", Lang::kRu, true}}) {
    if (!eval.contains(row.name)) continue;
    ++rows;
    CAPTURE(row.name);
    TokenStream s;
    REQUIRE(EncodeEntries(b.bpe, corpus.validation, row.lang, false, &s, &error,
                          row.fortunes_only ? std::optional<Source>(Source::kFortunes) : std::nullopt));
    if (!row.fortunes_only && !ManualsPinned()) {
      MESSAGE(row.name << ": skipped, the manuals on this machine are not the versions the model was scored on");
      continue;
    }
    CHECK(s.entries == eval[row.name]["entries"].get<int>());
    Score check;
    REQUIRE_MESSAGE(ScoreModel(b.params, b.config, s, 2, &check, &error, eval["checkTargets"].get<int>()), error);
    CHECK(std::stod(eval[row.name]["checkNats"].get<std::string>()) == check.nats);
    // The model beats the bigram by at least 10% on the whole of each row (recorded).
    CHECK(eval[row.name]["vsBigram"].get<double>() >= 0.10);
  }
  CHECK(rows >= 2);  // both languages (and the fortunes alone when the run read the manuals)
}

}  // TEST_SUITE("long")
