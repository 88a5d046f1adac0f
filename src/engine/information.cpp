// Is information lost in the sum? (see information.h for the geometry and the contract)
//
// Shapes: N = tokens, Dv = d_v, r = affine rank of the values.
// The questions asked of P(alpha) (same_output.h): is alpha unique, the collision, the ranges;
// then the public functions AnalyzeValues, RecoverWeights, Collide, WeightRanges,
// AnalyzeInformation, and the two helpers of the panel (Contributions, SetWeightOnSimplex).
// Bit-exactness: plain loops in a fixed order, no Eigen products or decompositions, no FMA
// contraction (linalg.h's rules), so that the browser and the command line agree.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "information.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "affine_frame.h"
#include "same_output.h"

namespace attn {

using affine::ApplyQ;
using affine::BuildFrame;
using affine::Frame;
using affine::FrameCoordinates;
using affine::PivotedQr;
using affine::QrColumnPivoting;
using affine::Sum;
using affine::WeightedSum;

namespace {

// ---- the questions asked of P(alpha) -----------------------------------------------------------

int ArgMax(const VecD& a) {
  int best = 0;
  for (int i = 1; i < a.size(); ++i) {
    if (a(i) > a(best)) best = i;
  }
  return a.size() > 0 ? best : -1;
}

VecD Unit(int n, int i, double value) {
  VecD e = VecD::Zero(n);
  e(i) = value;
  return e;
}

Collision CollideOn(SameOutput& p, const MatD& V, const VecD& alpha, int target,
                    bool then_minimize_top) {
  Collision out;
  const int n = p.n();
  out.output = WeightedSum(V, alpha);
  out.alpha2 = alpha;
  out.top = ArgMax(alpha);
  p.Reset();
  if (n == 0) {
    out.output2 = out.output;
    out.unique = true;
    return out;
  }
  // Unique? Affinely independent values: always. Otherwise P = {alpha} iff no weight can move
  // onto a token outside the support S (max of the weight off S is 0) and the columns [v_i; 1]
  // of S are independent (else alpha + eps d stays in P for a null vector d supported on S).
  if (p.recoverable()) {
    out.unique = true;
  } else if (p.feasible()) {
    constexpr double kSupport = 1e-9;
    VecD off = VecD::Zero(n);
    std::vector<int> support;
    for (int i = 0; i < n; ++i) {
      if (alpha(i) > kSupport) {
        support.push_back(i);
      } else {
        off(i) = 1;
      }
    }
    bool nothing_moves_on = true;
    VecD a;
    if (static_cast<int>(support.size()) < n && p.Maximize(off, a)) {
      double moved = 0;
      for (int i = 0; i < n; ++i) moved += off(i) * a(i);
      nothing_moves_on = moved <= kSupport;
    }
    if (nothing_moves_on) {
      MatD vs(static_cast<int>(support.size()), V.cols());
      for (int k = 0; k < static_cast<int>(support.size()); ++k) vs.row(k) = V.row(support[k]);
      out.unique = BuildFrame(vs, 1e-9).rank == static_cast<int>(support.size()) - 1;
    }
  }
  // The collision: the most weight on the target, then (optionally) the least on the top token.
  if (target >= 0 && target < n && !out.unique) {
    const VecD c1 = Unit(n, target, 1.0);
    VecD a;
    if (p.Maximize(c1, a)) {
      bool improved = a(target) > alpha(target) + 1e-12 * (1 + std::abs(p.total()));
      if (then_minimize_top && out.top != target) {
        p.lp().FreezeOffOptimalFace(c1);
        VecD a2;
        if (p.Maximize(Unit(n, out.top, -1.0), a2)) a = a2;
        p.lp().Unfreeze();
        improved = improved || a(out.top) < alpha(out.top) - 1e-12 * (1 + std::abs(p.total()));
      }
      if (improved) out.alpha2 = a;  // else alpha itself is already optimal: keep it
    }
  }
  out.output2 = WeightedSum(V, out.alpha2);
  for (Eigen::Index k = 0; k < out.output.size(); ++k) {
    out.max_output_diff = std::max(out.max_output_diff, std::abs(out.output(k) - out.output2(k)));
  }
  for (int i = 0; i < n; ++i) {
    if (std::abs(out.alpha2(i) - alpha(i)) > 1e-9) out.changed = true;
  }
  return out;
}

MatD RangesOn(SameOutput& p, const VecD& alpha) {
  const int n = p.n();
  MatD ranges(n, 2);
  for (int i = 0; i < n; ++i) ranges(i, 0) = ranges(i, 1) = alpha(i);
  if (n == 0 || p.recoverable() || !p.feasible()) return ranges;
  p.Reset();
  const double total = p.total();
  VecD lo = alpha, hi = alpha;  // inner bounds so far: alpha and every vertex seen are in P
  auto seen = [&](const VecD& a) {
    for (int j = 0; j < n; ++j) {
      lo(j) = std::min(lo(j), a(j));
      hi(j) = std::max(hi(j), a(j));
    }
  };
  VecD a;
  for (int i = 0; i < n; ++i) {  // max a_i, unless a vertex already gave token i everything
    if (hi(i) >= total * (1 - 1e-12)) continue;
    if (p.Maximize(Unit(n, i, 1.0), a)) seen(a);
  }
  for (int i = 0; i < n; ++i) {  // min a_i, unless a vertex already gave token i nothing
    if (lo(i) <= 0) continue;
    if (p.Maximize(Unit(n, i, -1.0), a)) seen(a);
  }
  for (int i = 0; i < n; ++i) {
    ranges(i, 0) = std::max(lo(i), 0.0);
    ranges(i, 1) = std::min(hi(i), std::max(total, 0.0));
  }
  return ranges;
}

}  // namespace

AffineInfo AnalyzeValues(const MatD& V, double tol) {
  AffineInfo info;
  const int n = static_cast<int>(V.rows());
  if (n == 0) {
    info.affine_rank = -1;
    return info;
  }
  info.affine_rank = BuildFrame(V, tol).rank;
  info.same_output_dim = n - 1 - info.affine_rank;
  info.recoverable = info.same_output_dim == 0;
  return info;
}

Recovery RecoverWeights(const MatD& V, const VecD& A) {
  Recovery rec;
  const int n = static_cast<int>(V.rows());
  if (n == 0 || A.size() != V.cols()) return rec;
  const Frame f = BuildFrame(V, 1e-9);
  const VecD y = FrameCoordinates(f, A, nullptr);  // (r)
  // a = 1/N + a', a' the smallest solution of z a' = y: it lies in z's row space, which is
  // orthogonal to 1 (the frame is centred), so 1^T a = 1 and z a = y together. With
  // z^T P = Q2 R2 (r columns): z a' = y  <=>  R2^T (Q2^T a')_{0..r-1} = P^T y.
  rec.alpha = VecD::Constant(n, 1.0 / n);
  if (f.rank > 0) {
    const PivotedQr g = QrColumnPivoting(f.z.transpose(), 1e-14, 0.0);  // (N, r)
    VecD u = VecD::Zero(n);
    for (int k = 0; k < g.rank; ++k) {  // forward substitution with R2^T (lower triangular)
      double s = y(g.perm[k]);
      for (int j = 0; j < k; ++j) s -= g.qr(j, k) * u(j);
      u(k) = s / g.qr(k, k);
    }
    ApplyQ(g, u);
    for (int i = 0; i < n; ++i) rec.alpha(i) += u(i);
  }
  const VecD back = WeightedSum(V, rec.alpha);
  for (Eigen::Index k = 0; k < A.size(); ++k) {
    rec.residual = std::max(rec.residual, std::abs(back(k) - A(k)));
  }
  rec.residual = std::max(rec.residual, std::abs(Sum(rec.alpha) - 1));
  return rec;
}

Collision Collide(const MatD& V, const VecD& alpha, int target, bool then_minimize_top) {
  if (alpha.size() != V.rows()) return Collision();
  SameOutput p(V, alpha);
  return CollideOn(p, V, alpha, target, then_minimize_top);
}

MatD WeightRanges(const MatD& V, const VecD& alpha) {
  if (alpha.size() != V.rows()) return MatD(0, 2);
  SameOutput p(V, alpha);
  return RangesOn(p, alpha);
}

InformationReport AnalyzeInformation(const MatD& V, const VecD& alpha, int target,
                                     bool then_minimize_top) {
  InformationReport rep;
  if (alpha.size() != V.rows()) return rep;
  SameOutput p(V, alpha);
  const int n = p.n();
  rep.info.affine_rank = n > 0 ? p.frame().rank : -1;
  rep.info.same_output_dim = n > 0 ? n - 1 - p.frame().rank : 0;
  rep.info.recoverable = n > 0 && p.recoverable();
  rep.collision = CollideOn(p, V, alpha, target, then_minimize_top);
  rep.ranges = RangesOn(p, alpha);
  rep.recovery = RecoverWeights(V, rep.collision.output);
  for (int i = 0; i < n && rep.recovery.alpha.size() == n; ++i) {
    rep.recovery_error = std::max(rep.recovery_error, std::abs(rep.recovery.alpha(i) - alpha(i)));
  }
  return rep;
}

MatD Contributions(const MatD& V, const VecD& w) {
  if (w.size() != V.rows()) return MatD();
  MatD out(V.rows(), V.cols());  // (N, Dv)
  for (Eigen::Index i = 0; i < V.rows(); ++i)
    for (Eigen::Index c = 0; c < V.cols(); ++c) out(i, c) = w(i) * V(i, c);
  return out;
}

VecD SetWeightOnSimplex(const VecD& alpha, int i, double value) {
  const Eigen::Index n = alpha.size();
  if (i < 0 || i >= n) return alpha;
  const double v = std::isfinite(value) ? std::min(1.0, std::max(0.0, value)) : alpha(i);
  double rest = 0;  // what the other weights had
  for (Eigen::Index j = 0; j < n; ++j)
    if (j != i) rest += std::max(0.0, alpha(j));
  VecD out(n);  // (N)
  for (Eigen::Index j = 0; j < n; ++j) {
    if (j == i) out(j) = v;
    else if (rest > 0) out(j) = std::max(0.0, alpha(j)) * (1.0 - v) / rest;  // keep their proportions
    else out(j) = n > 1 ? (1.0 - v) / static_cast<double>(n - 1) : 0.0;
  }
  if (n == 1) out(0) = 1.0;  // one token: the only point of the simplex
  return out;
}

}  // namespace attn
