// The frame of the values' affine hull (affine_frame.h): Householder QR with column pivoting.
//
// Shapes: N = points, Dv = their width, r = affine rank.
// Bit-exactness: plain loops in a fixed order, no FMA contraction (linalg.h's rules).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/geometry/affine_frame.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace attn {
namespace affine {

PivotedQr QrColumnPivoting(MatD a, double rel_tol, double abs_tol) {
  PivotedQr out;
  const int m = static_cast<int>(a.rows()), n = static_cast<int>(a.cols());
  out.perm.resize(n);
  for (int j = 0; j < n; ++j) out.perm[j] = j;
  double r00 = 0;
  for (int k = 0; k < std::min(m, n); ++k) {
    int best = k;
    double best_sq = -1;
    for (int j = k; j < n; ++j) {
      double s = 0;
      for (int i = k; i < m; ++i) s += a(i, j) * a(i, j);
      if (s > best_sq) {
        best_sq = s;
        best = j;
      }
    }
    if (best != k) {
      for (int i = 0; i < m; ++i) std::swap(a(i, k), a(i, best));
      std::swap(out.perm[k], out.perm[best]);
    }
    const double norm = std::sqrt(best_sq);
    if (k == 0) r00 = norm;
    if (!(norm > rel_tol * r00) || !(norm > abs_tol)) break;
    // The reflector that maps a(k.., k) to beta e_1, beta = -sign(a_kk) |a(k.., k)|.
    const double x0 = a(k, k);
    const double beta = x0 >= 0 ? -norm : norm;
    const double tau = (beta - x0) / beta;
    const double scale = 1 / (x0 - beta);
    for (int i = k + 1; i < m; ++i) a(i, k) *= scale;
    a(k, k) = beta;
    for (int j = k + 1; j < n; ++j) {
      double s = a(k, j);
      for (int i = k + 1; i < m; ++i) s += a(i, k) * a(i, j);
      s *= tau;
      a(k, j) -= s;
      for (int i = k + 1; i < m; ++i) a(i, j) -= s * a(i, k);
    }
    out.tau.push_back(tau);
    out.rank = k + 1;
  }
  out.qr = std::move(a);
  return out;
}

// y <- Q^T y (the first `rank` reflectors, in order). y: (m).
void ApplyQt(const PivotedQr& f, VecD& y) {
  const int m = static_cast<int>(f.qr.rows());
  for (int k = 0; k < f.rank; ++k) {
    double s = y(k);
    for (int i = k + 1; i < m; ++i) s += f.qr(i, k) * y(i);
    s *= f.tau[k];
    y(k) -= s;
    for (int i = k + 1; i < m; ++i) y(i) -= s * f.qr(i, k);
  }
}

// y <- Q y (the reflectors in reverse order). y: (m).
void ApplyQ(const PivotedQr& f, VecD& y) {
  const int m = static_cast<int>(f.qr.rows());
  for (int k = f.rank - 1; k >= 0; --k) {
    double s = y(k);
    for (int i = k + 1; i < m; ++i) s += f.qr(i, k) * y(i);
    s *= f.tau[k];
    y(k) -= s;
    for (int i = k + 1; i < m; ++i) y(i) -= s * f.qr(i, k);
  }
}

Frame BuildFrame(const MatD& V, double tol, bool centre) {
  Frame f;
  f.n = static_cast<int>(V.rows());
  const int d = static_cast<int>(V.cols());
  if (f.n == 0) return f;
  f.mean = VecD::Zero(d);
  double vmax = 0;
  for (int k = 0; k < d; ++k) {
    double s = 0;
    for (int i = 0; i < f.n; ++i) {
      s += V(i, k);
      vmax = std::max(vmax, std::abs(V(i, k)));
    }
    f.mean(k) = centre ? s / f.n : 0.0;
  }
  MatD x(d, f.n);  // (Dv, N) = (V - mean)^T
  for (int i = 0; i < f.n; ++i) {
    for (int k = 0; k < d; ++k) x(k, i) = V(i, k) - f.mean(k);
  }
  // The absolute floor: the centring's rounding, ~eps |V| per entry, must not count as spread.
  f.qr = QrColumnPivoting(std::move(x), tol, 1e-13 * vmax);
  f.rank = f.qr.rank;
  f.z = MatD::Zero(f.rank, f.n);
  for (int k = 0; k < f.rank; ++k) {
    for (int j = k; j < f.n; ++j) f.z(k, f.qr.perm[j]) = f.qr.qr(k, j);
  }
  return f;
}

VecD FrameCoordinates(const Frame& f, const VecD& y, double* off) {
  VecD t = y - f.mean;  // (Dv)
  ApplyQt(f.qr, t);
  double rest = 0;
  for (int k = f.rank; k < t.size(); ++k) rest += t(k) * t(k);
  if (off) *off = std::sqrt(rest);
  return t.head(f.rank);
}

// out = V^T a in plain loops. V: (N, Dv), a: (N) -> (Dv).
VecD WeightedSum(const MatD& V, const VecD& a) {
  VecD out = VecD::Zero(V.cols());
  for (Eigen::Index i = 0; i < V.rows(); ++i) {
    for (Eigen::Index k = 0; k < V.cols(); ++k) out(k) += a(i) * V(i, k);
  }
  return out;
}

double Sum(const VecD& a) {
  double s = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) s += a(i);
  return s;
}

}  // namespace affine
}  // namespace attn
