// The LP solver (lp.h): a dense two-phase tableau simplex with an anti-cycling rule.
//
// Shapes: R = rows (constraints), N = columns (variables).
// Bit-exactness: plain loops in a fixed order, no Eigen products or decompositions, no FMA
// contraction (linalg.h's rules), so that the browser and the command line agree.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/geometry/lp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace attn {

namespace {

// Tolerances on the row-scaled problem (every row's largest |a_ij| is 1): see lp.h.
constexpr double kPivotTol = 1e-9;   // smallest |entry| a pivot may have
constexpr double kOptTol = 1e-9;     // reduced costs above kOptTol * max|c_j| improve
constexpr double kFeasTol = 1e-9;    // an artificial above this (x (1 + max|b|)): infeasible
constexpr double kTieTol = 1e-12;    // ratio-test ties, and what counts as a degenerate step
constexpr double kSingularTol = 1e-12;  // refactorization: a smaller pivot means singular
constexpr int kRefactorEvery = 50;   // pivots between refactorizations in long warm-started runs
constexpr double kResidualTol = 1e-11;  // |A x - b| of the tableau's vertex above this: refactor

}  // namespace

void Simplex::Init(const MatD& A, const VecD& b, const LpOptions& options) {
  const int rows = static_cast<int>(A.rows());
  n_ = static_cast<int>(A.cols());
  w_ = n_ + 1;
  rule_ = options.rule;
  max_iterations_ =
      options.max_iterations > 0 ? options.max_iterations : 50 * (rows + n_) + 1000;
  iterations_ = 0;
  pivots_since_refactor_ = 0;
  infeasible_ = false;
  b_max_ = 0;
  a0_.clear();
  m_ = 0;
  for (int i = 0; i < rows; ++i) {
    double scale = 0;
    for (int j = 0; j < n_; ++j) scale = std::max(scale, std::abs(A(i, j)));
    if (scale == 0) {  // 0 = b_i: redundant, or impossible
      if (b(i) != 0) infeasible_ = true;
      continue;
    }
    const double sign = b(i) < 0 ? -1.0 : 1.0;
    for (int j = 0; j < n_; ++j) a0_.push_back(sign * (A(i, j) / scale));
    a0_.push_back(sign * (b(i) / scale));
    b_max_ = std::max(b_max_, a0_.back());
    ++m_;
  }
  t_ = a0_;
  basis_.assign(m_, 0);
  for (int i = 0; i < m_; ++i) basis_[i] = -1 - i;
  basic_.assign(n_, 0);
  frozen_.assign(n_, 0);
  d_.assign(n_, 0.0);
  // Crash: a column that is a positive multiple of a unit vector e_i starts basic in row i
  // (a slack already in the problem), so that such rows need no artificial.
  for (int j = 0; j < n_; ++j) {
    int row = -1, nonzeros = 0;
    for (int i = 0; i < m_ && nonzeros < 2; ++i) {
      if (T(i, j) != 0) {
        row = i;
        ++nonzeros;
      }
    }
    if (nonzeros != 1 || T(row, j) <= 0 || basis_[row] >= 0) continue;
    const double p = T(row, j);
    for (int k = 0; k < w_; ++k) T(row, k) /= p;
    T(row, j) = 1;
    basis_[row] = j;
    basic_[j] = 1;
  }
}

void Simplex::ReducedCosts(const double* c, double c_art) {
  for (int j = 0; j < n_; ++j) d_[j] = c ? c[j] : 0.0;
  for (int i = 0; i < m_; ++i) {
    const double cb = CostOf(c, c_art, i);
    if (cb == 0) continue;
    const double* row = &t_[static_cast<std::size_t>(i) * w_];
    for (int j = 0; j < n_; ++j) d_[j] -= cb * row[j];
  }
}

void Simplex::Pivot(int r, int j) {
  double* pr = &t_[static_cast<std::size_t>(r) * w_];
  const double p = pr[j];
  for (int k = 0; k < w_; ++k) pr[k] /= p;
  pr[j] = 1;
  for (int i = 0; i < m_; ++i) {
    if (i == r) continue;
    double* pi = &t_[static_cast<std::size_t>(i) * w_];
    const double f = pi[j];
    if (f == 0) continue;
    for (int k = 0; k < w_; ++k) pi[k] -= f * pr[k];
    pi[j] = 0;
  }
  if (basis_[r] >= 0) basic_[basis_[r]] = 0;
  basis_[r] = j;
  basic_[j] = 1;
  ++pivots_since_refactor_;
}

