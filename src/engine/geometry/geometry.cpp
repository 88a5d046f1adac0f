// 2D views of vectors: PCA projection and convex hull. Shapes: M = points, d = dimensions.
// No FMA contraction, for the same bits natively and in wasm (see attention.cpp).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/geometry/geometry.h"

#include <algorithm>
#include <cmath>

namespace attn {

namespace {

// Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations (Golub & Van Loan 8.5;
// Numerical Recipes' `jacobi`). On return `a` is diagonal with the eigenvalues and the columns
// of `v` are the eigenvectors. Chosen over Eigen::SelfAdjointEigenSolver because it is a few
// plain loops: the same operations in the same order on every platform (no SIMD-dependent
// kernels), and GCC 12 -O2 reports false "maybe uninitialized" warnings inside Eigen's solver.
// d <= 64 here, and Jacobi converges quadratically: a handful of sweeps.
void JacobiEigen(MatD& a,    // (d, d) symmetric in, diagonal out
                 MatD& v) {  // (d, d) eigenvectors out, as columns
  const Eigen::Index d = a.rows();
  v = MatD::Identity(d, d);
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, diag = 0;  // squared sizes of the off-diagonal and diagonal parts
    for (Eigen::Index p = 0; p < d; ++p) {
      diag += a(p, p) * a(p, p);
      for (Eigen::Index q = p + 1; q < d; ++q) off += a(p, q) * a(p, q);
    }
    // Converged when the off-diagonal part is ~1e-12 of the diagonal: far below float's
    // resolution of the outputs, yet above double's rounding floor (~d * 1e-32), so it is met.
    if (!(off > 1e-24 * diag)) return;
    for (Eigen::Index p = 0; p < d; ++p) {
      for (Eigen::Index q = p + 1; q < d; ++q) {
        const double apq = a(p, q);
        if (apq == 0) continue;
        // The rotation angle that zeroes a(p, q): t = tan(angle), the smaller root of
        // t^2 + 2 theta t - 1 = 0, which keeps the rotation below 45 degrees (stable).
        const double theta = (a(q, q) - a(p, p)) / (2 * apq);
        const double t =
            std::abs(theta) > 1e150
                ? 0.5 / theta  // theta^2 would overflow; t ~ 1 / (2 theta)
                : (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        // a <- J^T a J, v <- v J, where J is the identity but J(p,p) = J(q,q) = c,
        // J(p,q) = s, J(q,p) = -s. Columns p and q change as a J; by symmetry rows p and q
        // are the same numbers, so they are copied rather than recomputed; the 2 x 2 block
        // has a closed form (a(p,q) becomes 0 by the choice of t).
        const double app = a(p, p), aqq = a(q, q);
        for (Eigen::Index k = 0; k < d; ++k) {  // columns p and q (contiguous: column-major)
          const double akp = a(k, p), akq = a(k, q);
          a(k, p) = c * akp - s * akq;
          a(k, q) = s * akp + c * akq;
        }
        a(p, p) = app - t * apq;
        a(q, q) = aqq + t * apq;
        a(p, q) = a(q, p) = 0;
        for (Eigen::Index k = 0; k < d; ++k) {  // rows p and q
          if (k == p || k == q) continue;
          a(p, k) = a(k, p);
          a(q, k) = a(k, q);
        }
        for (Eigen::Index k = 0; k < d; ++k) {
          const double vkp = v(k, p), vkq = v(k, q);
          v(k, p) = c * vkp - s * vkq;
          v(k, q) = s * vkp + c * vkq;
        }
      }
    }
  }
}

// Flips `v` so that its largest-magnitude entry (the first one on a tie) is positive: an
// eigenvector's sign is arbitrary, and the picture must not flip between runs or platforms.
void FixSign(VecD& v) {
  Eigen::Index best = 0;
  for (Eigen::Index k = 1; k < v.size(); ++k) {
    if (std::abs(v(k)) > std::abs(v(best))) best = k;
  }
  if (v.size() > 0 && v(best) < 0) v = -v;
}

}  // namespace

Pca2D ProjectPca2D(const MatF& points) {
  const Eigen::Index m = points.rows(), d = points.cols();
  Pca2D out;
  out.points = MatF::Zero(m, 2);      // (M, 2)
  out.components = MatF::Zero(d, 2);  // (d, 2)
  out.mean = VecF::Zero(d);           // (d)
  out.origin = VecF::Zero(2);         // (2)
  out.explained = 1;
  out.explained1 = 1;
  if (m == 0 || d == 0) return out;

  // Double inside (float covariances of nearly collinear points lose the small directions),
  // and loops in a fixed order, for the same bits everywhere (see attention.cpp).
  VecD mean = VecD::Zero(d);  // (d)
  for (Eigen::Index i = 0; i < m; ++i) {
    for (Eigen::Index k = 0; k < d; ++k) mean(k) += points(i, k);
  }
  mean /= static_cast<double>(m);
  MatD c(m, d);      // (M, d) centred
  double size2 = 0;  // mean squared norm of the points, for the "no variance" test
  for (Eigen::Index i = 0; i < m; ++i) {
    for (Eigen::Index k = 0; k < d; ++k) {
      c(i, k) = points(i, k) - mean(k);
      size2 += double(points(i, k)) * points(i, k);
    }
  }
  size2 /= static_cast<double>(m);
  MatD cov = MatD::Zero(d, d);  // (d, d) = c^T c / M
  for (Eigen::Index k = 0; k < d; ++k) {
    for (Eigen::Index l = k; l < d; ++l) {
      double acc = 0;
      for (Eigen::Index i = 0; i < m; ++i) acc += c(i, k) * c(i, l);
      cov(k, l) = cov(l, k) = acc / static_cast<double>(m);
    }
  }
  out.mean = mean.cast<float>();

  double total = 0;  // trace = sum of the eigenvalues = total variance
  for (Eigen::Index k = 0; k < d; ++k) total += cov(k, k);
  // "No variance": exactly 0, or so small next to the points' size that it is float rounding
  // (float carries ~6e-8 relative error, so its variance is ~1e-15 of the squared norm).
  if (!(total > 1e-12 * size2) || !std::isfinite(total)) {
    for (Eigen::Index k = 0; k < std::min<Eigen::Index>(d, 2); ++k) {
      out.components(k, k) = 1;
      out.origin(k) = static_cast<float>(-mean(k));
    }
    return out;  // points stay 0, explained stays 1
  }

  MatD vecs;  // (d, d)
  JacobiEigen(cov, vecs);
  // The two largest eigenvalues; on a tie the lower index, so the choice is deterministic.
  Eigen::Index i1 = 0;
  for (Eigen::Index k = 1; k < d; ++k) {
    if (cov(k, k) > cov(i1, i1)) i1 = k;
  }
  Eigen::Index i2 = -1;
  for (Eigen::Index k = 0; k < d; ++k) {
    if (k != i1 && (i2 < 0 || cov(k, k) > cov(i2, i2))) i2 = k;
  }
  double sum = 0;
  for (Eigen::Index k = 0; k < d; ++k) sum += std::max(0.0, cov(k, k));  // rounding can dip < 0
  const double lambda1 = std::max(0.0, cov(i1, i1));
  const double lambda2 = i2 >= 0 ? std::max(0.0, cov(i2, i2)) : 0.0;

  VecD c1 = vecs.col(i1);                                  // (d) largest variance
  VecD c2 = i2 >= 0 ? VecD(vecs.col(i2)) : VecD::Zero(d);  // (d) none when d == 1
  FixSign(c1);
  FixSign(c2);
  out.explained = static_cast<float>(std::min(1.0, (lambda1 + lambda2) / sum));
  out.explained1 = static_cast<float>(std::min(1.0, lambda1 / sum));
  out.components.col(0) = c1.cast<float>();
  out.components.col(1) = c2.cast<float>();
  for (Eigen::Index i = 0; i < m; ++i) {  // coordinates along the two components
    double x = 0, y = 0;
    for (Eigen::Index k = 0; k < d; ++k) {
      x += c(i, k) * c1(k);
      y += c(i, k) * c2(k);
    }
    out.points(i, 0) = static_cast<float>(x);
    out.points(i, 1) = static_cast<float>(y);
  }
  // Where the zero vector lands: the vectors view draws the sum from there, term by term.
  double ox = 0, oy = 0;
  for (Eigen::Index k = 0; k < d; ++k) {
    ox -= mean(k) * c1(k);
    oy -= mean(k) * c2(k);
  }
  out.origin << static_cast<float>(ox), static_cast<float>(oy);
  return out;
}

Pca2D ProjectOnto(const Pca2D& plane, const MatF& points) {
  Pca2D out = plane;
  const Eigen::Index m = points.rows(), d = points.cols();
  out.points = MatF::Zero(m, 2);  // (M, 2)
  if (plane.mean.size() != d || plane.components.rows() != d) return out;
  for (Eigen::Index i = 0; i < m; ++i) {
    double x = 0, y = 0;
    for (Eigen::Index k = 0; k < d; ++k) {
      const double c = static_cast<double>(points(i, k)) - static_cast<double>(plane.mean(k));
      x += c * plane.components(k, 0);
      y += c * plane.components(k, 1);
    }
    out.points(i, 0) = static_cast<float>(x);
    out.points(i, 1) = static_cast<float>(y);
  }
  return out;
}

std::vector<int> ConvexHull2D(const MatF& points) {
  // Finite points only, sorted by (x, y) and then index, so that duplicates keep the first.
  std::vector<int> idx;
  for (int i = 0; i < static_cast<int>(points.rows()); ++i) {
    if (points.cols() >= 2 && std::isfinite(points(i, 0)) && std::isfinite(points(i, 1))) {
      idx.push_back(i);
    }
  }
  const auto x = [&](int i) { return static_cast<double>(points(i, 0)); };
  const auto y = [&](int i) { return static_cast<double>(points(i, 1)); };
  std::sort(idx.begin(), idx.end(), [&](int a, int b) {
    if (x(a) != x(b)) return x(a) < x(b);
    if (y(a) != y(b)) return y(a) < y(b);
    return a < b;
  });
  idx.erase(std::unique(idx.begin(), idx.end(),
                        [&](int a, int b) { return x(a) == x(b) && y(a) == y(b); }),
            idx.end());
  if (idx.size() <= 2) return idx;  // 0, 1 or 2 distinct points are their own hull

  // > 0 for a counter-clockwise turn o -> a -> b; in double, so that the sign of a nearly
  // collinear triple is not decided by float rounding.
  const auto cross = [&](int o, int a, int b) {
    return (x(a) - x(o)) * (y(b) - y(o)) - (y(a) - y(o)) * (x(b) - x(o));
  };
  std::vector<int> hull(2 * idx.size());
  std::size_t k = 0;
  for (const int p : idx) {                                         // lower hull, left to right
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], p) <= 0) --k;  // <= 0 drops collinear
    hull[k++] = p;
  }
  const std::size_t lower = k + 1;
  for (std::size_t t = idx.size() - 1; t-- > 0;) {  // upper hull, right to left
    const int p = idx[t];
    while (k >= lower && cross(hull[k - 2], hull[k - 1], p) <= 0) --k;
    hull[k++] = p;
  }
  hull.resize(k - 1);  // the last point is the first again
  return hull;
}

}  // namespace attn
