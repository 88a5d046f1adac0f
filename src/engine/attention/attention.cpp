// Single-head self-attention forward pass (see attention.h for formulas): AttentionForward, a
// thin wrapper over HeadForward (multihead.cpp), and the trace filler the lab shares.
//
// Shapes: N = tokens, D = d_model, Dk = d_k (queries and keys), Dv = d_v (values).
// Bit-exactness (the browser and the command line print the same bits): plain loops in a fixed
// order, exp in double rounded once, no FMA contraction; the rules and the kernels are in
// linalg.h.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/attention/attention.h"

#include <cmath>
#include <vector>

#include "engine/base/format.h"
#include "engine/linalg/linalg.h"
#include "engine/base/rng.h"

namespace attn {

using linalg::AllFinite;
using linalg::Fail;
using linalg::MatMul;

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
  return NormalizeRows<T>(scaled, Mask(), Normalizer::kSoftmax);
}

template <typename T>
void AttentionTraceFromHead(AttentionTrace<T>& out, const Mat<T>& X, const Mat<T>& W_Q,
                            const Mat<T>& W_K, const Mat<T>& W_V, const HeadTrace<T>& head,
                            const Mask& mask, Normalizer normalizer) {
  const Eigen::Index n = head.weights.rows(), m = head.weights.cols();
  out.X = X;      // (N, D)
  out.W_Q = W_Q;  // (D, Dk)
  out.W_K = W_K;  // (D, Dk)
  out.W_V = W_V;  // (D, Dv)
  out.Q = head.Q;  // (N, Dk)
  out.K = head.K;  // (N, Dk)
  out.V = head.V;  // (N, Dv)
  out.scores = head.scores;          // (N, N)
  out.scaled = head.scaled;          // (N, N)
  out.row_max = head.shift;          // (N)
  out.exps = head.numerator;         // (N, N)
  out.row_sum = head.denominator;    // (N)
  out.weights = head.weights;        // (N, N)
  out.output = head.output;          // (N, Dv)
  out.entropy = head.entropy;        // (N)
  out.scale = head.scale;
  out.temperature = head.temperature;
  out.d_k = static_cast<int>(head.Q.cols());
  out.d_v = static_cast<int>(head.V.cols());
  out.normalizer = normalizer;
  out.mask = mask.size() != 0 ? mask : FullMask(static_cast<int>(n), static_cast<int>(m));

  // weighted values, [i](j, :) = alpha_ij v_j: their sum over j, in order, is A_i to the bit
  const Eigen::Index dv = head.V.cols();
  out.weighted_values.resize(static_cast<std::size_t>(n));  // N of (M, Dv)
  for (Eigen::Index i = 0; i < n; ++i) {
    Mat<T>& wv = out.weighted_values[static_cast<std::size_t>(i)];  // (M, Dv)
    wv.resize(m, dv);
    for (Eigen::Index j = 0; j < m; ++j) {
      for (Eigen::Index c = 0; c < dv; ++c) wv(j, c) = out.weights(i, j) * out.V(j, c);
    }
  }
}

template <typename T>
bool AttentionForward(AttentionTrace<T>& out, const Mat<T>& X, const AttentionConfig& cfg,
                      std::string* error) {
  const int d = static_cast<int>(X.cols());
  if (!(cfg.temperature > 0) || !std::isfinite(cfg.temperature)) {
    return Fail(error, "temperature must be a finite number > 0 (got " +
                           FormatShortest(cfg.temperature) + ")");
  }
  if (cfg.projection == Projection::kRandom && cfg.d_k < 1) {
    return Fail(error, "d_k must be at least 1 (got " + std::to_string(cfg.d_k) + ")");
  }
  if (!AllFinite(X)) return Fail(error, "the input embeddings contain a NaN or infinite value");

  // Every field is assigned below; Eigen reuses the storage when a trace is recomputed at
  // the same size, so a UI that keeps its trace does not reallocate ~1 MB per frame.
  out.X = X;  // (N, D) (from here on out.X: the caller may pass a matrix of `out` itself as X)

  // pass 0: the projections
  Mat<T> W_Q, W_K, W_V;  // (D, Dk) (D, Dk) (D, Dv)
  HeadTrace<T> head;
  if (cfg.projection == Projection::kIdentity) {
    // q = k = v = x, the seed's account: d_k = d_v = D.
    W_Q = W_K = W_V = Mat<T>::Identity(d, d);  // (D, D)
    head.Q = out.X;                            // (N, D) x I = x exactly, no rounding
    head.K = out.X;                            // (N, D)
    head.V = out.X;                            // (N, D)
  } else {
    W_Q = RandomProjection<T>(d, cfg.d_k, cfg.seed, 0);  // (D, Dk)
    W_K = RandomProjection<T>(d, cfg.d_k, cfg.seed, 1);  // (D, Dk)
    W_V = RandomProjection<T>(d, cfg.d_k, cfg.seed, 2);  // (D, Dv): one head, Dv = Dk
    head.Q = MatMul<T>(out.X, W_Q);                      // (N, Dk)
    head.K = MatMul<T>(out.X, W_K);                      // (N, Dk)
    head.V = MatMul<T>(out.X, W_V);                      // (N, Dv)
  }

  // passes 1-5: scores, scaling, softmax, weighted sum (HeadForward)
  HeadConfig hcfg;
  hcfg.normalizer = Normalizer::kSoftmax;
  hcfg.temperature = cfg.temperature;
  hcfg.scaled = cfg.scaled;
  if (!HeadForward<T>(head, head.Q, head.K, head.V, Mask(), hcfg, error)) return false;

  // pass 6: the trace, with the weighted values alpha_ij v_j
  AttentionTraceFromHead<T>(out, out.X, W_Q, W_K, W_V, head, Mask(), Normalizer::kSoftmax);
  return true;
}

template Mat<float> RandomProjection<float>(int, int, std::uint64_t, int);
template Mat<double> RandomProjection<double>(int, int, std::uint64_t, int);
template Mat<float> RowSoftmax<float>(const Mat<float>&);
template Mat<double> RowSoftmax<double>(const Mat<double>&);
template void AttentionTraceFromHead<float>(AttentionTrace<float>&, const Mat<float>&,
                                            const Mat<float>&, const Mat<float>&,
                                            const Mat<float>&, const HeadTrace<float>&,
                                            const Mask&, Normalizer);
template void AttentionTraceFromHead<double>(AttentionTrace<double>&, const Mat<double>&,
                                             const Mat<double>&, const Mat<double>&,
                                             const Mat<double>&, const HeadTrace<double>&,
                                             const Mask&, Normalizer);
template bool AttentionForward<float>(AttentionTrace<float>&, const Mat<float>&,
                                      const AttentionConfig&, std::string*);
template bool AttentionForward<double>(AttentionTrace<double>&, const Mat<double>&,
                                       const AttentionConfig&, std::string*);

}  // namespace attn
