// The lab: the seed example's step table by hand, the default configuration, and every
// refusal of ValidateConfig / ComputeLab.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "engine/lab/lab.h"
#include "engine/lab/validate.h"

using attn::ConfigError;
using attn::LabConfig;
using attn::LabError;
using attn::LabResult;
using attn::VecF;

TEST_CASE("step table of a hand-computed case: v0=(1,0), v1=(0,1), v2=(1,1), query 1") {
  // d_model = 2, no positional encoding, identity projection: q = k = v = x.
  std::map<std::string, VecF> overrides;
  overrides["я"] = (VecF(2) << 1, 0).finished();
  overrides["люблю"] = (VecF(2) << 0, 1).finished();
  overrides["суши"] = (VecF(2) << 1, 1).finished();
  const attn::TokenizeResult tok = attn::Tokenize("я люблю суши");
  REQUIRE(tok.ok());
  std::vector<std::string> texts;
  for (const attn::Token& t : tok.tokens) texts.push_back(t.text);
  const attn::MatF X = attn::EmbedTokens(texts, 2, 1, false, overrides);

  attn::AttentionTrace<float> tr;
  attn::AttentionConfig cfg;  // identity, scaled, T = 1
  REQUIRE(attn::AttentionForward<float>(tr, X, cfg));
  const attn::StepTable st = attn::MakeStepTable(tr, tok.tokens, 1);
  REQUIRE(st.rows.size() == 3);
  CHECK(st.query == 1);

  // q = v1 = (0, 1)
  // scores:  q.k0 = 0*1 + 1*0 = 0,  q.k1 = 0*0 + 1*1 = 1,  q.k2 = 0*1 + 1*1 = 1
  // scaled:  score / sqrt(2):  0,  0.70710678,  0.70710678
  // max m = 0.70710678
  // exp(scaled - m):  exp(-0.70710678) = 0.49306869,  exp(0) = 1,  exp(0) = 1
  // sum = 2.49306869
  // weights: 0.49306869 / 2.49306869 = 0.19777581,  1 / 2.49306869 = 0.40111209 (twice)
  // A = 0.19777581 (1,0) + 0.40111209 (0,1) + 0.40111209 (1,1) = (0.59888791, 0.80222419)
  const double tol = 1e-6;
  const char* names[3] = {"я", "люблю", "суши"};
  const double score[3] = {0, 1, 1};
  const double scaled[3] = {0, 0.70710678, 0.70710678};
  const double ex[3] = {0.49306869, 1, 1};
  const double weight[3] = {0.19777581, 0.40111209, 0.40111209};
  const double v[3][2] = {{1, 0}, {0, 1}, {1, 1}};
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    const attn::StepRow& row = st.rows[static_cast<std::size_t>(i)];
    CHECK(row.token == names[i]);
    CHECK(std::abs(row.score - score[i]) < tol);
    CHECK(std::abs(row.scaled - scaled[i]) < tol);
    CHECK(std::abs(row.exp - ex[i]) < tol);
    CHECK(std::abs(row.weight - weight[i]) < tol);
    REQUIRE(row.weighted.size() == 2);
    CHECK(std::abs(row.weighted(0) - weight[i] * v[i][0]) < tol);
    CHECK(std::abs(row.weighted(1) - weight[i] * v[i][1]) < tol);
  }
  CHECK(std::abs(st.row_max - 0.70710678) < tol);
  CHECK(std::abs(st.exp_sum - 2.49306869) < tol);
  REQUIRE(st.output.size() == 2);
  CHECK(std::abs(st.output(0) - 0.59888791) < tol);
  CHECK(std::abs(st.output(1) - 0.80222419) < tol);
}

