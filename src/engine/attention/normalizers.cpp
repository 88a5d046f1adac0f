// The normalizers (normalizers.h), one row at a time, forward and backward.
//
// Shapes: N = queries, M = keys. Bit-exactness rules: linalg.h (plain loops in a fixed order,
// exp/log in double rounded once, no FMA contraction). Gradients are assigned, not accumulated.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/attention/normalizers.h"

#include "engine/base/names.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "engine/linalg/linalg.h"

namespace attn {

using linalg::Exp;

// ---- names ------------------------------------------------------------------------------------

constexpr Named<Normalizer> kNormalizerNames[] = {
    {Normalizer::kSoftmax, "softmax"}, {Normalizer::kSparsemax, "sparsemax"}, {Normalizer::kReluNorm, "relunorm"},
    {Normalizer::kSigmoid, "sigmoid"}, {Normalizer::kNone, "none"},           {Normalizer::kHardmax, "hardmax"}};

const char* NormalizerName(Normalizer n) { return NameIn(kNormalizerNames, n); }
bool ParseNormalizer(const std::string& name, Normalizer* out) { return ParseIn(kNormalizerNames, name, out); }

bool NormalizerHasGradient(Normalizer n) { return n != Normalizer::kHardmax; }

namespace {

// ---- the normalizers, one row at a time -----------------------------------------------------
// Row i of `s` (N, M) under `mask`; each writes numerator row i (pre-zeroed), shift and
// denominator (pre-set to 0 and 1) for a row with at least one allowed key. The weights are
// numerator / denominator, computed in one place (NormalizeRowsParts).

template <typename T>
T RowMaxAllowed(const Mat<T>& s, const Mask& mask, Eigen::Index i) {
  T mx = -std::numeric_limits<T>::infinity();
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (MaskAllows(mask, i, j)) mx = s(i, j) > mx ? s(i, j) : mx;
  }
  return mx;
}

// softmax: subtracting the row max makes the largest exponent exp(0) = 1, so nothing overflows
// and the sum is >= 1; the shift cancels in the ratio. With no mask these are exactly the
// classic passes (max, exp and sum).
template <typename T>
void SoftmaxRow(Mat<T>& numer, T& shift, T& denom, const Mat<T>& s, const Mask& mask,
                Eigen::Index i) {
  const T mx = RowMaxAllowed(s, mask, i);
  T sum = 0;
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (!MaskAllows(mask, i, j)) continue;
    numer(i, j) = Exp<T>(s(i, j) - mx);
    sum += numer(i, j);
  }
  shift = mx;
  denom = sum;
}

// sparsemax (Martins & Astudillo 2016, Algorithm 1): sort z descending, k = the largest r with
// 1 + r z_(r) > sum_{q <= r} z_(q), tau = (sum_{q <= k} z_(q) - 1) / k, p = max(z - tau, 0).
// Equal scores enter the support together (the condition for r + 1 equals the one for r when
// z_(r+1) = z_(r)), so ties get equal weights. Worked on z = s - max(s), which sparsemax
// ignores (tau shifts with it), so that 1 + r z stays meaningful in float for large scores.
template <typename T>
void SparsemaxRow(Mat<T>& numer, T& shift, T& denom, std::vector<T>& sorted, const Mat<T>& s,
                  const Mask& mask, Eigen::Index i) {
  const T mx = RowMaxAllowed(s, mask, i);
  sorted.clear();
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (MaskAllows(mask, i, j)) sorted.push_back(s(i, j) - mx);
  }
  std::sort(sorted.begin(), sorted.end(), std::greater<T>());  // equal values are equal bits
  T cum = 0, cum_k = 0;
  int k = 0;
  for (std::size_t r = 0; r < sorted.size(); ++r) {
    cum += sorted[r];
    if (T(1) + static_cast<T>(r + 1) * sorted[r] > cum) {
      k = static_cast<int>(r + 1);
      cum_k = cum;
    }
  }
  const T tau = (cum_k - T(1)) / static_cast<T>(k);  // k >= 1: r = 1 always qualifies
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (!MaskAllows(mask, i, j)) continue;
    const T p = (s(i, j) - mx) - tau;
    numer(i, j) = p > 0 ? p : T(0);
  }
  shift = mx + tau;  // the threshold on the unshifted scores
  denom = 1;
}

