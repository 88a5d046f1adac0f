// Is information lost in the sum? (see information.h for the geometry and the contract)
//
// Shapes: N = tokens, Dv = d_v, R = LP rows, r = affine rank of the values.
// Contents, top to bottom:
//   1. Simplex: a dense two-phase tableau simplex (the LP solver behind everything).
//   2. Householder QR with column pivoting, and the frame of the values' affine hull.
//   3. SameOutput: the polytope P(alpha) as an LP, set up once and asked many questions.
//   4. The public functions: SolveLp, AnalyzeValues, RecoverWeights, Collide, WeightRanges,
//      AnalyzeInformation.
//   5. RunProbe.
// Bit-exactness: plain loops in a fixed order, no Eigen products or decompositions, no FMA
// contraction (linalg.h's rules), so that the browser and the command line agree.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "information.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "rng.h"

namespace attn {

namespace {

// ---- 1. the simplex --------------------------------------------------------------------------
// Tolerances on the row-scaled problem (every row's largest |a_ij| is 1): see information.h.
constexpr double kPivotTol = 1e-9;   // smallest |entry| a pivot may have
constexpr double kOptTol = 1e-9;     // reduced costs above kOptTol * max|c_j| improve
constexpr double kFeasTol = 1e-9;    // an artificial above this (x (1 + max|b|)): infeasible
constexpr double kTieTol = 1e-12;    // ratio-test ties, and what counts as a degenerate step
constexpr double kSingularTol = 1e-12;  // refactorization: a smaller pivot means singular
constexpr int kRefactorEvery = 50;   // pivots between refactorizations in long warm-started runs
constexpr double kResidualTol = 1e-11;  // |A x - b| of the tableau's vertex above this: refactor

class Simplex {
 public:
  // maximize c^T x  s.t.  A x = b, x >= 0.  A: (R, N), b: (R).
  void Init(const MatD& A, const VecD& b, const LpOptions& options);
  bool infeasible() const { return infeasible_; }
  int iterations() const { return iterations_; }

  // Phase 1: a feasible basis without artificials (redundant rows dropped). kOptimal = found.
  LpResult::Status Phase1();
  // Phase 2 from the current feasible basis. c: (N). Frozen columns never enter.
  LpResult::Status Maximize(const VecD& c);
  // After Maximize(c) returned kOptimal: fixes at 0 every column whose reduced cost is
  // negative, which leaves exactly the optimal face of c for the next Maximize.
  void FreezeOffOptimalFace(const VecD& c);
  void Unfreeze() { std::fill(frozen_.begin(), frozen_.end(), 0); }
  VecD Solution() const;  // (N) the current vertex; basic values below 0 (rounding) become 0

 private:
  double& T(int i, int j) { return t_[static_cast<std::size_t>(i) * w_ + j]; }
  double T(int i, int j) const { return t_[static_cast<std::size_t>(i) * w_ + j]; }
  double CostOf(const double* c, double c_art, int i) const {
    return basis_[i] >= 0 ? (c ? c[basis_[i]] : 0.0) : c_art;
  }
  void ReducedCosts(const double* c, double c_art);
  void Pivot(int r, int j);
  LpResult::Status Iterate(const double* c, double c_art, double tol);
  bool Refactor();
  bool Accurate() const;
  void DropRow(int i);

