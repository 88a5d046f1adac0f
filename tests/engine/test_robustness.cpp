// Numerical robustness (issue 14): forward, backward and the information analysis (Collide,
// WeightRanges, the LP) on extreme inputs: +-1e30, subnormals, spreads of 300 orders of
// magnitude, duplicate and collinear values, one token, every key masked. The promise: either a
// refusal with a message, or an answer with no NaN or infinity in it (the one documented
// exception: normalizer "none"'s ranges may be infinite where the output does not bound a
// weight; docs/hardening.md, "Limits"), and the LP always stops.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "engine/information/information.h"
#include "engine/geometry/lp.h"
#include "engine/attention/multihead.h"
#include "engine/attention/normalizers.h"

using namespace attn;

namespace {

template <typename M>
bool AllFinite(const M& m) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (!std::isfinite(static_cast<double>(m(i, j)))) return false;
  return true;
}

// A named (rows, cols) generator of extreme numbers; `salt` makes Q, K and V differ.
struct Scenario {
  const char* name;
  std::function<double(int i, int j, int salt)> at;
};

const double kSub = std::numeric_limits<double>::denorm_min();

const std::vector<Scenario>& Scenarios() {
  static const std::vector<Scenario> s = {
      {"+-1e30", [](int i, int j, int k) { return ((i + 2 * j + k) % 3 - 1) * 1e30; }},
      {"1e30 everywhere", [](int, int, int) { return 1e30; }},
      {"subnormals", [](int i, int j, int k) { return (1 + (i + j + k) % 4) * kSub; }},
      {"near DBL_MIN", [](int i, int j, int k) { return ((i * 7 + j + k) % 5 - 2) * 2.2250738585072014e-308; }},
      {"spread 1e-150..1e150", [](int i, int j, int k) { return ((i + j + k) % 2 ? 1e150 : -1e-150) * (1 + j); }},
      {"duplicate rows", [](int, int j, int k) { return 0.25 * (j + 1) - 0.1 * k; }},
      {"collinear rows", [](int i, int j, int) { return (i + 1) * (j % 2 ? 2.0 : -1.0); }},
      {"zeros", [](int, int, int) { return 0.0; }},
      {"1e154 (squares near overflow)", [](int i, int j, int k) { return ((i + j + k) % 2 ? 1.0 : -1.0) * 1e154; }},
      {"huge d_k sum", [](int, int, int) { return 1e300; }},
  };
  return s;
}

template <typename T>
Mat<T> Fill(int rows, int cols, const Scenario& s, int salt) {
  Mat<T> m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = static_cast<T>(s.at(i, j, salt));
  return m;
}

struct Shape {
  int n, m, d;
};
const Shape kShapes[] = {{1, 1, 1}, {1, 1, 4}, {3, 5, 2}, {6, 6, 3}};

// One head forward and backward; every answer finite or a refusal with a message.
template <typename T>
void CheckHead(const Shape& sh, const Scenario& s, Normalizer nz, const Mask& mask, const char* mask_name) {
  const std::string scenario = s.name, masked = mask_name, normalizer = NormalizerName(nz);
  CAPTURE(scenario);
  CAPTURE(masked);
  CAPTURE(normalizer);
  CAPTURE(sh.n);
  CAPTURE(sh.m);
  CAPTURE(sh.d);
  const Mat<T> Q = Fill<T>(sh.n, sh.d, s, 0), K = Fill<T>(sh.m, sh.d, s, 1), V = Fill<T>(sh.m, sh.d, s, 2);
  HeadConfig cfg;
  cfg.normalizer = nz;
  HeadTrace<T> fwd;
  std::string error;
  if (!HeadForward(fwd, Q, K, V, mask, cfg, &error)) {
    CHECK_FALSE(error.empty());
    return;
  }
  CHECK(AllFinite(fwd.weights));
  CHECK(AllFinite(fwd.output));
  CHECK(AllFinite(fwd.entropy));
  const Mat<T> dOut = Fill<T>(sh.n, sh.d, s, 3);
  HeadGrads<T> g;
  if (!HeadBackward(g, dOut, fwd, mask, cfg, &error)) {
    CHECK_FALSE(error.empty());
    return;
  }
  // HeadBackward does not refuse: when dL/dweights = dOut·Vᵀ overflows T (1e30 values times a
  // 1e30 dOut in float), the gradients are inf/NaN and the callers say so (the CLI, in double:
  // "the result is not finite"; training: the run stops as diverged). Below that bound no
  // gradient may be NaN.
  const double bound = static_cast<double>(dOut.cwiseAbs().maxCoeff()) * static_cast<double>(V.cwiseAbs().maxCoeff()) *
                       sh.d * sh.m * static_cast<double>(Q.cwiseAbs().maxCoeff() + K.cwiseAbs().maxCoeff() + 1);
  if (!(bound < static_cast<double>(std::numeric_limits<T>::max()) / 1e6)) return;
  for (const Mat<T>* m : {&g.dQ, &g.dK, &g.dV})
    for (Eigen::Index i = 0; i < m->size(); ++i) CHECK_FALSE(std::isnan(static_cast<double>((*m)(i))));
}

}  // namespace

