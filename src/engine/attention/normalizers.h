// The normalizers: how a row of scaled scores becomes a row of attention weights, forward and
// backward (vector-Jacobian product), under a mask. multihead.h runs them inside every head;
// the normalization experiments (normexp.h) call them alone.
//
// Shapes: N = queries (rows), M = keys (columns). mask(i, j) == true means query i may attend to
// key j; an empty (0x0) mask allows everything (MaskAllows, types.h). Masked positions get
// weight 0 and take no part in the normalization; a row with every key masked gets all-zero
// weights (never NaN) and no gradient.
//
// Every normalizer is written, row by row, as  weight = numerator / denominator  (the steps
// panel shows the three), with a per-row `shift`:
//   normalizer  shift          numerator (allowed j)     denominator
//   softmax     m = max_j s_j  exp(s_j - m)              sum_j exp(s_j - m)
//   sparsemax   tau            max(s_j - tau, 0)         1
//   relunorm    0              relu(s_j)                 sum_j relu(s_j)   (> 0)
//                              1   (no s_j > 0: uniform) number of allowed keys
//   sigmoid     0              sigmoid(s_j)              1
//   none        0              s_j                       1
//   hardmax     0              1/k on the k maxima, or 0 1
// Masked entries have numerator 0; a fully masked row has shift 0, numerators 0, denominator 1.
// weight == numerator / denominator holds to the last bit (the weights are computed so);
// for sparsemax the numerator is max(s_j - tau, 0) up to rounding (computed from the row
// shifted by its max, which sparsemax ignores, so that float keeps its digits).
//
// Bit-exactness: plain loops in a fixed order, exp/log in double rounded once, no FMA
// contraction (linalg.h).
#pragma once

#include "engine/base/types.h"

#include <string>

namespace attn {

enum class Normalizer {
  kSoftmax,    // exp(s_j) / sum_k exp(s_k), max-shifted
  kSparsemax,  // Martins & Astudillo 2016: Euclidean projection onto the simplex; exact zeros
  kReluNorm,   // relu(s_j) / sum_k relu(s_k); a row with no positive score gets uniform weights
               // over its allowed keys (and zero gradient)
  kSigmoid,    // sigmoid(s_j), no normalization across keys (rows need not sum to 1)
  kNone,       // the scaled scores themselves are the weights
  kHardmax     // one-hot on the argmax (ties share equally); forward only: its gradient is 0
};
// Every normalizer, in the order the interface lists them.
inline constexpr Normalizer kAllNormalizers[] = {Normalizer::kSoftmax, Normalizer::kSparsemax,
                                                 Normalizer::kReluNorm, Normalizer::kSigmoid,
                                                 Normalizer::kNone,    Normalizer::kHardmax};

const char* NormalizerName(Normalizer n);  // "softmax", "sparsemax", "relunorm", "sigmoid", "none", "hardmax"
// Exact names only; *out is left untouched on failure.
bool ParseNormalizer(const std::string& name, Normalizer* out);
bool NormalizerHasGradient(Normalizer n);  // false only for hardmax

// The normalizers alone, row by row, and their backward (vector-Jacobian product).
template <typename T>
Mat<T> NormalizeRows(const Mat<T>& scaled, const Mask& mask, Normalizer n);  // (N, M) -> (N, M)
// The same with the parts of the table above: weights (N, M), shift (N), numerator (N, M),
// denominator (N). NormalizeRows returns exactly these weights.
template <typename T>
void NormalizeRowsParts(Mat<T>& weights, Vec<T>& shift, Mat<T>& numerator, Vec<T>& denominator,
                        const Mat<T>& scaled, const Mask& mask, Normalizer n);
template <typename T>
Mat<T> NormalizeRowsBackward(const Mat<T>& dweights, const Mat<T>& weights, const Mat<T>& scaled,
                             const Mask& mask, Normalizer n);  // dL/dP -> dL/d scaled, (N, M)

// Explicit instantiations live in normalizers.cpp (float for the lab, double for training and
// the tests).
#define ATTN_NORMALIZERS_EXTERN(T)                                                              \
  extern template Mat<T> NormalizeRows<T>(const Mat<T>&, const Mask&, Normalizer);              \
  extern template void NormalizeRowsParts<T>(Mat<T>&, Vec<T>&, Mat<T>&, Vec<T>&, const Mat<T>&, \
                                             const Mask&, Normalizer);                          \
  extern template Mat<T> NormalizeRowsBackward<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&,  \
                                                  const Mask&, Normalizer);
ATTN_NORMALIZERS_EXTERN(float)
ATTN_NORMALIZERS_EXTERN(double)
#undef ATTN_NORMALIZERS_EXTERN

}  // namespace attn
