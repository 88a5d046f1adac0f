// Normalization experiments (normexp.h): each measured curve against its analytic value, with a
// tolerance derived from the sample count, plus the contracts (determinism, bad arguments) and
// the training-curve runner (progress, aggregation over seeds, divergence).
//
// Statistical tolerances are 5 standard errors: for a fixed seed the test is deterministic, and
// a correct implementation fails one with probability ~6e-7 per comparison for a random seed.
//   score variance (mean of s^2, s = q.k, q, k ~ N(0, I_Dk)):  E s^2 = Dk,
//     Var s^2 = E s^4 - Dk^2 = (3 Dk^2 + 6 Dk) - Dk^2 = 2 Dk^2 + 6 Dk,
//     so the relative standard error is sqrt((2 + 6 / Dk) / S), the same scaled or not;
//   ||o|| for o ~ N(0, sigma^2 I_Dv): sigma chi_Dv, mean sigma mu, variance sigma^2 (Dv - mu^2),
//     mu = sqrt(2) Gamma((Dv + 1) / 2) / Gamma(Dv / 2).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "engine/lab/lab.h"  // kMaxSeed
#include "engine/training/normexp.h"

using attn::CurveExperiment;
using attn::CurveSeries;
using attn::CurveSpec;
using attn::Normalizer;
using attn::TrainConfig;

namespace {

const std::vector<Normalizer> kAll = {Normalizer::kSoftmax, Normalizer::kSparsemax,
                                      Normalizer::kReluNorm, Normalizer::kSigmoid,
                                      Normalizer::kNone, Normalizer::kHardmax};
enum { kSoftmaxAt, kSparsemaxAt, kReluNormAt, kSigmoidAt, kNoneAt, kHardmaxAt };

double ChiMean(int k) { return std::sqrt(2.0) * std::exp(std::lgamma((k + 1) / 2.0) - std::lgamma(k / 2.0)); }

// Mean and second moment of the largest of m independent chi_k (k even), by the trapezoid rule
// on E X = int (1 - F^m), E X^2 = int 2x (1 - F^m), F(x) = 1 - e^{-y} sum_{i<k/2} y^i / i!,
// y = x^2 / 2 (the chi CDF for even k in closed form).
void MaxChiMoments(int k, int m, double* mean, double* second) {
  const double h = 1e-4;
  double e1 = 0, e2 = 0;
  for (double x = h / 2; x < 30; x += h) {  // midpoints; the tail beyond 30 is < 1e-100
    const double y = x * x / 2;
    double term = 1, sum = 0;
    for (int i = 0; i < k / 2; ++i) {
      sum += term;
      term *= y / (i + 1);
    }
    const double cdf = 1 - std::exp(-y) * sum;
    const double tail = 1 - std::pow(cdf, m);
    e1 += tail * h;
    e2 += 2 * x * tail * h;
  }
  *mean = e1;
  *second = e2;
}

// A small training config that takes milliseconds per step.
TrainConfig SmallConfig() {
  TrainConfig c;
  c.task = attn::TaskKind::kPreviousToken;
  c.length = 4;
  c.d_model = 8;
  c.d_k = 4;
  c.d_v = 4;
  c.batch = 4;
  c.lr = 0.05;
  return c;
}

// none, unscaled, plain SGD with a large step: the scores blow up within a few steps.
TrainConfig DivergingConfig() {
  TrainConfig c = SmallConfig();
  c.normalizer = Normalizer::kNone;
  c.scaled = false;
  c.optimizer = attn::Optimizer::kSgd;
  c.lr = 10;
  c.d_k = 16;
  return c;
}

}  // namespace

// ---- 1. score variance --------------------------------------------------------------------------

TEST_CASE("normexp variance: unscaled ~ d_k and scaled ~ 1, within 5 standard errors") {
  const int samples = 20000;
  const std::vector<int> d_ks = {1, 2, 3, 4, 8, 16, 64, 256};
  for (const std::uint64_t seed : {1ull, 77ull}) {
    const auto points = attn::ScoreVarianceExperiment(d_ks, samples, seed);
    REQUIRE(points.size() == d_ks.size());
    for (std::size_t i = 0; i < d_ks.size(); ++i) {
      const auto& p = points[i];
      const double dk = d_ks[i];
      const double rel_se = std::sqrt((2 + 6 / dk) / samples);
      CAPTURE(seed);
      CAPTURE(p.d_k);
      CAPTURE(p.var_unscaled);
      CAPTURE(p.var_scaled);
      CHECK(p.d_k == d_ks[i]);
      CHECK(p.analytic_unscaled == dk);
      CHECK(p.analytic_scaled == 1.0);
      CHECK(std::abs(p.var_unscaled / dk - 1) <= 5 * rel_se);
      CHECK(std::abs(p.var_scaled - 1) <= 5 * rel_se);
    }
  }
}

