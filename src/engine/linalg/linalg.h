// Engine-internal: the loop kernels every forward and backward pass is built from.
//
// Bit-exactness rules (the browser and the command line must print the same bits):
//   - products and sums run in a fixed left-to-right order, never Eigen products: Eigen's
//     kernels sum in an order that depends on the SIMD width (SSE natively, scalar in wasm).
//     The products are blocked and vectorized across independent entries (kernels.h), which
//     keeps each entry's order;
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

#include "engine/text/embedding.h"
#include "engine/linalg/kernels.h"

#include <cmath>
#include <type_traits>
#include <string>

namespace attn {
namespace linalg {

// The products below give every output entry the same sequence of IEEE operations,
//   acc = 0;  for k = 0, 1, ...:  acc += a_k * b_k,
// whatever the loop order around it: the plain loops that define them are in
// linalg_reference.h; these run the blocked, vectorized kernels of kernels.h, which keep every
// entry's sequence (tests/engine/test_kernels.cpp: the same bits, memcmp, for every shape).

// out = a b, summing over the inner index in order.
template <typename T>
Mat<T> MatMul(const Mat<T>& a, const Mat<T>& b) {  // (R, I) x (I, C) -> (R, C)
  const Eigen::Index rows = a.rows(), inner = a.cols(), cols = b.cols();
  Mat<T> out(rows, cols);  // (R, C)
  // A(r, k) = a[r + k R], B(k, c) = b[k + c I]
  kernels::Gemm<T>(rows, cols, inner, a.data(), 1, rows, b.data(), 1, inner, out.data());
  return out;
}

// out = a b^T: row r of a dotted with row c of b, which is exactly q_i . k_j.
template <typename T>
Mat<T> MatMulTransposed(const Mat<T>& a, const Mat<T>& b) {  // (R, I) x (C, I)^T -> (R, C)
  const Eigen::Index rows = a.rows(), inner = a.cols(), cols = b.rows();
  Mat<T> out(rows, cols);  // (R, C)
  // A(r, k) = a[r + k R], B(k, c) = b(c, k) = b[c + k C]
  kernels::Gemm<T>(rows, cols, inner, a.data(), 1, rows, b.data(), cols, 1, out.data());
  return out;
}

// out = a^T b: column r of a dotted with column c of b (the weight gradients X^T dQ).
template <typename T>
Mat<T> MatMulTransposedA(const Mat<T>& a, const Mat<T>& b) {  // (I, R)^T x (I, C) -> (R, C)
  const Eigen::Index rows = a.cols(), inner = a.rows(), cols = b.cols();
  Mat<T> out(rows, cols);  // (R, C)
  // A(r, k) = a(k, r) = a[k + r I], B(k, c) = b[k + c I]
  kernels::Gemm<T>(rows, cols, inner, a.data(), inner, 1, b.data(), 1, inner, out.data());
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

// A plain matrix or vector is read as one pass over its storage (the model's forward checks
// every head's scores, weights and outputs, and a call per entry is slow where the engine is
// compiled for size: the page); an expression (a block, a product) entry by entry.
template <typename Derived>
bool AllFinite(const Eigen::DenseBase<Derived>& m) {
  if constexpr (std::is_base_of_v<Eigen::PlainObjectBase<Derived>, Derived>) {
    const auto* p = m.derived().data();
    for (Eigen::Index i = 0, n = m.size(); i < n; ++i) {
      if (!std::isfinite(p[i])) return false;
    }
  } else {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      for (Eigen::Index r = 0; r < m.rows(); ++r) {
        if (!std::isfinite(m(r, c))) return false;
      }
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
