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
#include "engine/information/information.h"

#include "engine/base/names.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "engine/geometry/affine_frame.h"
#include "engine/geometry/same_output.h"

namespace attn {

using affine::ApplyQ;
using affine::ApplyQt;
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
  // Unique? Independent values (affinely for the simplex, linearly for the box): always.
  // Otherwise P = {alpha} iff no weight can move off its bound (for the simplex: onto a token
  // outside the support S = {i : alpha_i > 0}; for the box also off 1) and the values of the
  // free tokens F (strictly inside their bounds) are independent (else alpha + eps d stays in P
  // for a null vector d supported on F).
  const bool box = p.set() == FeasibleSet::kBox;
  if (p.recoverable()) {
    out.unique = true;
  } else if (p.feasible()) {
    constexpr double kSupport = 1e-9;
    VecD off = VecD::Zero(n);  // +1 on the tokens at 0, -1 on those at 1 (box)
    double at_one = 0;
    std::vector<int> free;
    for (int i = 0; i < n; ++i) {
      if (alpha(i) <= kSupport) {
        off(i) = 1;
      } else if (box && alpha(i) >= 1 - kSupport) {
        off(i) = -1;
        at_one += 1;
      } else {
        free.push_back(i);
      }
    }
    bool nothing_moves_on = true;
    VecD a;
    if (static_cast<int>(free.size()) < n && p.Maximize(off, a)) {
      double moved = at_one;  // sum over the bound tokens of how far they left their bound
      for (int i = 0; i < n; ++i) moved += off(i) * a(i);
      nothing_moves_on = moved <= kSupport;
    }
    if (nothing_moves_on) {
      const int k = static_cast<int>(free.size());
      MatD vs(k, V.cols());
      for (int j = 0; j < k; ++j) vs.row(j) = V.row(free[static_cast<std::size_t>(j)]);
      out.unique = k == 0 || (box ? BuildFrame(vs, 1e-9, /*centre=*/false).rank == k
                                  : BuildFrame(vs, 1e-9).rank == k - 1);
    }
  }
  // The collision: the most weight on the target, then (optionally) the least on the top token.
  if (target >= 0 && target < n && !out.unique) {
    const VecD c1 = Unit(n, target, 1.0);
    VecD a;
    if (p.Maximize(c1, a)) {
      const double eps = 1e-12 * (1 + std::abs(p.upper()));
      bool improved = a(target) > alpha(target) + eps;
      if (then_minimize_top && out.top != target) {
        p.FreezeOffOptimalFace(c1);
        VecD a2;
        if (p.Maximize(Unit(n, out.top, -1.0), a2)) a = a2;
        p.Unfreeze();
        improved = improved || a(out.top) < alpha(out.top) - eps;
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
  const double total = p.upper();  // the most one weight can be
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

// alpha read back from A: the smallest-norm a with z a = y in the values' frame, plus 1/N when
// the frame is centred (then 1^T a = 1 too: the simplex's recovery; else V^T a = A alone).
Recovery RecoverIn(const MatD& V, const VecD& A, bool centre) {
  Recovery rec;
  const int n = static_cast<int>(V.rows());
  if (n == 0 || A.size() != V.cols()) return rec;
  const Frame f = BuildFrame(V, 1e-9, centre);
  const VecD y = FrameCoordinates(f, A, nullptr);  // (r)
  // a = a0 + a', a' the smallest solution of z a' = y: it lies in z's row space (orthogonal to
  // 1 when the frame is centred, so 1^T a = 1^T a0). With z^T P = Q2 R2 (r columns):
  // z a' = y  <=>  R2^T (Q2^T a')_{0..r-1} = P^T y.
  rec.alpha = VecD::Constant(n, centre ? 1.0 / n : 0.0);
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
  if (centre) rec.residual = std::max(rec.residual, std::abs(Sum(rec.alpha) - 1));
  return rec;
}

// The affine set {a in R^N : V^T a = V^T alpha} (FeasibleSet::kAffine): no LP, linear algebra.
void AnalyzeAffine(const MatD& V, const VecD& alpha, int target, InformationReport& rep) {
  const int n = static_cast<int>(V.rows());
  const Frame f = BuildFrame(V, 1e-9, /*centre=*/false);
  Collision& c = rep.collision;
  c.output = WeightedSum(V, alpha);
  c.alpha2 = alpha;
  c.top = ArgMax(alpha);
  c.unique = f.rank == n;
  // The part of e_i outside the row space of z (= of V^T): zero iff A determines a_i.
  PivotedQr g;
  if (f.rank > 0) g = QrColumnPivoting(f.z.transpose(), 1e-14, 0.0);  // (N, r)
  auto free_part = [&](int i) {
    VecD u = Unit(n, i, 1.0);
    if (f.rank == 0) return u;
    ApplyQt(g, u);
    for (int k = 0; k < g.rank; ++k) u(k) = 0;
    ApplyQ(g, u);
    return u;
  };
  rep.ranges = MatD(n, 2);
  const double inf = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const bool known = c.unique || free_part(i)(i) <= 1e-9;  // e_i's free part has |.|^2 = its i-th entry
    rep.ranges(i, 0) = known ? alpha(i) : -inf;
    rep.ranges(i, 1) = known ? alpha(i) : inf;
  }
  if (!c.unique && target >= 0 && target < n) {
    const VecD d = free_part(target);
    if (d(target) > 1e-9) {
      for (int i = 0; i < n; ++i) c.alpha2(i) = alpha(i) + d(i) / d(target);
    }
  }
  c.output2 = WeightedSum(V, c.alpha2);
  for (Eigen::Index k = 0; k < c.output.size(); ++k) {
    c.max_output_diff = std::max(c.max_output_diff, std::abs(c.output(k) - c.output2(k)));
  }
  for (int i = 0; i < n; ++i) {
    if (std::abs(c.alpha2(i) - alpha(i)) > 1e-9) c.changed = true;
  }
}

// Every question over one set, for keys that are all visible.
InformationReport AnalyzeOver(const MatD& V, const VecD& alpha, int target, FeasibleSet set,
                              bool then_minimize_top) {
  InformationReport rep;
  rep.set = set;
  const int n = static_cast<int>(V.rows());
  const bool linear = set != FeasibleSet::kSimplex;
  if (set == FeasibleSet::kAffine) {
    AnalyzeAffine(V, alpha, target, rep);
    rep.info.linear_rank = n > 0 ? BuildFrame(V, 1e-9, false).rank : 0;
    rep.info.affine_rank = n > 0 ? BuildFrame(V, 1e-9).rank : -1;
  } else {
    SameOutput p(V, alpha, 1e-9, set);
    rep.info.affine_rank = n > 0 ? (linear ? BuildFrame(V, 1e-9).rank : p.frame().rank) : -1;
    rep.info.linear_rank = n > 0 ? (linear ? p.frame().rank : BuildFrame(V, 1e-9, false).rank) : 0;
    rep.collision = CollideOn(p, V, alpha, target, then_minimize_top);
    rep.ranges = RangesOn(p, alpha);
  }
  if (linear) {
    rep.info.same_output_dim = n > 0 ? n - rep.info.linear_rank : 0;
    rep.info.recoverable = n > 0 && rep.info.linear_rank == n;
  } else {
    rep.info.same_output_dim = n > 0 ? n - 1 - rep.info.affine_rank : 0;
    rep.info.recoverable = n > 0 && rep.info.affine_rank == n - 1;
  }
  rep.recovery = RecoverIn(V, rep.collision.output, /*centre=*/!linear);
  for (int i = 0; i < n && rep.recovery.alpha.size() == n; ++i) {
    rep.recovery_error = std::max(rep.recovery_error, std::abs(rep.recovery.alpha(i) - alpha(i)));
  }
  return rep;
}

}  // namespace

FeasibleSet FeasibleSetOf(Normalizer n) {
  switch (n) {
    case Normalizer::kSigmoid: return FeasibleSet::kBox;
    case Normalizer::kNone: return FeasibleSet::kAffine;
    case Normalizer::kSoftmax:
    case Normalizer::kSparsemax:
    case Normalizer::kReluNorm:
    case Normalizer::kHardmax: break;
  }
  return FeasibleSet::kSimplex;
}

constexpr Named<FeasibleSet> kFeasibleSetNames[] = {
    {FeasibleSet::kSimplex, "simplex"}, {FeasibleSet::kBox, "box"}, {FeasibleSet::kAffine, "affine"}};

const char* FeasibleSetName(FeasibleSet s) { return NameIn(kFeasibleSetNames, s); }

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

Recovery RecoverWeights(const MatD& V, const VecD& A) { return RecoverIn(V, A, /*centre=*/true); }

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
  InformationScope scope;
  scope.then_minimize_top = then_minimize_top;
  return AnalyzeInformation(V, alpha, target, scope);
}

InformationReport AnalyzeInformation(const MatD& V, const VecD& alpha, int target,
                                     const InformationScope& scope) {
  if (alpha.size() != V.rows()) return InformationReport();
  const int n = static_cast<int>(V.rows());
  // The visible keys: the analysis runs on their values and weights alone.
  std::vector<int> keys;
  for (int i = 0; i < n; ++i)
    if (scope.visible.empty() || (i < static_cast<int>(scope.visible.size()) && scope.visible[i])) keys.push_back(i);
  const int m = static_cast<int>(keys.size());
  MatD vs(m, V.cols());  // (M, Dv)
  VecD as(m);            // (M)
  int ts = -1;
  for (int k = 0; k < m; ++k) {
    vs.row(k) = V.row(keys[k]);
    as(k) = alpha(keys[k]);
    if (keys[k] == target) ts = k;
  }
  InformationReport sub = AnalyzeOver(vs, as, ts, scope.set, scope.then_minimize_top);
  if (m == n) {
    sub.visible = std::move(keys);
    return sub;
  }
  // Back to all N keys: the masked ones have weight 0 in both scenarios and range [0, 0].
  InformationReport rep = sub;
  auto scatter = [&](const VecD& x) {
    VecD out = VecD::Zero(n);
    for (int k = 0; k < m && k < x.size(); ++k) out(keys[k]) = x(k);
    return out;
  };
  rep.collision.alpha2 = scatter(sub.collision.alpha2);
  rep.collision.top = sub.collision.top >= 0 ? keys[sub.collision.top] : -1;
  rep.recovery.alpha = scatter(sub.recovery.alpha);
  rep.ranges = MatD::Zero(n, 2);
  for (int k = 0; k < m && k < sub.ranges.rows(); ++k) rep.ranges.row(keys[k]) = sub.ranges.row(k);
  rep.visible = std::move(keys);
  return rep;
}

MatD Contributions(const MatD& V, const VecD& w) {
  if (w.size() != V.rows()) return MatD();
  MatD out(V.rows(), V.cols());  // (N, Dv)
  for (Eigen::Index i = 0; i < V.rows(); ++i)
    for (Eigen::Index c = 0; c < V.cols(); ++c) out(i, c) = w(i) * V(i, c);
  return out;
}

VecD SetWeightOnSimplex(const VecD& alpha, int i, double value, const std::vector<char>& visible) {
  const Eigen::Index n = alpha.size();
  if (i < 0 || i >= n) return alpha;
  auto seen = [&](Eigen::Index j) {
    return visible.empty() || (j < static_cast<Eigen::Index>(visible.size()) && visible[static_cast<std::size_t>(j)]);
  };
  if (!seen(i)) return alpha;  // a masked weight stays 0
  Eigen::Index others = 0;     // the other visible keys
  for (Eigen::Index j = 0; j < n; ++j)
    if (j != i && seen(j)) ++others;
  const double v = others == 0 ? 1.0  // the only visible key: the only point of the simplex
                   : std::isfinite(value) ? std::min(1.0, std::max(0.0, value)) : alpha(i);
  double rest = 0;  // what the other weights had
  for (Eigen::Index j = 0; j < n; ++j)
    if (j != i && seen(j)) rest += std::max(0.0, alpha(j));
  VecD out(n);  // (N)
  for (Eigen::Index j = 0; j < n; ++j) {
    if (j == i) out(j) = v;
    else if (!seen(j)) out(j) = 0.0;
    else if (rest > 0) out(j) = std::max(0.0, alpha(j)) * (1.0 - v) / rest;  // keep their proportions
    else out(j) = (1.0 - v) / static_cast<double>(others);
  }
  return out;
}

VecD SetWeightIn(FeasibleSet set, const VecD& alpha, int i, double value, const std::vector<char>& visible) {
  if (set == FeasibleSet::kSimplex) return SetWeightOnSimplex(alpha, i, value, visible);
  const Eigen::Index n = alpha.size();
  if (i < 0 || i >= n) return alpha;
  if (!visible.empty() && (i >= static_cast<Eigen::Index>(visible.size()) || !visible[static_cast<std::size_t>(i)]))
    return alpha;
  VecD out = alpha;  // (N) each weight on its own
  if (std::isfinite(value)) out(i) = std::min(1.0, std::max(0.0, value));
  return out;
}

}  // namespace attn
