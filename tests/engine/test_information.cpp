// Information in the sum: the two scenarios and the weight ranges on hand-solved and degenerate
// values, the recoverability criterion on values of known affine rank, the seed's sentence, and
// the panel's helpers (SetWeightOnSimplex, Contributions).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/text/embedding.h"
#include "engine/information/information.h"
#include "polytope_testing.h"

using attn::MatD;
using attn::VecD;
using namespace polytope_testing;

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
