// Test helpers for the LP and the same-output polytope: small matrices written row by row, a
// seeded normal stream, and brute-force references (every basic feasible solution of a small
// LP, the weight ranges over all vertices of P(alpha)).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "engine/base/rng.h"
#include "engine/base/types.h"

namespace polytope_testing {

using attn::MatD;
using attn::VecD;

inline MatD Rows(int rows, int cols, std::initializer_list<double> entries) {  // row by row
  MatD m(rows, cols);
  auto it = entries.begin();
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) m(i, j) = *it++;
  }
  return m;
}

inline VecD Vector(std::initializer_list<double> entries) {
  VecD v(static_cast<Eigen::Index>(entries.size()));
  int k = 0;
  for (double e : entries) v(k++) = e;
  return v;
}

// max(|A x - b|_inf, max(-x)): how far x is from the feasible set, in the units of the problem.
inline double Infeasibility(const MatD& A, const VecD& b, const VecD& x) {
  double worst = 0;
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    double s = 0;
    for (Eigen::Index j = 0; j < A.cols(); ++j) s += A(i, j) * x(j);
    worst = std::max(worst, std::abs(s - b(i)));
  }
  for (Eigen::Index j = 0; j < x.size(); ++j) worst = std::max(worst, -x(j));
  return worst;
}