TEST_CASE("normexp variance: the factor is 1 at d_k = 1, so both columns are the same bits") {
  const auto v = attn::ScoreVarianceExperiment({1}, 5000, 3);
  REQUIRE(v.size() == 1);
  CHECK(v[0].var_unscaled == v[0].var_scaled);
  // and at d_k = 4 exactly a factor 4 apart up to rounding (the same pairs), never equal
  const auto w = attn::ScoreVarianceExperiment({4}, 5000, 3);
  REQUIRE(w.size() == 1);
  CHECK(w[0].var_unscaled != w[0].var_scaled);
  CHECK(std::abs(w[0].var_unscaled / 4 - w[0].var_scaled) <= 1e-12 * w[0].var_scaled);
}

TEST_CASE("normexp: a seed gives the same points; a point does not depend on the rest of the list") {
  const auto a = attn::ScoreVarianceExperiment({8, 64}, 3000, 5);
  const auto b = attn::ScoreVarianceExperiment({8, 64}, 3000, 5);
  const auto c = attn::ScoreVarianceExperiment({64}, 3000, 5);
  const auto d = attn::ScoreVarianceExperiment({8, 64}, 3000, 6);
  REQUIRE(a.size() == 2);
  REQUIRE(c.size() == 1);
  REQUIRE(d.size() == 2);
  CHECK(a[0].var_unscaled == b[0].var_unscaled);
  CHECK(a[1].var_scaled == b[1].var_scaled);
  CHECK(a[1].var_unscaled == c[0].var_unscaled);
  CHECK(a[0].var_unscaled != a[1].var_unscaled / 8);  // each d_k has its own draws
  CHECK(d[0].var_unscaled != a[0].var_unscaled);      // another seed, other draws

  const auto s1 = attn::SoftmaxSaturationExperiment({4, 16}, 8, 300, 9);
  const auto s2 = attn::SoftmaxSaturationExperiment({16}, 8, 300, 9);
  REQUIRE(s1.size() == 2);
  REQUIRE(s2.size() == 1);
  CHECK(s1[1].entropy_unscaled == s2[0].entropy_unscaled);
  CHECK(s1[1].grad_scaled == s2[0].grad_scaled);
  CHECK(s1[1].max_weight_unscaled == s2[0].max_weight_unscaled);

  const auto o1 = attn::OutputNormExperiment({1, 2}, kAll, 8, 4, 300, 9);
  const auto o2 = attn::OutputNormExperiment({2}, kAll, 8, 4, 300, 9);
  const auto o3 = attn::OutputNormExperiment({2}, kAll, 8, 4, 300, 10);
  REQUIRE(o1.size() == 2);
  REQUIRE(o2.size() == 1);
  REQUIRE(o3.size() == 1);
  CHECK(o1[1].norm == o2[0].norm);
  CHECK(o1[1].bound == o2[0].bound);
  CHECK(o3[0].bound != o2[0].bound);
}

