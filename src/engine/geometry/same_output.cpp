// The same-output polytope P(alpha) (same_output.h): its LP, and its vertices by enumeration.
//
// Shapes: N = tokens, Dv = d_v, r = affine rank of the values.
// Bit-exactness: plain loops in a fixed order, no FMA contraction (linalg.h's rules).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/geometry/same_output.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace attn {

using affine::BuildFrame;
using affine::Sum;

SameOutput::SameOutput(const MatD& V, const VecD& alpha, double tol, FeasibleSet set)
    : set_(set),
      frame_(BuildFrame(V, tol, /*centre=*/set == FeasibleSet::kSimplex)),
      n_(static_cast<int>(V.rows())) {
  const bool box = set == FeasibleSet::kBox;
  const bool linear = set != FeasibleSet::kSimplex;  // no sum constraint: the linear rank counts
  recoverable_ = n_ > 0 && frame_.rank == (linear ? n_ : n_ - 1);
  total_ = Sum(alpha);
  if (n_ == 0 || recoverable_ || set == FeasibleSet::kAffine) return;  // no LP needed (or none)
  const int rows = frame_.rank + (box ? n_ : 1), cols = box ? 2 * n_ : n_;
  MatD A = MatD::Zero(rows, cols);
  VecD b(rows);
  for (int k = 0; k < frame_.rank; ++k) {
    double s = 0;
    for (int i = 0; i < n_; ++i) {
      A(k, i) = frame_.z(k, i);
      s += alpha(i) * frame_.z(k, i);
    }
    b(k) = s;
  }
  if (box) {  // a_i + s_i = 1
    for (int i = 0; i < n_; ++i) {
      A(frame_.rank + i, i) = 1;
      A(frame_.rank + i, n_ + i) = 1;
      b(frame_.rank + i) = 1;
    }
  } else {
    for (int i = 0; i < n_; ++i) A(frame_.rank, i) = 1;
    b(frame_.rank) = total_;
  }
  lp_.Init(A, b, LpOptions());
  feasible_ = lp_.Phase1() == LpResult::kOptimal;
  after_phase1_ = lp_;
}

namespace {

// Solves the small symmetric system G x = r by Gaussian elimination with partial pivoting;
// false when G is singular at the tolerance (the chosen columns are dependent).
bool SolveSmall(MatD G, VecD r, VecD* x, double tol) {  // G: (k, k), r: (k)
  const Eigen::Index k = G.rows();
  for (Eigen::Index c = 0; c < k; ++c) {
    Eigen::Index p = c;
    for (Eigen::Index i = c + 1; i < k; ++i)
      if (std::abs(G(i, c)) > std::abs(G(p, c))) p = i;
    if (std::abs(G(p, c)) <= tol) return false;
    G.row(c).swap(G.row(p));
    std::swap(r(c), r(p));
    for (Eigen::Index i = c + 1; i < k; ++i) {
      const double f = G(i, c) / G(c, c);
      for (Eigen::Index j = c; j < k; ++j) G(i, j) -= f * G(c, j);
      r(i) -= f * r(c);
    }
  }
  x->resize(k);
  for (Eigen::Index c = k - 1; c >= 0; --c) {
    double acc = r(c);
    for (Eigen::Index j = c + 1; j < k; ++j) acc -= G(c, j) * (*x)(j);
    (*x)(c) = acc / G(c, c);
  }
  return true;
}

}  // namespace

std::vector<VecD> SameOutputVertices(const MatD& V, const VecD& alpha) {
  std::vector<VecD> out;
  const Eigen::Index n = V.rows(), dv = V.cols();
  if (n < 1 || n > 6 || alpha.size() != n) return out;
  MatD M(dv + 1, n);  // (Dv + 1, N) = [V^T; 1^T]
  M.topRows(dv) = V.transpose();
  M.row(dv).setOnes();
  const VecD b = M * alpha;  // (Dv + 1) = [A; 1]
  const double scale = std::max(1.0, M.cwiseAbs().maxCoeff());
  // A vertex is a basic feasible solution: columns S independent, M_S x = b, x >= 0.
  for (int mask = 1; mask < (1 << n); ++mask) {
    std::vector<Eigen::Index> cols;
    for (Eigen::Index j = 0; j < n; ++j)
      if (mask & (1 << j)) cols.push_back(j);
    const Eigen::Index k = static_cast<Eigen::Index>(cols.size());
    MatD Ms(dv + 1, k);  // (Dv + 1, k)
    for (Eigen::Index c = 0; c < k; ++c) Ms.col(c) = M.col(cols[static_cast<std::size_t>(c)]);
    VecD xs;
    if (!SolveSmall(Ms.transpose() * Ms, Ms.transpose() * b, &xs, 1e-10 * scale * scale)) continue;
    if ((Ms * xs - b).cwiseAbs().maxCoeff() > 1e-9 * scale || xs.minCoeff() < -1e-10) continue;
    VecD x = VecD::Zero(n);
    for (Eigen::Index c = 0; c < k; ++c) x(cols[static_cast<std::size_t>(c)]) = std::max(0.0, xs(c));
    bool seen = false;
    for (const VecD& y : out)
      if ((y - x).cwiseAbs().maxCoeff() < 1e-9) seen = true;
    if (!seen) out.push_back(x);
  }
  return out;
}


std::vector<VecD> SameOutputVerticesIn(const MatD& V, const VecD& alpha, const InformationScope& scope) {
  std::vector<VecD> out;
  const int n = static_cast<int>(V.rows());
  if (scope.set != FeasibleSet::kSimplex || alpha.size() != n) return out;
  std::vector<int> keys;
  for (int i = 0; i < n; ++i)
    if (scope.visible.empty() || (i < static_cast<int>(scope.visible.size()) && scope.visible[static_cast<std::size_t>(i)]))
      keys.push_back(i);
  const int m = static_cast<int>(keys.size());
  if (m > 6) return out;
  MatD vs(m, V.cols());  // (M, Dv)
  VecD as(m);            // (M)
  for (int k = 0; k < m; ++k) {
    vs.row(k) = V.row(keys[static_cast<std::size_t>(k)]);
    as(k) = alpha(keys[static_cast<std::size_t>(k)]);
  }
  for (const VecD& x : SameOutputVertices(vs, as)) {
    VecD full = VecD::Zero(n);
    for (int k = 0; k < m; ++k) full(keys[static_cast<std::size_t>(k)]) = x(k);
    out.push_back(std::move(full));
  }
  return out;
}

}  // namespace attn
