// Engine-internal: the loop kernels every forward and backward pass is built from.
//
// Bit-exactness rules (the browser and the command line must print the same bits):
//   - products and sums are plain loops in a fixed left-to-right order, never Eigen products:
//     Eigen's kernels sum in an order that depends on the SIMD width (SSE natively, scalar in
//     wasm). At N, D <= 64 the loops cost nothing that a person could notice;
//   - elementwise Eigen expressions without products (copies, a + b) are fine: one IEEE
//     operation per entry, whatever the vector width;
//   - a*b+c is rounded twice, never fused into an FMA (wasm has none): clang fuses within an
//     expression by default, hence the pragma in every engine .cpp (and here, for the inline
//     code); GCC ignores that pragma and, for C++, contracts by default in every -std mode,
//     but only when FMA instructions are enabled (-mfma, -march=native, ...), which the
//     project's builds do not do: add -ffp-contract=off to any build that does;
//   - exp and log are evaluated in double and rounded once to T (see Exp).
//
// Shapes in the comments: (rows, cols).
#pragma once

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "embedding.h"

#include <cmath>
#include <string>

namespace attn {
namespace linalg {

// The products below give every output entry the same sequence of IEEE operations,
//   acc = 0;  for k = 0, 1, ...:  acc += a_k * b_k,
// whatever the loop order around it. MatMul and MatMulTransposed run k outside and the rows
// inside, so that the innermost loop walks contiguous columns (Eigen is column-major) and
// updates independent entries: the compiler may vectorize it without reassociating a sum.

// out = a b, summing over the inner index in order.
template <typename T>
Mat<T> MatMul(const Mat<T>& a, const Mat<T>& b) {  // (R, I) x (I, C) -> (R, C)
  const Eigen::Index rows = a.rows(), inner = a.cols(), cols = b.cols();
  Mat<T> out = Mat<T>::Zero(rows, cols);  // (R, C)
  for (Eigen::Index c = 0; c < cols; ++c) {
    T* o = out.data() + c * rows;  // column c of out
    for (Eigen::Index k = 0; k < inner; ++k) {
      const T* ak = a.data() + k * rows;  // column k of a
      const T bkc = b(k, c);
      for (Eigen::Index r = 0; r < rows; ++r) o[r] += ak[r] * bkc;
    }
  }
  return out;
}

// out = a b^T: row r of a dotted with row c of b, which is exactly q_i . k_j.
template <typename T>
Mat<T> MatMulTransposed(const Mat<T>& a, const Mat<T>& b) {  // (R, I) x (C, I)^T -> (R, C)
  const Eigen::Index rows = a.rows(), inner = a.cols(), cols = b.rows();
  Mat<T> out = Mat<T>::Zero(rows, cols);  // (R, C)
  for (Eigen::Index c = 0; c < cols; ++c) {
    T* o = out.data() + c * rows;  // column c of out
    for (Eigen::Index k = 0; k < inner; ++k) {
      const T* ak = a.data() + k * rows;  // column k of a
      const T bck = b(c, k);
      for (Eigen::Index r = 0; r < rows; ++r) o[r] += ak[r] * bck;
    }
  }
  return out;
}

// out = a^T b: column r of a dotted with column c of b (the weight gradients X^T dQ).
template <typename T>
Mat<T> MatMulTransposedA(const Mat<T>& a, const Mat<T>& b) {  // (I, R)^T x (I, C) -> (R, C)
  Mat<T> out(a.cols(), b.cols());                             // (R, C)
  for (Eigen::Index r = 0; r < a.cols(); ++r) {
    for (Eigen::Index c = 0; c < b.cols(); ++c) {
      T acc = 0;
      for (Eigen::Index k = 0; k < a.rows(); ++k) acc += a(k, r) * b(k, c);
      out(r, c) = acc;
    }
  }
  return out;
}

// out += a, entry by entry (the same shapes).
template <typename T>
void AddInPlace(Mat<T>& out, const Mat<T>& a) {  // (R, C) += (R, C)
  for (Eigen::Index c = 0; c < out.cols(); ++c) {
    for (Eigen::Index r = 0; r < out.rows(); ++r) out(r, c) += a(r, c);
  }
}

// exp in double, rounded once to T: libm's expf may differ in the last bit between C libraries,
// a double rounded to float practically never does.
template <typename T>
T Exp(T x) {
  return static_cast<T>(std::exp(static_cast<double>(x)));
}

template <typename Derived>
bool AllFinite(const Eigen::DenseBase<Derived>& m) {
  for (Eigen::Index c = 0; c < m.cols(); ++c) {
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      if (!std::isfinite(m(r, c))) return false;
    }
  }
  return true;
}

// Writes the message (when asked for) and returns false: `return Fail(error, "...");`.
inline bool Fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace linalg
}  // namespace attn
