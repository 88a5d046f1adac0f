// Single-head self-attention forward pass, in numbered passes (see attention.h for formulas).
//
// Shapes: N = tokens, D = d_model, Dk = d_k (queries and keys), Dv = d_v (values).
//
// The products and sums are plain loops in a fixed left-to-right order rather than Eigen
// products: Eigen's kernels sum in an order that depends on the SIMD width (SSE natively,
// scalar in wasm), and the lab wants the browser and the command line to print the same bits.
// At N, D <= 64 the loops cost nothing that a person could notice.
//
// The same bits also need a*b+c rounded twice, never fused into an FMA (wasm has none): clang
// fuses within an expression by default, hence the pragma; GCC may fuse only in GNU mode
// (-std=gnu++17, CMake's default) on FMA hardware: build with -ffp-contract=off there (GCC
// ignores this pragma, with a warning, so it is clang-only).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "attention.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "rng.h"

namespace attn {

namespace {

// out = a b, summing over the inner index in order.
template <typename T>
Mat<T> MatMul(const Mat<T>& a, const Mat<T>& b) {  // (R, I) x (I, C) -> (R, C)
  Mat<T> out(a.rows(), b.cols());                  // (R, C)
  for (Eigen::Index r = 0; r < a.rows(); ++r) {
    for (Eigen::Index c = 0; c < b.cols(); ++c) {
      T acc = 0;
      for (Eigen::Index k = 0; k < a.cols(); ++k) acc += a(r, k) * b(k, c);
      out(r, c) = acc;
    }
  }
  return out;
}

// out = a b^T: row i of a dotted with row j of b, which is exactly q_i . k_j.
template <typename T>
Mat<T> MatMulTransposed(const Mat<T>& a, const Mat<T>& b) {  // (R, I) x (C, I)^T -> (R, C)
  Mat<T> out(a.rows(), b.rows());                            // (R, C)
  for (Eigen::Index r = 0; r < a.rows(); ++r) {
    for (Eigen::Index c = 0; c < b.rows(); ++c) {
      T acc = 0;
      for (Eigen::Index k = 0; k < a.cols(); ++k) acc += a(r, k) * b(c, k);
      out(r, c) = acc;
    }
  }
  return out;
}

// exp in double, rounded once to T: libm's expf may differ in the last bit between C libraries,
// a double rounded to float practically never does.
template <typename T>
T Exp(T x) {
  return static_cast<T>(std::exp(static_cast<double>(x)));
}

// Passes 3-5 of the forward: max-shifted exponentials, their sums, and the weights.
// Subtracting the row max makes the largest exponent exp(0) = 1, so nothing overflows and the
// sum is >= 1 (no division by zero); the shift cancels in exps / sum. For finite input every
// difference is <= 0, at worst -inf for float extremes, whose exp is a harmless 0.
template <typename T>
void SoftmaxPasses(const Mat<T>& scaled,  // (N, M)
                   Vec<T>& row_max,       // (N)
                   Mat<T>& exps,          // (N, M)
                   Vec<T>& row_sum,       // (N)
                   Mat<T>& weights) {     // (N, M)
  const Eigen::Index n = scaled.rows(), m = scaled.cols();
  row_max.resize(n);
  exps.resize(n, m);
  row_sum.resize(n);
  weights.resize(n, m);
  for (Eigen::Index i = 0; i < n; ++i) {
    // pass 3: the max of the row
    T mx = -std::numeric_limits<T>::infinity();
    for (Eigen::Index j = 0; j < m; ++j) mx = scaled(i, j) > mx ? scaled(i, j) : mx;
    row_max(i) = mx;
    // pass 4: exp and sum
    T sum = 0;
    for (Eigen::Index j = 0; j < m; ++j) {
      exps(i, j) = Exp<T>(scaled(i, j) - mx);
      sum += exps(i, j);
    }
    row_sum(i) = sum;
    // pass 5: normalise
    for (Eigen::Index j = 0; j < m; ++j) weights(i, j) = exps(i, j) / sum;
  }
}

template <typename T>
bool AllFinite(const Mat<T>& m) {
  for (Eigen::Index c = 0; c < m.cols(); ++c) {
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      if (!std::isfinite(m(r, c))) return false;
    }
  }
  return true;
}

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

template <typename T>
Mat<T> RandomProjection(int rows, int cols, std::uint64_t seed, int which) {
  const int r = rows > 0 ? rows : 0, c = cols > 0 ? cols : 0;
  // One stream per (seed, which): the mixer decorrelates neighbouring seeds and matrices.
  rng::SplitMix64 stream(
      rng::Mix64(rng::Mix64(seed) ^ (static_cast<std::uint64_t>(which) + 1) * rng::kGolden));
  std::vector<double> z(static_cast<std::size_t>(r) * static_cast<std::size_t>(c));
  rng::FillStandardNormal(stream, z.data(), static_cast<int>(z.size()));
  // N(0, 1/rows): keeps x W at the scale of x, as Xavier/LeCun initialisation does.
  const double sd = r > 0 ? 1.0 / std::sqrt(static_cast<double>(r)) : 0.0;
  Mat<T> w(r, c);  // (rows, cols), filled row by row from the stream
  for (int i = 0; i < r; ++i) {
    for (int j = 0; j < c; ++j) {
      w(i, j) = static_cast<T>(z[static_cast<std::size_t>(i) * c + j] * sd);
    }
  }
  return w;
}

template <typename T>
Mat<T> RowSoftmax(const Mat<T>& scaled) {  // (N, M) -> (N, M)
  Vec<T> row_max, row_sum;                 // (N) (N)
  Mat<T> exps, weights;                    // (N, M) (N, M)
  SoftmaxPasses<T>(scaled, row_max, exps, row_sum, weights);
  return weights;
}

template <typename T>
bool AttentionForward(AttentionTrace<T>& out, const Mat<T>& X, const AttentionConfig& cfg,
                      std::string* error) {
  const int n = static_cast<int>(X.rows());
  const int d = static_cast<int>(X.cols());
  if (!(cfg.temperature > 0) || !std::isfinite(cfg.temperature)) {
    std::ostringstream msg;
    msg << "temperature must be a finite number > 0 (got " << cfg.temperature << ")";
    return Fail(error, msg.str());
  }
  if (cfg.projection == Projection::kRandom && cfg.d_k < 1) {
    return Fail(error, "d_k must be at least 1 (got " + std::to_string(cfg.d_k) + ")");
  }
  if (!AllFinite(X)) return Fail(error, "the input embeddings contain a NaN or infinite value");

  // Every field is assigned below; Eigen reuses the storage when a trace is recomputed at
  // the same size, so a UI that keeps its trace does not reallocate ~1 MB per frame.
  out.X = X;  // (N, D)

  // pass 0: the projections (from out.X: the caller may pass a matrix of `out` itself as X)
  if (cfg.projection == Projection::kIdentity) {
    // q = k = v = x, the seed's account: d_k = d_v = D.
    out.d_k = out.d_v = d;
    out.W_Q = Mat<T>::Identity(d, d);  // (D, D)
    out.W_K = Mat<T>::Identity(d, d);  // (D, D)
    out.W_V = Mat<T>::Identity(d, d);  // (D, D)
    out.Q = out.X;                     // (N, D) x I = x exactly, no rounding
    out.K = out.X;                     // (N, D)
    out.V = out.X;                     // (N, D)
  } else {
    out.d_k = out.d_v = cfg.d_k;                             // one head: values as wide as keys
    out.W_Q = RandomProjection<T>(d, out.d_k, cfg.seed, 0);  // (D, Dk)
    out.W_K = RandomProjection<T>(d, out.d_k, cfg.seed, 1);  // (D, Dk)
    out.W_V = RandomProjection<T>(d, out.d_v, cfg.seed, 2);  // (D, Dv)
    out.Q = MatMul<T>(out.X, out.W_Q);                       // (N, Dk)
    out.K = MatMul<T>(out.X, out.W_K);                       // (N, Dk)
    out.V = MatMul<T>(out.X, out.W_V);                       // (N, Dv)
  }
  out.scale = cfg.scaled && out.d_k > 0 ? static_cast<T>(1.0 / std::sqrt(double(out.d_k))) : T(1);
  out.temperature = static_cast<T>(cfg.temperature);

  // pass 1: scores_ij = q_i . k_j
  out.scores = MatMulTransposed<T>(out.Q, out.K);  // (N, N)

  // pass 2: scaled = scores * scale / temperature
  out.scaled.resize(n, n);  // (N, N)
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) out.scaled(i, j) = out.scores(i, j) * out.scale / out.temperature;
  }

  // Finite X can still overflow T in the products (huge overrides) or in the division by a
  // small temperature; the max shift needs finite numbers, so refuse rather than show NaN.
  if (!AllFinite(out.Q) || !AllFinite(out.K) || !AllFinite(out.V) || !AllFinite(out.scores) ||
      !AllFinite(out.scaled)) {
    return Fail(error,
                "the attention scores overflowed the number type; use smaller embeddings or a "
                "higher temperature");
  }

  // passes 3-5: row max, exp and sum, normalise
  SoftmaxPasses<T>(out.scaled, out.row_max, out.exps, out.row_sum, out.weights);

  // pass 6: weighted values, [i](j, :) = alpha_ij v_j, and their sum A_i
  const int dv = out.d_v;
  out.weighted_values.resize(static_cast<std::size_t>(n));  // N of (N, Dv)
  out.output.setZero(n, dv);                                // (N, Dv)
  for (int i = 0; i < n; ++i) {
    Mat<T>& wv = out.weighted_values[static_cast<std::size_t>(i)];  // (N, Dv)
    wv.resize(n, dv);
    for (int j = 0; j < n; ++j) {
      for (int c = 0; c < dv; ++c) {
        wv(j, c) = out.weights(i, j) * out.V(j, c);
        out.output(i, c) += wv(j, c);  // summed over j in order
      }
    }
  }
  // A_i is a convex combination of finite v_j, so this trips only within rounding of T's
  // largest value; checked anyway, as the promise is "never NaN or inf".
  if (!AllFinite(out.output)) {
    return Fail(error, "the attention output overflowed the number type; use smaller embeddings");
  }
  return true;
}

template Mat<float> RandomProjection<float>(int, int, std::uint64_t, int);
template Mat<double> RandomProjection<double>(int, int, std::uint64_t, int);
template Mat<float> RowSoftmax<float>(const Mat<float>&);
template Mat<double> RowSoftmax<double>(const Mat<double>&);
template bool AttentionForward<float>(AttentionTrace<float>&, const Mat<float>&,
                                      const AttentionConfig&, std::string*);
template bool AttentionForward<double>(AttentionTrace<double>&, const Mat<double>&,
                                       const AttentionConfig&, std::string*);

}  // namespace attn