TEST_CASE("the default lab: я люблю суши, query 1") {
  const LabConfig cfg;
  CHECK(cfg.sentence == "я люблю суши");
  CHECK(cfg.query == 1);
  const LabResult r = attn::ComputeLab(cfg);
  REQUIRE(r.error.ok());
  CHECK(r.error.message.empty());
  REQUIRE(r.tokens.size() == 3);
  CHECK(r.tokens[1].text == "люблю");
  const attn::StepTable& st = r.steps;
  CHECK(st.query == 1);
  REQUIRE(st.rows.size() == 3);
  CHECK(st.rows[1].token == "люблю");
  double wsum = 0;
  for (const attn::StepRow& row : st.rows) {
    CHECK(row.weight > 0);
    wsum += row.weight;
  }
  CHECK(wsum == doctest::Approx(1.0).epsilon(1e-6));
  // A = sum_i weight_i V.row(i), recomputed here from the table and the trace.
  REQUIRE(st.output.size() == cfg.d_model);
  for (int c = 0; c < cfg.d_model; ++c) {
    double a = 0;
    for (int i = 0; i < 3; ++i)
      a += double(st.rows[static_cast<std::size_t>(i)].weight) * r.trace.V(i, c);
    CHECK(st.output(c) == doctest::Approx(a).epsilon(1e-5));
  }
  // The table is the trace's row for the query.
  for (int i = 0; i < 3; ++i) {
    CHECK(st.rows[static_cast<std::size_t>(i)].score == r.trace.scores(1, i));
    CHECK(st.rows[static_cast<std::size_t>(i)].weight == r.trace.weights(1, i));
  }
  CHECK(st.row_max == r.trace.row_max(1));
  CHECK(st.exp_sum == r.trace.row_sum(1));
  // Identity projection: V is the embeddings, which include the positional encoding.
  CHECK(r.trace.V == r.trace.X);
  CHECK(r.trace.X.cols() == cfg.d_model);
  CHECK(r.vectors.points.rows() == 7);
  CHECK(r.vectors.points.cols() == 2);
  CHECK(r.vectors.explained > 0.0f);
  CHECK(r.vectors.explained <= 1.0f);

  // Bit-for-bit the same the second time.
  const LabResult again = attn::ComputeLab(cfg);
  REQUIRE(again.error.ok());
  CHECK(std::memcmp(r.trace.output.data(), again.trace.output.data(),
                    sizeof(float) * static_cast<std::size_t>(r.trace.output.size())) == 0);
}

TEST_CASE("the lab in random-projection mode uses d_k for keys and d_v for values") {
  LabConfig cfg;
  cfg.projection = attn::Projection::kRandom;
  cfg.d_model = 6;
  cfg.d_k = 3;
  cfg.d_v = 3;
  cfg.seed = 99;
  const LabResult r = attn::ComputeLab(cfg);
  REQUIRE(r.error.ok());
  CHECK(r.trace.d_k == 3);
  CHECK(r.trace.V.cols() == 3);
  CHECK(r.steps.output.size() == 3);
  CHECK(r.steps.rows[0].weighted.size() == 3);
  CHECK(r.vectors.components.rows() == 3);
  LabConfig other = cfg;
  other.seed = 100;
  CHECK(attn::ComputeLab(other).trace.W_Q != r.trace.W_Q);
}

