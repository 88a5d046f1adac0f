// Multi-head attention with masks and several normalizers, forward and backward, keeping every
// intermediate (forward) and every intermediate gradient (backward) for the panels.
//
// Shapes: H = heads, N = queries, M = keys/values (M = N for self-attention), D = d_model,
// Dk = d_k, Dv = d_v, Do = output width (d_model for the lab).
// Conventions (PyTorch's scaled_dot_product_attention / nn.MultiheadAttention, batch_first):
//   every (N, M) matrix is rows = queries, columns = keys;
//   scores = Q K^T, scaled = scores * scale / temperature, scale = 1/sqrt(Dk) by default;
//   mask(i, j) == true means query i MAY attend to key j (SDPA's boolean attn_mask; note that
//   nn.MultiheadAttention's key_padding_mask/attn_mask use the opposite sense);
//   causal: key j is allowed for query i iff j <= i, aligned top-left as SDPA's is_causal
//   (torch.tril(ones(N, M))); when N > M the rows i >= M see every key;
//   masked positions get weight 0 and take no part in the normalization;
//   a row with every key masked gets all-zero weights and a zero output (never NaN), and no
//   gradient flows through it. (PyTorch returns NaN there; we define it.)
//
//   head h:  Q_h = X W_Q[h]  (N, Dk)   K_h = Y W_K[h]  (M, Dk)   V_h = Y W_V[h]  (M, Dv)
//            P_h = normalize(Q_h K_h^T * scale / T, mask)        (N, M)
//            O_h = P_h V_h                                        (N, Dv)
//   concat = [O_1 ... O_H]                                        (N, H*Dv)
//   output = concat W_O                                           (N, Do)
//
// The normalizers (softmax, sparsemax, relunorm, sigmoid, none, hardmax) and their table,
// weight = numerator / denominator with a per-row shift: normalizers.h.
#pragma once

#include "engine/attention/hooks.h"
#include "engine/attention/normalizers.h"
#include "engine/base/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attn {

// Masks: causal (key j <= query i, top-left aligned as SDPA's is_causal), all-true.
Mask CausalMask(int n, int m);
Mask FullMask(int n, int m);
// The mask actually used: all true, AND causal when asked, AND `explicit_mask` when not empty
// (it must then be (n, m); a mask of another shape is ignored: MultiHeadForward refuses it).
Mask CombineMasks(int n, int m, bool causal, const Mask& explicit_mask);
// (MaskAllows, the test on one entry, is in types.h.)

