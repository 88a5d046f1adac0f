// Attention: softmax properties, numerical stability, temperature limits, and the whole forward
// pass against an independent triple-loop reference in double.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "engine/attention/attention.h"

using attn::AttentionConfig;
using attn::AttentionTrace;
using attn::Mat;
using attn::MatF;
using attn::Projection;

namespace {

using MatD = Mat<double>;

// A tiny deterministic generator for test inputs (not the engine's, on purpose).
struct TestRng {
  std::uint64_t s;
  double Uniform(double lo, double hi) {  // [lo, hi)
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * static_cast<double>(s >> 11) * 0x1.0p-53;
  }
};

template <typename T>
Mat<T> RandomMatrix(int rows, int cols, TestRng& rng, double lo, double hi) {
  Mat<T> m(rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) m(r, c) = static_cast<T>(rng.Uniform(lo, hi));
  }
  return m;
}

template <typename T>
bool HasNaN(const Mat<T>& m) {
  for (Eigen::Index k = 0; k < m.size(); ++k) {
    if (std::isnan(m.data()[k])) return true;
  }
  return false;
}

template <typename T>
double MaxAbsDiff(const Mat<T>& a, const MatD& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  double worst = 0;
  for (Eigen::Index r = 0; r < a.rows(); ++r) {
    for (Eigen::Index c = 0; c < a.cols(); ++c) {
      worst = std::max(worst, std::abs(static_cast<double>(a(r, c)) - b(r, c)));
    }
  }
  return worst;
}

AttentionConfig Config(Projection p, bool scaled, double temperature, int d_k = 8,
                       std::uint64_t seed = 1) {
  AttentionConfig cfg;
  cfg.projection = p;
  cfg.scaled = scaled;
  cfg.temperature = temperature;
  cfg.d_k = d_k;
  cfg.seed = seed;
  return cfg;
}

// ---- the reference: plain loops in double, straight from the formulas ---------------------

struct Reference {
  MatD scores, weights, output;  // (N, N) (N, N) (N, Dv)
};

Reference ReferenceAttention(const MatD& X, const MatD& Wq, const MatD& Wk, const MatD& Wv,
                             bool scaled, double temperature) {
  const int n = static_cast<int>(X.rows()), d = static_cast<int>(X.cols());
  const int dk = static_cast<int>(Wq.cols()), dv = static_cast<int>(Wv.cols());
  MatD Q = MatD::Zero(n, dk), K = MatD::Zero(n, dk), V = MatD::Zero(n, dv);
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < dk; ++c) {
      for (int k = 0; k < d; ++k) {
        Q(i, c) += X(i, k) * Wq(k, c);
        K(i, c) += X(i, k) * Wk(k, c);
      }
    }
    for (int c = 0; c < dv; ++c) {
      for (int k = 0; k < d; ++k) V(i, c) += X(i, k) * Wv(k, c);
    }
  }
  Reference ref;
  ref.scores = MatD::Zero(n, n);
  ref.weights = MatD::Zero(n, n);
  ref.output = MatD::Zero(n, dv);
  const double scale = scaled ? 1.0 / std::sqrt(static_cast<double>(dk)) : 1.0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> z(static_cast<std::size_t>(n));
    double mx = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < n; ++j) {
      for (int c = 0; c < dk; ++c) ref.scores(i, j) += Q(i, c) * K(j, c);
      z[static_cast<std::size_t>(j)] = ref.scores(i, j) * scale / temperature;
      mx = std::max(mx, z[static_cast<std::size_t>(j)]);
    }
    double sum = 0;
    for (int j = 0; j < n; ++j) sum += std::exp(z[static_cast<std::size_t>(j)] - mx);
    for (int j = 0; j < n; ++j) {
      ref.weights(i, j) = std::exp(z[static_cast<std::size_t>(j)] - mx) / sum;
      for (int c = 0; c < dv; ++c) ref.output(i, c) += ref.weights(i, j) * V(j, c);
    }
  }
  return ref;
}

// Row softmax of one row given as a list, through the engine.
template <typename T>
Mat<T> SoftmaxOf(std::initializer_list<T> row) {
  Mat<T> m(1, static_cast<Eigen::Index>(row.size()));
  Eigen::Index k = 0;
  for (const T v : row) m(0, k++) = v;
  return attn::RowSoftmax<T>(m);
}

}  // namespace