TEST_CASE("normexp: bad arguments give an empty result, never a crash") {
  using attn::OutputNormExperiment;
  using attn::ScoreVarianceExperiment;
  using attn::SoftmaxSaturationExperiment;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(ScoreVarianceExperiment({}, 100, 1).empty());
  CHECK(ScoreVarianceExperiment({4, 0}, 100, 1).empty());
  CHECK(ScoreVarianceExperiment({-3}, 100, 1).empty());
  CHECK(ScoreVarianceExperiment({attn::kMaxNormDk + 1}, 100, 1).empty());
  CHECK(ScoreVarianceExperiment({4}, 0, 1).empty());
  CHECK(ScoreVarianceExperiment({4}, -5, 1).empty());
  CHECK(ScoreVarianceExperiment({4}, attn::kMaxNormSamples + 1, 1).empty());
  CHECK(ScoreVarianceExperiment({4}, 1, 1).size() == 1);  // one sample is enough for a number

  CHECK(SoftmaxSaturationExperiment({}, 8, 100, 1).empty());
  CHECK(SoftmaxSaturationExperiment({0}, 8, 100, 1).empty());
  CHECK(SoftmaxSaturationExperiment({4}, 0, 100, 1).empty());
  CHECK(SoftmaxSaturationExperiment({4}, -1, 100, 1).empty());
  CHECK(SoftmaxSaturationExperiment({4}, attn::kMaxNormKeys + 1, 100, 1).empty());
  CHECK(SoftmaxSaturationExperiment({4}, 8, 0, 1).empty());

  CHECK(OutputNormExperiment({}, kAll, 8, 4, 100, 1).empty());
  CHECK(OutputNormExperiment({1}, {}, 8, 4, 100, 1).empty());
  CHECK(OutputNormExperiment({1, nan}, kAll, 8, 4, 100, 1).empty());
  CHECK(OutputNormExperiment({inf}, kAll, 8, 4, 100, 1).empty());
  CHECK(OutputNormExperiment({1}, kAll, 0, 4, 100, 1).empty());
  CHECK(OutputNormExperiment({1}, kAll, 8, 0, 100, 1).empty());
  CHECK(OutputNormExperiment({1}, kAll, 8, 4, 0, 1).empty());
  CHECK(OutputNormExperiment({1}, {static_cast<Normalizer>(99)}, 8, 4, 100, 1).empty());
  CHECK(OutputNormExperiment({-2}, kAll, 8, 4, 10, 1).size() == 1);  // negative c is fine
}

// ---- 2. softmax saturation ----------------------------------------------------------------------

TEST_CASE("normexp saturation: entropy <= log M, the largest weight in [1/M, 1]; d_k = 1 is the same bits") {
  const int m = 16;
  const auto points = attn::SoftmaxSaturationExperiment({1, 2, 4, 16, 64, 256}, m, 1000, 1);
  REQUIRE(points.size() == 6);
  for (const auto& p : points) {
    CAPTURE(p.d_k);
    for (const double h : {p.entropy_unscaled, p.entropy_scaled}) {
      CHECK(h >= 0);
      CHECK(h <= std::log(m) + 1e-12);
    }
    for (const double w : {p.max_weight_unscaled, p.max_weight_scaled}) {
      CHECK(w >= 1.0 / m - 1e-12);
      CHECK(w <= 1);
    }
    CHECK(p.grad_unscaled >= 0);
    CHECK(p.grad_scaled >= 0);
  }
  const auto& one = points[0];
  CHECK(one.entropy_unscaled == one.entropy_scaled);
  CHECK(one.grad_unscaled == one.grad_scaled);
  CHECK(one.max_weight_unscaled == one.max_weight_scaled);
  CHECK(points[1].entropy_unscaled != points[1].entropy_scaled);
}

TEST_CASE("normexp saturation: one key is one weight of 1, entropy 0, no gradient") {
  const auto p = attn::SoftmaxSaturationExperiment({1, 8}, 1, 50, 4);
  REQUIRE(p.size() == 2);
  for (const auto& x : p) {
    CHECK(x.entropy_unscaled == 0);
    CHECK(x.entropy_scaled == 0);
    CHECK(x.max_weight_unscaled == 1);
    CHECK(x.grad_unscaled == 0);
    CHECK(x.grad_scaled == 0);
  }
}

TEST_CASE("normexp saturation: scaled rows stay near log M - 1/2 (large M), whatever d_k") {
  // Scaled, the scores of a row are N(0, sigma^2), sigma^2 = |q|^2 / Dk (mean 1, sd sqrt(2/Dk));
  // for large M softmax's entropy is log M - sigma^2 / 2 (p_j ~ e^{z_j - sigma^2/2} / M). A row's
  // entropy then has sd ~ sqrt(0.5 / Dk + 1 / M) (sigma^2, and the row's own M draws); the
  // tolerance is 5 standard errors of the mean plus 0.02 for the finite-M bias (measured: ~0.01
  // at M = 256..1024).
  const int m = 512, samples = 150;
  const auto points = attn::SoftmaxSaturationExperiment({32, 128}, m, samples, 2);
  REQUIRE(points.size() == 2);
  for (const auto& p : points) {
    CAPTURE(p.d_k);
    CAPTURE(p.entropy_scaled);
    const double tol = 5 * std::sqrt(0.5 / p.d_k + 1.0 / m) / std::sqrt(samples) + 0.02;
    CHECK(std::abs(p.entropy_scaled - (std::log(m) - 0.5)) < tol);
    CHECK(p.entropy_unscaled < std::log(m) - 2);  // unscaled: sigma^2 ~ Dk >= 32, far from it
  }
}