TEST_CASE("robustness: HeadForward/HeadBackward on extreme values, every normalizer, masks") {
  for (const Shape& sh : kShapes) {
    const Mask none_masked;  // attend everywhere
    const Mask causal = CausalMask(sh.n, sh.m);
    Mask all_masked(sh.n, sh.m);
    all_masked.setConstant(false);
    for (const Scenario& s : Scenarios())
      for (Normalizer nz : kAllNormalizers) {
        CheckHead<double>(sh, s, nz, none_masked, "none");
        CheckHead<double>(sh, s, nz, causal, "causal");
        CheckHead<double>(sh, s, nz, all_masked, "all masked");
        CheckHead<float>(sh, s, nz, none_masked, "none (float)");
      }
  }
}

TEST_CASE("robustness: every key masked gives zero weights, a zero output and zero gradients") {
  for (Normalizer nz : kAllNormalizers) {
    const std::string normalizer = NormalizerName(nz);
    CAPTURE(normalizer);
    Mask mask(2, 3);
    mask.setConstant(false);
    MatD Q = MatD::Constant(2, 2, 1e30), K = MatD::Constant(3, 2, -1e30), V = MatD::Constant(3, 2, 1e30);
    HeadConfig cfg;
    cfg.normalizer = nz;
    HeadTrace<double> fwd;
    std::string error;
    REQUIRE(HeadForward(fwd, Q, K, V, mask, cfg, &error));
    CHECK(fwd.weights.isZero(0));
    CHECK(fwd.output.isZero(0));
    HeadGrads<double> g;
    const MatD d_out = MatD::Constant(2, 2, 1.0);
    REQUIRE(HeadBackward(g, d_out, fwd, mask, cfg, &error));
    CHECK(g.dQ.isZero(0));
    CHECK(g.dK.isZero(0));
    CHECK(g.dV.isZero(0));
  }
}

TEST_CASE("robustness: scores that overflow are refused, not turned into NaN weights") {
  // 1e200 . 1e200 overflows a double: the engine checks the scores before normalizing.
  const MatD Q = MatD::Constant(2, 2, 1e200), K = MatD::Constant(2, 2, 1e200), V = MatD::Identity(2, 2);
  for (Normalizer nz : kAllNormalizers) {
    HeadConfig cfg;
    cfg.normalizer = nz;
    HeadTrace<double> fwd;
    std::string error;
    CHECK_FALSE(HeadForward(fwd, Q, K, V, Mask(), cfg, &error));
    CHECK_FALSE(error.empty());
  }
}

namespace {

void CheckInformation(const MatD& V, const VecD& alpha, int target, FeasibleSet set, const char* what) {
  const std::string scenario = what, feasible_set = FeasibleSetName(set);
  CAPTURE(scenario);
  CAPTURE(feasible_set);
  InformationScope scope;
  scope.set = set;
  for (bool min_top : {false, true}) {
    scope.then_minimize_top = min_top;
    const InformationReport r = AnalyzeInformation(V, alpha, target, scope);
    REQUIRE(r.collision.alpha2.size() == alpha.size());
    CHECK(AllFinite(r.collision.alpha2));
    REQUIRE(r.ranges.rows() == alpha.size());
    for (Eigen::Index i = 0; i < r.ranges.rows(); ++i) {
      CHECK_FALSE(std::isnan(r.ranges(i, 0)));
      CHECK_FALSE(std::isnan(r.ranges(i, 1)));
      if (set != FeasibleSet::kAffine) {  // only none's ranges may be unbounded (documented)
        CHECK(std::isfinite(r.ranges(i, 0)));
        CHECK(std::isfinite(r.ranges(i, 1)));
      }
      CHECK(r.ranges(i, 0) <= r.ranges(i, 1));
    }
    CHECK(r.info.affine_rank >= 0);
  }
}

}  // namespace