TEST_CASE("softmax: equal scores give uniform weights") {
  const MatF w = SoftmaxOf<float>({0.7f, 0.7f, 0.7f, 0.7f});
  for (int j = 0; j < 4; ++j) CHECK(w(0, j) == doctest::Approx(0.25).epsilon(1e-7));
  const Mat<double> w5 = SoftmaxOf<double>({-3.0, -3.0, -3.0, -3.0, -3.0});
  for (int j = 0; j < 5; ++j) CHECK(w5(0, j) == doctest::Approx(0.2).epsilon(1e-14));
}

TEST_CASE("softmax: one dominant score gives a (near) one-hot row") {
  const MatF w = SoftmaxOf<float>({0.0f, 30.0f, 1.0f, -2.0f});
  CHECK(w(0, 1) > 1.0f - 1e-6f);
  CHECK(w(0, 0) < 1e-12f);
  CHECK(w(0, 2) < 1e-12f);
  CHECK(w(0, 3) < 1e-12f);
  CHECK(w(0, 0) > 0.0f);  // small but still there: exp(-30) ~ 9.4e-14
}

TEST_CASE("softmax: every row sums to 1") {
  TestRng rng{42};
  const MatF s = RandomMatrix<float>(20, 13, rng, -8, 8);
  const MatF w = attn::RowSoftmax<float>(s);
  for (int i = 0; i < w.rows(); ++i) {
    CAPTURE(i);
    CHECK(w.row(i).sum() == doctest::Approx(1.0).epsilon(1e-6));
    CHECK(w.row(i).minCoeff() > 0.0f);
  }
  // The larger score always gets the larger weight.
  for (int j = 1; j < w.cols(); ++j) CHECK((s(0, j) > s(0, 0)) == (w(0, j) > w(0, 0)));
}

TEST_CASE("softmax: stable for scores of +-1e4 (no overflow, no 0/0)") {
  // Naive exp(1e4) is inf (inf/inf = NaN); naive exp(-1e4) is 0 (0/0 = NaN).
  const MatF big = SoftmaxOf<float>({1e4f, 1e4f});
  CHECK(big(0, 0) == doctest::Approx(0.5));
  CHECK(big(0, 1) == doctest::Approx(0.5));
  const MatF small = SoftmaxOf<float>({-1e4f, -1e4f, -1e4f, -1e4f});
  for (int j = 0; j < 4; ++j) CHECK(small(0, j) == doctest::Approx(0.25));
  const MatF mixed = SoftmaxOf<float>({-1e4f, 1e4f, 0.0f, 5e3f});
  CHECK_FALSE(HasNaN(mixed));
  CHECK(mixed(0, 1) == 1.0f);  // argmax gets everything
  CHECK(mixed(0, 0) == 0.0f);
  CHECK(mixed(0, 2) == 0.0f);
  CHECK(mixed(0, 3) == 0.0f);
  // Even at the ends of float's range.
  const float huge = std::numeric_limits<float>::max();
  const MatF ends = SoftmaxOf<float>({-huge, huge, 0.0f});
  CHECK_FALSE(HasNaN(ends));
  CHECK(ends(0, 1) == 1.0f);
  const Mat<double> d = SoftmaxOf<double>({1e4, -1e4, 9999.0});
  CHECK_FALSE(HasNaN(d));
  CHECK(d(0, 0) == doctest::Approx(1.0 / (1.0 + std::exp(-1.0))).epsilon(1e-12));
}

TEST_CASE("attention: large embeddings stay finite and pick the argmax") {
  // Scores of order 1e4 through the whole forward pass.
  MatF X(3, 2);
  X << 100, 0,  //
      0, 100,   //
      70, 70;
  AttentionTrace<float> tr;
  std::string error;
  REQUIRE(attn::AttentionForward<float>(tr, X, Config(Projection::kIdentity, true, 1.0), &error));
  CHECK(error.empty());
  CHECK_FALSE(HasNaN(tr.weights));
  CHECK_FALSE(HasNaN(tr.output));
  // q_0 . k = [1e4, 0, 7000]: row 0 is one-hot on key 0; q_2 . k = [7000, 7000, 9800].
  CHECK(tr.weights(0, 0) == 1.0f);
  CHECK(tr.weights(2, 2) == 1.0f);
  CHECK(tr.scores(0, 0) == 1e4f);
}