TEST_CASE("normexp saturation: unscaled, larger d_k saturates (entropy and gradient fall); scaled does not") {
  // Scaled, every d_k gives the same distribution of rows: the means over 1000 rows differ by
  // noise only (measured over 10 seeds: at most 0.025 in entropy, 4% in gradient).
  const auto points = attn::SoftmaxSaturationExperiment({16, 64, 256, 1024}, 16, 1000, 1);
  REQUIRE(points.size() == 4);
  for (std::size_t i = 1; i < points.size(); ++i) {
    CAPTURE(points[i].d_k);
    CHECK(points[i].entropy_unscaled < points[i - 1].entropy_unscaled);
    CHECK(points[i].max_weight_unscaled > points[i - 1].max_weight_unscaled);
    CHECK(points[i].grad_unscaled < points[i - 1].grad_unscaled);
    // scaled: the same distribution of rows at every d_k, up to noise
    CHECK(std::abs(points[i].entropy_scaled - points[0].entropy_scaled) < 0.05);
    CHECK(std::abs(points[i].grad_scaled / points[0].grad_scaled - 1) < 0.1);
  }
  const auto& big = points.back();
  CHECK(big.entropy_unscaled < 0.15);      // nearly one-hot rows
  CHECK(big.max_weight_unscaled > 0.95);
  CHECK(big.grad_unscaled < big.grad_scaled / 4);  // and almost no gradient through them
}

// ---- 3. output norm -----------------------------------------------------------------------------

TEST_CASE("normexp output: convex normalizers stay under max ||v_i|| at every size; sigmoid and none do not") {
  const std::vector<double> cs = {0, 0.25, 1, 4, 16, 100, 1000};
  const auto points = attn::OutputNormExperiment(cs, kAll, 16, 8, 1000, 1);
  REQUIRE(points.size() == cs.size());
  for (const auto& p : points) {
    CAPTURE(p.magnitude);
    REQUIRE(p.norm.size() == kAll.size());
    for (const int at : {kSoftmaxAt, kSparsemaxAt, kReluNormAt, kHardmaxAt}) {
      CAPTURE(at);
      CHECK(p.norm[at] <= p.bound * (1 + 1e-12));
      CHECK(p.norm[at] > 0);
    }
  }
  // The bound is not vacuous: sigmoid's half-weights at c = 0 sum to M/2 and exceed it, and
  // "none" passes it once c is large.
  CHECK(points[0].norm[kSigmoidAt] > points[0].bound);
  CHECK(points.back().norm[kNoneAt] > 10 * points.back().bound);
}

TEST_CASE("normexp output: 'none' is linear in c; relu-norm ignores c > 0; c = 0 is the uniform row") {
  const std::vector<double> cs = {0, 0.5, 1, 2, 8, 64};
  const auto p = attn::OutputNormExperiment(cs, kAll, 16, 8, 500, 3);
  REQUIRE(p.size() == cs.size());
  CHECK(p[0].norm[kNoneAt] == 0);
  const double per_unit = p[2].norm[kNoneAt];  // c = 1
  REQUIRE(per_unit > 0);
  for (std::size_t i = 1; i < cs.size(); ++i) {
    CAPTURE(cs[i]);
    CHECK(std::abs(p[i].norm[kNoneAt] / (cs[i] * per_unit) - 1) < 1e-12);
    CHECK(std::abs(p[i].norm[kReluNormAt] / p[1].norm[kReluNormAt] - 1) < 1e-12);
    CHECK(p[i].bound == p[0].bound);  // the same draws at every magnitude
  }
  // c = 0: softmax, sparsemax, relu-norm (no positive score) and hardmax (all tied) are all the
  // uniform row, 1/M exactly: the same output, bit for bit.
  for (const int at : {kSparsemaxAt, kReluNormAt, kHardmaxAt}) CHECK(p[0].norm[at] == p[0].norm[kSoftmaxAt]);
  // Growing c sharpens softmax: from the mean of the values towards one value.
  for (std::size_t i = 1; i < cs.size(); ++i) CHECK(p[i].norm[kSoftmaxAt] > p[i - 1].norm[kSoftmaxAt]);
}

