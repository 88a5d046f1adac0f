// One head's pattern seen through its layer (layer_information.h): the joint polytope of every
// head's weights and the residual's unknowns, its dimensions, ranges and second scenario; and
// singular values by one-sided Jacobi.
// Bit-exactness: plain loops in a fixed order, no Eigen products or decompositions, no FMA
// contraction (linalg.h's rules).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/information/layer_information.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/geometry/affine_frame.h"
#include "engine/geometry/lp.h"

namespace attn {

namespace {

constexpr double kTol = 1e-9;

double MaxAbs(const MatD& a) {
  double m = 0;
  for (Eigen::Index j = 0; j < a.cols(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i) m = std::max(m, std::abs(a(i, j)));
  return m;
}

int Rank(const MatD& g) {
  if (g.rows() == 0 || g.cols() == 0) return 0;
  return affine::QrColumnPivoting(g, kTol, 1e-13 * MaxAbs(g)).rank;
}

}  // namespace

LayerInformation AnalyzeLayerHeads(const LayerHeadsInput& in, int head, int target, bool lps) {
  LayerInformation out;
  const int H = static_cast<int>(in.values.size());
  if (H == 0 || head < 0 || head >= H || static_cast<int>(in.alphas.size()) != H) return out;
  const int n = static_cast<int>(in.values[0].rows());
  const int dh = static_cast<int>(in.values[0].cols());
  const int C = static_cast<int>(in.mix.cols());
  if (in.mix.rows() != static_cast<Eigen::Index>(H) * dh) return out;
  for (int j = 0; j < H; ++j) {
    if (in.values[j].rows() != n || in.values[j].cols() != dh || in.alphas[j].size() != n) return out;
  }
  const int kf = static_cast<int>(in.free_dirs.rows()), kp = static_cast<int>(in.pos_dirs.rows());
  if ((kf > 0 && in.free_dirs.cols() != C) || (kp > 0 && in.pos_dirs.cols() != C) ||
      in.pos_coef.size() != kp) {
    return out;
  }
  out.ok = true;
  out.target = target >= 0 && target < n ? target : -1;

  // 1. The constraint matrix G (C + H, H n + kf + kp): column (j, i) = [M_j^T row i; e_j],
  //    M_j = V_j W_O^j, each entry sum_d V_j(i, d) W_O(j Dh + d, c) over d in order.
  const int vars = H * n + kf + kp;
  const int m = C + H;
  MatD G = MatD::Zero(m, vars);
  for (int j = 0; j < H; ++j) {
    for (int i = 0; i < n; ++i) {
      const int col = j * n + i;
      for (int c = 0; c < C; ++c) {
        double s = 0;
        for (int d = 0; d < dh; ++d) s += in.values[j](i, d) * in.mix(j * dh + d, c);
        G(c, col) = s;
      }
      G(C + j, col) = 1;
    }
  }
  for (int r = 0; r < kf; ++r)
    for (int c = 0; c < C; ++c) G(c, H * n + r) = in.free_dirs(r, c);
  for (int r = 0; r < kp; ++r)
    for (int c = 0; c < C; ++c) G(c, H * n + kf + r) = in.pos_dirs(r, c);
  VecD x_true = VecD::Zero(vars);  // the free coefficients' true values do not matter: 0
  for (int j = 0; j < H; ++j)
    for (int i = 0; i < n; ++i) x_true(j * n + i) = in.alphas[j](i);
  for (int r = 0; r < kp; ++r) x_true(H * n + kf + r) = in.pos_coef(r);

  // 2. Dimensions: of Q(alpha), and of its projection on head h, which is
  //    dim Q - dim{ points of Q's directions with head h's part 0 } = dim - (vars - n - rank G_other).
  const affine::PivotedQr f = affine::QrColumnPivoting(G, kTol, 1e-13 * MaxAbs(G));
  const int r = f.rank;
  out.variables = vars;
  out.rank = r;
  out.dim = vars - r;
  MatD others(m, vars - n);
  for (int col = 0, k = 0; col < vars; ++col) {
    if (col >= head * n && col < (head + 1) * n) continue;
    others.col(k++) = G.col(col);
  }
  out.head_dim = out.dim - ((vars - n) - Rank(others));
  out.recoverable = out.head_dim == 0;

  out.ranges.resize(n, 2);
  for (int i = 0; i < n; ++i) out.ranges(i, 0) = out.ranges(i, 1) = in.alphas[head](i);
  out.alpha2 = in.alphas[head];
  if (out.recoverable || !lps) return out;

  // 3. The LP: the r independent rows Z = (Q^T G)_{0..r-1}, Z x = Z x_true; a free coefficient is
  //    the difference of two columns >= 0.
  const int lp_cols = vars + kf;
  MatD A(r, lp_cols);
  VecD b = VecD::Zero(r);
  for (int col = 0; col < vars; ++col) {
    VecD y = G.col(col);
    affine::ApplyQt(f, y);
    for (int k = 0; k < r; ++k) A(k, col) = y(k);
  }
  for (int q = 0; q < kf; ++q)
    for (int k = 0; k < r; ++k) A(k, vars + q) = -A(k, H * n + q);
  for (int k = 0; k < r; ++k) {
    double s = 0;
    for (int col = 0; col < vars; ++col) s += A(k, col) * x_true(col);
    b(k) = s;
  }
  Simplex lp;
  lp.Init(A, b, LpOptions());
  if (lp.Phase1() != LpResult::kOptimal) return out;  // alpha itself is feasible: rounding only
  const Simplex after_phase1 = lp;
  auto objective = [&](int i, double sign) {
    VecD c = VecD::Zero(lp_cols);
    c(head * n + i) = sign;
    return c;
  };
  // The ranges, each LP warm-started from the previous one (a fixed order: the same bits).
  for (int i = 0; i < n; ++i) {
    for (int side = 0; side < 2; ++side) {
      ++out.lps;
      if (lp.Maximize(objective(i, side == 0 ? -1.0 : 1.0)) != LpResult::kOptimal) continue;
      const VecD x = lp.Solution();
      out.ranges(i, side) = side == 0 ? std::min(out.ranges(i, 0), x(head * n + i))
                                      : std::max(out.ranges(i, 1), x(head * n + i));
    }
  }
  // The second scenario, from phase 1's basis (independent of the ranges' questions).
  if (out.target >= 0) {
    lp = after_phase1;
    ++out.lps;
    if (lp.Maximize(objective(out.target, 1.0)) == LpResult::kOptimal) {
      VecD x = lp.Solution();
      if (x(head * n + out.target) > in.alphas[head](out.target) + 1e-12) {
        for (int i = 0; i < n; ++i) out.alpha2(i) = x(head * n + i);
        for (int j = 0; j < H; ++j) {
          if (j == head) continue;
          for (int i = 0; i < n; ++i)
            out.others_moved = std::max(out.others_moved, std::abs(x(j * n + i) - in.alphas[j](i)));
        }
        // The observation again from the new unknowns, against the old: rounding only.
        for (int q = 0; q < kf; ++q) x(H * n + q) = x(H * n + q) - x(vars + q);
        for (int c = 0; c < C; ++c) {
          double y1 = 0, y2 = 0;
          for (int col = 0; col < vars; ++col) {
            y1 += G(c, col) * x_true(col);
            y2 += G(c, col) * x(col);
          }
          out.max_output_diff = std::max(out.max_output_diff, std::abs(y1 - y2));
        }
      }
    }
  }
  return out;
}

VecD SingularValues(const MatD& A) {
  const bool tall = A.rows() >= A.cols();
  MatD B = tall ? MatD(A) : MatD(A.transpose());
  const Eigen::Index m = B.rows(), n = B.cols();
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (Eigen::Index p = 0; p + 1 < n; ++p) {
      for (Eigen::Index q = p + 1; q < n; ++q) {
        double alpha = 0, beta = 0, gamma = 0;
        for (Eigen::Index k = 0; k < m; ++k) {
          alpha += B(k, p) * B(k, p);
          beta += B(k, q) * B(k, q);
          gamma += B(k, p) * B(k, q);
        }
        if (gamma == 0 || std::abs(gamma) <= 1e-15 * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t), s = c * t;
        for (Eigen::Index k = 0; k < m; ++k) {
          const double bp = B(k, p), bq = B(k, q);
          B(k, p) = c * bp - s * bq;
          B(k, q) = s * bp + c * bq;
        }
      }
    }
    if (!rotated) break;
  }
  std::vector<double> s(static_cast<std::size_t>(n));
  for (Eigen::Index j = 0; j < n; ++j) {
    double sum = 0;
    for (Eigen::Index k = 0; k < m; ++k) sum += B(k, j) * B(k, j);
    s[static_cast<std::size_t>(j)] = std::sqrt(sum);
  }
  std::sort(s.begin(), s.end(), [](double a, double b) { return a > b; });
  VecD out(n);
  for (Eigen::Index j = 0; j < n; ++j) out(j) = s[static_cast<std::size_t>(j)];
  return out;
}

// Rank by the pivoted QR (A P = Q R: R has A's singular values); the largest singular value by
// power iteration on R^T R, the smallest by inverse iteration (two triangular solves per step),
// kIterations each from a fixed start: a few milliseconds for 128 x 128 where the full Jacobi
// SVD takes ~50. The Rayleigh quotients converge like (s_2 / s_1)^(4k): 3 digits and more.
RankSummary SummarizeRank(const MatD& A) {
  RankSummary out;
  const MatD B = A.rows() >= A.cols() ? MatD(A) : MatD(A.transpose());
  const int n = static_cast<int>(B.cols());
  if (n == 0 || B.rows() == 0) return out;
  const affine::PivotedQr f = affine::QrColumnPivoting(B, kTol, 1e-13 * MaxAbs(B));
  out.rank = f.rank;
  const int r = f.rank;
  auto R = [&](int i, int j) { return j >= i ? f.qr(i, j) : 0.0; };  // rows 0..r-1
  constexpr int kIterations = 300;
  VecD x(n);
  for (int i = 0; i < n; ++i) x(i) = 1.0 + 0.5 * static_cast<double>(i % 7) / 7.0;
  auto normalize = [&](VecD& v) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += v(i) * v(i);
    s = std::sqrt(s);
    if (s > 0) for (int i = 0; i < n; ++i) v(i) = v(i) / s;
  };
  normalize(x);
  VecD y(r), z(n);
  double lambda = 0;
  for (int it = 0; it < kIterations; ++it) {
    for (int i = 0; i < r; ++i) {  // y = R x
      double s = 0;
      for (int j = i; j < n; ++j) s += R(i, j) * x(j);
      y(i) = s;
    }
    for (int j = 0; j < n; ++j) {  // z = R^T y
      double s = 0;
      for (int i = 0; i < r && i <= j; ++i) s += R(i, j) * y(i);
      z(j) = s;
    }
    lambda = 0;
    for (int i = 0; i < n; ++i) lambda += x(i) * z(i);
    x = z;
    normalize(x);
  }
  out.largest = std::sqrt(std::max(lambda, 0.0));
  if (r < n) {
    out.smallest = 0;
    out.condition = std::numeric_limits<double>::infinity();
    return out;
  }
  for (int i = 0; i < n; ++i) x(i) = 1.0 + 0.5 * static_cast<double>(i % 5) / 5.0;
  normalize(x);
  double mu = 0;
  for (int it = 0; it < kIterations; ++it) {
    for (int i = 0; i < n; ++i) {  // R^T y = x (forward)
      double s = x(i);
      for (int k = 0; k < i; ++k) s -= R(k, i) * y(k);
      y(i) = s / R(i, i);
    }
    for (int i = n - 1; i >= 0; --i) {  // R z = y (back)
      double s = y(i);
      for (int k = i + 1; k < n; ++k) s -= R(i, k) * z(k);
      z(i) = s / R(i, i);
    }
    mu = 0;
    for (int i = 0; i < n; ++i) mu += x(i) * z(i);
    x = z;
    normalize(x);
  }
  out.smallest = mu > 0 ? 1.0 / std::sqrt(mu) : 0.0;
  out.condition = out.smallest > 0 ? out.largest / out.smallest : std::numeric_limits<double>::infinity();
  return out;
}

}  // namespace attn