TEST_CASE("attention: temperature limits") {
  TestRng rng{7};
  const MatF X = RandomMatrix<float>(5, 4, rng, -1, 1);
  AttentionTrace<float> hot, cold, t1;
  REQUIRE(attn::AttentionForward<float>(hot, X, Config(Projection::kIdentity, true, 1e3)));
  REQUIRE(attn::AttentionForward<float>(cold, X, Config(Projection::kIdentity, true, 1e-3)));
  REQUIRE(attn::AttentionForward<float>(t1, X, Config(Projection::kIdentity, true, 1.0)));
  for (int i = 0; i < 5; ++i) {
    CAPTURE(i);
    // T -> large: scaled -> 0, weights -> 1/N.
    CHECK((hot.weights.row(i).array() - 0.2f).abs().maxCoeff() < 1e-2f);
    // T -> small: hardmax, all weight on the argmax of the scores.
    Eigen::Index arg = 0;
    t1.scores.row(i).maxCoeff(&arg);
    CHECK(cold.weights(i, arg) > 1.0f - 1e-6f);
    CHECK(cold.weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-6));
    // In between the sharpest weight lies between the two.
    CHECK(t1.weights.row(i).maxCoeff() > hot.weights.row(i).maxCoeff());
    CHECK(t1.weights.row(i).maxCoeff() < cold.weights.row(i).maxCoeff());
  }
  // And the trace keeps the temperature it used.
  CHECK(cold.temperature == 1e-3f);
  CHECK(cold.scaled(1, 2) == doctest::Approx(cold.scores(1, 2) * cold.scale / 1e-3f).epsilon(1e-6));
}

TEST_CASE("attention: non-finite scores return false with a message") {
  AttentionTrace<float> tr;
  std::string error;
  // Finite X whose scores overflow float: 1e20^2 = 1e40 > 3.4e38.
  MatF X(2, 2);
  X << 1e20f, 0, 0, 1e20f;
  CHECK_FALSE(
      attn::AttentionForward<float>(tr, X, Config(Projection::kIdentity, true, 1.0), &error));
  CHECK_FALSE(error.empty());
  CHECK(error.find('\n') == std::string::npos);

  // Finite scores that overflow only when divided by a small temperature.
  MatF Y(2, 1);
  Y << 1e19f, 1e18f;  // scores up to 1e38 < float max; / 1e-3 overflows
  error.clear();
  CHECK_FALSE(
      attn::AttentionForward<float>(tr, Y, Config(Projection::kIdentity, false, 1e-3), &error));
  CHECK_FALSE(error.empty());
  CHECK(attn::AttentionForward<float>(tr, Y, Config(Projection::kIdentity, false, 1.0)));

  Mat<double> Z(2, 2);
  Z << 1e200, 0, 0, 1e200;
  AttentionTrace<double> trd;
  error.clear();
  CHECK_FALSE(
      attn::AttentionForward<double>(trd, Z, Config(Projection::kIdentity, true, 1.0), &error));
  CHECK_FALSE(error.empty());

  // NaN or infinite input, and a temperature that is not > 0.
  MatF bad = MatF::Zero(2, 2);
  bad(1, 0) = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(attn::AttentionForward<float>(tr, bad, Config(Projection::kIdentity, true, 1.0)));
  bad(1, 0) = std::numeric_limits<float>::infinity();
  CHECK_FALSE(attn::AttentionForward<float>(tr, bad, Config(Projection::kIdentity, true, 1.0)));
  const MatF ok = MatF::Ones(2, 2);
  CHECK_FALSE(attn::AttentionForward<float>(tr, ok, Config(Projection::kIdentity, true, 0.0)));
  CHECK_FALSE(attn::AttentionForward<float>(
      tr, ok, Config(Projection::kIdentity, true, std::numeric_limits<double>::quiet_NaN())));
  CHECK(attn::AttentionForward<float>(tr, ok, Config(Projection::kIdentity, true, 1.0)));
}

