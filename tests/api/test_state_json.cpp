// The state JSON shared by the page API, URL state and the CLI: field names, types, refusals.
#include "api/state_json.h"

#include <doctest/doctest.h>

#include <cmath>

using attn::api::ApplyStatePatch;
using attn::api::ApplyStatePatchText;
using attn::api::Json;
using attn::api::LabState;

TEST_CASE("state JSON has exactly the page API's field names and the seed defaults") {
  const Json j = attn::api::StateToJson(LabState{});
  for (const char* k : {"sentence", "query", "projection", "temperature", "scaled", "dModel", "dK", "seed",
                        "positional", "lang"})
    CHECK_MESSAGE(j.contains(k), k);
  CHECK(j["sentence"] == "я люблю суши");
  CHECK(j["query"] == 1);
  CHECK(j["projection"] == "identity");
  CHECK(j["lang"] == "en");
}

TEST_CASE("a valid patch changes only the fields given") {
  const auto r = ApplyStatePatch(LabState{}, Json{{"temperature", 0.5}, {"projection", "random"}, {"dK", 4}});
  REQUIRE(r.ok);
  CHECK(r.state.config.temperature == doctest::Approx(0.5));
  CHECK(r.state.config.projection == attn::Projection::kRandom);
  CHECK(r.state.config.d_k == 4);
  CHECK(r.state.config.sentence == "я люблю суши");
}

TEST_CASE("every kind of bad value is refused naming the field, and the state is kept") {
  struct Case { const char* json; const char* field; };
  const Case cases[] = {
      {R"({"temperature": null})", "temperature"},     // NaN arrives as null from JS
      {R"({"temperature": -1})", "temperature"},
      {R"({"temperature": 0})", "temperature"},
      {R"({"temperature": "hot"})", "temperature"},
      {R"({"temperature": 1e308})", "temperature"},
      {R"({"sentence": ""})", "sentence"},
      {R"({"sentence": "   \t "})", "sentence"},
      {R"({"sentence": 42})", "sentence"},
      {R"({"query": 3})", "query"},                    // only 3 tokens
      {R"({"query": 1.5})", "query"},
      {R"({"query": -1})", "query"},
      {R"({"dModel": 0})", "dModel"},
      {R"({"dModel": 65})", "dModel"},
      {R"({"dK": 1e300})", "dK"},
      {R"({"seed": -3})", "seed"},
      {R"({"seed": 4294967296})", "seed"},
      {R"({"scaled": 1})", "scaled"},
      {R"({"positional": "yes"})", "positional"},
      {R"({"projection": "learned"})", "projection"},
      {R"({"lang": "de"})", "lang"},
      {R"({"colour": "red"})", "colour"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.json);
    const auto r = ApplyStatePatchText(LabState{}, c.json);
    CHECK_FALSE(r.ok);
    CHECK(r.field == c.field);
    CHECK_FALSE(r.message.empty());
    CHECK(r.state.config.sentence == "я люблю суши");
    CHECK(r.state.config.temperature == 1.0);
  }
}

TEST_CASE("malformed JSON and non-objects are refused, not thrown") {
  for (const char* text : {"", "{", "[1,2]", "null", "\"sentence\"", "{\"sentence\": \"\xff\xfe\"}"}) {
    CAPTURE(text);
    const auto r = ApplyStatePatchText(LabState{}, text);
    CHECK_FALSE(r.ok);
  }
}

TEST_CASE("a 500-word sentence is refused with the token count") {
  std::string s;
  for (int i = 0; i < 500; ++i) s += "word ";
  const auto r = ApplyStatePatch(LabState{}, Json{{"sentence", s}});
  CHECK_FALSE(r.ok);
  CHECK(r.field == "sentence");
  CHECK(r.message.find("64") != std::string::npos);
}

TEST_CASE("a shorter sentence moves the query to its last token; a given query wins") {
  LabState st;
  st.config.query = 2;  // «суши»
  auto r = ApplyStatePatch(st, Json{{"sentence", "hello world"}});
  REQUIRE(r.ok);
  CHECK(r.state.config.query == 1);
  r = ApplyStatePatch(st, Json{{"sentence", "hello world"}, {"query", 0}});
  REQUIRE(r.ok);
  CHECK(r.state.config.query == 0);
}

TEST_CASE("the trace carries every intermediate with consistent shapes") {
  LabState st;
  const attn::LabResult res = attn::ComputeLab(st.config);
  REQUIRE(res.error.ok());
  const Json t = attn::api::TraceToJson(st, res);
  CHECK(t["error"].is_null());
  REQUIRE(t["tokens"].size() == 3);
  CHECK(t["tokens"][1] == "люблю");
  for (const char* k : {"scores", "scaled", "exps", "weights"}) {
    CAPTURE(k);
    REQUIRE(t[k].size() == 3);
    CHECK(t[k][0].size() == 3);
  }
  CHECK(t["X"][0].size() == 8);
  CHECK(t["output"][0].size() == 8);
  CHECK(t["config"]["dK"] == 8);  // identity: d_k = d_model
  CHECK(t["steps"]["query"] == 1);
  CHECK(t["steps"]["rows"].size() == 3);
  // The step table is the query's row of the matrices, not a separate computation.
  for (int j = 0; j < 3; ++j) {
    CHECK(t["steps"]["rows"][j]["weight"].get<double>() == t["weights"][1][j].get<double>());
    CHECK(t["steps"]["rows"][j]["score"].get<double>() == t["scores"][1][j].get<double>());
  }
  double sum = 0;
  for (const auto& w : t["weights"][1]) sum += w.get<double>();
  CHECK(sum == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("Dump never throws on bytes that are not UTF-8") {
  const Json j = {{"s", std::string("a\xff" "b")}};
  CHECK_NOTHROW((void)attn::api::Dump(j));
}
