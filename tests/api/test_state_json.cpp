// The state JSON shared by the page API, URL state and the CLI: field names, types, refusals.
#include "api/state_json.h"

#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>

using attn::api::ApplyStatePatch;
using attn::api::ApplyStatePatchText;
using attn::api::Json;
using attn::api::LabState;

TEST_CASE("state JSON has exactly the page API's field names and the seed defaults") {
  const Json j = attn::api::StateToJson(LabState{});
  std::set<std::string> keys, train_keys;
  for (const auto& [k, v] : j.items()) keys.insert(k);
  for (const auto& [k, v] : j["train"].items()) train_keys.insert(k);
  CHECK(keys == std::set<std::string>{"sentence", "query", "projection", "temperature", "scaled", "dModel", "dK",
                                      "seed", "positional", "heads", "head", "normalizer", "causal", "dV",
                                      "target", "layer", "whatIfToken", "whatIfWith", "whatIfMode", "shuffle",
                                      "shuffleSeed", "knockoutKeys", "knockoutHeads", "valueToken", "valueA",
                                      "valueB", "lang", "view", "lesson", "predictions", "lessonId", "hide", "lock",
                                      "tuneText", "tuneOwn", "tuneSteps", "tuneBatch", "tuneLength", "tuneLr", "tuneSeed", "answer", "foil", "corrupted", "patch", "modelUrl", "train"});
  CHECK(train_keys == std::set<std::string>{"task", "length", "optimizer", "lr", "batch", "seed", "normalizer",
                                            "scaled", "dModel", "dK", "dV", "heads", "causal", "example",
                                            "compare", "play", "speed", "query"});
  CHECK(j["sentence"] == "я люблю суши");
  CHECK(j["query"] == 1);
  CHECK(j["projection"] == "identity");
  CHECK(j["lang"] == "en");
  CHECK(j["seed"].is_number_integer());
  CHECK(j["temperature"].is_number_float());
}