TEST_CASE("attention: the trace keeps every intermediate, consistently") {
  TestRng rng{3};
  const MatF X = RandomMatrix<float>(4, 6, rng, -2, 2);  // (N, D) = (4, 6)
  AttentionTrace<float> tr;
  REQUIRE(attn::AttentionForward<float>(tr, X, Config(Projection::kIdentity, true, 0.5)));
  CHECK(tr.d_k == 6);
  CHECK(tr.d_v == 6);
  CHECK(tr.scale == doctest::Approx(1.0 / std::sqrt(6.0)).epsilon(1e-7));
  CHECK(tr.W_Q == MatF::Identity(6, 6));
  CHECK(tr.W_K == MatF::Identity(6, 6));
  CHECK(tr.W_V == MatF::Identity(6, 6));
  CHECK(tr.Q == X);  // q = k = v = x exactly: the seed's account
  CHECK(tr.K == X);
  CHECK(tr.V == X);
  REQUIRE(tr.weighted_values.size() == 4);
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(tr.row_max(i) == tr.scaled.row(i).maxCoeff());
    CHECK(tr.row_sum(i) == doctest::Approx(tr.exps.row(i).sum()).epsilon(1e-6));
    for (int j = 0; j < 4; ++j) {
      CHECK(tr.scaled(i, j) == doctest::Approx(tr.scores(i, j) * tr.scale / 0.5f).epsilon(1e-6));
      CHECK(tr.exps(i, j) ==
            doctest::Approx(std::exp(tr.scaled(i, j) - tr.row_max(i))).epsilon(1e-6));
      CHECK(tr.weights(i, j) == doctest::Approx(tr.exps(i, j) / tr.row_sum(i)).epsilon(1e-6));
      for (int c = 0; c < 6; ++c) {
        CHECK(tr.weighted_values[i](j, c) == tr.weights(i, j) * tr.V(j, c));
      }
    }
    const MatF sum = tr.weighted_values[i].colwise().sum();
    CHECK((sum - tr.output.row(i)).cwiseAbs().maxCoeff() < 1e-6f);
  }

  AttentionTrace<float> unscaled;
  REQUIRE(attn::AttentionForward<float>(unscaled, X, Config(Projection::kIdentity, false, 1.0)));
  CHECK(unscaled.scale == 1.0f);
  CHECK(unscaled.scaled == unscaled.scores);
}

TEST_CASE("attention: random projections are seeded, N(0, 1/rows) and d_v = d_k") {
  const MatF a = attn::RandomProjection<float>(8, 5, 11, 0);
  const MatF b = attn::RandomProjection<float>(8, 5, 11, 0);
  REQUIRE(a.rows() == 8);
  REQUIRE(a.cols() == 5);
  CHECK(std::memcmp(a.data(), b.data(), sizeof(float) * 40) == 0);  // the same bits
  CHECK(a != attn::RandomProjection<float>(8, 5, 11, 1));           // W_Q != W_K
  CHECK(a != attn::RandomProjection<float>(8, 5, 12, 0));           // another seed
  // float is the double rounded once.
  CHECK(a == attn::RandomProjection<double>(8, 5, 11, 0).cast<float>());

  // Values from an independent Python port of the generator (see test_embedding.cpp):
  // stream seed Mix64(Mix64(seed) ^ (which + 1) * golden), filled row by row, / sqrt(rows).
  const MatF g = attn::RandomProjection<float>(3, 2, 7, 1);
  const float expected[3][2] = {{-0.11372654885053635f, 0.27367502450942993f},
                                {0.6499720215797424f, -1.5375062227249146f},
                                {-0.8498546481132507f, 0.368333101272583f}};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 2; ++c) CHECK(g(r, c) == doctest::Approx(expected[r][c]).epsilon(1e-6));
  }

  // 64 x 64 = 4096 entries: variance 1/64 within +-10% (the estimate's sd is ~2.2%).
  const Mat<double> w = attn::RandomProjection<double>(64, 64, 5, 2);
  const double mean = w.mean();
  const double var = (w.array() - mean).square().mean();
  CHECK(std::abs(mean) < 0.01);
  CHECK(var * 64 > 0.9);
  CHECK(var * 64 < 1.1);

  TestRng rng{9};
  const MatF X = RandomMatrix<float>(5, 8, rng, -1, 1);
  AttentionTrace<float> tr;
  REQUIRE(attn::AttentionForward<float>(tr, X, Config(Projection::kRandom, true, 1.0, 3, 11)));
  CHECK(tr.d_k == 3);
  CHECK(tr.d_v == 3);
  CHECK(tr.Q.cols() == 3);
  CHECK(tr.V.cols() == 3);
  CHECK(tr.output.cols() == 3);
  CHECK(tr.weighted_values[0].cols() == 3);
  CHECK(tr.W_Q == attn::RandomProjection<float>(8, 3, 11, 0));
  CHECK(tr.W_K == attn::RandomProjection<float>(8, 3, 11, 1));
  CHECK(tr.W_V == attn::RandomProjection<float>(8, 3, 11, 2));
  CHECK(tr.scale == doctest::Approx(1.0 / std::sqrt(3.0)).epsilon(1e-7));
  AttentionTrace<float> again;
  REQUIRE(attn::AttentionForward<float>(again, X, Config(Projection::kRandom, true, 1.0, 3, 11)));
  CHECK(std::memcmp(tr.output.data(), again.output.data(), sizeof(float) * 15) == 0);
}