struct HeadConfig {
  Normalizer normalizer = Normalizer::kSoftmax;
  double temperature = 1.0;     // > 0
  std::optional<double> scale;  // the factor on Q K^T (any finite number); empty = 1/sqrt(Dk)
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
  Vec<T> shift;        // (N) the row's shift (normalizers.h: softmax max, sparsemax tau, else 0)
  Mat<T> numerator;    // (N, M) normalizers.h's table; 0 where masked
  Vec<T> denominator;  // (N) normalizers.h's table; 1 for a fully masked row
  Mat<T> weights;  // (N, M) the normalizer's output = numerator / denominator; 0 where masked
  Mat<T> output;   // (N, Dv) weights V
  Vec<T> entropy;  // (N) in nats, -sum_j p_ij log p_ij over p_ij > 0, for the temperature
                   // panel; for sigmoid and none p_ij = max(w_ij, 0) / sum_k max(w_ik, 0)
                   // (a distribution made of the positive weights); 0 when no weight is > 0
  T scale = 1;     // the factor actually used
  T temperature = 1;  // the temperature actually used (rounded to T)
  Mask mask;       // (N, M) only when a hook_attn_scores hook masked entries: the mask given
                   // AND those; empty: the mask given was used as it is
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
// Returns false with an English one-line message on bad shapes, a temperature that is not a
// finite number > 0, a non-finite scale, non-finite inputs or results (the trace is then
// unspecified). Q, K, V may be fields of `out` itself (the mask may not be out.mask).
// `hooks` (hooks.h) fire at this head's attn_scores, pattern and z, as head `head` of block
// `layer`; null: the plain forward.
template <typename T>
bool HeadForward(HeadTrace<T>& out, const Mat<T>& Q, const Mat<T>& K, const Mat<T>& V,
                 const Mask& mask, const HeadConfig& cfg, std::string* error = nullptr,
                 const Hooks<T>* hooks = nullptr, int layer = 0, int head = 0);
// Backward of one head: dOut is dL/d output (N, Dv); overwrites every field of g. Hardmax gives
// zero dQ, dK, dscaled, dscores (dweights and dV are exact). Returns false (g unspecified) when
// dOut is not (N, Dv) for this trace.
template <typename T>
bool HeadBackward(HeadGrads<T>& g, const Mat<T>& dOut, const HeadTrace<T>& fwd, const Mask& mask,
                  const HeadConfig& cfg, std::string* error = nullptr);

// Projection weights of all heads.
template <typename T>
struct MultiHeadWeights {
  std::vector<Mat<T>> W_Q;  // H of (D, Dk)
  std::vector<Mat<T>> W_K;  // H of (D, Dk)
  std::vector<Mat<T>> W_V;  // H of (D, Dv)
  Mat<T> W_O;               // (H*Dv, Do)
};

// identity: every head has q = k = v = x (Dk = Dv = D) and W_O averages the heads
//           ([I; ...; I] / H), so every head reproduces the seed's account exactly, and so does
//           the final output for H = 1 and 2 (for more heads it is that output within a few
//           roundings: the partial sums of o/H need not be representable).
// random:   seeded W_Q, W_K ~ N(0, 1/D) (D, Dk), W_V (D, Dv), W_O ~ N(0, 1/(H*Dv)) (H*Dv, D);
//           RandomProjection's streams with which = 4h + 0 (W_Q), 4h + 1 (W_K), 4h + 2 (W_V)
//           for head h, and which = 3 for W_O: head 0 has exactly AttentionForward's matrices,
//           and every head and matrix draws from its own stream.
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
// Heads may differ in Dk and Dv (W_O then has sum_h Dv_h rows). Returns false with an English
// one-line message on shape mismatches, non-finite inputs or non-finite results.
// `hooks` (hooks.h) fire at every head's q, k, v, attn_scores, pattern and z, as block `layer`;
// a head knocked out or a value moved there, the concatenation and W_O follow (the same kernels
// and bits as a forward that computed those numbers itself).
template <typename T>
bool MultiHeadForward(MultiHeadTrace<T>& out, const Mat<T>& X, const Mat<T>* Y,
                      const MultiHeadWeights<T>& w, const MultiHeadConfig& cfg,
                      std::string* error = nullptr, const Hooks<T>* hooks = nullptr, int layer = 0);
// dOutput: (N, Do). For self-attention every path into X is summed into dX and dY is empty.
// `fwd` must come from MultiHeadForward with the same X, Y, w and cfg (its masks are reused).
// Overwrites every field of g; returns false (g unspecified) when dOutput is not (N, Do).
template <typename T>
bool MultiHeadBackward(MultiHeadGrads<T>& g, const Mat<T>& dOutput, const MultiHeadTrace<T>& fwd,
                       const Mat<T>& X, const Mat<T>* Y, const MultiHeadWeights<T>& w,
                       const MultiHeadConfig& cfg, std::string* error = nullptr);

// Explicit instantiations live in multihead.cpp (float for the lab, double for the tests).
#define ATTN_MULTIHEAD_EXTERN(T)                                                                \
  extern template bool HeadForward<T>(HeadTrace<T>&, const Mat<T>&, const Mat<T>&,              \
                                      const Mat<T>&, const Mask&, const HeadConfig&,            \
                                      std::string*, const Hooks<T>*, int, int);                 \
  extern template bool HeadBackward<T>(HeadGrads<T>&, const Mat<T>&, const HeadTrace<T>&,       \
                                       const Mask&, const HeadConfig&, std::string*);           \
  extern template MultiHeadWeights<T> IdentityWeights<T>(int, int);                             \
  extern template MultiHeadWeights<T> RandomWeights<T>(int, int, int, int, std::uint64_t);      \
  extern template bool MultiHeadForward<T>(MultiHeadTrace<T>&, const Mat<T>&, const Mat<T>*,    \
                                           const MultiHeadWeights<T>&, const MultiHeadConfig&,  \
                                           std::string*, const Hooks<T>*, int);                 \
  extern template bool MultiHeadBackward<T>(MultiHeadGrads<T>&, const Mat<T>&,                  \
                                            const MultiHeadTrace<T>&, const Mat<T>&,            \
                                            const Mat<T>*, const MultiHeadWeights<T>&,          \
                                            const MultiHeadConfig&, std::string*);
ATTN_MULTIHEAD_EXTERN(float)
ATTN_MULTIHEAD_EXTERN(double)
#undef ATTN_MULTIHEAD_EXTERN

}  // namespace attn
