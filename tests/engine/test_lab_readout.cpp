// The lesson's small readouts that live in the engine (engine/lab/lab_readout.h), against values
// worked out by hand.
#include "engine/lab/lab_readout.h"

#include <doctest/doctest.h>

using namespace attn;

TEST_SUITE("engine") {

TEST_CASE("InductionRows: each repeated token's weight on the token after its earlier copy") {
  // <eot> a b c a b: position 4 (a) repeats 1 (after it: 2), position 5 (b) repeats 2 (after it: 3).
  const std::vector<int> ids = {0, 7, 8, 9, 7, 8};
  MatF w = MatF::Zero(6, 6);  // (T, T) causal rows summing to 1
  w(0, 0) = 1;
  w(1, 0) = 0.5f, w(1, 1) = 0.5f;
  w(2, 1) = 1;
  w(3, 2) = 1;
  w(4, 0) = 0.1f, w(4, 2) = 0.6f, w(4, 3) = 0.3f;  // a's query finds b, after the first a
  w(5, 0) = 0.5f, w(5, 3) = 0.2f, w(5, 4) = 0.3f;  // b's query: <eot> is not counted as largest
  const std::vector<InductionRow> rows = InductionRows(ids, w);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].query == 4);
  CHECK(rows[0].after_copy == 2);
  CHECK(rows[0].weight_after_copy == doctest::Approx(0.6));
  CHECK(rows[0].largest == 2);
  CHECK(rows[0].spread_evenly == doctest::Approx(1.0 / 5));
  CHECK(rows[1].query == 5);
  CHECK(rows[1].after_copy == 3);
  CHECK(rows[1].weight_after_copy == doctest::Approx(0.2));
  CHECK(rows[1].largest == 4);
  CHECK(rows[1].weight_largest == doctest::Approx(0.3));
  // A token right after its own copy has no "next" before it yet: a a gives no row.
  CHECK(InductionRows({0, 5, 5}, MatF::Identity(3, 3)).empty());
  // Shapes that disagree give nothing rather than reading out of bounds.
  CHECK(InductionRows(ids, MatF::Zero(3, 3)).empty());
}

}  // TEST_SUITE