  int n_ = 0;  // columns N
  int m_ = 0;  // rows kept
  int w_ = 1;  // row stride: N + 1 (the right-hand side is the last column)
  std::vector<double> t_;    // (m, N + 1) row-major: B^-1 [A | b], the tableau
  std::vector<double> a0_;   // (m, N + 1) row-major: the scaled, sign-fixed [A | b]
  std::vector<int> basis_;   // (m) column basic in row i; -1 - i0 = the artificial of row i0
  std::vector<char> basic_;  // (N)
  std::vector<char> frozen_; // (N)
  std::vector<double> d_;    // (N) reduced costs
  LpOptions::Rule rule_ = LpOptions::kDantzigBland;
  int max_iterations_ = 0;
  int iterations_ = 0;
  int pivots_since_refactor_ = 0;
  bool infeasible_ = false;
  double b_max_ = 0;  // max |b_i| after scaling
};

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

// ---- 2. rank-revealing QR and the frame of the affine hull ------------------------------------

// Householder QR with column pivoting (Businger & Golub 1965; LAPACK's xGEQP3 without
// blocking): A P = Q R. Stops at the first pivot |R_kk| <= max(rel_tol |R_00|, abs_tol): the
// number of steps taken is the numerical rank. Column norms are recomputed at every step
// (no downdating: at these sizes exactness is cheaper than care).
struct PivotedQr {
  MatD qr;                // (m, n): R on and above the diagonal, reflectors v_k below (v_k(k) = 1)
  std::vector<double> tau;  // (rank) H_k = I - tau_k v_k v_k^T
  std::vector<int> perm;  // column k of qr is column perm[k] of A
  int rank = 0;
};

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

// The values in an orthonormal frame of their affine hull: v_i = mean + Q_r z_i, where the r
// columns of Q_r span the hull's directions. z: (r, N).
struct Frame {
  int n = 0, rank = -1;
  VecD mean;     // (Dv)
  PivotedQr qr;  // of (V - mean)^T: (Dv, N)
  MatD z;        // (r, N) column i = coordinates of v_i - mean
};

Frame BuildFrame(const MatD& V, double tol) {
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
    f.mean(k) = s / f.n;
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

// Coordinates of a point in the frame: (Q^T (y - mean))_{0..r-1}; `off` gets the norm of the
// rest (the distance from the hull's affine span).
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

int ArgMax(const VecD& a) {
  int best = 0;
  for (int i = 1; i < a.size(); ++i) {
    if (a(i) > a(best)) best = i;
  }
  return a.size() > 0 ? best : -1;
}

double Sum(const VecD& a) {
  double s = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) s += a(i);
  return s;
}

// ---- 3. the polytope P(alpha) as one LP, asked many questions ---------------------------------
// Constraints: z a = z alpha (r rows: the values' coordinates in their frame) and
// 1^T a = 1^T alpha; a >= 0. The r + 1 rows are independent by construction (z's rows are
// orthogonal to 1 since the frame is centred, and rank-revealed), so phase 1 is clean.
class SameOutput {
 public:
  SameOutput(const MatD& V, const VecD& alpha, double tol = 1e-9)
      : frame_(BuildFrame(V, tol)), n_(static_cast<int>(V.rows())) {
    recoverable_ = n_ > 0 && frame_.rank == n_ - 1;
    total_ = Sum(alpha);
    if (n_ == 0 || recoverable_) return;  // P = {alpha}: no LP needed
    MatD A(frame_.rank + 1, n_);
    VecD b(frame_.rank + 1);
    for (int k = 0; k < frame_.rank; ++k) {
      double s = 0;
      for (int i = 0; i < n_; ++i) {
        A(k, i) = frame_.z(k, i);
        s += alpha(i) * frame_.z(k, i);
      }
      b(k) = s;
    }
    for (int i = 0; i < n_; ++i) A(frame_.rank, i) = 1;
    b(frame_.rank) = total_;
    lp_.Init(A, b, LpOptions());
    feasible_ = lp_.Phase1() == LpResult::kOptimal;
    after_phase1_ = lp_;
  }

  // Back to the basis phase 1 found, so that each question's answer does not depend on which
  // questions were asked before (Collide alone = Collide within AnalyzeInformation, bit for bit).
  void Reset() { lp_ = after_phase1_; }

  int n() const { return n_; }
  const Frame& frame() const { return frame_; }
  bool recoverable() const { return recoverable_; }
  bool feasible() const { return feasible_; }  // an LP exists and alpha is in it
  double total() const { return total_; }

  // The vertex maximizing c^T a, or nothing (false) when the LP failed.
  bool Maximize(const VecD& c, VecD& a) {
    if (!feasible_ || lp_.Maximize(c) != LpResult::kOptimal) return false;
    a = lp_.Solution();
    return true;
  }
  Simplex& lp() { return lp_; }