TEST_CASE("robustness: Collide and WeightRanges on degenerate and extreme values") {
  struct Case {
    const char* name;
    MatD V;
  };
  auto rows = [](int n, int d, std::function<double(int, int)> f) {
    MatD m(n, d);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < d; ++j) m(i, j) = f(i, j);
    return m;
  };
  const std::vector<Case> cases = {
      {"one token", rows(1, 3, [](int, int j) { return j + 1.0; })},
      {"duplicates", rows(5, 2, [](int i, int j) { return i % 2 ? 1.0 + j : -1.0; })},
      {"all equal", rows(4, 3, [](int, int) { return 7.0; })},
      {"collinear", rows(6, 3, [](int i, int j) { return (i + 1.0) * (j + 1.0); })},
      {"zeros", rows(4, 2, [](int, int) { return 0.0; })},
      {"+-1e30", rows(5, 3, [](int i, int j) { return ((i + j) % 3 - 1) * 1e30; })},
      {"subnormals", rows(4, 2, [](int i, int j) { return (i + 2 * j + 1) * kSub; })},
      {"spread 1e-150..1e150", rows(5, 2, [](int i, int j) { return (i + j) % 2 ? 1e150 : 1e-150 * (i + 1); })},
      {"near 1e154", rows(4, 2, [](int i, int j) { return (i == j ? 1.0 : -1.0) * 1e154; })},
      {"one dimension, many tokens", rows(12, 1, [](int i, int) { return (i % 4) * 0.5; })},
  };
  for (const Case& c : cases) {
    const int n = static_cast<int>(c.V.rows());
    VecD uniform = VecD::Constant(n, 1.0 / n);
    VecD one_hot = VecD::Zero(n);
    one_hot(0) = 1;
    VecD skewed(n);
    for (int i = 0; i < n; ++i) skewed(i) = std::ldexp(1.0, -(i + 1));
    skewed(n - 1) += std::ldexp(1.0, -n);  // sums to 1 exactly
    for (FeasibleSet set : {FeasibleSet::kSimplex, FeasibleSet::kBox, FeasibleSet::kAffine})
      for (const VecD* a : {&uniform, &one_hot, &skewed})
        for (int target : {0, n - 1}) CheckInformation(c.V, *a, target, set, c.name);
  }
}

TEST_CASE("robustness: the LP stops on degenerate, redundant and badly scaled problems") {
  struct Lp {
    const char* name;
    MatD A;
    VecD b, c;
  };
  std::vector<Lp> lps;
  {  // every row the same (redundant), b on the row
    MatD A = MatD::Ones(4, 5);
    lps.push_back({"identical rows", A, VecD::Ones(4), VecD::LinSpaced(5, 1, 5)});
  }
  {  // all-zero matrix: b = 0 feasible (rows dropped), b != 0 infeasible
    lps.push_back({"zero rows, b = 0", MatD::Zero(3, 4), VecD::Zero(3), VecD::Ones(4)});
    lps.push_back({"zero rows, b != 0", MatD::Zero(3, 4), VecD::Ones(3), VecD::Ones(4)});
  }
  {  // entries from 1e-300 to 1e300
    MatD A(3, 4);
    A << 1e300, 1e-300, 1, 0, 1, 1, 1, 1, 1e-300, 1e300, 0, 1;
    lps.push_back({"badly scaled", A, VecD::Ones(3), VecD::Ones(4)});
  }
  {  // the same-output LP of 8 collinear values: [V^T; 1^T] of rank 2 with 9 rows
    MatD A(9, 8);
    for (int j = 0; j < 8; ++j) {
      for (int k = 0; k < 8; ++k) A(k, j) = (j + 1.0) * (k + 1.0);
      A(8, j) = 1;
    }
    VecD b = A * VecD::Constant(8, 1.0 / 8);
    VecD c = VecD::Zero(8);
    c(7) = 1;
    lps.push_back({"collinear same-output", A, b, c});
  }
  {  // unbounded
    MatD A(1, 2);
    A << 1, -1;
    lps.push_back({"unbounded", A, VecD::Zero(1), VecD::Ones(2)});
  }
  {  // subnormal entries
    MatD A = MatD::Constant(2, 3, kSub);
    lps.push_back({"subnormals", A, VecD::Constant(2, kSub), VecD::Ones(3)});
  }
  for (const Lp& lp : lps) {
    const std::string name = lp.name;
    CAPTURE(name);
    for (auto rule : {LpOptions::kDantzigBland, LpOptions::kBland}) {
      LpOptions opt;
      opt.rule = rule;
      const LpResult r = SolveLp(lp.A, lp.b, lp.c, opt);
      const int limit = 50 * static_cast<int>(lp.A.rows() + lp.A.cols()) + 1000;
      CHECK(r.iterations <= limit);
      CHECK(r.status != LpResult::kIterationLimit);
      if (r.status == LpResult::kOptimal) {
        CHECK(AllFinite(r.x));
        CHECK(std::isfinite(r.value));
      }
    }
  }
}
