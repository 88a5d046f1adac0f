// The what-if room without a window: the comparison follows the state (none without edits), equals
// the engine's CompareLab for the same settings, keeps the plain run while only the edits change,
// is in getTrace() only for an edited run, and a refused edit keeps everything as it was.
#include "app/app.h"

#include "api/whatif_json.h"
#include "app/exports/figure_export.h"

#include <doctest/doctest.h>

namespace {
using attn::api::Json;
}  // namespace

TEST_SUITE("app") {

TEST_CASE("no edits: no comparison, and getTrace() has none") {
  app::AppState s;
  app::InitApp(s);
  CHECK(app::CurrentComparison(s) == nullptr);
  CHECK_FALSE(Json::parse(app::TraceJson(s)).contains("comparison"));
  CHECK(app::TypedTokens(s).size() == 3);
}

TEST_CASE("a what-if: the room's comparison is CompareLab's, bit for bit, and in getTrace()") {
  app::AppState s;
  app::InitApp(s);
  for (const Json& patch : {Json{{"whatIfToken", 2}, {"whatIfWith", "рис"}},
                            Json{{"whatIfToken", 0}, {"whatIfWith", ""}},
                            Json{{"whatIfToken", 1}, {"whatIfWith", "очень"}, {"whatIfMode", "insert"}},
                            Json{{"shuffle", "reverse"}, {"positional", false}},
                            Json{{"knockoutKeys", "2"}},
                            Json{{"valueToken", 2}, {"valueA", 0.5}, {"valueB", -0.25}},
                            Json{{"projection", "random"}, {"heads", 2}, {"knockoutHeads", "0:1"}}}) {
    CAPTURE(patch.dump());
    REQUIRE(app::ApplyPatch(s, app::NoEditsPatch()).ok);
    REQUIRE(app::ApplyPatch(s, patch).ok);
    const attn::LabComparison* c = app::CurrentComparison(s);
    REQUIRE(c != nullptr);
    const attn::LabComparison expected = attn::CompareLab(s.lab.config);
    REQUIRE(expected.error.ok());
    CHECK(attn::api::ComparisonToJson(*c) == attn::api::ComparisonToJson(expected));
    const Json trace = Json::parse(app::TraceJson(s));
    REQUIRE(trace.contains("comparison"));
    CHECK(trace["comparison"] == Json::parse(attn::api::Dump(attn::api::ComparisonToJson(expected))));
    CHECK(app::TypedTokens(s).size() == 3);  // the sentence as typed, whatever the run's tokens
  }
}

TEST_CASE("a dragged value keeps the plain run; a new sentence computes it again") {
  app::AppState s;
  app::InitApp(s);
  REQUIRE(app::ApplyPatch(s, {{"valueToken", 0}, {"valueA", 0.1}, {"valueB", 0.0}}).ok);
  const std::string plain_key = s.whatif.plain_key;
  const std::string key = s.whatif.key;
  REQUIRE_FALSE(key.empty());
  REQUIRE(app::ApplyPatch(s, {{"valueA", 0.2}}).ok);
  CHECK(s.whatif.plain_key == plain_key);
  CHECK(s.whatif.key != key);
  REQUIRE(app::ApplyPatch(s, {{"sentence", "мы любим кофе"}, {"valueToken", 0}, {"valueA", 0.2}}).ok);
  CHECK(s.whatif.plain_key != plain_key);
  REQUIRE(app::CurrentComparison(s) != nullptr);
  CHECK(app::CurrentComparison(s)->plain.tokens[2].text == "кофе");
}

TEST_CASE("a refused edit keeps the state, the result and the comparison; undoing every edit clears it") {
  app::AppState s;
  app::InitApp(s);
  REQUIRE(app::ApplyPatch(s, {{"whatIfToken", 2}, {"whatIfWith", "рис"}}).ok);
  const std::string before = app::TraceJson(s);
  for (const Json& bad : {Json{{"whatIfToken", 7}}, Json{{"whatIfWith", "два слова"}},
                          Json{{"whatIfToken", 1}, {"whatIfWith", ""}, {"whatIfMode", "insert"}},
                          Json{{"knockoutKeys", "0,9"}}, Json{{"valueToken", 3}}}) {
    CAPTURE(bad.dump());
    const attn::api::PatchResult r = app::ApplyPatch(s, bad);
    CHECK_FALSE(r.ok);
    CHECK(r.engine_error.code == attn::ConfigError::kEditInvalid);
    CHECK(r.message.rfind(r.field + ": expected ", 0) == 0);
    CHECK(app::TraceJson(s) == before);
  }
  REQUIRE(app::ApplyPatch(s, app::NoEditsPatch()).ok);
  CHECK(app::CurrentComparison(s) == nullptr);
}

TEST_CASE("model mode takes no edits: no comparison") {
  app::AppState s;
  app::InitApp(s);
  REQUIRE(app::ApplyPatch(s, {{"projection", "model"}}).ok);  // the files are not there: not computed
  CHECK(app::CurrentComparison(s) == nullptr);
}

}  // TEST_SUITE

TEST_SUITE("app") {

TEST_CASE("the Δα export: refused without an edit, the CSV's numbers are the comparison's") {
  app::AppState s;
  app::InitApp(s);
  std::string why;
  CHECK(app::WhatIfCsv(s, &why).empty());
  CHECK(why.rfind("what: expected a picture the lab draws now, got \"whatif\"", 0) == 0);
  REQUIRE(app::ApplyPatch(s, {{"whatIfToken", 2}, {"whatIfWith", "рис"}}).ok);
  why.clear();
  const std::string csv = app::WhatIfCsv(s, &why);
  CHECK(why.empty());
  const attn::LabComparison* c = app::CurrentComparison(s);
  REQUIRE(c != nullptr);
  CHECK(csv.find(Json(c->d_weights[0](1, 2)).dump()) != std::string::npos);
  const std::string svg = app::WhatIfSvg(s, &why);
  CHECK(svg.find("url(#diverging)") != std::string::npos);
}

}  // TEST_SUITE
