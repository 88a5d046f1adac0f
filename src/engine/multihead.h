// Multi-head attention with masks and several normalizers, forward and backward, keeping every
// intermediate (forward) and every intermediate gradient (backward) for the panels.
//
// Shapes: H = heads, N = queries, M = keys/values (M = N for self-attention), D = d_model,
// Dk = d_k, Dv = d_v, Do = output width (d_model for the lab).
// Conventions (PyTorch's scaled_dot_product_attention / nn.MultiheadAttention, batch_first):
//   every (N, M) matrix is rows = queries, columns = keys;
//   scores = Q K^T, scaled = scores * scale / temperature, scale = 1/sqrt(Dk) by default;
//   mask(i, j) == true means query i MAY attend to key j; masked positions get weight 0;
//   a row with every key masked gets all-zero weights and a zero output (never NaN), and no
//   gradient flows through it. (PyTorch returns NaN there; we define it.)
//
//   head h:  Q_h = X W_Q[h]  (N, Dk)   K_h = Y W_K[h]  (M, Dk)   V_h = Y W_V[h]  (M, Dv)
//            P_h = normalize(Q_h K_h^T * scale / T, mask)        (N, M)
//            O_h = P_h V_h                                        (N, Dv)
//   concat = [O_1 ... O_H]                                        (N, H*Dv)
//   output = concat W_O                                           (N, Do)
#pragma once

#include "embedding.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attn {

using Mask = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;  // (N, M), true = may attend

enum class Normalizer {
  kSoftmax,    // exp(s_j) / sum_k exp(s_k), max-shifted
  kSparsemax,  // Martins & Astudillo 2016: Euclidean projection onto the simplex; exact zeros
  kReluNorm,   // relu(s_j) / sum_k relu(s_k); a row with no positive score gets uniform weights
               // over its allowed keys (and zero gradient)
  kSigmoid,    // sigmoid(s_j), no normalization across keys (rows need not sum to 1)
  kNone,       // the scaled scores themselves are the weights
  kHardmax     // one-hot on the argmax (ties share equally); forward only: its gradient is 0
};

const char* NormalizerName(Normalizer n);  // "softmax", "sparsemax", "relunorm", "sigmoid", "none", "hardmax"
bool ParseNormalizer(const std::string& name, Normalizer* out);
bool NormalizerHasGradient(Normalizer n);  // false only for hardmax

// Masks: causal (key j <= query i, aligned at the end when M != N: j <= i + M - N), all-true.
Mask CausalMask(int n, int m);
Mask FullMask(int n, int m);

struct HeadConfig {
  Normalizer normalizer = Normalizer::kSoftmax;
  double temperature = 1.0;     // > 0
  std::optional<double> scale;  // the factor on Q K^T; empty = 1/sqrt(Dk)
  bool scaled = true;           // when `scale` is empty: false means scale = 1
};

// One head, given its Q, K, V (the "raw" mode of `attnlab forward`).
template <typename T>
struct HeadTrace {
  Mat<T> Q;        // (N, Dk)
  Mat<T> K;        // (M, Dk)
  Mat<T> V;        // (M, Dv)
  Mat<T> scores;   // (N, M) Q K^T
  Mat<T> scaled;   // (N, M) scores * scale / temperature (masked entries kept as computed)
  Mat<T> weights;  // (N, M) the normalizer's output; 0 where masked
  Mat<T> output;   // (N, Dv) weights V
  Vec<T> entropy;  // (N) -sum_j p_ij log p_ij over p_ij > 0 (of the weights renormalized to sum
                   // 1 for sigmoid/none when their row sum is > 0), for the temperature panel
  T scale = 1;     // the factor actually used
};

template <typename T>
struct HeadGrads {
  Mat<T> dQ;        // (N, Dk)
  Mat<T> dK;        // (M, Dk)
  Mat<T> dV;        // (M, Dv)
  Mat<T> dweights;  // (N, M) dL/dP
  Mat<T> dscaled;   // (N, M) dL/d scaled
  Mat<T> dscores;   // (N, M) dL/d scores = dscaled * scale / temperature
};

