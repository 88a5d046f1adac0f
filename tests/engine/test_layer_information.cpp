// One head seen through its layer (layer_information.h): hand cases whose answers are worked out
// in the comments, the theorem "the concatenation and a full-rank W_O add nothing" against the
// single-head analysis (information.h), and the singular values against Eigen's SVD.
#include <doctest/doctest.h>

#include <Eigen/SVD>

#include "engine/information/information.h"
#include "engine/information/layer_information.h"
#include "engine/base/rng.h"

using namespace attn;

namespace {

MatD Random(int rows, int cols, std::uint64_t seed) {
  rng::SplitMix64 g(seed);
  MatD m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = static_cast<double>(g.Next() >> 11) / 9007199254740992.0 * 2 - 1;
  return m;
}
VecD RandomSimplex(int n, std::uint64_t seed) {
  VecD a = Random(n, 1, seed).col(0).array().exp().matrix();
  return a / a.sum();
}

}  // namespace

TEST_CASE("layer information: the singular values agree with Eigen's SVD (tall, wide, rank-deficient)") {
  for (const auto& [r, c] : {std::pair{20, 7}, std::pair{7, 20}, std::pair{128, 128}}) {
    const int rows = r, cols = c;  // CAPTURE's lambda cannot capture a structured binding in C++17
    MatD a = Random(rows, cols, 11 + rows);
    const VecD mine = SingularValues(a);
    const VecD ref = Eigen::JacobiSVD<MatD>(a).singularValues();
    REQUIRE(mine.size() == ref.size());
    CAPTURE(rows);
    CHECK((mine - ref).cwiseAbs().maxCoeff() <= 1e-12 * ref(0));
  }
  for (const auto& [r, c] : {std::pair{20, 7}, std::pair{7, 20}, std::pair{128, 128}}) {
    const int rows = r, cols = c;
    const MatD a = Random(rows, cols, 31 + rows);
    const VecD ref = Eigen::JacobiSVD<MatD>(a).singularValues();
    const RankSummary s = SummarizeRank(a);
    CAPTURE(rows);
    CHECK(s.rank == std::min(rows, cols));
    CHECK(s.largest == doctest::Approx(ref(0)).epsilon(1e-6));
    CHECK(s.smallest == doctest::Approx(ref(ref.size() - 1)).epsilon(1e-6));
  }
  MatD low = Random(10, 3, 5) * Random(3, 8, 6);  // rank 3
  const RankSummary s = SummarizeRank(low);
  CHECK(s.rank == 3);
  CHECK(s.condition > 1e9);
}

TEST_CASE("layer information: the concatenation and a full-rank W_O tell exactly what A tells") {
  // 3 heads of Dh = 2 over n = 6 keys: each head alone loses 6 - 1 - 2 = 3 dimensions.
  const int H = 3, dh = 2, n = 6;
  LayerHeadsInput in;
  for (int j = 0; j < H; ++j) {
    in.values.push_back(Random(n, dh, 100 + j));
    in.alphas.push_back(RandomSimplex(n, 200 + j));
  }
  for (int head = 0; head < H; ++head) {
    const InformationReport alone = AnalyzeInformation(in.values[head], in.alphas[head], 0);
    REQUIRE(alone.info.same_output_dim == 3);
    for (const bool identity : {true, false}) {
      in.mix = identity ? MatD(MatD::Identity(H * dh, H * dh)) : Random(H * dh, H * dh, 7);
      const LayerInformation li = AnalyzeLayerHeads(in, head, 0);
      CAPTURE(head);
      CAPTURE(identity);
      REQUIRE(li.ok);
      CHECK(li.dim == H * 3);           // the heads' own dimensions add up
      CHECK(li.head_dim == 3);          // and head h keeps its own
      CHECK_FALSE(li.recoverable);
      CHECK((li.ranges - alone.ranges).cwiseAbs().maxCoeff() <= 1e-9);
      CHECK(li.alpha2(0) == doctest::Approx(alone.collision.alpha2(0)).epsilon(1e-9));
      CHECK(li.max_output_diff <= 1e-12);
    }
  }
}

