// The information panel's verdicts through ComputeLab (issue 10, "wrong results" 1 and 2): the
// analysis runs over the keys the query can see (a causal mask), and in the set the normalizer's
// weights live in (softmax ... hardmax: the simplex; sigmoid: the box [0, 1]^N; none: R^N).
// These use only LabResult, so they read the same against the code before the fix.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/lab/lab.h"

namespace {

using attn::LabConfig;
using attn::LabResult;
using attn::MatD;
using attn::VecD;

// The example: «я очень люблю суши и чай», query «люблю» (2), causal, d_v = 2.
LabConfig CausalExample() {
  LabConfig c;
  c.sentence = "я очень люблю суши и чай";
  c.query = 2;
  c.causal = true;
  c.d_v = 2;
  return c;
}

VecD QueryWeights(const LabResult& r) {
  return r.trace.weights.row(r.steps.query).transpose().cast<double>();
}

double MaxDiff(const VecD& a, const VecD& b) { return (a - b).cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("causal mask: the second scenario puts no weight on a masked key, for every target") {
  for (int target = -1; target < 6; ++target) {
    LabConfig c = CausalExample();
    c.target = target;
    const LabResult r = attn::ComputeLab(c);
    REQUIRE(r.error.ok());
    const VecD& a2 = r.information.collision.alpha2;
    REQUIRE(a2.size() == 6);
    for (int i = 3; i < 6; ++i) CHECK_MESSAGE(a2(i) == 0.0, "target ", target, ", key ", i, ": ", a2(i));
    CHECK(r.information.collision.max_output_diff < 1e-12);
  }
}

TEST_CASE("causal mask: the ranges of masked keys are [0, 0]") {
  const LabResult r = attn::ComputeLab(CausalExample());
  REQUIRE(r.error.ok());
  REQUIRE(r.information.ranges.rows() == 6);
  for (int i = 3; i < 6; ++i) {
    CHECK_MESSAGE(r.information.ranges(i, 0) == 0.0, "key ", i);
    CHECK_MESSAGE(r.information.ranges(i, 1) == 0.0, "key ", i);
  }
}

TEST_CASE("causal mask: the verdict counts the 3 visible keys, whose pattern d_v = 2 recovers") {
  const LabResult r = attn::ComputeLab(CausalExample());
  REQUIRE(r.error.ok());
  CHECK(r.information.info.recoverable);
  CHECK(r.information.info.same_output_dim == 0);
  CHECK(r.information.collision.unique);
  CHECK(r.information.recovery_error < 1e-6);  // the weights are floats: they sum to 1 within ~1e-7
  for (int i = 0; i < 6; ++i) CHECK(r.information.ranges(i, 1) - r.information.ranges(i, 0) < 1e-9);
}

TEST_CASE("causal mask: the automatic target is a key the query can see") {
  const LabResult r = attn::ComputeLab(CausalExample());
  REQUIRE(r.error.ok());
  CHECK(r.target >= 0);
  CHECK(r.target <= 2);
}

TEST_CASE("causal mask: an explicit masked target is moved to the automatic one") {
  LabConfig c = CausalExample();
  const LabResult automatic = attn::ComputeLab(c);
  c.target = 4;  // «и»: after «люблю», masked
  const LabResult r = attn::ComputeLab(c);
  REQUIRE(r.error.ok());
  CHECK(r.target == automatic.target);
}

TEST_CASE("causal mask: the simplex picture's vertices have no weight on masked keys") {
  LabConfig c = CausalExample();
  c.d_v = 1;  // 3 visible values on a line: a segment of patterns with the same A
  const LabResult r = attn::ComputeLab(c);
  REQUIRE(r.error.ok());
  CHECK(r.same_output_vertices.size() >= 1);
  for (const VecD& v : r.same_output_vertices) {
    REQUIRE(v.size() == 6);
    for (int i = 3; i < 6; ++i) CHECK(v(i) == 0.0);
    CHECK(std::abs(v.sum() - QueryWeights(r).sum()) < 1e-9);
  }
  CHECK(r.information.info.same_output_dim == 1);  // 3 visible keys, affine rank 1
}

TEST_CASE("sigmoid: 3 values in 2 dimensions are not recoverable (the box: independence is linear)") {
  LabConfig c;  // «я люблю суши»
  c.normalizer = attn::Normalizer::kSigmoid;
  c.d_v = 2;
  const LabResult r = attn::ComputeLab(c);
  REQUIRE(r.error.ok());
  const VecD alpha = QueryWeights(r);
  CHECK_FALSE(r.information.info.recoverable);
  CHECK(r.information.info.same_output_dim == 1);
  // the second scenario lies in the box, gives the same A, and each range holds the weight
  const VecD& a2 = r.information.collision.alpha2;
  CHECK(a2.minCoeff() >= 0.0);
  CHECK(a2.maxCoeff() <= 1.0);
  CHECK(r.information.collision.max_output_diff < 1e-12);
  CHECK(r.information.collision.changed);
  for (int i = 0; i < 3; ++i) {
    CHECK(r.information.ranges(i, 0) <= alpha(i) + 1e-12);
    CHECK(r.information.ranges(i, 1) >= alpha(i) - 1e-12);
    CHECK(r.information.ranges(i, 0) >= 0.0);
    CHECK(r.information.ranges(i, 1) <= 1.0);
  }
}

TEST_CASE("sigmoid and none: when the verdict says recoverable, the weights read back exactly") {
  for (attn::Normalizer nz : {attn::Normalizer::kSigmoid, attn::Normalizer::kNone}) {
    LabConfig c;  // «я люблю суши», d_v = 8: 3 linearly independent values
    c.normalizer = nz;
    const LabResult r = attn::ComputeLab(c);
    REQUIRE(r.error.ok());
    CHECK(r.information.info.recoverable);
    CHECK_MESSAGE(r.information.recovery_error < 1e-9, attn::NormalizerName(nz), ": ",
                  r.information.recovery_error);
  }
}

TEST_CASE("none: the weights A does not determine have no bounds") {
  LabConfig c;  // «я люблю суши», d_v = 2: a line of real weight patterns with the same A
  c.normalizer = attn::Normalizer::kNone;
  c.d_v = 2;
  const LabResult r = attn::ComputeLab(c);
  REQUIRE(r.error.ok());
  CHECK_FALSE(r.information.info.recoverable);
  CHECK(r.information.info.same_output_dim == 1);
  int unbounded = 0;
  for (int i = 0; i < 3; ++i)
    if (std::isinf(r.information.ranges(i, 0)) && std::isinf(r.information.ranges(i, 1))) ++unbounded;
  CHECK(unbounded >= 2);  // a null vector of a 2×3 matrix has at least 2 nonzeros
  CHECK(r.information.collision.max_output_diff < 1e-9);
  CHECK(r.information.collision.changed);
}

// ---- the three sets by hand, through AnalyzeInformation's scope ----------------------------------

TEST_CASE("box by hand: v = (1), (2), alpha = (1/2, 1/2): a_0 + 2 a_1 = 3/2 in [0, 1]^2") {
  MatD V(2, 1);
  V << 1, 2;
  const VecD alpha = (VecD(2) << 0.5, 0.5).finished();
  attn::InformationScope scope;
  scope.set = attn::FeasibleSet::kBox;
  const attn::InformationReport rep = attn::AnalyzeInformation(V, alpha, 0, scope);
  CHECK(rep.set == attn::FeasibleSet::kBox);
  CHECK(rep.info.linear_rank == 1);
  CHECK(rep.info.same_output_dim == 1);
  CHECK_FALSE(rep.info.recoverable);
  CHECK_FALSE(rep.collision.unique);
  CHECK(rep.ranges(0, 0) == doctest::Approx(0.0));
  CHECK(rep.ranges(0, 1) == doctest::Approx(1.0));
  CHECK(rep.ranges(1, 0) == doctest::Approx(0.25));
  CHECK(rep.ranges(1, 1) == doctest::Approx(0.75));
  CHECK(rep.collision.alpha2(0) == doctest::Approx(1.0));
  CHECK(rep.collision.alpha2(1) == doctest::Approx(0.25));
  // on the simplex the same values and weights are unique (2 distinct values: affinely independent)
  CHECK(attn::AnalyzeInformation(V, alpha, 0).info.recoverable);
}

TEST_CASE("box by hand: weights at 0 and at 1 can still leave their bounds") {
  MatD V(3, 1);
  V << 1, 2, 3;
  const VecD alpha = (VecD(3) << 1.0, 0.5, 0.0).finished();  // A = 2
  attn::InformationScope scope;
  scope.set = attn::FeasibleSet::kBox;
  const attn::InformationReport rep = attn::AnalyzeInformation(V, alpha, 2, scope);
  // a_0 + 2 a_1 + 3 a_2 = 2 in [0, 1]^3: a = (0.5, 0, 0.5) also works: not unique; the most
  // on a_2 is 2/3 (a_0 = a_1 = 0), the least on a_0 is 0 (a = (0, 1, 0))
  CHECK_FALSE(rep.collision.unique);
  CHECK(rep.ranges(2, 1) == doctest::Approx(2.0 / 3.0));
  CHECK(rep.ranges(0, 0) == doctest::Approx(0.0));
  CHECK(rep.collision.alpha2(2) == doctest::Approx(2.0 / 3.0));
}

TEST_CASE("affine by hand: v = (1), (2): a_0 + 2 a_1 = 3/2 over R^2, no bounds, one unit more on the target") {
  MatD V(2, 1);
  V << 1, 2;
  const VecD alpha = (VecD(2) << 0.5, 0.5).finished();
  attn::InformationScope scope;
  scope.set = attn::FeasibleSet::kAffine;
  const attn::InformationReport rep = attn::AnalyzeInformation(V, alpha, 0, scope);
  CHECK(rep.info.same_output_dim == 1);
  CHECK_FALSE(rep.collision.unique);
  for (int i = 0; i < 2; ++i) {
    CHECK(std::isinf(rep.ranges(i, 0)));
    CHECK(std::isinf(rep.ranges(i, 1)));
  }
  CHECK(rep.collision.alpha2(0) == doctest::Approx(1.5));
  CHECK(rep.collision.alpha2(1) == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(rep.collision.max_output_diff < 1e-12);
}

TEST_CASE("affine by hand: a weight in the row space of V^T is known even when others are not") {
  MatD V(3, 2);  // v_0 = (1, 0), v_1 = (0, 1), v_2 = (0, 2): a_0 = A_0, a_1 + 2 a_2 = A_1
  V << 1, 0, 0, 1, 0, 2;
  const VecD alpha = (VecD(3) << 0.3, 0.4, 0.2).finished();
  attn::InformationScope scope;
  scope.set = attn::FeasibleSet::kAffine;
  const attn::InformationReport rep = attn::AnalyzeInformation(V, alpha, 1, scope);
  CHECK(rep.ranges(0, 0) == 0.3);
  CHECK(rep.ranges(0, 1) == 0.3);
  CHECK(std::isinf(rep.ranges(1, 1)));
  CHECK(std::isinf(rep.ranges(2, 0)));
  CHECK(rep.collision.alpha2(0) == doctest::Approx(0.3));
  CHECK(rep.collision.alpha2(1) == doctest::Approx(1.4));
}

TEST_CASE("a mask leaves the masked keys out: their values do not count, their ranges are [0, 0]") {
  MatD V(4, 1);  // v = 0, 1, 2, 1: over all 4 keys the pattern could move; over keys 0, 1 it cannot
  V << 0, 1, 2, 1;
  const VecD alpha = (VecD(4) << 0.5, 0.5, 0.0, 0.0).finished();
  attn::InformationScope scope;
  scope.visible = {1, 1, 0, 0};
  const attn::InformationReport rep = attn::AnalyzeInformation(V, alpha, 2, scope);
  CHECK(rep.visible == std::vector<int>{0, 1});
  CHECK(rep.info.recoverable);
  CHECK(rep.collision.unique);
  CHECK(rep.collision.alpha2 == alpha);
  for (int i = 2; i < 4; ++i) CHECK(rep.ranges(i, 1) == 0.0);
  const attn::InformationReport all = attn::AnalyzeInformation(V, alpha, 2);
  CHECK_FALSE(all.collision.unique);  // without the mask, weight moves onto key 2
  // dragging a masked weight changes nothing; dragging a visible one keeps the masked at 0
  CHECK(attn::SetWeightOnSimplex(alpha, 3, 0.8, scope.visible) == alpha);
  const VecD moved = attn::SetWeightOnSimplex(alpha, 0, 0.2, scope.visible);
  CHECK(moved(1) == doctest::Approx(0.8));
  CHECK(moved(2) == 0.0);
  CHECK(moved(3) == 0.0);
}
