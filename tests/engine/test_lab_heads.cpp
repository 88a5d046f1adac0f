// The lab with several heads, masks and normalizers: the single-head trace is the chosen head
// of the multi-head run, the step table reads weight = numerator / denominator for every
// normalizer, one head in softmax mode is still the single-head AttentionForward to the bit,
// and the new fields are validated.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "engine/lab/lab.h"
#include "engine/lab/validate.h"

using attn::ConfigError;
using attn::LabConfig;
using attn::LabError;
using attn::LabResult;
using attn::MatF;
using attn::Normalizer;
using attn::kAllNormalizers;

namespace {

bool SameBits(const MatF& a, const MatF& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

}  // namespace

TEST_CASE("lab: heads = 3, random, causal, every normalizer: the trace is the chosen head") {
  int checked = 0;
  for (const Normalizer nz : kAllNormalizers) {
    for (int head = 0; head < 3; ++head) {
      LabConfig cfg;
      cfg.sentence = "the cat sat on the mat";
      cfg.query = 3;
      cfg.projection = attn::Projection::kRandom;
      cfg.d_model = 8;
      cfg.d_k = 4;
      cfg.d_v = 4;
      cfg.heads = 3;
      cfg.head = head;
      cfg.causal = true;
      cfg.normalizer = nz;
      cfg.temperature = 0.8;
      cfg.seed = 7;
      CAPTURE(attn::NormalizerName(nz));
      CAPTURE(head);
      REQUIRE(attn::ValidateConfig(cfg).ok());
      const LabResult r = attn::ComputeLab(cfg);
      REQUIRE(r.error.ok());
      const int n = 6;
      REQUIRE(r.tokens.size() == static_cast<std::size_t>(n));

      // all heads, their concatenation and the projected output
      REQUIRE(r.mha.heads.size() == 3);
      CHECK(r.mha.concat.rows() == n);
      CHECK(r.mha.concat.cols() == 3 * 4);
      CHECK(r.mha.output.rows() == n);
      CHECK(r.mha.output.cols() == 8);
      CHECK(r.mha.mask == attn::CausalMask(n, n));
      REQUIRE(r.projections.W_Q.size() == 3);
      CHECK(r.projections.W_O.rows() == 12);

      // the trace is head `head`, field by field, to the bit
      const attn::HeadTrace<float>& h = r.mha.heads[static_cast<std::size_t>(head)];
      const attn::AttentionTrace<float>& t = r.trace;
      CHECK(SameBits(t.W_Q, r.projections.W_Q[static_cast<std::size_t>(head)]));
      CHECK(SameBits(t.W_K, r.projections.W_K[static_cast<std::size_t>(head)]));
      CHECK(SameBits(t.W_V, r.projections.W_V[static_cast<std::size_t>(head)]));
      CHECK(SameBits(t.Q, h.Q));
      CHECK(SameBits(t.K, h.K));
      CHECK(SameBits(t.V, h.V));
      CHECK(SameBits(t.scores, h.scores));
      CHECK(SameBits(t.scaled, h.scaled));
      CHECK(SameBits(t.row_max, h.shift));
      CHECK(SameBits(t.exps, h.numerator));
      CHECK(SameBits(t.row_sum, h.denominator));
      CHECK(SameBits(t.weights, h.weights));
      CHECK(SameBits(t.output, h.output));
      CHECK(SameBits(t.entropy, h.entropy));
      CHECK(t.normalizer == nz);
      CHECK(t.mask == r.mha.mask);
      CHECK(t.d_k == 4);
      CHECK(t.d_v == 4);
      CHECK(t.scale == h.scale);
      CHECK(t.temperature == 0.8f);
      // heads differ from one another
      const std::size_t other = static_cast<std::size_t>((head + 1) % 3);
      CHECK_FALSE(SameBits(t.Q, r.mha.heads[other].Q));

      // the step table: weight = numerator / denominator, to the bit, for every normalizer
      const attn::StepTable& st = r.steps;
      REQUIRE(st.rows.size() == static_cast<std::size_t>(n));
      CHECK(st.row_max == t.row_max(cfg.query));
      CHECK(st.exp_sum == t.row_sum(cfg.query));
      CHECK(st.entropy == t.entropy(cfg.query));
      float sum = 0;
      for (int i = 0; i < n; ++i) {
        CAPTURE(i);
        const attn::StepRow& row = st.rows[static_cast<std::size_t>(i)];
        CHECK(row.weight == row.exp / st.exp_sum);
        CHECK(row.weight == t.weights(cfg.query, i));
        CHECK(row.masked == (i > cfg.query));  // causal: tokens after the query are masked
        if (row.masked) {
          CHECK(row.weight == 0);
          CHECK(row.exp == 0);
          CHECK(row.weighted.isZero(0));
        }
        sum += row.weight;
        ++checked;
      }
      CHECK(st.weight_sum == sum);
      if (nz != Normalizer::kSigmoid && nz != Normalizer::kNone) {
        CHECK(st.weight_sum == doctest::Approx(1.0).epsilon(1e-6));
      }
      // vectors panel: the chosen head's values
      CHECK(r.vectors.points.rows() == 2 * n + 1);
      CHECK(r.vectors.components.rows() == 4);
    }
  }
  MESSAGE("step rows checked: " << checked);
}

TEST_CASE("lab: one head in softmax mode is AttentionForward to the bit (identity and random)") {
  for (const attn::Projection proj : {attn::Projection::kIdentity, attn::Projection::kRandom}) {
    LabConfig cfg;
    cfg.projection = proj;
    cfg.d_model = 6;
    cfg.d_k = 3;
    if (proj == attn::Projection::kRandom) cfg.d_v = 3;  // AttentionForward has d_v = d_k
    cfg.temperature = 0.7;
    const LabResult r = attn::ComputeLab(cfg);
    REQUIRE(r.error.ok());
    attn::AttentionConfig acfg;
    acfg.projection = proj;
    acfg.d_k = 3;
    acfg.temperature = 0.7;
    acfg.seed = cfg.seed;
    attn::AttentionTrace<float> single;
    REQUIRE(attn::AttentionForward<float>(single, r.trace.X, acfg));
    CAPTURE(attn::ProjectionName(proj));
    CHECK(SameBits(r.trace.W_Q, single.W_Q));
    CHECK(SameBits(r.trace.Q, single.Q));
    CHECK(SameBits(r.trace.scores, single.scores));
    CHECK(SameBits(r.trace.exps, single.exps));
    CHECK(SameBits(r.trace.weights, single.weights));
    CHECK(SameBits(r.trace.output, single.output));
    // one head, identity: W_O = I, the projected output is the head's output
    if (proj == attn::Projection::kIdentity) CHECK(SameBits(r.mha.output, single.output));
  }
}

TEST_CASE("lab: identity with 4 heads: identical heads, W_O averages them") {
  LabConfig cfg;
  cfg.heads = 4;
  cfg.head = 2;
  const LabResult r = attn::ComputeLab(cfg);
  REQUIRE(r.error.ok());
  for (const attn::HeadTrace<float>& h : r.mha.heads) CHECK(SameBits(h.output, r.trace.output));
  CHECK(r.mha.output.isApprox(r.trace.output, 1e-6f));
  CHECK(r.trace.d_k == cfg.d_model);
}

TEST_CASE("lab: causal, query 0 sees only itself") {
  LabConfig cfg;
  cfg.causal = true;
  cfg.query = 0;
  for (const Normalizer nz : {Normalizer::kSoftmax, Normalizer::kSparsemax, Normalizer::kReluNorm,
                              Normalizer::kHardmax}) {
    cfg.normalizer = nz;
    const LabResult r = attn::ComputeLab(cfg);
    REQUIRE(r.error.ok());
    CHECK(r.steps.rows[0].weight == 1);
    CHECK(r.steps.rows[1].weight == 0);
    CHECK(r.steps.rows[2].weight == 0);
    CHECK(r.steps.entropy == 0);
    CHECK(SameBits(r.steps.output, r.trace.V.row(0).transpose()));
  }
}

TEST_CASE("lab: validation of heads and head") {
  struct Case {
    const char* name;
    std::function<void(LabConfig&)> spoil;
    ConfigError code;
    const char* field;
    const char* message;  // empty: not checked
  };
  const Case cases[] = {
      {"heads 0", [](LabConfig& c) { c.heads = 0; }, ConfigError::kHeadsOutOfRange, "heads",
       "heads: expected an integer from 1 to 8, got 0"},
      {"heads 9", [](LabConfig& c) { c.heads = 9; }, ConfigError::kHeadsOutOfRange, "heads",
       "heads: expected an integer from 1 to 8, got 9"},
      {"heads -2", [](LabConfig& c) { c.heads = -2; }, ConfigError::kHeadsOutOfRange, "heads", ""},
      {"head -1", [](LabConfig& c) { c.head = -1; }, ConfigError::kHeadOutOfRange, "head",
       "head: expected an integer from 0 to 7, got -1"},
      {"head 1 of 1", [](LabConfig& c) { c.head = 1; }, ConfigError::kHeadOutOfRange, "head", ""},
      {"head 3 of 3",
       [](LabConfig& c) {
         c.heads = 3;
         c.head = 3;
       },
       ConfigError::kHeadOutOfRange, "head", "head: expected a head index from 0 to 2, got 3"},
      {"heads bad and head bad: heads first",
       [](LabConfig& c) {
         c.heads = 12;
         c.head = 20;
       },
       ConfigError::kHeadsOutOfRange, "heads", ""},
      {"dModel before heads",
       [](LabConfig& c) {
         c.d_model = 0;
         c.heads = 0;
       },
       ConfigError::kDimOutOfRange, "dModel", ""},
  };
  for (const Case& tc : cases) {
    CAPTURE(tc.name);
    LabConfig cfg;
    tc.spoil(cfg);
    const LabError e = attn::ValidateConfig(cfg);
    CHECK(e.code == tc.code);
    CHECK(e.field == tc.field);
    CHECK(e.message.rfind(tc.field, 0) == 0);
    if (tc.message[0] != '\0') CHECK(e.message == tc.message);
    const LabResult r = attn::ComputeLab(cfg);
    CHECK(r.error.code == tc.code);
    CHECK(r.error.message == e.message);
  }
  LabConfig cfg;
  cfg.heads = 9;
  CHECK(attn::ValidateConfig(cfg).value == 9);

  // the limits themselves, every normalizer, causal on and off
  for (const Normalizer nz : kAllNormalizers) {
    for (const bool causal : {false, true}) {
      LabConfig ok;
      ok.heads = attn::kMaxHeads;
      ok.head = attn::kMaxHeads - 1;
      ok.projection = attn::Projection::kRandom;
      ok.normalizer = nz;
      ok.causal = causal;
      CAPTURE(attn::NormalizerName(nz));
      CHECK(attn::ValidateConfig(ok).ok());
      const LabResult r = attn::ComputeLab(ok);
      REQUIRE(r.error.ok());
      CHECK(r.mha.heads.size() == 8);
      for (const attn::StepRow& row : r.steps.rows) CHECK(std::isfinite(row.weight));
    }
  }
}