TEST_CASE("layer information: a rank-deficient W_O couples the heads (A_1 + A_2 hides each pattern)") {
  // Two heads of Dh = 2 over 3 keys: each head's values are affinely independent, so A_j alone
  // gives alpha_j exactly. The output A_1 + A_2 (W_O = [I; I], rank 2 < 4) has 6 unknowns and
  // 2 + 2 equations: a 2-dimensional set, and head 0's 3 weights (2 free after the sum) are
  // entirely free in it (head 1's values, affinely independent, absorb any change).
  LayerHeadsInput in;
  MatD v0(3, 2), v1(3, 2);
  v0 << 0, 0, 1, 0, 0, 1;
  v1 << 0, 0, 2, 0, 0, 2;
  in.values = {v0, v1};
  VecD a0(3), a1(3);
  a0 << 0.2, 0.3, 0.5;
  a1 << 0.4, 0.3, 0.3;
  in.alphas = {a0, a1};
  in.mix.resize(4, 2);
  in.mix << 1, 0, 0, 1, 1, 0, 0, 1;
  const LayerInformation li = AnalyzeLayerHeads(in, 0, 0);
  REQUIRE(li.ok);
  CHECK(li.rank == 4);
  CHECK(li.dim == 2);
  CHECK(li.head_dim == 2);
  // Range of a0_0: A_1 + A_2 = (0.3 + 0.6, 0.5 + 0.6) = (0.9, 1.1); a0 = (1 - p - q, p, q),
  // a1 = (1 - s - t, s, t): p + 2 s = 0.9, q + 2 t = 1.1, all weights in [0, 1].
  // a0_0 = 1 - p - q is largest with p = q = 0 (s = 0.45, t = 0.55: a1_0 = 0): 1; smallest with
  // p + q as large as possible: p <= 0.9, q <= 1.1, p + q <= 1: 0.
  CHECK(li.ranges(0, 0) == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(li.ranges(0, 1) == doctest::Approx(1.0).epsilon(1e-12));
  // a0_1 = p: from 0 to 0.9 (s = 0 then); a0_2 = q: from 0 to 1 (q = 1.1 would need p < 0).
  CHECK(li.ranges(1, 1) == doctest::Approx(0.9).epsilon(1e-12));
  CHECK(li.ranges(2, 1) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(li.alpha2(0) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(li.others_moved > 0.1);
  CHECK(li.max_output_diff <= 1e-12);
}

TEST_CASE("layer information: an unknown part of the residual opens one dimension (hand case)") {
  // One head, Dh = 2, values (0,0), (1,0), (0,1): recoverable from A. The reader does not know
  // the residual along e_1 (a free coefficient): only y_2 = a_2 and the sum tell anything, so
  // a_2 = 0.25 is fixed and a_0 + a_1 = 0.75 splits any way: a line.
  LayerHeadsInput in;
  MatD v(3, 2);
  v << 0, 0, 1, 0, 0, 1;
  VecD a(3);
  a << 0.5, 0.25, 0.25;
  in.values = {v};
  in.alphas = {a};
  in.mix = MatD::Identity(2, 2);
  in.free_dirs.resize(1, 2);
  in.free_dirs << 1, 0;
  const LayerInformation li = AnalyzeLayerHeads(in, 0, 1);
  REQUIRE(li.ok);
  CHECK(li.dim == 1);
  CHECK(li.head_dim == 1);
  CHECK(li.ranges(0, 0) == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(li.ranges(0, 1) == doctest::Approx(0.75).epsilon(1e-12));
  CHECK(li.ranges(1, 1) == doctest::Approx(0.75).epsilon(1e-12));
  CHECK(li.ranges(2, 0) == doctest::Approx(0.25).epsilon(1e-12));
  CHECK(li.ranges(2, 1) == doctest::Approx(0.25).epsilon(1e-12));
  CHECK(li.alpha2(1) == doctest::Approx(0.75).epsilon(1e-12));
  // A direction with a coefficient c >= 0 (true value 0.1) along e_1: y_1 = a_1 + c = 0.35, so
  // a_1 = 0.35 - c can fall to 0 but rise only to 0.35 (c = 0).
  in.free_dirs.resize(0, 2);
  in.pos_dirs.resize(1, 2);
  in.pos_dirs << 1, 0;
  in.pos_coef = VecD::Constant(1, 0.1);
  const LayerInformation lp = AnalyzeLayerHeads(in, 0, 1);
  CHECK(lp.head_dim == 1);
  CHECK(lp.ranges(1, 0) == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(lp.ranges(1, 1) == doctest::Approx(0.35).epsilon(1e-12));
  CHECK(lp.ranges(0, 0) == doctest::Approx(0.4).epsilon(1e-12));
  // Mismatched shapes are refused, not crashed on.
  in.pos_coef = VecD();
  CHECK_FALSE(AnalyzeLayerHeads(in, 0, 1).ok);
  CHECK_FALSE(AnalyzeLayerHeads(in, 3, 1).ok);
}