TEST_CASE("normexp output: the analytic means (uniform row, one-hot row, sigmoid at 0, none)") {
  const int m = 16, dv = 8, samples = 4000;
  const auto p = attn::OutputNormExperiment({0, 1, 1e4}, kAll, m, dv, samples, 11);
  REQUIRE(p.size() == 3);
  const double mu = ChiMean(dv), var = dv - mu * mu;  // ||N(0, I_Dv)||
  auto within = [&](double measured, double mean, double sd) {
    CAPTURE(measured);
    CAPTURE(mean);
    CHECK(std::abs(measured - mean) <= 5 * sd / std::sqrt(samples));
  };
  // c = 0, softmax: the mean of M values ~ N(0, I / M)
  within(p[0].norm[kSoftmaxAt], mu / std::sqrt(m), std::sqrt(var / m));
  // c = 0, sigmoid: (1/2) sum of M values ~ N(0, M/4 I)
  within(p[0].norm[kSigmoidAt], mu * std::sqrt(m) / 2, std::sqrt(var * m / 4));
  // c huge, softmax and hardmax: one value, chosen by z alone, so ~ N(0, I)
  within(p[2].norm[kSoftmaxAt], mu, std::sqrt(var));
  within(p[2].norm[kHardmaxAt], mu, std::sqrt(var));
  // none at c = 1: z V = |z| u with u ~ N(0, I_Dv) independent of |z| ~ chi_M
  const double mu_m = ChiMean(m);
  within(p[1].norm[kNoneAt], mu_m * mu, std::sqrt(m * dv - mu_m * mu_m * mu * mu));
  // the bound: the largest of M norms ~ chi_Dv
  double max_mean = 0, max_second = 0;
  MaxChiMoments(dv, m, &max_mean, &max_second);
  within(p[0].bound, max_mean, std::sqrt(max_second - max_mean * max_mean));
}

// ---- 4. training curves ---------------------------------------------------------------------------

TEST_CASE("normexp curves: DefaultCurveSpecs is the 8 comparisons and the softmax reference on the base config") {
  TrainConfig base = SmallConfig();
  base.d_k = 16;
  base.lr = 0.03;
  base.normalizer = Normalizer::kSigmoid;
  base.scaled = false;
  const auto specs = attn::DefaultCurveSpecs(base);
  REQUIRE(specs.size() == 9);
  const char* labels[] = {"softmax ÷√d_k, d_k=4",    "softmax no scaling, d_k=4",
                          "softmax ÷√d_k, d_k=64",   "softmax no scaling, d_k=64",
                          "sparsemax ÷√d_k, d_k=16", "relunorm ÷√d_k, d_k=16",
                          "sigmoid ÷√d_k, d_k=16",   "none ÷√d_k, d_k=16",
                          "softmax ÷√d_k, d_k=16"};
  const Normalizer norms[] = {Normalizer::kSoftmax,   Normalizer::kSoftmax,  Normalizer::kSoftmax,
                              Normalizer::kSoftmax,   Normalizer::kSparsemax, Normalizer::kReluNorm,
                              Normalizer::kSigmoid,   Normalizer::kNone,     Normalizer::kSoftmax};
  const int dks[] = {4, 4, 64, 64, 16, 16, 16, 16, 16};
  const bool scaled[] = {true, false, true, false, true, true, true, true, true};
  for (int i = 0; i < 9; ++i) {
    CAPTURE(i);
    CHECK(specs[i].label == labels[i]);
    CHECK(specs[i].config.normalizer == norms[i]);
    CHECK(specs[i].config.d_k == dks[i]);
    CHECK(specs[i].config.scaled == scaled[i]);
    CHECK(specs[i].config.lr == base.lr);  // everything else is the base's
    CHECK(specs[i].config.task == base.task);
    CHECK(specs[i].config.d_model == base.d_model);
    CHECK(attn::ValidateTrainConfig(specs[i].config).ok());
  }
}