TEST_CASE("attention: float and double forward match a plain-loop reference") {
  struct Shape {
    int n, d, dk;
  };
  const Shape shapes[] = {{1, 1, 1}, {3, 8, 8}, {7, 5, 3}, {16, 12, 20}, {64, 64, 64}};
  const double temperatures[] = {0.05, 0.5, 1.0, 3.0, 100.0};
  TestRng rng{2024};
  double worst_float = 0, worst_double = 0;
  int cases = 0;
  for (const Shape& sh : shapes) {
    for (const Projection proj : {Projection::kIdentity, Projection::kRandom}) {
      for (const bool scaled : {true, false}) {
        for (const double temp : temperatures) {
          const MatD Xd = RandomMatrix<double>(sh.n, sh.d, rng, -1.5, 1.5);
          const MatF Xf = Xd.cast<float>();
          const AttentionConfig cfg = Config(proj, scaled, temp, sh.dk, 100 + cases);
          std::ostringstream where;
          where << "N=" << sh.n << " D=" << sh.d << " dk=" << sh.dk << " "
                << (proj == Projection::kRandom ? "random" : "identity") << " scaled=" << scaled
                << " T=" << temp;
          CAPTURE(where.str());

          AttentionTrace<double> trd;
          REQUIRE(attn::AttentionForward<double>(trd, Xd, cfg));
          const Reference refd = ReferenceAttention(Xd, trd.W_Q, trd.W_K, trd.W_V, scaled, temp);
          const double dd =
              std::max({MaxAbsDiff(trd.scores, refd.scores), MaxAbsDiff(trd.weights, refd.weights),
                        MaxAbsDiff(trd.output, refd.output)});
          CHECK_MESSAGE(dd < 1e-9, "double: max abs diff " << dd);
          worst_double = std::max(worst_double, dd);

          // The float run against the reference fed with the float run's own inputs, so that
          // only the arithmetic differs. Tolerance grows with 1/T: scaled = scores / T
          // magnifies the scores' float rounding before the exponential.
          AttentionTrace<float> trf;
          REQUIRE(attn::AttentionForward<float>(trf, Xf, cfg));
          const Reference reff =
              ReferenceAttention(Xf.cast<double>(), trf.W_Q.cast<double>(), trf.W_K.cast<double>(),
                                 trf.W_V.cast<double>(), scaled, temp);
          const double df =
              std::max(MaxAbsDiff(trf.weights, reff.weights), MaxAbsDiff(trf.output, reff.output));
          const double tol = 2e-5 * std::max(1.0, 1.0 / temp) * (scaled ? 1.0 : 4.0);
          CHECK_MESSAGE(df < tol, "float: max abs diff " << df << " (tolerance " << tol << ")");
          worst_float = std::max(worst_float, df / tol);
          ++cases;
        }
      }
    }
  }
  MESSAGE("reference cases " << cases << ": worst double diff " << worst_double
                             << ", worst float diff / tolerance " << worst_float);
}
