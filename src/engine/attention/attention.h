// Single-head scaled dot-product self-attention, forward, with every intermediate kept: the
// trace every panel reads. AttentionForward (one head: softmax, no mask) is a thin wrapper over
// HeadForward (multihead.h); the lab fills the same trace from the chosen head of a multi-head
// run (AttentionTraceFromHead), for any normalizer and mask.
//
// AttentionTrace vs HeadTrace (multihead.h): a HeadTrace is what one head computes, kept for
// every head of every run (the lab's heads, every training example); an AttentionTrace is the
// one head the panels and getTrace() show, with what they need besides: the input X, the
// head's projections, the per-token weighted values, the mask and the normalizer. Its
// normalizer fields keep softmax's names (the page API's JSON uses them): row_max is
// HeadTrace::shift, exps is HeadTrace::numerator, row_sum is HeadTrace::denominator.
//
// Shapes: N = tokens, D = d_model, Dk = d_k (queries and keys), Dv = d_v (values).
// Layout: every N x N matrix is rows = queries, columns = keys (as in PyTorch).
//
//   Q = X W_Q, K = X W_K, V = X W_V                 (N, Dk) (N, Dk) (N, Dv)
//   scores  = Q K^T                                 (N, N)   raw q_i . k_j
//   scaled  = scores * scale / temperature          (N, N)   scale = 1/sqrt(Dk) or 1
//   row_max = the normalizer's shift                (N)      softmax: max_j scaled_ij,
//                                                            sparsemax: the threshold tau
//   exps    = the normalizer's numerator            (N, N)   softmax: exp(scaled - row_max)
//   row_sum = the normalizer's denominator          (N)      softmax: sum_j exps_ij
//   weights = exps / row_sum                        (N, N)   alpha_ij (softmax: rows sum to 1)
//   output  = weights V                             (N, Dv)  A_i = sum_j alpha_ij v_j
#pragma once

#include "engine/text/embedding.h"
#include "engine/attention/multihead.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

enum class Projection {
  kIdentity,  // q = k = v = x (W = I): exactly the seed's account, where q = v<1>
  kRandom,    // seeded W_Q, W_K, W_V ~ N(0, 1/D), as a trained layer would have
  kModel      // the lab only: a head of the trained model (src/model/lab/model_lab.h); the engine's
              // ComputeLab cannot compute it (it knows no model) and says so
};

struct AttentionConfig {
  Projection projection = Projection::kIdentity;
  int d_k = 8;               // ignored for kIdentity (d_k = d_v = d_model there)
  double temperature = 1.0;  // > 0
  bool scaled = true;        // divide by sqrt(d_k)
  std::uint64_t seed = 1;    // for the random projections
};

template <typename T>
struct AttentionTrace {
  Mat<T> X;        // (N, D) input embeddings
  Mat<T> W_Q;      // (D, Dk)
  Mat<T> W_K;      // (D, Dk)
  Mat<T> W_V;      // (D, Dv)
  Mat<T> Q;        // (N, Dk)
  Mat<T> K;        // (N, Dk)
  Mat<T> V;        // (N, Dv)
  Mat<T> scores;   // (N, N) raw q_i . k_j
  Mat<T> scaled;   // (N, N) scores * scale / temperature (masked entries kept as computed)
  // The normalizer as  weight = numerator / denominator  (the table in normalizers.h); the names
  // are softmax's, the meaning holds for every normalizer:
  Vec<T> row_max;  // (N) the row's shift (HeadTrace::shift): softmax max_j scaled_ij (over
                   //     allowed keys), sparsemax the threshold tau (not a max), the others 0
  Mat<T> exps;     // (N, N) the numerator (HeadTrace::numerator): softmax
                   //     exp(scaled_ij - row_max_i), sparsemax max(scaled_ij - tau_i, 0),
                   //     relunorm relu(scaled_ij) (1 in a row with no positive score), sigmoid
                   //     sigmoid(scaled_ij), none scaled_ij, hardmax 1/k on the k maxima;
                   //     0 where masked
  Vec<T> row_sum;  // (N) the denominator (HeadTrace::denominator): softmax sum_j exps_ij,
                   //     relunorm sum_j relu (or the count of allowed keys),
                   //     sparsemax/sigmoid/none/hardmax 1; 1 when every key of the row is masked
  Mat<T> weights;  // (N, N) alpha_ij = exps_ij / row_sum_i exactly; 0 where masked
  std::vector<Mat<T>> weighted_values;  // N of (N, Dv): [i](j, :) = alpha_ij * v_j
  Mat<T> output;   // (N, Dv) A_i = sum_j alpha_ij v_j
  T scale = 1;     // the factor actually used: 1/sqrt(Dk) or 1
  T temperature = 1;
  int d_k = 0;     // actually used
  int d_v = 0;
  Normalizer normalizer = Normalizer::kSoftmax;
  Mask mask;       // (N, N) true = query i may attend to key j (all true without a mask)
  Vec<T> entropy;  // (N) each row's entropy in nats (see HeadTrace::entropy)
};

// Seeded projection matrix (rows, cols) with entries ~ N(0, 1/rows), deterministic per
// (seed, which): which = 0 for W_Q, 1 for W_K, 2 for W_V.
template <typename T>
Mat<T> RandomProjection(int rows, int cols, std::uint64_t seed, int which);

// Softmax of each row, max-shifted: finite for any finite input, never NaN.
template <typename T>
Mat<T> RowSoftmax(const Mat<T>& scaled);  // (N, M) -> (N, M)

// Fills `out` from one head of a (multi-head) forward pass: X (N, D), the head's projections
// W_Q (D, Dk), W_K (D, Dk), W_V (D, Dv), its trace, the mask it used (empty = all true) and its
// normalizer; computes the weighted values. X may be out.X.
template <typename T>
void AttentionTraceFromHead(AttentionTrace<T>& out, const Mat<T>& X, const Mat<T>& W_Q,
                            const Mat<T>& W_K, const Mat<T>& W_V, const HeadTrace<T>& head,
                            const Mask& mask, Normalizer normalizer);

// The whole forward pass (softmax, no mask). X must be finite. Returns false (and an English
// message in `error`) only if the scores overflow the scalar type (e.g. huge embedding
// overrides).
template <typename T>
bool AttentionForward(AttentionTrace<T>& out, const Mat<T>& X, const AttentionConfig& cfg,
                      std::string* error = nullptr);

extern template Mat<float> RandomProjection<float>(int, int, std::uint64_t, int);
extern template Mat<double> RandomProjection<double>(int, int, std::uint64_t, int);
extern template Mat<float> RowSoftmax<float>(const Mat<float>&);
extern template Mat<double> RowSoftmax<double>(const Mat<double>&);
extern template void AttentionTraceFromHead<float>(AttentionTrace<float>&, const Mat<float>&,
                                                   const Mat<float>&, const Mat<float>&,
                                                   const Mat<float>&, const HeadTrace<float>&,
                                                   const Mask&, Normalizer);
extern template void AttentionTraceFromHead<double>(AttentionTrace<double>&, const Mat<double>&,
                                                    const Mat<double>&, const Mat<double>&,
                                                    const Mat<double>&, const HeadTrace<double>&,
                                                    const Mask&, Normalizer);
extern template bool AttentionForward<float>(AttentionTrace<float>&, const Mat<float>&,
                                             const AttentionConfig&, std::string*);
extern template bool AttentionForward<double>(AttentionTrace<double>&, const Mat<double>&,
                                              const AttentionConfig&, std::string*);

}  // namespace attn