TEST_CASE("every refusal reads '<field>: expected <what>, got <what came>'") {
  struct Case { const char* json; const char* message; };
  const Case cases[] = {
      {R"({"dModel": 65})", "dModel: expected an integer from 1 to 64, got 65"},
      {R"({"dModel": "8"})", "dModel: expected an integer from 1 to 64, got \"8\""},
      {R"({"temperature": null})", "temperature: expected a number from 0.001 to 1000, got null"},
      {R"({"scaled": 1})", "scaled: expected true or false, got 1"},
      {R"({"projection": "learned"})", "projection: expected one of \"identity\", \"random\", \"model\", got \"learned\""},
      {R"({"query": 1.5})", "query: expected an integer from 0 to 63, got 1.5"},
      {R"({"query": 3})", "query: expected a token index from 0 to 2, got 3"},
      {R"({"train": {"batch": 0}})", "train.batch: expected an integer from 1 to 256, got 0"},
      {R"({"train": {"lr": [1]}})", "train.lr: expected a number > 0 and <= 10, got an array"},
      {R"({"train": {"speed": 65}})", "train.speed: expected an integer from 0 to 64, got 65"},
      {R"({"lang": "de"})", "lang: expected one of \"en\", \"ru\", got \"de\""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.json);
    const auto r = ApplyStatePatchText(LabState{}, c.json);
    CHECK_FALSE(r.ok);
    CHECK(r.message == c.message);
  }
  const auto r = ApplyStatePatchText(LabState{}, R"({"colour": "red"})");
  CHECK(r.message.rfind("colour: unknown field (expected one of sentence, query,", 0) == 0);
  // A name from outside that is not plain is quoted, so the message stays one line (the fuzzer's
  // model_patch found {"lay\nx": 0} printed on two lines) and short.
  const auto nl = ApplyStatePatchText(LabState{}, R"({"lay\nx": 0})");
  CHECK(nl.message.rfind(R"("lay\nx": unknown field (expected one of sentence,)", 0) == 0);
  CHECK(nl.message.find('\n') == std::string::npos);
  const auto tr = ApplyStatePatchText(LabState{}, R"({"train": {"a\"b": 1}})");
  CHECK(tr.message.rfind(R"("train.a\"b": unknown field)", 0) == 0);
  const auto huge = ApplyStatePatchText(LabState{}, "{\"" + std::string(5000, 'x') + "\": 0}");
  CHECK(huge.message.rfind("\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\": unknown field", 0) == 0);
  CHECK(huge.message.size() < 1000);
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

TEST_CASE("heads, head, normalizer and causal round-trip through the state") {
  const auto r = ApplyStatePatch(LabState{}, Json{{"heads", 3}, {"head", 2}, {"normalizer", "sparsemax"},
                                                  {"causal", true}, {"projection", "random"}});
  REQUIRE(r.ok);
  const Json j = attn::api::StateToJson(r.state);
  CHECK(j["heads"] == 3);
  CHECK(j["head"] == 2);
  CHECK(j["normalizer"] == "sparsemax");
  CHECK(j["causal"] == true);
  for (const char* bad : {R"({"heads": 0})", R"({"heads": 9})", R"({"heads": 3, "head": 3})",
                          R"({"normalizer": "softermax"})", R"({"normalizer": 1})", R"({"causal": "yes"})"}) {
    CAPTURE(bad);
    const auto refused = ApplyStatePatchText(r.state, bad);
    CHECK_FALSE(refused.ok);
    CHECK(refused.state.config.heads == 3);
  }
}

TEST_CASE("fewer heads move the chosen head to the last one that exists") {
  LabState st;
  st.config.heads = 4;
  st.config.head = 3;
  const auto r = ApplyStatePatch(st, Json{{"heads", 2}});
  REQUIRE(r.ok);
  CHECK(r.state.config.head == 1);
}

TEST_CASE("the trace has every head as h x n x d arrays and the projected output") {
  LabState st;
  st.config.heads = 3;
  st.config.head = 1;
  st.config.projection = attn::Projection::kRandom;
  st.config.d_k = 4;
  st.config.d_v = 4;
  st.config.causal = true;
  const attn::LabResult res = attn::ComputeLab(st.config);
  REQUIRE(res.error.ok());
  const Json t = attn::api::TraceToJson(st, res);
  REQUIRE(t["heads"]["weights"].size() == 3);
  CHECK(t["heads"]["weights"][0].size() == 3);
  CHECK(t["heads"]["Q"][2][0].size() == 4);
  CHECK(t["finalOutput"].size() == 3);
  CHECK(t["finalOutput"][0].size() == 8);   // back to d_model through W_O
  CHECK(t["concat"][0].size() == 12);       // 3 heads x d_v 4
  CHECK(t["mask"][0][1] == false);          // causal: the first token sees only itself
  CHECK(t["mask"][2][0] == true);
  // The 2-D fields are the chosen head's.
  CHECK(t["weights"] == t["heads"]["weights"][1]);
  CHECK(t["heads"]["weights"][1][0][1].get<double>() == 0.0);
}

TEST_CASE("dV and target are state fields; the trace has the information object") {
  auto r = ApplyStatePatch(LabState{}, Json{{"dV", 1}, {"target", 0}});
  REQUIRE(r.ok);
  CHECK(attn::api::StateToJson(r.state)["dV"] == 1);
  CHECK(attn::api::StateToJson(r.state)["target"] == 0);
  for (const char* bad : {R"({"dV": 0})", R"({"dV": 65})", R"({"target": 3})", R"({"target": -2})", R"({"target": "x"})"}) {
    CAPTURE(bad);
    CHECK_FALSE(ApplyStatePatchText(LabState{}, bad).ok);
  }
  const attn::LabResult res = attn::ComputeLab(r.state.config);
  REQUIRE(res.error.ok());
  const Json t = attn::api::TraceToJson(r.state, res);
  const Json& info = t["information"];
  CHECK(info["recoverable"] == false);  // 3 values in 1-D
  CHECK(info["affineRank"] == 1);
  CHECK(info["alternative"].size() == 3);
  CHECK(info["ranges"].size() == 3);
  CHECK(info["ranges"][0].size() == 2);
  CHECK(info["maxOutputDiff"].get<double>() < 1e-6);
  // A shorter sentence resets a target that no longer exists to automatic.
  r = ApplyStatePatch(r.state, Json{{"target", 2}});
  REQUIRE(r.ok);
  r = ApplyStatePatch(r.state, Json{{"sentence", "hello world"}});
  REQUIRE(r.ok);
  CHECK(r.state.config.target == -1);
}

TEST_CASE("the trace's information names its feasible set and the keys the query can see") {
  auto r = ApplyStatePatch(LabState{}, Json{{"sentence", "я очень люблю суши и чай"}, {"query", 2}, {"causal", true},
                                            {"dV", 2}, {"target", 4}});
  REQUIRE(r.ok);
  attn::LabResult res = attn::ComputeLab(r.state.config);
  REQUIRE(res.error.ok());
  Json info = attn::api::TraceToJson(r.state, res)["information"];
  CHECK(info["feasibleSet"] == "simplex");
  CHECK(info["visible"] == Json::array({0, 1, 2}));
  CHECK(info["targetMoved"] == true);  // «и» is masked for «люблю»: the automatic target is used
  CHECK(info["target"].get<int>() <= 2);
  CHECK(info["recoverable"] == true);  // 3 visible values in 2-D
  CHECK(info["ranges"][4] == Json::array({0.0, 0.0}));
  for (const auto& [normalizer, set] : {std::pair<const char*, const char*>{"sigmoid", "box"}, {"none", "affine"}}) {
    r = ApplyStatePatch(LabState{}, Json{{"normalizer", normalizer}, {"dV", 2}});
    REQUIRE(r.ok);
    res = attn::ComputeLab(r.state.config);
    info = attn::api::TraceToJson(r.state, res)["information"];
    CHECK(info["feasibleSet"] == set);
    CHECK(info["linearRank"] == 2);
    CHECK(info["recoverable"] == false);
  }
  CHECK(attn::api::Dump(info["ranges"][0]) == "[null,null]");  // none: unbounded ends print as null
}