LpResult::Status Simplex::Iterate(const double* c, double c_art, double tol) {
  bool degenerate_last = false;
  for (;;) {
    if (iterations_ >= max_iterations_) return LpResult::kIterationLimit;
    ReducedCosts(c, c_art);
    const bool bland = rule_ == LpOptions::kBland ||
                       (rule_ == LpOptions::kDantzigBland && degenerate_last);
    // Entering column: the first improving one (Bland) or the most improving one (Dantzig).
    int enter = -1;
    double best = tol;
    for (int j = 0; j < n_; ++j) {
      if (basic_[j] || frozen_[j] || !(d_[j] > tol)) continue;
      if (bland) {
        enter = j;
        break;
      }
      if (d_[j] > best) {
        best = d_[j];
        enter = j;
      }
    }
    if (enter < 0) return LpResult::kOptimal;
    // Ratio test: the largest step that keeps every basic variable >= 0.
    double theta = std::numeric_limits<double>::infinity();
    for (int i = 0; i < m_; ++i) {
      const double a = T(i, enter);
      if (a > kPivotTol) theta = std::min(theta, std::max(T(i, n_), 0.0) / a);
    }
    if (theta == std::numeric_limits<double>::infinity()) return LpResult::kUnbounded;
    // Among the rows that tie for the step: Bland and the textbook rule take the lowest basic
    // index (artificials first), the default the largest pivot (the stablest elimination).
    const bool lowest_index = bland || rule_ == LpOptions::kDantzig;
    const double limit = theta + kTieTol * (1 + theta);
    int leave = -1;
    for (int i = 0; i < m_; ++i) {
      const double a = T(i, enter);
      if (!(a > kPivotTol) || std::max(T(i, n_), 0.0) / a > limit) continue;
      if (leave < 0 || (lowest_index ? basis_[i] < basis_[leave] : a > T(leave, enter))) {
        leave = i;
      }
    }
    Pivot(leave, enter);
    ++iterations_;
    degenerate_last = theta <= kTieTol;
  }
}

// Recomputes the tableau B^-1 [A | b] of the current basis from the original rows, by
// Gauss-Jordan elimination with partial pivoting: the rounding of many pivots is forgotten.
// Keeps the old tableau (and returns false) when the basis is numerically singular or
// infeasible.
bool Simplex::Refactor() {
  std::vector<int> cols;
  for (int i = 0; i < m_; ++i) {
    if (basis_[i] < 0) return false;  // artificials: phase 1 only, never refactored
    cols.push_back(basis_[i]);
  }
  std::vector<double> t = a0_;
  std::vector<int> basis(m_, -1);
  auto at = [&](int i, int j) -> double& { return t[static_cast<std::size_t>(i) * w_ + j]; };
  for (int j : cols) {
    int r = -1;
    double best = kSingularTol;
    for (int i = 0; i < m_; ++i) {
      if (basis[i] < 0 && std::abs(at(i, j)) > best) {
        best = std::abs(at(i, j));
        r = i;
      }
    }
    if (r < 0) return false;
    const double p = at(r, j);
    for (int k = 0; k < w_; ++k) at(r, k) /= p;
    at(r, j) = 1;
    for (int i = 0; i < m_; ++i) {
      if (i == r) continue;
      const double f = at(i, j);
      if (f == 0) continue;
      for (int k = 0; k < w_; ++k) at(i, k) -= f * at(r, k);
      at(i, j) = 0;
    }
    basis[r] = j;
  }
  for (int i = 0; i < m_; ++i) {
    if (at(i, n_) < -kFeasTol * (1 + b_max_)) return false;
  }
  for (int i = 0; i < m_; ++i) at(i, n_) = std::max(at(i, n_), 0.0);
  t_ = std::move(t);
  basis_ = std::move(basis);
  pivots_since_refactor_ = 0;
  return true;
}

// The tableau's vertex checked against the original rows: |A x - b|_inf <= 1e-11 (1 + max|b|)
// and no basic value below -1e-11 (1 + max|b|). Cheap (R N), so every answer is checked;
// only a failed check pays for a refactorization.
bool Simplex::Accurate() const {
  const double tol = kResidualTol * (1 + b_max_);
  std::vector<double> x(n_, 0.0);
  for (int i = 0; i < m_; ++i) {
    if (basis_[i] < 0) return false;
    if (T(i, n_) < -tol) return false;
    x[basis_[i]] = std::max(T(i, n_), 0.0);
  }
  for (int i = 0; i < m_; ++i) {
    const double* row = &a0_[static_cast<std::size_t>(i) * w_];
    double s = 0;
    for (int j = 0; j < n_; ++j) s += row[j] * x[j];
    if (std::abs(s - row[n_]) > tol) return false;
  }
  return true;
}