inline double MaxAbs(const MatD& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

// A standard normal stream for the tests (rng.h: the same numbers everywhere).
struct Normals {
  attn::rng::SplitMix64 stream;
  explicit Normals(std::uint64_t seed) : stream(seed) {}
  double Next() {
    double z[2];
    attn::rng::FillStandardNormal(stream, z, 1);
    return z[0];
  }
  int Int(int lo, int hi) {  // uniform in [lo, hi]
    return lo + static_cast<int>(stream.Next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  MatD Matrix(int rows, int cols) {
    MatD m(rows, cols);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) m(i, j) = Next();
    }
    return m;
  }
};

inline VecD Softmax(const VecD& s) {
  VecD e = (s.array() - s.maxCoeff()).exp();
  return e / e.sum();
}

// Solves M x = y exactly by Gaussian elimination with full pivoting. False when M (R, k) has
// rank < k or the system is inconsistent (residual > 1e-9 (1 + |y|)).
inline bool SolveSquareOrTall(const MatD& M, const VecD& y, VecD& x) {
  const int r = static_cast<int>(M.rows()), k = static_cast<int>(M.cols());
  MatD a = M;
  VecD rhs = y;
  std::vector<int> col(k);
  for (int j = 0; j < k; ++j) col[j] = j;
  const double scale = std::max(1.0, MaxAbs(M));
  for (int p = 0; p < k; ++p) {
    int bi = -1, bj = -1;
    double best = 1e-9 * scale;
    for (int i = p; i < r; ++i) {
      for (int j = p; j < k; ++j) {
        if (std::abs(a(i, j)) > best) {
          best = std::abs(a(i, j));
          bi = i;
          bj = j;
        }
      }
    }
    if (bi < 0) return false;  // rank < k
    a.row(p).swap(a.row(bi));
    std::swap(rhs(p), rhs(bi));
    a.col(p).swap(a.col(bj));
    std::swap(col[p], col[bj]);
    for (int i = p + 1; i < r; ++i) {
      const double f = a(i, p) / a(p, p);
      for (int j = p; j < k; ++j) a(i, j) -= f * a(p, j);
      rhs(i) -= f * rhs(p);
    }
  }
  VecD z(k);
  for (int p = k - 1; p >= 0; --p) {
    double s = rhs(p);
    for (int j = p + 1; j < k; ++j) s -= a(p, j) * z(j);
    z(p) = s / a(p, p);
  }
  x = VecD::Zero(k);
  for (int p = 0; p < k; ++p) x(col[p]) = z(p);
  const double res = (M * x - y).cwiseAbs().maxCoeff();
  return res <= 1e-9 * (1 + y.cwiseAbs().maxCoeff());
}

// Every basic feasible solution of {A x = b, x >= 0}: for every set S of columns, the unique
// solution of A_S x_S = b when A_S has independent columns, kept when x_S >= 0. These are the
// vertices of the polytope; an LP that is feasible and bounded attains its optimum on one.
inline std::vector<VecD> Vertices(const MatD& A, const VecD& b) {
  const int n = static_cast<int>(A.cols());
  std::vector<VecD> out;
  for (int mask = 0; mask < (1 << n); ++mask) {
    std::vector<int> s;
    for (int j = 0; j < n; ++j) {
      if (mask & (1 << j)) s.push_back(j);
    }
    if (static_cast<int>(s.size()) > A.rows()) continue;
    MatD as(A.rows(), static_cast<int>(s.size()));
    for (int k = 0; k < static_cast<int>(s.size()); ++k) as.col(k) = A.col(s[k]);
    VecD xs;
    if (s.empty()) {
      if (b.cwiseAbs().maxCoeff() > 1e-12) continue;
      xs = VecD();
    } else if (!SolveSquareOrTall(as, b, xs)) {
      continue;
    }
    if (xs.size() && xs.minCoeff() < -1e-9) continue;
    VecD x = VecD::Zero(n);
    for (int k = 0; k < static_cast<int>(s.size()); ++k) x(s[k]) = xs(k);
    out.push_back(x);
  }
  return out;
}

// [V^T; 1^T] and [V^T alpha; 1^T alpha]: the constraints of P(alpha).
inline void SameOutputSystem(const MatD& V, const VecD& alpha, MatD& M, VecD& y) {
  M.resize(V.cols() + 1, V.rows());
  M.topRows(V.cols()) = V.transpose();
  M.row(V.cols()).setOnes();
  y = M * alpha;
}

// The ranges by brute force: min and max of a_i over the vertices of P(alpha).
inline MatD BruteForceRanges(const MatD& V, const VecD& alpha) {
  MatD M;
  VecD y;
  SameOutputSystem(V, alpha, M, y);
  const std::vector<VecD> vs = Vertices(M, y);
  MatD r(V.rows(), 2);
  for (Eigen::Index i = 0; i < V.rows(); ++i) {
    r(i, 0) = 1e300;
    r(i, 1) = -1e300;
    for (const VecD& v : vs) {
      r(i, 0) = std::min(r(i, 0), v(i));
      r(i, 1) = std::max(r(i, 1), v(i));
    }
  }
  return r;
}

// alpha' is in P(alpha): nonnegative, same total, same output, each to 1e-9 (relative to |V|).
inline void CheckSameOutput(const MatD& V, const VecD& alpha, const VecD& a2) {
  REQUIRE(a2.size() == alpha.size());
  CHECK(a2.minCoeff() >= 0.0);
  CHECK(std::abs(a2.sum() - alpha.sum()) <= 1e-9);
  const double out_diff =
      V.cols() ? (V.transpose() * (a2 - alpha)).cwiseAbs().maxCoeff() : 0.0;
  CHECK(out_diff <= 1e-9 * std::max(1.0, MaxAbs(V)));
}

// Values of affine rank exactly r: r + 1 generic points in R^dv (r <= dv), then N - r - 1
// random affine combinations of them (coefficients ~ N(0, 1), the first set to make the sum 1).
inline MatD ValuesOfAffineRank(Normals& rnd, int n, int dv, int r) {
  const MatD points = rnd.Matrix(r + 1, dv);
  MatD v(n, dv);
  for (int i = 0; i < n; ++i) {
    if (i <= r) {
      v.row(i) = points.row(i);
      continue;
    }
    VecD w(r + 1);
    double rest = 0;
    for (int k = 1; k <= r; ++k) rest += (w(k) = rnd.Next());
    w(0) = 1 - rest;
    v.row(i) = w.transpose() * points;
  }
  return v;
}

}  // namespace polytope_testing
