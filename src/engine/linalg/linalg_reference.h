// Engine-internal: the plain loops the products were before the blocked kernels (kernels.h).
// Kept as the definition of the products' bits: every output entry is
//   acc = 0;  for k = 0, 1, ...:  acc += a_k * b_k     (a multiply, then an add: no FMA)
// and the kernels must give the same bits for every shape and every input (tests/engine/
// test_kernels.cpp compares them with memcmp). Used by the tests and scripts/bench.sh --kernels.
//
// Shapes in the comments: (rows, cols).
#pragma once

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "engine/base/types.h"

namespace attn {
namespace linalg {
namespace reference {

// out = a b: "k outside, rows inside", so the inner loop updates independent entries.
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

// out = a b^T: row r of a dotted with row c of b.
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

// out = a^T b: column r of a dotted with column c of b.
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

}  // namespace reference
}  // namespace linalg
}  // namespace attn
