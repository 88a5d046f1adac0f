// Issue 23's settings in the state, the link and the trace: the edit fields round-trip, are
// refused in the one wording, are dropped with a new sentence, and the trace says what was edited.
#include "api/state_json.h"
#include "api/url_state.h"
#include "api/whatif_json.h"

#include <doctest/doctest.h>

#include <string>

using attn::api::ApplyLink;
using attn::api::ApplyStatePatch;
using attn::api::ApplyStatePatchText;
using attn::api::Json;
using attn::api::LabState;
using attn::api::WriteLink;

TEST_CASE("edit fields: state JSON and link round trips") {
  auto r = ApplyStatePatch(LabState{}, Json{{"sentence", "the cat sat & the dog"},
                                            {"whatIfToken", 2},
                                            {"whatIfWith", "ran"},
                                            {"whatIfMode", "insert"},
                                            {"shuffle", "seeded"},
                                            {"shuffleSeed", 4294967295.0},
                                            {"knockoutKeys", "0, 4"},
                                            {"knockoutHeads", "0:0"},
                                            {"valueToken", 5},
                                            {"valueA", 0.30000000000000004},
                                            {"valueB", -2}});
  REQUIRE(r.ok);
  const Json j = attn::api::StateToJson(r.state);
  CHECK(j["whatIfToken"] == 2);
  CHECK(j["whatIfWith"] == "ran");
  CHECK(j["whatIfMode"] == "insert");
  CHECK(j["shuffle"] == "seeded");
  CHECK(j["knockoutKeys"] == "0, 4");
  CHECK(j["valueA"] == 0.30000000000000004);
  const std::string hash = WriteLink(r.state, attn::api::TrainState{});
  CAPTURE(hash);
  const auto back = ApplyLink(LabState{}, hash);
  CHECK(back.errors.empty());
  CHECK(attn::api::StateToJson(back.state) == j);
  // at their defaults the edits stay out of links
  const std::string plain = WriteLink(LabState{}, attn::api::TrainState{});
  CAPTURE(plain);
  CHECK(plain.find("whatIf") == std::string::npos);
  CHECK(plain.find("knockout") == std::string::npos);
  CHECK(plain.find("value") == std::string::npos);
}

TEST_CASE("edit fields: refusals read '<field>: expected <what>, got <what came>'") {
  struct Case { const char* json; const char* message; };
  const Case cases[] = {
      {R"({"whatIfToken": 3})", "whatIfToken: expected -1 (none) or a token index from 0 to 2, got 3"},
      {R"({"whatIfToken": "2"})", "whatIfToken: expected an integer from -1 to 63, got \"2\""},
      {R"({"whatIfMode": "swap"})", "whatIfMode: expected one of \"replace\", \"insert\", got \"swap\""},
      {R"({"knockoutKeys": "7"})", "knockoutKeys: expected token indices from 0 to 2, separated by commas, got \"7\""},
      {R"({"knockoutKeys": [1]})", "knockoutKeys: expected a string, got an array"},
      {R"({"valueA": null})", "valueA: expected a number from -100 to 100, got null"},
      {R"({"valueToken": 0, "valueB": 1000})", "valueB: expected a number from -100 to 100, got 1000"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.json);
    const auto r = ApplyStatePatchText(LabState{}, c.json);
    CHECK_FALSE(r.ok);
    CHECK(r.message == c.message);
  }
}

TEST_CASE("edit fields: a new sentence drops the edits that name its tokens; model mode drops all") {
  auto r = ApplyStatePatch(LabState{}, Json{{"whatIfToken", 2}, {"whatIfWith", "рис"}, {"knockoutKeys", "0"}, {"valueToken", 2},
                                            {"shuffle", "reverse"}});
  REQUIRE(r.ok);
  r = ApplyStatePatch(r.state, Json{{"sentence", "hello world"}});
  REQUIRE(r.ok);
  CHECK(r.state.config.what_if_token == -1);
  CHECK(r.state.config.knockout_keys.empty());
  CHECK(r.state.config.value_token == -1);
  CHECK(r.state.config.shuffle == attn::ShuffleMode::kReverse);  // names no token: kept
  r = ApplyStatePatch(r.state, Json{{"projection", "model"}});
  REQUIRE(r.ok);
  CHECK(r.state.config.shuffle == attn::ShuffleMode::kOff);
}

TEST_CASE("the trace carries the contributions and the edits") {
  auto r = ApplyStatePatch(LabState{}, Json{{"knockoutKeys", "2"}});
  REQUIRE(r.ok);
  const attn::LabResult res = attn::ComputeLab(r.state.config);
  REQUIRE(res.error.ok());
  const Json t = attn::api::TraceToJson(r.state, res);
  CHECK(t["edits"]["edited"] == true);
  CHECK(t["edits"]["knockedKeys"] == Json::array({2}));
  CHECK(t["contribution"]["keys"].size() == 3);
  CHECK(t["contribution"]["keys"][2]["masked"] == true);
  CHECK(t["contribution"]["keys"][0]["removal"].get<double>() > 0);
  const attn::LabComparison c = attn::CompareLab(r.state.config);
  REQUIRE(c.error.ok());
  const Json cj = attn::api::ComparisonToJson(c);
  CHECK(cj["dWeights"].size() == 1);
  CHECK(cj["dWeights"][0].size() == 3);
  CHECK(cj["dWeights"][0][1][2].get<double>() < 0);  // the knocked-out key lost its weight
  CHECK(cj["verdict"].contains("changed"));
}