// relunorm: relu(s) / sum relu(s); with no positive allowed score, uniform over the allowed
// keys (numerator 1, denominator their count).
template <typename T>
void ReluNormRow(Mat<T>& numer, T& shift, T& denom, const Mat<T>& s, const Mask& mask,
                 Eigen::Index i) {
  T sum = 0;
  int allowed = 0;
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (!MaskAllows(mask, i, j)) continue;
    numer(i, j) = s(i, j) > 0 ? s(i, j) : T(0);
    sum += numer(i, j);
    ++allowed;
  }
  shift = 0;
  if (sum > 0) {
    denom = sum;
    return;
  }
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (MaskAllows(mask, i, j)) numer(i, j) = 1;
  }
  denom = static_cast<T>(allowed);
}

// sigmoid in double, rounded once; the branch keeps exp's argument <= 0 (no overflow).
template <typename T>
T Sigmoid(T x) {
  const double d = static_cast<double>(x);
  if (d >= 0) return static_cast<T>(1.0 / (1.0 + std::exp(-d)));
  const double e = std::exp(d);
  return static_cast<T>(e / (1.0 + e));
}

template <typename T>
void SigmoidRow(Mat<T>& numer, T& shift, T& denom, const Mat<T>& s, const Mask& mask,
                Eigen::Index i) {
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (MaskAllows(mask, i, j)) numer(i, j) = Sigmoid<T>(s(i, j));
  }
  shift = 0;
  denom = 1;
}

template <typename T>
void NoneRow(Mat<T>& numer, T& shift, T& denom, const Mat<T>& s, const Mask& mask,
             Eigen::Index i) {
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (MaskAllows(mask, i, j)) numer(i, j) = s(i, j);
  }
  shift = 0;
  denom = 1;
}

// hardmax: 1/k on each of the k allowed keys with the largest score.
template <typename T>
void HardmaxRow(Mat<T>& numer, T& shift, T& denom, const Mat<T>& s, const Mask& mask,
                Eigen::Index i) {
  const T mx = RowMaxAllowed(s, mask, i);
  int k = 0;
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (MaskAllows(mask, i, j) && s(i, j) == mx) ++k;
  }
  const T share = T(1) / static_cast<T>(k);
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    if (MaskAllows(mask, i, j) && s(i, j) == mx) numer(i, j) = share;
  }
  shift = 0;
  denom = 1;
}

}  // namespace

// ---- normalize rows: forward ----------------------------------------------------------------

template <typename T>
void NormalizeRowsParts(Mat<T>& weights,      // (N, M)
                        Vec<T>& shift,        // (N)
                        Mat<T>& numerator,    // (N, M)
                        Vec<T>& denominator,  // (N)
                        const Mat<T>& scaled, const Mask& mask, Normalizer n) {
  const Eigen::Index rows = scaled.rows(), cols = scaled.cols();
  numerator.setZero(rows, cols);
  shift.setZero(rows);
  denominator.setOnes(rows);
  std::vector<T> sorted;  // sparsemax's scratch row
  for (Eigen::Index i = 0; i < rows; ++i) {
    bool any = false;
    for (Eigen::Index j = 0; j < cols && !any; ++j) any = MaskAllows(mask, i, j);
    if (!any) continue;  // every key masked: numerators 0, shift 0, denominator 1
    T& sh = shift(i);
    T& den = denominator(i);
    switch (n) {
      case Normalizer::kSoftmax: SoftmaxRow<T>(numerator, sh, den, scaled, mask, i); break;
      case Normalizer::kSparsemax:
        SparsemaxRow<T>(numerator, sh, den, sorted, scaled, mask, i);
        break;
      case Normalizer::kReluNorm: ReluNormRow<T>(numerator, sh, den, scaled, mask, i); break;
      case Normalizer::kSigmoid: SigmoidRow<T>(numerator, sh, den, scaled, mask, i); break;
      case Normalizer::kNone: NoneRow<T>(numerator, sh, den, scaled, mask, i); break;
      case Normalizer::kHardmax: HardmaxRow<T>(numerator, sh, den, scaled, mask, i); break;
    }
  }
  // weight = numerator / denominator, for every normalizer (masked: 0 / denominator = 0)
  weights.resize(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i) {
    for (Eigen::Index j = 0; j < cols; ++j) weights(i, j) = numerator(i, j) / denominator(i);
  }
}

template <typename T>
Mat<T> NormalizeRows(const Mat<T>& scaled, const Mask& mask, Normalizer n) {
  Mat<T> weights, numerator;  // (N, M) (N, M)
  Vec<T> shift, denominator;  // (N) (N)
  NormalizeRowsParts<T>(weights, shift, numerator, denominator, scaled, mask, n);
  return weights;
}