TEST_CASE("normexp curves: Start refuses bad input and leaves nothing to run") {
  CurveExperiment e;
  std::string error;
  CHECK_FALSE(e.done());
  CHECK(e.progress() == 0);
  CHECK_FALSE(e.Advance(10));  // never started
  const std::vector<CurveSpec> one = {{"small", SmallConfig()}};
  CHECK_FALSE(e.Start({}, 2, 5, &error));
  CHECK(error.find("empty") != std::string::npos);
  CHECK_FALSE(e.Start(one, 0, 5, &error));
  CHECK(error.find("seeds") != std::string::npos);
  CHECK_FALSE(e.Start(one, attn::kMaxCurveSeeds + 1, 5, &error));
  CHECK_FALSE(e.Start(one, 2, 0, &error));
  CHECK(error.find("steps") != std::string::npos);
  CHECK_FALSE(e.Start(one, 2, attn::kMaxCurveSteps + 1, &error));
  TrainConfig bad = SmallConfig();
  bad.batch = 0;
  CHECK_FALSE(e.Start({{"good", SmallConfig()}, {"broken", bad}}, 2, 5, &error));
  CHECK(error.find("\"broken\"") != std::string::npos);
  CHECK(error.find("batch") != std::string::npos);
  CHECK_FALSE(e.done());
  CHECK(e.series().empty());
  CHECK_FALSE(e.Advance(10));
  // A refused Start after a good one empties the experiment.
  REQUIRE(e.Start(one, 1, 3, &error));
  CHECK(e.series().size() == 1);
  CHECK_FALSE(e.Start(one, 1, 0, &error));
  CHECK(e.series().empty());
  CHECK_FALSE(e.done());
  // The spec's own seed is ignored (the experiment's seeds replace it), even out of range.
  TrainConfig big_seed = SmallConfig();
  big_seed.seed = attn::kMaxSeed + 1;
  CHECK(e.Start({{"seed ignored", big_seed}}, 1, 2, &error));
}

TEST_CASE("normexp curves: progress 0 -> 1, done after specs*seeds*steps steps, series are the seeds' aggregates") {
  TrainConfig a = SmallConfig(), b = SmallConfig();
  b.normalizer = Normalizer::kSparsemax;
  const std::vector<CurveSpec> specs = {{"softmax", a}, {"sparsemax", b}};
  const int seeds = 3, steps = 6;
  CurveExperiment e;
  std::string error;
  REQUIRE(e.Start(specs, seeds, steps, &error));
  CHECK(e.progress() == 0);
  CHECK_FALSE(e.done());
  CHECK(e.steps() == steps);
  const int total = 2 * seeds * steps;
  int calls = 0;
  double last = 0;
  bool more = true;
  while (more) {
    more = e.Advance(1);
    ++calls;
    CHECK(e.progress() > last);
    CHECK(e.progress() == doctest::Approx(static_cast<double>(calls) / total).epsilon(1e-12));
    last = e.progress();
    CHECK(e.done() == !more);
    REQUIRE(calls <= total);
  }
  CHECK(calls == total);
  CHECK(e.progress() == 1);
  CHECK(e.done());
  CHECK_FALSE(e.Advance(5));

  // Every series against the runs made by hand, seed 1..3.
  REQUIRE(e.series().size() == 2);
  for (std::size_t s = 0; s < specs.size(); ++s) {
    const CurveSeries& c = e.series()[s];
    CAPTURE(c.label);
    CHECK(c.label == specs[s].label);
    CHECK(c.diverged == 0);
    CHECK(c.message.empty());
    for (const auto* v : {&c.loss_mean, &c.loss_min, &c.loss_max, &c.acc_mean, &c.acc_min, &c.acc_max,
                          &c.attn_mean})
      CHECK(v->size() == static_cast<std::size_t>(steps));
    REQUIRE(c.alive.size() == static_cast<std::size_t>(steps));
    std::vector<std::vector<attn::StepMetrics>> runs;
    for (int seed = 1; seed <= seeds; ++seed) {
      TrainConfig cfg = specs[s].config;
      cfg.seed = static_cast<std::uint64_t>(seed);
      attn::Trainer t;
      REQUIRE(t.Reset(cfg));
      for (int k = 0; k < steps; ++k) REQUIRE(t.Step());
      runs.push_back(t.history());
    }
    for (int k = 0; k < steps; ++k) {
      CAPTURE(k);
      double lo = 1e300, hi = -1e300, sum = 0, acc_sum = 0, attn_sum = 0;
      for (const auto& r : runs) {
        lo = std::min(lo, r[k].loss);
        hi = std::max(hi, r[k].loss);
        sum += r[k].loss;
        acc_sum += r[k].accuracy;
        attn_sum += r[k].attention_on_source;
      }
      CHECK(c.alive[k] == seeds);
      CHECK(c.loss_min[k] == lo);
      CHECK(c.loss_max[k] == hi);
      CHECK(c.loss_mean[k] == doctest::Approx(sum / seeds).epsilon(1e-14));
      CHECK(c.acc_mean[k] == doctest::Approx(acc_sum / seeds).epsilon(1e-14));
      CHECK(c.attn_mean[k] == doctest::Approx(attn_sum / seeds).epsilon(1e-14));
      CHECK(c.loss_min[k] <= c.loss_mean[k]);
      CHECK(c.loss_mean[k] <= c.loss_max[k]);
      CHECK(c.acc_min[k] <= c.acc_mean[k]);
      CHECK(c.acc_mean[k] <= c.acc_max[k]);
      CHECK(c.loss_min[k] < c.loss_max[k]);  // the seeds differ: a real spread
    }
  }
  // The two specs are different runs.
  CHECK(e.series()[0].loss_mean != e.series()[1].loss_mean);
}

