// Information in the sum: the LP solver against hand-solved and brute-force optima (degenerate,
// infeasible, unbounded, redundant), the two scenarios and the weight ranges on hand-solved
// and degenerate values, the recoverability criterion on values of known affine rank, the
// seed's sentence, and the probe.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "engine/embedding.h"
#include "engine/information.h"
#include "engine/rng.h"

using attn::LpOptions;
using attn::LpResult;
using attn::MatD;
using attn::VecD;

namespace {

MatD Rows(int rows, int cols, std::initializer_list<double> entries) {  // row by row
  MatD m(rows, cols);
  auto it = entries.begin();
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) m(i, j) = *it++;
  }
  return m;
}

VecD Vector(std::initializer_list<double> entries) {
  VecD v(static_cast<Eigen::Index>(entries.size()));
  int k = 0;
  for (double e : entries) v(k++) = e;
  return v;
}

// max(|A x - b|_inf, max(-x)): how far x is from the feasible set, in the units of the problem.
double Infeasibility(const MatD& A, const VecD& b, const VecD& x) {
  double worst = 0;
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    double s = 0;
    for (Eigen::Index j = 0; j < A.cols(); ++j) s += A(i, j) * x(j);
    worst = std::max(worst, std::abs(s - b(i)));
  }
  for (Eigen::Index j = 0; j < x.size(); ++j) worst = std::max(worst, -x(j));
  return worst;
}

double MaxAbs(const MatD& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

// A standard normal stream for the tests (rng.h: the same numbers everywhere).
struct Normals {
  attn::rng::SplitMix64 stream;
  explicit Normals(std::uint64_t seed) : stream(seed) {}
  double Next() {
    double z[2];
    attn::rng::FillStandardNormal(stream, z, 1);
    return z[0];
  }
  int Int(int lo, int hi) {  // uniform in [lo, hi]
    return lo + static_cast<int>(stream.Next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  MatD Matrix(int rows, int cols) {
    MatD m(rows, cols);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) m(i, j) = Next();
    }
    return m;
  }
};

VecD Softmax(const VecD& s) {
  VecD e = (s.array() - s.maxCoeff()).exp();
  return e / e.sum();
}

// Solves M x = y exactly by Gaussian elimination with full pivoting. False when M (R, k) has
// rank < k or the system is inconsistent (residual > 1e-9 (1 + |y|)).
bool SolveSquareOrTall(const MatD& M, const VecD& y, VecD& x) {
  const int r = static_cast<int>(M.rows()), k = static_cast<int>(M.cols());
  MatD a = M;
  VecD rhs = y;
  std::vector<int> col(k);
  for (int j = 0; j < k; ++j) col[j] = j;
  const double scale = std::max(1.0, MaxAbs(M));
  for (int p = 0; p < k; ++p) {
    int bi = -1, bj = -1;
    double best = 1e-9 * scale;
    for (int i = p; i < r; ++i) {
      for (int j = p; j < k; ++j) {
        if (std::abs(a(i, j)) > best) {
          best = std::abs(a(i, j));
          bi = i;
          bj = j;
        }
      }
    }
    if (bi < 0) return false;  // rank < k
    a.row(p).swap(a.row(bi));
    std::swap(rhs(p), rhs(bi));
    a.col(p).swap(a.col(bj));
    std::swap(col[p], col[bj]);
    for (int i = p + 1; i < r; ++i) {
      const double f = a(i, p) / a(p, p);
      for (int j = p; j < k; ++j) a(i, j) -= f * a(p, j);
      rhs(i) -= f * rhs(p);
    }
  }
  VecD z(k);
  for (int p = k - 1; p >= 0; --p) {
    double s = rhs(p);
    for (int j = p + 1; j < k; ++j) s -= a(p, j) * z(j);
    z(p) = s / a(p, p);
  }
  x = VecD::Zero(k);
  for (int p = 0; p < k; ++p) x(col[p]) = z(p);
  const double res = (M * x - y).cwiseAbs().maxCoeff();
  return res <= 1e-9 * (1 + y.cwiseAbs().maxCoeff());
}

// Every basic feasible solution of {A x = b, x >= 0}: for every set S of columns, the unique
// solution of A_S x_S = b when A_S has independent columns, kept when x_S >= 0. These are the
// vertices of the polytope; an LP that is feasible and bounded attains its optimum on one.
std::vector<VecD> Vertices(const MatD& A, const VecD& b) {
  const int n = static_cast<int>(A.cols());
  std::vector<VecD> out;
  for (int mask = 0; mask < (1 << n); ++mask) {
    std::vector<int> s;
    for (int j = 0; j < n; ++j) {
      if (mask & (1 << j)) s.push_back(j);
    }
    if (static_cast<int>(s.size()) > A.rows()) continue;
    MatD as(A.rows(), static_cast<int>(s.size()));
    for (int k = 0; k < static_cast<int>(s.size()); ++k) as.col(k) = A.col(s[k]);
    VecD xs;
    if (s.empty()) {
      if (b.cwiseAbs().maxCoeff() > 1e-12) continue;
      xs = VecD();
    } else if (!SolveSquareOrTall(as, b, xs)) {
      continue;
    }
    if (xs.size() && xs.minCoeff() < -1e-9) continue;
    VecD x = VecD::Zero(n);
    for (int k = 0; k < static_cast<int>(s.size()); ++k) x(s[k]) = xs(k);
    out.push_back(x);
  }
  return out;
}

// [V^T; 1^T] and [V^T alpha; 1^T alpha]: the constraints of P(alpha).
void SameOutputSystem(const MatD& V, const VecD& alpha, MatD& M, VecD& y) {
  M.resize(V.cols() + 1, V.rows());
  M.topRows(V.cols()) = V.transpose();
  M.row(V.cols()).setOnes();
  y = M * alpha;
}

// The ranges by brute force: min and max of a_i over the vertices of P(alpha).
MatD BruteForceRanges(const MatD& V, const VecD& alpha) {
  MatD M;
  VecD y;
  SameOutputSystem(V, alpha, M, y);
  const std::vector<VecD> vs = Vertices(M, y);
  MatD r(V.rows(), 2);
  for (Eigen::Index i = 0; i < V.rows(); ++i) {
    r(i, 0) = 1e300;
    r(i, 1) = -1e300;
    for (const VecD& v : vs) {
      r(i, 0) = std::min(r(i, 0), v(i));
      r(i, 1) = std::max(r(i, 1), v(i));
    }
  }
  return r;
}

// alpha' is in P(alpha): nonnegative, same total, same output, each to 1e-9 (relative to |V|).
void CheckSameOutput(const MatD& V, const VecD& alpha, const VecD& a2) {
  REQUIRE(a2.size() == alpha.size());
  CHECK(a2.minCoeff() >= 0.0);
  CHECK(std::abs(a2.sum() - alpha.sum()) <= 1e-9);
  const double out_diff =
      V.cols() ? (V.transpose() * (a2 - alpha)).cwiseAbs().maxCoeff() : 0.0;
  CHECK(out_diff <= 1e-9 * std::max(1.0, MaxAbs(V)));
}

// Values of affine rank exactly r: r + 1 generic points in R^dv (r <= dv), then N - r - 1
// random affine combinations of them (coefficients ~ N(0, 1), the first set to make the sum 1).
MatD ValuesOfAffineRank(Normals& rnd, int n, int dv, int r) {
  const MatD points = rnd.Matrix(r + 1, dv);
  MatD v(n, dv);
  for (int i = 0; i < n; ++i) {
    if (i <= r) {
      v.row(i) = points.row(i);
      continue;
    }
    VecD w(r + 1);
    double rest = 0;
    for (int k = 1; k <= r; ++k) rest += (w(k) = rnd.Next());
    w(0) = 1 - rest;
    v.row(i) = w.transpose() * points;
  }
  return v;
}

}  // namespace

