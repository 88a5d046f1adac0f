// The engine's matrix and vector types, one place for the whole engine (and the code that reads
// its results).
//
// Eigen matrices are column-major; pictures and textures are row-major: ToRowMajor converts
// (pinned by a test on a non-symmetric matrix). Every N x N attention matrix is rows = queries,
// columns = keys.
#pragma once

#include <Eigen/Dense>

#include <cstddef>
#include <vector>

namespace attn {

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;  // (rows, cols), column-major
template <typename T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;  // (n), a column
using MatF = Mat<float>;   // the lab's numbers (what the panels draw)
using VecF = Vec<float>;
using MatD = Mat<double>;  // training, the information analysis, the reference tests
using VecD = Vec<double>;
using Mask = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;  // (N, M), true = query i may
                                                                   // attend to key j

// mask(i, j), where an empty (0x0) mask allows everything.
inline bool MaskAllows(const Mask& mask, Eigen::Index i, Eigen::Index j) {
  return mask.size() == 0 || mask(i, j);
}

// Row-major copy of a matrix, as pictures and textures want it: out[r * cols + c] = m(r, c).
inline std::vector<float> ToRowMajor(const MatF& m) {
  std::vector<float> out(static_cast<std::size_t>(m.rows() * m.cols()));
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      out[static_cast<std::size_t>(r * m.cols() + c)] = m(r, c);
    }
  }
  return out;
}

}  // namespace attn