TEST_CASE("normexp curves: Advance's budget and restarting") {
  CurveExperiment e;
  std::string error;
  REQUIRE(e.Start({{"small", SmallConfig()}}, 2, 4, &error));
  CHECK(e.Advance(0));  // no step, work remains
  CHECK(e.progress() == 0);
  CHECK(e.Advance(3));
  CHECK(e.progress() == doctest::Approx(3.0 / 8));
  // Mid-run: step 1..3 of seed 1 only.
  REQUIRE(e.series()[0].loss_mean.size() == 3);
  CHECK(e.series()[0].alive == std::vector<int>{1, 1, 1});
  CHECK_FALSE(e.Advance(1000));
  CHECK(e.done());
  CHECK(e.series()[0].alive == std::vector<int>{2, 2, 2, 2});
  const std::vector<double> first = e.series()[0].loss_mean;
  // Start again: the same numbers from scratch (determinism).
  REQUIRE(e.Start({{"small", SmallConfig()}}, 2, 4, &error));
  CHECK(e.series()[0].loss_mean.empty());
  CHECK_FALSE(e.done());
  CHECK_FALSE(e.Advance(8));
  CHECK(e.series()[0].loss_mean == first);
}

TEST_CASE("normexp curves: a diverging run stops its curve, is counted and keeps its message") {
  const TrainConfig bad = DivergingConfig();
  // By hand: where does each seed stop?
  std::vector<int> completed;
  for (int seed = 1; seed <= 2; ++seed) {
    TrainConfig cfg = bad;
    cfg.seed = static_cast<std::uint64_t>(seed);
    attn::Trainer t;
    REQUIRE(t.Reset(cfg));
    int k = 0;
    while (k < 50 && t.Step()) ++k;
    completed.push_back(k);
  }
  REQUIRE(completed[0] < 50);  // the config does diverge
  REQUIRE(completed[1] < 50);
  const int steps = 50;
  CurveExperiment e;
  std::string error;
  REQUIRE(e.Start({{"fine", SmallConfig()}, {"diverges", bad}}, 2, steps, &error));
  while (e.Advance(7)) {
  }
  CHECK(e.done());
  CHECK(e.progress() == 1);
  const CurveSeries& fine = e.series()[0];
  const CurveSeries& c = e.series()[1];
  CHECK(fine.diverged == 0);
  CHECK(fine.loss_mean.size() == static_cast<std::size_t>(steps));
  CHECK(c.diverged == 2);
  CHECK(c.message.rfind("seed 1: step " + std::to_string(completed[0] + 1) + ":", 0) == 0);
  CHECK(c.diverged_seed == 1);
  CHECK(c.divergence.step == completed[0] + 1);
  const int longest = std::max(completed[0], completed[1]);
  CHECK(c.loss_mean.size() == static_cast<std::size_t>(longest));
  CHECK(c.acc_max.size() == static_cast<std::size_t>(longest));
  REQUIRE(c.alive.size() == static_cast<std::size_t>(longest));
  for (int k = 0; k < longest; ++k) {
    CAPTURE(k);
    CHECK(c.alive[k] == (k < completed[0]) + (k < completed[1]));
    CHECK(std::isfinite(c.loss_mean[k]));
  }
}
