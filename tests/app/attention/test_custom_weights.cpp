// Dragging the information panel's weights (app::SetCustomWeight) stays in the set the
// normalizer's weights live in, and never gives weight to a key the query cannot see.
#include "app/app.h"

#include <doctest/doctest.h>

#include <cmath>

namespace {

attn::api::Json Patch(const char* text) { return attn::api::Json::parse(text); }

}  // namespace

TEST_SUITE("app") {

TEST_CASE("dragging under a causal mask keeps the masked weights at 0 and the visible ones on the simplex") {
  app::AppState s;
  app::InitApp(s);
  REQUIRE(app::ApplyPatch(s, Patch(R"({"sentence": "я очень люблю суши и чай", "query": 2, "causal": true, "dV": 2})")).ok);
  app::SetCustomWeight(s, 4, 0.7);  // «и»: masked for «люблю»
  if (s.attention.custom.active) {
    for (int i = 3; i < 6; ++i) CHECK_MESSAGE(s.attention.custom.alpha(i) == 0.0, "key ", i);
  }
  app::SetCustomWeight(s, 0, 0.6);  // «я»: visible
  REQUIRE(s.attention.custom.active);
  CHECK(s.attention.custom.alpha(0) == doctest::Approx(0.6));
  for (int i = 3; i < 6; ++i) CHECK_MESSAGE(s.attention.custom.alpha(i) == 0.0, "key ", i);
  CHECK(s.attention.custom.alpha.sum() == doctest::Approx(1.0));
  for (int i = 3; i < 6; ++i) {
    CHECK(s.attention.custom.info.collision.alpha2(i) == 0.0);
    CHECK(s.attention.custom.info.ranges(i, 1) == 0.0);
  }
}

TEST_CASE("dragging a sigmoid weight moves that weight alone (the weights need not sum to 1)") {
  app::AppState s;
  app::InitApp(s);
  REQUIRE(app::ApplyPatch(s, Patch(R"({"normalizer": "sigmoid"})")).ok);
  const attn::VecD before = s.attention.result.trace.weights.row(s.attention.result.steps.query).transpose().cast<double>();
  app::SetCustomWeight(s, 0, 0.9);
  REQUIRE(s.attention.custom.active);
  CHECK(s.attention.custom.alpha(0) == doctest::Approx(0.9));
  for (int i = 1; i < before.size(); ++i) CHECK(s.attention.custom.alpha(i) == doctest::Approx(before(i)));
}

}  // TEST_SUITE