// ---- normalize rows: backward ---------------------------------------------------------------
// dL/d scaled from dL/d weights, row by row (vector-Jacobian products). Masked entries and
// fully masked rows get 0.

template <typename T>
Mat<T> NormalizeRowsBackward(const Mat<T>& dweights,  // (N, M) dL/dP
                             const Mat<T>& weights,   // (N, M) P from the forward
                             const Mat<T>& scaled,    // (N, M) s from the forward
                             const Mask& mask, Normalizer n) {
  const Eigen::Index rows = scaled.rows(), cols = scaled.cols();
  Mat<T> dscaled = Mat<T>::Zero(rows, cols);  // (N, M)
  if (n == Normalizer::kHardmax) return dscaled;  // piecewise constant: the gradient is 0
  for (Eigen::Index i = 0; i < rows; ++i) {
    switch (n) {
      case Normalizer::kSoftmax: {
        // p_j = e_j / sum e  =>  ds_j = p_j (dp_j - sum_k p_k dp_k)
        T dot = 0;
        for (Eigen::Index j = 0; j < cols; ++j) {
          if (MaskAllows(mask, i, j)) dot += weights(i, j) * dweights(i, j);
        }
        for (Eigen::Index j = 0; j < cols; ++j) {
          if (MaskAllows(mask, i, j)) dscaled(i, j) = weights(i, j) * (dweights(i, j) - dot);
        }
        break;
      }
      case Normalizer::kSparsemax: {
        // p_j = s_j - tau on the support S = {p_j > 0}, tau = (sum_S s - 1) / |S|
        //   =>  ds_j = dp_j - mean_{k in S} dp_k on S, 0 elsewhere
        T sum = 0;
        int support = 0;
        for (Eigen::Index j = 0; j < cols; ++j) {
          if (MaskAllows(mask, i, j) && weights(i, j) > 0) {
            sum += dweights(i, j);
            ++support;
          }
        }
        if (support == 0) break;
        const T mean = sum / static_cast<T>(support);
        for (Eigen::Index j = 0; j < cols; ++j) {
          if (MaskAllows(mask, i, j) && weights(i, j) > 0) dscaled(i, j) = dweights(i, j) - mean;
        }
        break;
      }
      case Normalizer::kReluNorm: {
        // p_j = r_j / Z, r = relu(s), Z = sum r  =>  dr_j = (dp_j - sum_k p_k dp_k) / Z,
        // ds_j = dr_j [s_j > 0]; the uniform row (Z = 0) is constant: 0.
        T z = 0, dot = 0;  // Z summed exactly as in ReluNormRow
        for (Eigen::Index j = 0; j < cols; ++j) {
          if (!MaskAllows(mask, i, j)) continue;
          z += scaled(i, j) > 0 ? scaled(i, j) : T(0);
          dot += weights(i, j) * dweights(i, j);
        }
        if (!(z > 0)) break;
        for (Eigen::Index j = 0; j < cols; ++j) {
          if (MaskAllows(mask, i, j) && scaled(i, j) > 0) {
            dscaled(i, j) = (dweights(i, j) - dot) / z;
          }
        }
        break;
      }
      case Normalizer::kSigmoid:
        // p = sigmoid(s)  =>  ds = dp p (1 - p)
        for (Eigen::Index j = 0; j < cols; ++j) {
          if (MaskAllows(mask, i, j)) {
            dscaled(i, j) = dweights(i, j) * weights(i, j) * (T(1) - weights(i, j));
          }
        }
        break;
      case Normalizer::kNone:
        // p = s  =>  ds = dp
        for (Eigen::Index j = 0; j < cols; ++j) {
          if (MaskAllows(mask, i, j)) dscaled(i, j) = dweights(i, j);
        }
        break;
      case Normalizer::kHardmax:
        break;
    }
  }
  return dscaled;
}

// ---- explicit instantiations: float for the lab, double for training and the tests -----------

#define ATTN_NORMALIZERS_INSTANTIATE(T)                                                          \
  template Mat<T> NormalizeRows<T>(const Mat<T>&, const Mask&, Normalizer);                      \
  template void NormalizeRowsParts<T>(Mat<T>&, Vec<T>&, Mat<T>&, Vec<T>&, const Mat<T>&,         \
                                      const Mask&, Normalizer);                                  \
  template Mat<T> NormalizeRowsBackward<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&,          \
                                           const Mask&, Normalizer);
ATTN_NORMALIZERS_INSTANTIATE(float)
ATTN_NORMALIZERS_INSTANTIATE(double)
#undef ATTN_NORMALIZERS_INSTANTIATE

}  // namespace attn