TEST_CASE("ValidateConfig: each bad field is named, with its code; ComputeLab agrees") {
  std::string many;
  for (int i = 0; i < 500; ++i) many += "word ";
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    const char* name;
    std::function<void(LabConfig&)> spoil;
    ConfigError code;
    const char* field;
  };
  const Case cases[] = {
      {"empty sentence", [](LabConfig& c) { c.sentence = ""; }, ConfigError::kSentenceEmpty,
       "sentence"},
      {"whitespace sentence", [](LabConfig& c) { c.sentence = " \t\u3000"; },
       ConfigError::kSentenceEmpty, "sentence"},
      {"500 words", [&](LabConfig& c) { c.sentence = many; }, ConfigError::kSentenceTooManyTokens,
       "sentence"},
      {"invalid UTF-8", [](LabConfig& c) { c.sentence = "я \xC0\xAF"; },
       ConfigError::kSentenceInvalidUtf8, "sentence"},
      {"too long", [](LabConfig& c) { c.sentence = std::string(5000, 'a'); },
       ConfigError::kSentenceTooLong, "sentence"},
      {"query -1", [](LabConfig& c) { c.query = -1; }, ConfigError::kQueryOutOfRange, "query"},
      {"query 3 of 3", [](LabConfig& c) { c.query = 3; }, ConfigError::kQueryOutOfRange, "query"},
      {"dModel 0", [](LabConfig& c) { c.d_model = 0; }, ConfigError::kDimOutOfRange, "dModel"},
      {"dModel 65", [](LabConfig& c) { c.d_model = 65; }, ConfigError::kDimOutOfRange, "dModel"},
      {"dModel -3", [](LabConfig& c) { c.d_model = -3; }, ConfigError::kDimOutOfRange, "dModel"},
      {"dK 0 in identity mode", [](LabConfig& c) { c.d_k = 0; }, ConfigError::kDimOutOfRange, "dK"},
      {"dK 65 in random mode",
       [](LabConfig& c) {
         c.d_k = 65;
         c.projection = attn::Projection::kRandom;
       },
       ConfigError::kDimOutOfRange, "dK"},
      {"temperature NaN", [&](LabConfig& c) { c.temperature = nan; },
       ConfigError::kTemperatureInvalid, "temperature"},
      {"temperature -1", [](LabConfig& c) { c.temperature = -1; }, ConfigError::kTemperatureInvalid,
       "temperature"},
      {"temperature 0", [](LabConfig& c) { c.temperature = 0; }, ConfigError::kTemperatureInvalid,
       "temperature"},
      {"temperature inf", [&](LabConfig& c) { c.temperature = inf; },
       ConfigError::kTemperatureInvalid, "temperature"},
      {"temperature 1e-4", [](LabConfig& c) { c.temperature = 1e-4; },
       ConfigError::kTemperatureInvalid, "temperature"},
      {"temperature 1001", [](LabConfig& c) { c.temperature = 1001; },
       ConfigError::kTemperatureInvalid, "temperature"},
      {"seed 2^32", [](LabConfig& c) { c.seed = 4294967296ull; }, ConfigError::kSeedOutOfRange,
       "seed"},
      {"seed 2^64-1", [](LabConfig& c) { c.seed = ~0ull; }, ConfigError::kSeedOutOfRange, "seed"},
  };
  for (const Case& tc : cases) {
    CAPTURE(tc.name);
    LabConfig cfg;
    tc.spoil(cfg);
    const LabError e = attn::ValidateConfig(cfg);
    CHECK(e.code == tc.code);
    CHECK(e.field == tc.field);
    CHECK_FALSE(e.ok());
    CHECK(e.message.rfind(tc.field, 0) == 0);  // the message starts with the field name
    CHECK(e.message.find('\n') == std::string::npos);
    LabResult r;
    CHECK_NOTHROW(r = attn::ComputeLab(cfg));
    CHECK(r.error.code == tc.code);
    CHECK(r.error.field == tc.field);
    CHECK(r.error.message == e.message);
  }
}

TEST_CASE("ValidateConfig: messages and values") {
  LabConfig cfg;
  cfg.temperature = std::numeric_limits<double>::quiet_NaN();
  CHECK(attn::ValidateConfig(cfg).message ==
        "temperature: expected a number from 0.001 to 1000, got nan");
  cfg.temperature = -0.5;
  LabError e = attn::ValidateConfig(cfg);
  CHECK(e.message == "temperature: expected a number from 0.001 to 1000, got -0.5");
  CHECK(e.value == -0.5);

  cfg = LabConfig();
  cfg.query = 7;
  e = attn::ValidateConfig(cfg);
  CHECK(e.message == "query: expected a token index from 0 to 2, got 7");
  CHECK(e.value == 7);

  cfg = LabConfig();
  cfg.d_model = 65;
  e = attn::ValidateConfig(cfg);
  CHECK(e.message == "dModel: expected an integer from 1 to 64, got 65");
  CHECK(e.value == 65);

  cfg = LabConfig();
  cfg.seed = 4294967296ull;
  CHECK(attn::ValidateConfig(cfg).message ==
        "seed: expected an integer from 0 to 4294967295, got 4294967296");

  cfg = LabConfig();
  cfg.sentence = "ok \x80";
  e = attn::ValidateConfig(cfg);
  CHECK(e.value == 3);  // the byte offset
  std::string many;
  for (int i = 0; i < 70; ++i) many += "w ";
  cfg.sentence = many;
  e = attn::ValidateConfig(cfg);
  CHECK(e.message == "sentence: expected at most 64 tokens, got 70");
  CHECK(e.value == 70);

  // The sentence comes first: with a bad sentence and a bad temperature, the sentence is named.
  cfg.sentence = "";
  cfg.temperature = -1;
  CHECK(attn::ValidateConfig(cfg).field == "sentence");
}