// ---- the LP solver ----------------------------------------------------------------------------

TEST_CASE("SolveLp: hand-solved optimum, with slacks") {
  // max x1 + x2  s.t.  x1 + 2 x2 <= 4,  3 x1 + x2 <= 6: the corner x = (1.6, 1.2), value 2.8.
  const MatD A = Rows(2, 4, {1, 2, 1, 0,  //
                             3, 1, 0, 1});
  const VecD b = Vector({4, 6}), c = Vector({1, 1, 0, 0});
  for (auto rule : {LpOptions::kDantzigBland, LpOptions::kBland}) {
    LpOptions opt;
    opt.rule = rule;
    const LpResult r = attn::SolveLp(A, b, c, opt);
    REQUIRE(r.status == LpResult::kOptimal);
    CHECK(r.value == doctest::Approx(2.8).epsilon(1e-12));
    CHECK(r.x(0) == doctest::Approx(1.6).epsilon(1e-12));
    CHECK(r.x(1) == doctest::Approx(1.2).epsilon(1e-12));
    CHECK(Infeasibility(A, b, r.x) <= 1e-12);
  }
}

TEST_CASE("SolveLp: Beale's example cycles without anti-cycling and terminates with it") {
  // Beale (1955), in equality form with the slacks x1..x3 (Chvatal, Linear Programming, ch. 3):
  // max 3/4 x4 - 20 x5 + 1/2 x6 - 6 x7, optimum 5/4 at x4 = x6 = 1, x1 = 3/4. From the slack
  // basis every early pivot is degenerate, and the textbook rule (largest coefficient enters,
  // lowest index leaves on ties) returns to the starting basis after six pivots.
  const MatD A = Rows(3, 7, {1, 0, 0, 0.25, -8, -1, 9,     //
                             0, 1, 0, 0.5, -12, -0.5, 3,   //
                             0, 0, 1, 0, 0, 1, 0});
  const VecD b = Vector({0, 0, 1}), c = Vector({0, 0, 0, 0.75, -20, 0.5, -6});
  for (auto rule : {LpOptions::kDantzigBland, LpOptions::kBland}) {
    LpOptions opt;
    opt.rule = rule;
    const LpResult r = attn::SolveLp(A, b, c, opt);
    CAPTURE(rule);
    REQUIRE(r.status == LpResult::kOptimal);
    CHECK(r.value == doctest::Approx(1.25).epsilon(1e-12));
    CHECK(r.x(3) == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(r.x(5) == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(r.x(0) == doctest::Approx(0.75).epsilon(1e-12));
    CHECK(Infeasibility(A, b, r.x) <= 1e-12);
    CHECK(r.iterations < 50);
  }
  LpOptions textbook;
  textbook.rule = LpOptions::kDantzig;
  textbook.max_iterations = 600;
  CHECK(attn::SolveLp(A, b, c, textbook).status == LpResult::kIterationLimit);
}

TEST_CASE("SolveLp: a degenerate vertex where three constraints meet") {
  // max x1 + x2  s.t.  x1 <= 1, x2 <= 1, x1 + x2 <= 2: the corner (1, 1) lies on all three.
  const MatD A = Rows(3, 5, {1, 0, 1, 0, 0,  //
                             0, 1, 0, 1, 0,  //
                             1, 1, 0, 0, 1});
  const VecD b = Vector({1, 1, 2}), c = Vector({1, 1, 0, 0, 0});
  const LpResult r = attn::SolveLp(A, b, c);
  REQUIRE(r.status == LpResult::kOptimal);
  CHECK(r.value == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(Infeasibility(A, b, r.x) <= 1e-12);
}

TEST_CASE("SolveLp: infeasible problems") {
  // x1 + x2 = 1 and x1 + x2 = 2.
  CHECK(attn::SolveLp(Rows(2, 2, {1, 1, 1, 1}), Vector({1, 2}), Vector({1, 0})).status ==
        LpResult::kInfeasible);
  // x1 + x2 = -1 with x >= 0.
  CHECK(attn::SolveLp(Rows(1, 2, {1, 1}), Vector({-1}), Vector({1, 0})).status ==
        LpResult::kInfeasible);
  // 0 = 1.
  CHECK(attn::SolveLp(Rows(2, 2, {1, 1, 0, 0}), Vector({1, 1}), Vector({1, 0})).status ==
        LpResult::kInfeasible);
  // A redundant-looking but inconsistent pair: x1 + x2 + x3 = 1, 2 (x1 + x2 + x3) = 3.
  CHECK(attn::SolveLp(Rows(2, 3, {1, 1, 1, 2, 2, 2}), Vector({1, 3}), Vector({1, 0, 0})).status ==
        LpResult::kInfeasible);
  // Weights on the simplex cannot average 1-D values (0, 1) to 2.
  CHECK(attn::SolveLp(Rows(2, 2, {0, 1, 1, 1}), Vector({2, 1}), Vector({1, 0})).status ==
        LpResult::kInfeasible);
}

TEST_CASE("SolveLp: unbounded problems, and an empty constraint set") {
  // max x1  s.t.  x1 - x2 = 1: x = (1 + t, t) for every t >= 0.
  const LpResult r = attn::SolveLp(Rows(1, 2, {1, -1}), Vector({1}), Vector({1, 0}));
  CHECK(r.status == LpResult::kUnbounded);
  // No rows: max -x1 - x2 is 0 at the origin; max x1 is unbounded.
  const LpResult z = attn::SolveLp(MatD(0, 2), VecD(0), Vector({-1, -1}));
  REQUIRE(z.status == LpResult::kOptimal);
  CHECK(z.value == 0.0);
  CHECK(attn::SolveLp(MatD(0, 2), VecD(0), Vector({1, 0})).status == LpResult::kUnbounded);
  // A zero row with b = 0 is dropped, not an error.
  const LpResult d = attn::SolveLp(Rows(2, 2, {1, 1, 0, 0}), Vector({1, 0}), Vector({1, 2}));
  REQUIRE(d.status == LpResult::kOptimal);
  CHECK(d.value == doctest::Approx(2.0));
}

TEST_CASE("SolveLp: redundant rows are dropped (rank-deficient [V^T; 1^T])") {
  // Repeated values in 1-D: v = (1, 1, 1) gives the rows [1 1 1; 1 1 1].
  {
    const MatD A = Rows(2, 3, {1, 1, 1, 1, 1, 1});
    const LpResult r = attn::SolveLp(A, Vector({1, 1}), Vector({0, 1, 0}));
    REQUIRE(r.status == LpResult::kOptimal);
    CHECK(r.value == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(Infeasibility(A, Vector({1, 1}), r.x) <= 1e-12);
  }
  // Collinear 2-D values v_i = (t_i, 2 t_i), t = (0, 1, 2): three rows of rank 2.
  {
    const MatD A = Rows(3, 3, {0, 1, 2,  //
                               0, 2, 4,  //
                               1, 1, 1});
    const VecD b = Vector({1, 2, 1});  // alpha = (0, 1, 0)
    const LpResult r = attn::SolveLp(A, b, Vector({0, 0, 1}));
    REQUIRE(r.status == LpResult::kOptimal);
    CHECK(r.value == doctest::Approx(0.5).epsilon(1e-12));
    CHECK(r.x(0) == doctest::Approx(0.5).epsilon(1e-12));
    CHECK(Infeasibility(A, b, r.x) <= 1e-12);
  }
  // A row that is the sum of two others, scaled: its artificial stays basic at 0 and goes.
  {
    const MatD A = Rows(3, 4, {1, 2, 0, 1,  //
                               0, 1, 3, 1,  //
                               3, 9, 9, 6});
    const VecD b = Vector({2, 3, 15});
    const LpResult r = attn::SolveLp(A, b, Vector({1, 1, 1, 1}));
    REQUIRE(r.status == LpResult::kOptimal);
    CHECK(Infeasibility(A, b, r.x) <= 1e-12);
    // The brute force over all bases agrees.
    double best = -1e300;
    for (const VecD& v : Vertices(A, b)) best = std::max(best, v.sum());
    CHECK(r.value == doctest::Approx(best).epsilon(1e-12));
  }
}

TEST_CASE("SolveLp: optima against brute force over all bases (N <= 6)") {
  // Small integer entries make ties and degenerate vertices common; b = A x0 with a sparse
  // x0 >= 0 keeps the problem feasible, a positive row keeps it bounded, a duplicated
  // combination of rows makes some problems rank deficient. Every third problem gets a random
  // b instead, which is often infeasible.
  Normals rnd(20240601);
  int optimal = 0, infeasible = 0, worst_case = -1;
  double worst_gap = 0, worst_infeas = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = rnd.Int(2, 6), rows = rnd.Int(1, std::min(4, n));
    MatD A(rows, n);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < n; ++j) A(i, j) = rnd.Int(-3, 3);
    }
    for (int j = 0; j < n; ++j) A(0, j) = rnd.Int(1, 3);  // bounded: x_j <= b_0
    if (rows >= 3 && trial % 2 == 0) A.row(rows - 1) = A.row(0) - 2 * A.row(1);  // redundant
    VecD x0 = VecD::Zero(n);
    for (int j = 0; j < n; ++j) x0(j) = rnd.Int(0, 2) == 0 ? 0.0 : rnd.Int(1, 4);
    VecD b = A * x0;
    if (trial % 3 == 2) {
      for (int i = 0; i < rows; ++i) b(i) = rnd.Int(-6, 6);
    }
    VecD c(n);
    for (int j = 0; j < n; ++j) c(j) = rnd.Int(-4, 4);
    const std::vector<VecD> vertices = Vertices(A, b);
    for (auto rule : {LpOptions::kDantzigBland, LpOptions::kBland}) {
      LpOptions opt;
      opt.rule = rule;
      const LpResult r = attn::SolveLp(A, b, c, opt);
      CAPTURE(trial);
      CAPTURE(rule);
      if (vertices.empty()) {
        CHECK(r.status == LpResult::kInfeasible);
        ++infeasible;
        continue;
      }
      REQUIRE(r.status == LpResult::kOptimal);
      ++optimal;
      double best = -1e300;
      for (const VecD& v : vertices) best = std::max(best, c.dot(v));
      const double gap = std::abs(r.value - best) / (1 + std::abs(best));
      const double infeas = Infeasibility(A, b, r.x);
      if (gap > worst_gap) {
        worst_gap = gap;
        worst_case = trial;
      }
      worst_infeas = std::max(worst_infeas, infeas);
      CHECK(gap <= 1e-9);
      CHECK(infeas <= 1e-9);
    }
  }
  MESSAGE("brute force: " << optimal << " optimal, " << infeasible << " infeasible; worst gap "
                          << worst_gap << " (trial " << worst_case << "), worst infeasibility "
                          << worst_infeas);
  CHECK(optimal > 200);
  CHECK(infeasible > 20);
}

TEST_CASE("SolveLp: large degenerate same-output LPs are feasible to 1e-9 and rules agree") {
  // [V^T; 1^T] a = [V^T alpha; 1] with N up to 64, repeated and collinear values, sparse alpha.
  Normals rnd(7);
  double worst = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = rnd.Int(2, 64), dv = rnd.Int(1, 16);
    MatD V = rnd.Matrix(n, dv);
    for (int i = 1; i < n; i += 3) V.row(i) = V.row(i - 1);                  // repeated
    if (trial % 2) V.col(dv - 1) = 2 * V.col(0) + VecD::Constant(n, 1.0);  // collinear dims
    VecD alpha = VecD::Zero(n);
    for (int i = 0; i < n; i += 2) alpha(i) = rnd.Int(0, 3);
    if (alpha.sum() == 0) alpha(0) = 1;
    alpha /= alpha.sum();
    MatD M;
    VecD y;
    SameOutputSystem(V, alpha, M, y);
    const VecD c = rnd.Matrix(n, 1).col(0);
    LpOptions bland;
    bland.rule = LpOptions::kBland;
    const LpResult r1 = attn::SolveLp(M, y, c), r2 = attn::SolveLp(M, y, c, bland);
    CAPTURE(trial);
    REQUIRE(r1.status == LpResult::kOptimal);
    REQUIRE(r2.status == LpResult::kOptimal);
    const double scale = std::max(1.0, MaxAbs(M));
    CHECK(Infeasibility(M, y, r1.x) <= 1e-9 * scale);
    CHECK(Infeasibility(M, y, r2.x) <= 1e-9 * scale);
    CHECK(r1.value == doctest::Approx(r2.value).epsilon(1e-9));
    CHECK(r1.value >= c.dot(alpha) - 1e-9);  // alpha itself is feasible
    worst = std::max(worst, Infeasibility(M, y, r1.x) / scale);
  }
  MESSAGE("large same-output LPs: worst infeasibility " << worst);
}

