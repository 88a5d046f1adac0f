// The vertices of the same-output polytope P(alpha): by hand, for affinely independent values,
// and against the LP's weight ranges.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/information/information.h"
#include "engine/geometry/same_output.h"
#include "polytope_testing.h"

using attn::MatD;
using attn::VecD;
using namespace polytope_testing;

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
