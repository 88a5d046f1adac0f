// The LP solver against hand-solved and brute-force optima: degenerate, infeasible, unbounded,
// redundant rows, Beale's cycling example, and large degenerate same-output LPs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/geometry/lp.h"
#include "polytope_testing.h"

using attn::MatD;
using attn::VecD;
using namespace polytope_testing;
using attn::LpOptions;
using attn::LpResult;

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