TEST_CASE("ValidateConfig: the limits themselves are accepted") {
  const std::function<void(LabConfig&)> fine[] = {
      [](LabConfig& c) { c.temperature = attn::kMinTemperature; },
      [](LabConfig& c) { c.temperature = attn::kMaxTemperature; },
      [](LabConfig& c) { c.d_model = 1; },
      [](LabConfig& c) { c.d_model = 64; },
      [](LabConfig& c) {
        c.d_k = 1;
        c.projection = attn::Projection::kRandom;
      },
      [](LabConfig& c) {
        c.d_k = 64;
        c.projection = attn::Projection::kRandom;
      },
      [](LabConfig& c) { c.seed = attn::kMaxSeed; },
      [](LabConfig& c) { c.seed = 0; },
      [](LabConfig& c) { c.query = 0; },
      [](LabConfig& c) { c.query = 2; },
      [](LabConfig& c) { c.scaled = false; },
      [](LabConfig& c) { c.positional = false; },
      [](LabConfig& c) {
        c.sentence = "x";
        c.query = 0;
      },
  };
  int k = 0;
  for (const auto& change : fine) {
    CAPTURE(k++);
    LabConfig cfg;
    change(cfg);
    CHECK(attn::ValidateConfig(cfg).ok());
    const LabResult r = attn::ComputeLab(cfg);
    REQUIRE(r.error.ok());
    CHECK(r.steps.rows.size() == r.tokens.size());
    for (const attn::StepRow& row : r.steps.rows) CHECK(std::isfinite(row.weight));
    for (int c = 0; c < r.steps.output.size(); ++c) CHECK(std::isfinite(r.steps.output(c)));
  }
}

TEST_CASE("MakeStepTable and projection names") {
  const LabResult r = attn::ComputeLab(LabConfig());
  REQUIRE(r.error.ok());
  CHECK(attn::MakeStepTable(r.trace, r.tokens, 3).rows.empty());
  CHECK(attn::MakeStepTable(r.trace, r.tokens, -1).rows.empty());
  CHECK(attn::MakeStepTable(r.trace, r.tokens, 0).rows.size() == 3);

  CHECK(std::string(attn::ProjectionName(attn::Projection::kIdentity)) == "identity");
  CHECK(std::string(attn::ProjectionName(attn::Projection::kRandom)) == "random");
  attn::Projection p = attn::Projection::kIdentity;
  CHECK(attn::ParseProjection("random", &p));
  CHECK(p == attn::Projection::kRandom);
  CHECK(attn::ParseProjection("identity", &p));
  CHECK(p == attn::Projection::kIdentity);
  CHECK_FALSE(attn::ParseProjection("Random", &p));
  CHECK_FALSE(attn::ParseProjection("", &p));
  CHECK(p == attn::Projection::kIdentity);  // untouched on failure
}

TEST_CASE("d_v projects the values: identity keeps the first d_v coordinates of x") {
  LabConfig cfg;  // «я люблю суши», identity, d_model 8
  cfg.d_v = 2;
  const LabResult r = attn::ComputeLab(cfg);
  REQUIRE(r.error.ok());
  REQUIRE(r.trace.V.cols() == 2);
  CHECK(r.trace.V == r.trace.X.leftCols(2));
  CHECK(r.trace.Q == r.trace.X);  // queries and keys keep every dimension
  // Three values in 2-D are affinely independent in general: nothing is lost yet...
  CHECK(r.information.info.recoverable);
  // ...in 1-D they are not: another pattern gives exactly the same A.
  cfg.d_v = 1;
  const LabResult r1 = attn::ComputeLab(cfg);
  REQUIRE(r1.error.ok());
  CHECK_FALSE(r1.information.info.recoverable);
  CHECK(r1.information.collision.changed);
  CHECK(r1.information.collision.max_output_diff < 1e-6);
}

TEST_CASE("the seed example: with identity projections in d = 8 nothing is lost") {
  const LabResult r = attn::ComputeLab(LabConfig{});
  REQUIRE(r.error.ok());
  CHECK(r.information.info.recoverable);
  CHECK(r.information.info.affine_rank == 2);
  CHECK(r.target == 2);  // the query leans on «люблю» (1); the story moves weight to «суши» (2)
  for (int i = 0; i < 3; ++i)
    CHECK(r.information.ranges(i, 1) - r.information.ranges(i, 0) < 1e-9);
  REQUIRE(r.same_output_vertices.size() == 1);
}

TEST_CASE("target is validated: -1 (automatic) or a token index") {
  LabConfig cfg;
  cfg.target = 3;
  CHECK(attn::ValidateConfig(cfg).field == "target");
  cfg.target = -2;
  CHECK(attn::ValidateConfig(cfg).field == "target");
  cfg.target = 0;
  CHECK(attn::ValidateConfig(cfg).ok());
  cfg.d_v = 0;
  CHECK(attn::ValidateConfig(cfg).field == "dV");
}