void Simplex::DropRow(int i) {
  const auto first = static_cast<std::ptrdiff_t>(i) * w_;
  t_.erase(t_.begin() + first, t_.begin() + first + w_);
  a0_.erase(a0_.begin() + first, a0_.begin() + first + w_);
  basis_.erase(basis_.begin() + i);
  --m_;
}

LpResult::Status Simplex::Phase1() {
  if (infeasible_) return LpResult::kInfeasible;
  bool any_artificial = false;
  for (int i = 0; i < m_; ++i) any_artificial = any_artificial || basis_[i] < 0;
  if (any_artificial) {
    // maximize -(sum of the artificials): their cost is -1, every column's 0.
    const LpResult::Status st = Iterate(nullptr, -1.0, kOptTol);
    if (st == LpResult::kIterationLimit) return st;
    for (int i = 0; i < m_; ++i) {
      if (basis_[i] < 0 && T(i, n_) > kFeasTol * (1 + b_max_)) return LpResult::kInfeasible;
    }
    // Artificials still basic sit at level 0: pivot each out on the largest entry of its row,
    // or drop the row when it has none (it is a combination of the others).
    for (int i = m_ - 1; i >= 0; --i) {
      if (basis_[i] >= 0) continue;
      T(i, n_) = 0;
      int enter = -1;
      double best = kPivotTol;
      for (int j = 0; j < n_; ++j) {
        if (!basic_[j] && std::abs(T(i, j)) > best) {
          best = std::abs(T(i, j));
          enter = j;
        }
      }
      if (enter >= 0) {
        Pivot(i, enter);
        ++iterations_;
      } else {
        DropRow(i);
      }
    }
  }
  if (pivots_since_refactor_ > 0 && !Accurate()) Refactor();
  return LpResult::kOptimal;
}

LpResult::Status Simplex::Maximize(const VecD& c) {
  double c_max = 0;
  for (int j = 0; j < n_; ++j) c_max = std::max(c_max, std::abs(c(j)));
  if (c_max == 0) return LpResult::kOptimal;  // every feasible point is optimal
  if (pivots_since_refactor_ >= kRefactorEvery) Refactor();
  for (int round = 0; round < 4; ++round) {
    const LpResult::Status st = Iterate(c.data(), 0.0, kOptTol * c_max);
    // When the vertex has drifted from the original rows, refactorize and check optimality
    // again on the clean tableau.
    if (st != LpResult::kOptimal || pivots_since_refactor_ == 0 || Accurate() || !Refactor()) {
      return st;
    }
  }
  return LpResult::kOptimal;
}

void Simplex::FreezeOffOptimalFace(const VecD& c) {
  double c_max = 0;
  for (int j = 0; j < n_; ++j) c_max = std::max(c_max, std::abs(c(j)));
  ReducedCosts(c.data(), 0.0);
  for (int j = 0; j < n_; ++j) {
    if (!basic_[j] && d_[j] < -kOptTol * c_max) frozen_[j] = 1;
  }
}

VecD Simplex::Solution() const {
  VecD x = VecD::Zero(n_);
  for (int i = 0; i < m_; ++i) {
    if (basis_[i] >= 0) x(basis_[i]) = std::max(T(i, n_), 0.0);
  }
  return x;
}

LpResult SolveLp(const MatD& A, const VecD& b, const VecD& c, const LpOptions& options) {
  LpResult res;
  const Eigen::Index n = A.cols();
  res.x = VecD::Zero(n);
  if (b.size() != A.rows() || c.size() != n) return res;  // shapes: reported as infeasible
  for (Eigen::Index j = 0; j < n; ++j) {
    if (!std::isfinite(c(j))) return res;
  }
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    if (!std::isfinite(b(i))) return res;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (!std::isfinite(A(i, j))) return res;
    }
  }
  Simplex lp;
  lp.Init(A, b, options);
  res.status = lp.Phase1();
  if (res.status == LpResult::kOptimal) res.status = lp.Maximize(c);
  res.iterations = lp.iterations();
  if (res.status == LpResult::kOptimal || res.status == LpResult::kUnbounded) {
    res.x = lp.Solution();  // unbounded: the last vertex, from which the ray leaves
  }
  res.value = 0;
  for (Eigen::Index j = 0; j < n; ++j) res.value += c(j) * res.x(j);
  return res;
}

}  // namespace attn