// ---- the two scenarios and the ranges --------------------------------------------------------

TEST_CASE("Collide: 1-D values (0, 1, 2), alpha on the middle token") {
  // A = 1. The most weight token 2 can take with the same A is 1/2, the rest on token 0.
  const MatD V = Rows(3, 1, {0, 1, 2});
  const VecD alpha = Vector({0, 1, 0});
  const attn::Collision c = attn::Collide(V, alpha, 2);
  CHECK(c.output(0) == 1.0);
  CHECK(c.alpha2(0) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(c.alpha2(1) == doctest::Approx(0.0));
  CHECK(c.alpha2(2) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(c.output2(0) == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(c.max_output_diff <= 1e-15);
  CHECK(c.top == 1);
  CHECK_FALSE(c.unique);
  CHECK(c.changed);
  const MatD r = attn::WeightRanges(V, alpha);
  const MatD expected = Rows(3, 2, {0, 0.5, 0, 1, 0, 0.5});
  CHECK((r - expected).cwiseAbs().maxCoeff() <= 1e-12);
  const attn::AffineInfo info = attn::AnalyzeValues(V);
  CHECK(info.affine_rank == 1);
  CHECK(info.same_output_dim == 1);
  CHECK_FALSE(info.recoverable);
  // alpha = e_0 sits on a vertex of the hull: nothing else averages to 0, so it is unique
  // although the values are not affinely independent.
  const attn::Collision v0 = attn::Collide(V, Vector({1, 0, 0}), 2);
  CHECK(v0.unique);
  CHECK_FALSE(v0.changed);
  CHECK(attn::WeightRanges(V, Vector({1, 0, 0})).col(1).sum() == doctest::Approx(1.0));
}

TEST_CASE("Collide: the second stage takes weight off the top token on the optimal face") {
  // v = (0, 1, 2, 2): tokens 2 and 3 are identical. alpha = (0.1, 0.2, 0.45, 0.25), A = 1.6,
  // top = 2. The most weight on token 0 is 0.2 (the rest at value 2: a2 + a3 = 0.8, shared
  // freely); the second stage puts all of that 0.8 on token 3, none on the top token.
  const MatD V = Rows(4, 1, {0, 1, 2, 2});
  const VecD alpha = Vector({0.1, 0.2, 0.45, 0.25});
  const attn::Collision one = attn::Collide(V, alpha, 0, false);
  CHECK(one.alpha2(0) == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(one.alpha2(1) == doctest::Approx(0.0));
  CHECK(one.alpha2(2) + one.alpha2(3) == doctest::Approx(0.8).epsilon(1e-12));
  const attn::Collision two = attn::Collide(V, alpha, 0, true);
  CHECK(two.top == 2);
  const VecD expected = Vector({0.2, 0, 0, 0.8});
  CHECK((two.alpha2 - expected).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK(two.max_output_diff <= 1e-14);
  CheckSameOutput(V, alpha, two.alpha2);
  // The ranges agree with the brute force over all vertices; either of the identical tokens
  // can be left with nothing, and token 0 gets at most the 0.2 found above.
  const MatD r = attn::WeightRanges(V, alpha), brute = BruteForceRanges(V, alpha);
  CHECK((r - brute).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK(r(0, 1) == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(r(2, 0) == doctest::Approx(0.0));
  CHECK(r(3, 0) == doctest::Approx(0.0));
}

TEST_CASE("Collide: a 2-D triangle is recoverable; ranges are points; recovery is exact") {
  const MatD V = Rows(3, 2, {0, 0, 1, 0, 0, 1});
  const VecD alpha = Vector({0.2, 0.3, 0.5});
  const attn::AffineInfo info = attn::AnalyzeValues(V);
  CHECK(info.affine_rank == 2);
  CHECK(info.same_output_dim == 0);
  CHECK(info.recoverable);
  for (int t = 0; t < 3; ++t) {
    for (bool second : {false, true}) {
      const attn::Collision c = attn::Collide(V, alpha, t, second);
      CHECK(c.unique);
      CHECK_FALSE(c.changed);
      CHECK(c.alpha2 == alpha);
    }
  }
  const MatD r = attn::WeightRanges(V, alpha);
  CHECK(r.col(0) == alpha);
  CHECK(r.col(1) == alpha);
  const attn::Recovery rec = attn::RecoverWeights(V, V.transpose() * alpha);
  CHECK((rec.alpha - alpha).cwiseAbs().maxCoeff() <= 1e-14);
  CHECK(rec.residual <= 1e-15);
}

TEST_CASE("degenerate values give defined answers") {
  SUBCASE("two identical tokens share their weight freely") {
    const MatD V = Rows(2, 2, {1, 2, 1, 2});
    const VecD alpha = Vector({0.3, 0.7});
    const attn::AffineInfo info = attn::AnalyzeValues(V);
    CHECK(info.affine_rank == 0);
    CHECK(info.same_output_dim == 1);
    CHECK_FALSE(info.recoverable);
    const MatD r = attn::WeightRanges(V, alpha);
    CHECK((r - Rows(2, 2, {0, 1, 0, 1})).cwiseAbs().maxCoeff() <= 1e-12);
    const attn::Collision c = attn::Collide(V, alpha, 0);
    CHECK((c.alpha2 - Vector({1, 0})).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK_FALSE(c.unique);
    CHECK(c.max_output_diff <= 1e-15);
  }
  SUBCASE("a repeated value among others: the pair's ranges are [0, a0 + a1]") {
    const MatD V = Rows(4, 2, {0, 0, 0, 0, 1, 0, 0, 1});  // tokens 0 and 1 identical
    const VecD alpha = Vector({0.1, 0.2, 0.3, 0.4});
    const MatD r = attn::WeightRanges(V, alpha);
    const MatD expected = Rows(4, 2, {0, 0.3, 0, 0.3, 0.3, 0.3, 0.4, 0.4});
    CHECK((r - expected).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK(attn::AnalyzeValues(V).affine_rank == 2);
  }
  SUBCASE("collinear 2-D values behave as their 1-D positions on the line") {
    const VecD t = Vector({0, 1, 3, 4});
    MatD V(4, 2), V1(4, 1);
    for (int i = 0; i < 4; ++i) {
      V(i, 0) = 5 + t(i) * 0.6;
      V(i, 1) = -2 + t(i) * 0.8;
      V1(i, 0) = t(i);
    }
    const VecD alpha = Vector({0.1, 0.4, 0.3, 0.2});
    CHECK(attn::AnalyzeValues(V).affine_rank == 1);
    const MatD r = attn::WeightRanges(V, alpha), r1 = attn::WeightRanges(V1, alpha);
    CHECK((r - r1).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK((r - BruteForceRanges(V1, alpha)).cwiseAbs().maxCoeff() <= 1e-12);
  }
  SUBCASE("one token: alpha = (1), unique") {
    const MatD V = Rows(1, 3, {3, 4, 5});
    const VecD alpha = Vector({1});
    const attn::AffineInfo info = attn::AnalyzeValues(V);
    CHECK(info.affine_rank == 0);
    CHECK(info.same_output_dim == 0);
    CHECK(info.recoverable);
    const attn::Collision c = attn::Collide(V, alpha, 0, true);
    CHECK(c.unique);
    CHECK(c.alpha2(0) == 1.0);
    CHECK(c.output == Vector({3, 4, 5}));
    const MatD r = attn::WeightRanges(V, alpha);
    CHECK(r(0, 0) == 1.0);
    CHECK(r(0, 1) == 1.0);
    CHECK(attn::RecoverWeights(V, Vector({3, 4, 5})).alpha(0) == doctest::Approx(1.0));
  }
  SUBCASE("all values equal (up to rounding): every pattern gives the same A") {
    const MatD V = MatD::Constant(4, 3, 0.1);
    const VecD alpha = Vector({0.25, 0.25, 0.25, 0.25});
    CHECK(attn::AnalyzeValues(V).affine_rank == 0);
    const MatD r = attn::WeightRanges(V, alpha);
    for (int i = 0; i < 4; ++i) {
      CHECK(r(i, 0) == doctest::Approx(0.0));
      CHECK(r(i, 1) == doctest::Approx(1.0));
    }
    CHECK(attn::Collide(V, alpha, 3).alpha2(3) == doctest::Approx(1.0));
  }
  SUBCASE("no tokens, no dimensions, mismatched sizes, target out of range") {
    CHECK(attn::AnalyzeValues(MatD(0, 4)).affine_rank == -1);
    CHECK(attn::WeightRanges(MatD(0, 4), VecD(0)).rows() == 0);
    const MatD flat(3, 0);  // d_v = 0: A says nothing at all
    CHECK(attn::AnalyzeValues(flat).affine_rank == 0);
    const MatD r = attn::WeightRanges(flat, Vector({0.2, 0.3, 0.5}));
    CHECK(r.col(1).minCoeff() == doctest::Approx(1.0));
    CHECK(attn::Collide(Rows(2, 1, {0, 1}), Vector({1}), 0).alpha2.size() == 0);
    const attn::Collision c = attn::Collide(Rows(3, 1, {0, 1, 2}), Vector({0, 1, 0}), 7);
    CHECK_FALSE(c.changed);
    CHECK(c.alpha2 == Vector({0, 1, 0}));
  }
  SUBCASE("scale and shift do not change the verdict") {
    Normals rnd(3);
    const MatD V = ValuesOfAffineRank(rnd, 6, 4, 2);
    const VecD alpha = Softmax(rnd.Matrix(6, 1).col(0));
    const MatD big = (V * 1e6).array() + 1e9, tiny = V * 1e-8;
    CHECK(attn::AnalyzeValues(big).affine_rank == 2);
    CHECK(attn::AnalyzeValues(tiny).affine_rank == 2);
    const MatD r = attn::WeightRanges(V, alpha);
    CHECK((attn::WeightRanges(big, alpha) - r).cwiseAbs().maxCoeff() <= 1e-7);
    CHECK((attn::WeightRanges(tiny, alpha) - r).cwiseAbs().maxCoeff() <= 1e-9);
  }
}

TEST_CASE("random values: collisions stay in P(alpha), ranges match brute force (N <= 6)") {
  Normals rnd(11);
  double worst_range = 0, worst_out = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = rnd.Int(1, 6), dv = rnd.Int(1, 4), r = rnd.Int(0, std::min(dv, n - 1));
    MatD V = ValuesOfAffineRank(rnd, n, dv, r);
    if (trial % 4 == 0) V = V.array().round();  // integer values: ties and repeats
    VecD alpha = Softmax(2 * rnd.Matrix(n, 1).col(0));
    if (trial % 3 == 0 && n > 1) {  // a zero weight
      alpha(rnd.Int(0, n - 1)) = 0;
      alpha /= alpha.sum();
    }
    const int target = rnd.Int(0, n - 1);
    CAPTURE(trial);
    const attn::InformationReport rep = attn::AnalyzeInformation(V, alpha, target, trial % 2);
    const attn::Collision& c = rep.collision;
    CheckSameOutput(V, alpha, c.alpha2);
    worst_out = std::max(worst_out, c.max_output_diff);
    const MatD brute = BruteForceRanges(V, alpha);
    const double gap = (rep.ranges - brute).cwiseAbs().maxCoeff();
    worst_range = std::max(worst_range, gap);
    CHECK(gap <= 1e-9);
    // alpha' reaches the top of the target's range; the ranges contain alpha.
    if (!c.unique) CHECK(c.alpha2(target) == doctest::Approx(rep.ranges(target, 1)).epsilon(1e-9));
    CHECK((rep.ranges.col(0) - alpha).maxCoeff() <= 1e-12);
    CHECK((alpha - rep.ranges.col(1)).maxCoeff() <= 1e-12);
    // unique <=> every range is a point.
    const double widest = (rep.ranges.col(1) - rep.ranges.col(0)).maxCoeff();
    CHECK(c.unique == (widest < 1e-9));
    // The same answers from the separate calls.
    CHECK(rep.ranges == attn::WeightRanges(V, alpha));
    CHECK(c.alpha2 == attn::Collide(V, alpha, target, trial % 2).alpha2);
  }
  MESSAGE("ranges vs brute force: worst gap " << worst_range << "; worst |A - A'| " << worst_out);
}

TEST_CASE("recoverable iff N == r + 1, on values of known affine rank") {
  Normals rnd(5);
  int recoverable = 0, not_recoverable = 0;
  double worst_recovery = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int dv = rnd.Int(1, 8), r = rnd.Int(0, dv), n = rnd.Int(r + 1, r + 4);
    const MatD V = ValuesOfAffineRank(rnd, n, dv, r);
    const attn::AffineInfo info = attn::AnalyzeValues(V);
    CAPTURE(trial);
    CAPTURE(n);
    CAPTURE(dv);
    CAPTURE(r);
    CHECK(info.affine_rank == r);
    CHECK(info.same_output_dim == n - 1 - r);
    CHECK(info.recoverable == (n == r + 1));
    const VecD alpha = Softmax(rnd.Matrix(n, 1).col(0));  // interior: every weight > 0
    const attn::InformationReport rep = attn::AnalyzeInformation(V, alpha, rnd.Int(0, n - 1));
    if (info.recoverable) {
      ++recoverable;
      worst_recovery = std::max(worst_recovery, rep.recovery_error);
      CHECK(rep.recovery_error <= 1e-9);
      CHECK(rep.collision.unique);
      CHECK((rep.ranges.col(1) - rep.ranges.col(0)).maxCoeff() == 0.0);
    } else {
      ++not_recoverable;
      // An interior alpha with affinely dependent values: a whole segment of patterns
      // (at least) gives the same A, so some weight can move and some range is wide.
      CHECK_FALSE(rep.collision.unique);
      CHECK((rep.ranges.col(1) - rep.ranges.col(0)).maxCoeff() > 1e-6);
      CHECK(rep.recovery.residual <= 1e-9 * std::max(1.0, MaxAbs(V)));  // the guess gives A
    }
  }
  MESSAGE(recoverable << " recoverable, " << not_recoverable
                      << " not; worst recovery error " << worst_recovery);
  CHECK(recoverable > 50);
  CHECK(not_recoverable > 50);
}

TEST_CASE("the seed's sentence: nothing lost at d = 8, a collision at d_v = 1") {
  // «я люблю суши» with the lab's defaults (d = 8, seed 1, positional encoding, identity
  // projections): q = x_1 («люблю»), scores x_1 . x_i / sqrt(8), alpha = softmax.
  const attn::MatF X = attn::EmbedTokens({"я", "люблю", "суши"}, 8, 1, true);
  const MatD V = X.cast<double>();  // (3, 8)
  VecD scores(3);
  for (int i = 0; i < 3; ++i) scores(i) = V.row(1).dot(V.row(i)) / std::sqrt(8.0);
  const VecD alpha = Softmax(scores);
  const attn::InformationReport full = attn::AnalyzeInformation(V, alpha, 2);
  CHECK(full.info.affine_rank == 2);
  CHECK(full.info.recoverable);
  CHECK(full.collision.unique);
  CHECK_FALSE(full.collision.changed);
  CHECK((full.ranges.col(1) - full.ranges.col(0)).maxCoeff() == 0.0);
  CHECK(full.recovery_error <= 1e-12);
  // d_v = 1: keep the first coordinate of each value (the pattern alpha is unchanged).
  const MatD V1 = V.leftCols(1);
  const attn::InformationReport one = attn::AnalyzeInformation(V1, alpha, 2);
  CHECK(one.info.affine_rank == 1);
  CHECK_FALSE(one.info.recoverable);
  CHECK_FALSE(one.collision.unique);
  CHECK(one.collision.changed);
  CHECK(one.collision.alpha2(2) > alpha(2) + 0.05);
  CHECK(one.collision.max_output_diff <= 1e-14);
  CheckSameOutput(V1, alpha, one.collision.alpha2);
  MESSAGE("seed sentence: alpha = " << alpha.transpose() << "; at d_v = 1, alpha' = "
                                    << one.collision.alpha2.transpose());
}

// ---- the probe ----------------------------------------------------------------------------------

TEST_CASE("probe: accuracy rises with d_v, falls with tokens, heads trade room for patterns") {
  attn::ProbeConfig cfg;
  cfg.tokens = 8;
  cfg.d_v = 2;
  const attn::ProbeResult narrow = attn::RunProbe(cfg);
  cfg.d_v = 16;
  const attn::ProbeResult wide = attn::RunProbe(cfg);
  MESSAGE("probe, 8 tokens: d_v 2 -> " << narrow.accuracy << ", d_v 16 -> " << wide.accuracy
                                       << " (chance " << wide.chance << ")");
  CHECK(narrow.chance == doctest::Approx(0.125));
  CHECK(narrow.accuracy > narrow.chance + 0.1);
  CHECK(wide.accuracy > narrow.accuracy + 0.15);
  // Deterministic: the same seed, the same numbers.
  CHECK(attn::RunProbe(cfg).accuracy == wide.accuracy);

  // More tokens than d_v + 1: at d_v = 4, 3 tokens vs 16.
  cfg.d_v = 4;
  cfg.tokens = 3;
  const attn::ProbeResult few = attn::RunProbe(cfg);
  cfg.tokens = 16;
  const attn::ProbeResult many = attn::RunProbe(cfg);
  CHECK(few.accuracy > many.accuracy + 0.15);
  CHECK(many.accuracy > many.chance + 0.1);

  // Same total width 16: 4 heads of 4 name each head's favourite less often than 1 head of
  // 16, but name more patterns in all.
  cfg.tokens = 8;
  cfg.d_v = 16;
  cfg.heads = 4;
  const attn::ProbeResult four = attn::RunProbe(cfg);
  CHECK(four.heads == 4);
  CHECK(four.per_head.size() == 4);
  CHECK(four.accuracy < wide.accuracy - 0.1);
  CHECK(four.patterns_named > wide.patterns_named + 0.5);
  CHECK(four.all_heads <= four.accuracy);
}

TEST_CASE("SameOutputVertices: the segment of weights that give the same A, by hand") {
  // Values 0, 1, 2 on a line, alpha on the middle token: A = 1. a1 + 2 a2 = 1 and
  // a0 + a1 + a2 = 1 give a0 = a2, so the set is the segment from (0, 1, 0) to (0.5, 0, 0.5).
  attn::MatD V(3, 1);
  V << 0, 1, 2;
  attn::VecD alpha(3);
  alpha << 0, 1, 0;
  const auto vs = attn::SameOutputVertices(V, alpha);
  REQUIRE(vs.size() == 2);
  bool has_mid = false, has_ends = false;
  for (const auto& v : vs) {
    if (std::abs(v(1) - 1) < 1e-12) has_mid = true;
    if (std::abs(v(0) - 0.5) < 1e-12 && std::abs(v(2) - 0.5) < 1e-12) has_ends = true;
  }
  CHECK(has_mid);
  CHECK(has_ends);
}

TEST_CASE("SameOutputVertices: affinely independent values give alpha alone") {
  attn::MatD V(3, 2);
  V << 0, 0, 1, 0, 0, 1;
  attn::VecD alpha(3);
  alpha << 0.2, 0.3, 0.5;
  const auto vs = attn::SameOutputVertices(V, alpha);
  REQUIRE(vs.size() == 1);
  CHECK((vs[0] - alpha).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("SameOutputVertices agree with the LP ranges on random small cases") {
  attn::rng::SplitMix64 rs(7);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 3 + trial % 3, dv = 1 + trial % 2;
    attn::MatD V(n, dv);
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < dv; ++c) V(i, c) = static_cast<double>(rs.Next() % 1000) / 250.0 - 2.0;
    attn::VecD alpha(n);
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += alpha(i) = 0.1 + static_cast<double>(rs.Next() % 1000) / 1000.0;
    alpha /= sum;
    const auto vs = attn::SameOutputVertices(V, alpha);
    const attn::MatD ranges = attn::WeightRanges(V, alpha);
    REQUIRE_FALSE(vs.empty());
    for (int i = 0; i < n; ++i) {
      double lo = 1e9, hi = -1e9;
      for (const auto& v : vs) { lo = std::min(lo, v(i)); hi = std::max(hi, v(i)); }
      CAPTURE(trial);
      CHECK(lo == doctest::Approx(ranges(i, 0)).epsilon(1e-7));
      CHECK(hi == doctest::Approx(ranges(i, 1)).epsilon(1e-7));
    }
  }
}

TEST_CASE("SetWeightOnSimplex keeps the others' proportions and the sum") {
  attn::VecD a(3);
  a << 0.2, 0.3, 0.5;
  const attn::VecD b = attn::SetWeightOnSimplex(a, 2, 0.75);
  CHECK(b(2) == doctest::Approx(0.75));
  CHECK(b(0) == doctest::Approx(0.1));   // 0.2 * 0.25 / 0.5
  CHECK(b(1) == doctest::Approx(0.15));  // 0.3 * 0.25 / 0.5
  CHECK(b.sum() == doctest::Approx(1.0));
  attn::VecD one_hot(3);
  one_hot << 0, 0, 1;
  const attn::VecD c = attn::SetWeightOnSimplex(one_hot, 2, 0.4);  // the others had nothing
  CHECK(c(0) == doctest::Approx(0.3));
  CHECK(c(1) == doctest::Approx(0.3));
  CHECK(attn::SetWeightOnSimplex(a, 0, 7.0)(0) == doctest::Approx(1.0));  // clamped
  CHECK(attn::SetWeightOnSimplex(a, 0, std::nan(""))(0) == doctest::Approx(0.2));  // NaN ignored
  CHECK(attn::SetWeightOnSimplex(a, 5, 0.5) == a);  // no such token
}

TEST_CASE("Contributions: rows w_i v_i that sum to the output") {
  attn::MatD V(3, 2);
  V << 1, 2, 3, 4, 5, 6;
  attn::VecD w(3);
  w << 0.5, 0.25, 0.25;
  const attn::MatD c = attn::Contributions(V, w);
  REQUIRE(c.rows() == 3);
  CHECK(c(1, 1) == doctest::Approx(1.0));  // 0.25 * 4
  const attn::VecD sum = c.colwise().sum().transpose();
  CHECK(sum(0) == doctest::Approx(0.5 + 0.75 + 1.25));
  CHECK(sum(1) == doctest::Approx(1.0 + 1.0 + 1.5));
  CHECK(attn::Contributions(V, attn::VecD(2)).size() == 0);  // mismatched sizes
}