 private:
  Frame frame_;
  int n_ = 0;
  bool recoverable_ = false;
  bool feasible_ = false;
  double total_ = 0;
  Simplex lp_;
  Simplex after_phase1_;
};

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

// ---- 4. the public functions ------------------------------------------------------------------

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

// ---- 5. the probe -----------------------------------------------------------------------------

namespace {

// One data set: features (S, Dv) row-major and labels (S, H) row-major.
struct ProbeData {
  std::vector<double> x;
  std::vector<int> y;
};

ProbeData MakeProbeData(rng::SplitMix64& stream, int sentences, int n, int dv,
                        const std::vector<int>& offset,  // (H + 1) block starts, offset[H] = Dv
                        const std::vector<double>& pos,  // (N, Dv) row-major positional codes
                        double content, double sharpness) {
  const int heads = static_cast<int>(offset.size()) - 1;
  ProbeData data;
  data.x.assign(static_cast<std::size_t>(sentences) * dv, 0.0);
  data.y.assign(static_cast<std::size_t>(sentences) * heads, 0);
  std::vector<double> values(static_cast<std::size_t>(n) * dv);  // (N, Dv) v_i = p_i + c_i
  std::vector<double> scores(n), alpha(n);
  for (int s = 0; s < sentences; ++s) {
    rng::FillStandardNormal(stream, values.data(), n * dv);
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = pos[k] + content * values[k];
    for (int h = 0; h < heads; ++h) {
      rng::FillStandardNormal(stream, scores.data(), n);
      double mx = -std::numeric_limits<double>::infinity();
      int best = 0;
      for (int i = 0; i < n; ++i) {
        scores[i] *= sharpness;
        if (scores[i] > mx) {
          mx = scores[i];
          best = i;
        }
      }
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += (alpha[i] = std::exp(scores[i] - mx));
      for (int i = 0; i < n; ++i) alpha[i] /= sum;
      data.y[static_cast<std::size_t>(s) * heads + h] = best;  // argmax alpha = argmax scores
      double* a = &data.x[static_cast<std::size_t>(s) * dv];
      for (int i = 0; i < n; ++i) {
        for (int c = offset[h]; c < offset[h + 1]; ++c) {
          a[c] += alpha[i] * values[static_cast<std::size_t>(i) * dv + c];
        }
      }
    }
  }
  return data;
}

}  // namespace

ProbeResult RunProbe(const ProbeConfig& cfg) {
  const int n = std::max(2, cfg.tokens);
  const int dv = std::max(1, cfg.d_v);
  const int heads = std::min(std::max(1, cfg.heads), dv);
  const int n_train = std::max(1, cfg.train_sentences);
  const int n_test = std::max(1, cfg.test_sentences);
  const int steps = std::max(0, cfg.steps);
  ProbeResult res;
  res.heads = heads;
  res.chance = 1.0 / n;
  std::vector<int> offset(heads + 1, 0);  // head h owns columns offset[h] .. offset[h+1]-1
  for (int h = 0; h < heads; ++h) offset[h + 1] = offset[h] + dv / heads + (h < dv % heads);

  // Three independent streams: the positional codes, the training and the test sentences.
  auto stream_for = [&](std::uint64_t which) {
    return rng::SplitMix64(rng::Mix64(rng::Mix64(cfg.seed) ^ which * rng::kGolden));
  };
  rng::SplitMix64 pos_stream = stream_for(1), train_stream = stream_for(2),
                  test_stream = stream_for(3);
  std::vector<double> pos(static_cast<std::size_t>(n) * dv);  // (N, Dv)
  rng::FillStandardNormal(pos_stream, pos.data(), n * dv);
  ProbeData train = MakeProbeData(train_stream, n_train, n, dv, offset, pos, cfg.content,
                                  cfg.sharpness);
  ProbeData test = MakeProbeData(test_stream, n_test, n, dv, offset, pos, cfg.content,
                                 cfg.sharpness);

  // Standardize every feature with the training set's mean and spread.
  std::vector<double> mean(dv, 0.0), sd(dv, 0.0);
  for (int s = 0; s < n_train; ++s) {
    for (int c = 0; c < dv; ++c) mean[c] += train.x[static_cast<std::size_t>(s) * dv + c];
  }
  for (int c = 0; c < dv; ++c) mean[c] /= n_train;
  for (int s = 0; s < n_train; ++s) {
    for (int c = 0; c < dv; ++c) {
      const double e = train.x[static_cast<std::size_t>(s) * dv + c] - mean[c];
      sd[c] += e * e;
    }
  }
  for (int c = 0; c < dv; ++c) {
    sd[c] = std::sqrt(sd[c] / n_train);
    if (!(sd[c] > 1e-12)) sd[c] = 1;
  }
  for (ProbeData* data : {&train, &test}) {
    for (std::size_t k = 0; k < data->x.size(); ++k) {
      const int c = static_cast<int>(k % dv);
      data->x[k] = (data->x[k] - mean[c]) / sd[c];
    }
  }

  // Parameters: per head h, W_h (N, Dv) and b_h (N): logits_h = W_h a + b_h, and
  // loss = mean over sentences and heads' sum of cross-entropies + (l2 / 2) |W|^2. Stored
  // feature-major, theta(c, h N + k) = W_h(k, c) with the biases as row c = Dv, so that the
  // inner loops run over the H N logits (contiguous, independent: vectorizable without
  // reordering any sum; each logit still sums b, then c = 0, 1, ... in order).
  const int hn = heads * n;
  const std::size_t size = static_cast<std::size_t>(dv + 1) * hn;
  std::vector<double> theta(size, 0.0), grad(size), m1(size, 0.0), m2(size, 0.0);
  std::vector<double> logits(hn);
  const double lr = 0.05, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, l2 = 1e-4;
  auto forward = [&](const double* a) {  // logits of every head for features a (Dv)
    const double* bias = &theta[static_cast<std::size_t>(dv) * hn];
    for (int k = 0; k < hn; ++k) logits[k] = bias[k];
    for (int c = 0; c < dv; ++c) {
      const double* w = &theta[static_cast<std::size_t>(c) * hn];
      const double ac = a[c];
      for (int k = 0; k < hn; ++k) logits[k] += w[k] * ac;
    }
  };
  double pow1 = 1, pow2 = 1;
  for (int step = 0; step < steps; ++step) {
    std::fill(grad.begin(), grad.end(), 0.0);
    for (int s = 0; s < n_train; ++s) {
      const double* a = &train.x[static_cast<std::size_t>(s) * dv];
      forward(a);
      for (int h = 0; h < heads; ++h) {  // logits -> dloss/dlogit = (p_k - [k == y]) / S
        double* z = &logits[static_cast<std::size_t>(h) * n];
        double mx = z[0];
        for (int k = 1; k < n; ++k) mx = std::max(mx, z[k]);
        double sum = 0;
        for (int k = 0; k < n; ++k) sum += (z[k] = std::exp(z[k] - mx));
        const int y = train.y[static_cast<std::size_t>(s) * heads + h];
        for (int k = 0; k < n; ++k) z[k] = (z[k] / sum - (k == y ? 1.0 : 0.0)) / n_train;
      }
      for (int c = 0; c < dv; ++c) {
        double* dw = &grad[static_cast<std::size_t>(c) * hn];
        const double ac = a[c];
        for (int k = 0; k < hn; ++k) dw[k] += logits[k] * ac;
      }
      double* db = &grad[static_cast<std::size_t>(dv) * hn];
      for (int k = 0; k < hn; ++k) db[k] += logits[k];
    }
    pow1 *= beta1;
    pow2 *= beta2;
    const std::size_t first_bias = static_cast<std::size_t>(dv) * hn;
    for (std::size_t k = 0; k < size; ++k) {
      const double g = grad[k] + (k < first_bias ? l2 * theta[k] : 0.0);
      m1[k] = beta1 * m1[k] + (1 - beta1) * g;
      m2[k] = beta2 * m2[k] + (1 - beta2) * g * g;
      theta[k] -= lr * (m1[k] / (1 - pow1)) / (std::sqrt(m2[k] / (1 - pow2)) + eps);
    }
  }

  // Score: per head, the share of sentences whose argmax (lowest index on ties) is named.
  auto score = [&](const ProbeData& data, int sentences, std::vector<double>& per_head,
                   double& all) {
    per_head.assign(heads, 0.0);
    int all_right = 0;
    for (int s = 0; s < sentences; ++s) {
      const double* a = &data.x[static_cast<std::size_t>(s) * dv];
      bool every = true;
      forward(a);
      for (int h = 0; h < heads; ++h) {
        const double* z = &logits[static_cast<std::size_t>(h) * n];
        int best = 0;
        for (int k = 1; k < n; ++k) {
          if (z[k] > z[best]) best = k;
        }
        const bool right = best == data.y[static_cast<std::size_t>(s) * heads + h];
        per_head[h] += right ? 1 : 0;
        every = every && right;
      }
      all_right += every ? 1 : 0;
    }
    for (double& p : per_head) p /= sentences;
    all = static_cast<double>(all_right) / sentences;
  };
  std::vector<double> train_per_head;
  double train_all = 0;
  score(train, n_train, train_per_head, train_all);
  score(test, n_test, res.per_head, res.all_heads);
  for (int h = 0; h < heads; ++h) {
    res.accuracy += res.per_head[h] / heads;
    res.train_accuracy += train_per_head[h] / heads;
  }
  res.patterns_named = heads * res.accuracy;
  return res;
}

}  // namespace attn

namespace attn {

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

}  // namespace attn