// Forward of one head. mask may be empty (0x0) for "attend everywhere"; otherwise (N, M).
template <typename T>
void HeadForward(HeadTrace<T>& out, const Mat<T>& Q, const Mat<T>& K, const Mat<T>& V,
                 const Mask& mask, const HeadConfig& cfg);
// Backward of one head: dOut is dL/d output (N, Dv). Hardmax gives zero dQ, dK (dV is exact).
template <typename T>
void HeadBackward(HeadGrads<T>& g, const Mat<T>& dOut, const HeadTrace<T>& fwd, const Mask& mask,
                  const HeadConfig& cfg);

// The normalizers alone, row by row, and their backward (vector-Jacobian product).
template <typename T>
Mat<T> NormalizeRows(const Mat<T>& scaled, const Mask& mask, Normalizer n);  // (N, M) -> (N, M)
template <typename T>
Mat<T> NormalizeRowsBackward(const Mat<T>& dweights, const Mat<T>& weights, const Mat<T>& scaled,
                             const Mask& mask, Normalizer n);  // dL/dP -> dL/d scaled, (N, M)

// Projection weights of all heads.
template <typename T>
struct MultiHeadWeights {
  std::vector<Mat<T>> W_Q;  // H of (D, Dk)
  std::vector<Mat<T>> W_K;  // H of (D, Dk)
  std::vector<Mat<T>> W_V;  // H of (D, Dv)
  Mat<T> W_O;               // (H*Dv, Do)
};

// identity: every head has q = k = v = x (Dk = Dv = D) and W_O averages the heads
//           ([I; ...; I] / H), so one head reproduces the seed's account exactly.
// random:   seeded W_Q, W_K ~ N(0, 1/D) (D, Dk), W_V (D, Dv), W_O ~ N(0, 1/(H*Dv)) (H*Dv, D);
//           head h of seed s draws from streams distinct from every other head and matrix.
template <typename T>
MultiHeadWeights<T> IdentityWeights(int d_model, int heads);
template <typename T>
MultiHeadWeights<T> RandomWeights(int d_model, int heads, int d_k, int d_v, std::uint64_t seed);

template <typename T>
struct MultiHeadTrace {
  std::vector<HeadTrace<T>> heads;  // H
  Mat<T> concat;                    // (N, H*Dv)
  Mat<T> output;                    // (N, Do)
  Mask mask;                        // (N, M) the mask actually used (all true when none)
};

template <typename T>
struct MultiHeadGrads {
  std::vector<HeadGrads<T>> heads;  // H
  Mat<T> dconcat;                   // (N, H*Dv)
  Mat<T> dX;                        // (N, D)  through the queries (and keys/values when Y is X)
  Mat<T> dY;                        // (M, D)  through keys and values (cross-attention only)
  std::vector<Mat<T>> dW_Q, dW_K, dW_V;  // H of the weights' shapes
  Mat<T> dW_O;                      // (H*Dv, Do)
};

struct MultiHeadConfig {
  HeadConfig head;
  bool causal = false;
  Mask mask;  // optional explicit mask (N, M); combined (AND) with causal when both are given
};

// Self-attention when `Y` is null (keys and values from X), cross-attention otherwise.
// Returns false with an English message on shape mismatches or non-finite results.
template <typename T>
bool MultiHeadForward(MultiHeadTrace<T>& out, const Mat<T>& X, const Mat<T>* Y,
                      const MultiHeadWeights<T>& w, const MultiHeadConfig& cfg,
                      std::string* error = nullptr);
// dOutput: (N, Do). For self-attention every path into X is summed into dX and dY is empty.
template <typename T>
void MultiHeadBackward(MultiHeadGrads<T>& g, const Mat<T>& dOutput, const MultiHeadTrace<T>& fwd,
                       const Mat<T>& X, const Mat<T>* Y, const MultiHeadWeights<T>& w,
                       const MultiHeadConfig& cfg);

}  // namespace attn
