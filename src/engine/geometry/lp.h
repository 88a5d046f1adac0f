// A small dense linear-program solver: maximize c^T x subject to A x = b, x >= 0. Every question
// the information analysis asks about the weights that give the same output is one such LP
// (same_output.h, information.h).
//
// Bit-exactness: plain loops in a fixed order, no Eigen products or decompositions, no FMA
// contraction (linalg.h's rules), so that the browser and the command line agree. Nothing throws.
#pragma once

#include "engine/base/types.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace attn {

// maximize c^T x  subject to  A x = b, x >= 0.   A: (R, N), b: (R), c: (N).
//
// Dense tableau, two phases. Set-up: each row is divided by its largest |a_ij| (so that the
// tolerances below are relative to the row's scale) and negated where b_i < 0; an all-zero row
// is dropped (b_i = 0) or makes the problem infeasible (b_i != 0). Phase 1 starts from the unit
// columns already present (a slack basis) and artificial variables for the other rows, and
// minimizes their sum; an artificial left in the basis at level 0 is pivoted out on any column
// with |entry| > 1e-9, or, when its row has none, the row is redundant and dropped (this is how
// the rank-deficient [V^T; 1^T] of repeated or collinear values is handled). Phase 2 maximizes
// c^T x. Tolerances on the scaled problem: pivot entries > 1e-9, reduced costs > 1e-9 max|c_j|,
// infeasibility when an artificial stays above 1e-9 (1 + max|b_i|). Every answer's vertex is
// checked against the original rows (|A x - b| <= 1e-11 (1 + max|b_i|) on the scaled rows);
// when it has drifted, the basis is refactorized from those rows (Gauss-Jordan with partial
// pivoting) and optimality checked again, so x is not the sum of every pivot's rounding.
struct LpOptions {
  enum Rule {
    kDantzigBland,  // default: largest reduced cost enters, the largest pivot leaves among
                    // ratio ties; right after a degenerate pivot (no progress), Bland's rule.
                    // A cycle has only degenerate pivots, hence only Bland pivots, which cannot
                    // cycle (Bland 1977): this terminates, usually in fewer pivots than Bland.
    kBland,         // Bland's rule throughout: the lowest-index improving column enters, the
                    // lowest-index basic variable leaves among ratio ties (artificials first).
    kDantzig,       // the textbook rule with no anti-cycling (lowest index leaves on ties):
                    // cycles on Beale's example. For tests only.
  } rule = kDantzigBland;
  int max_iterations = 0;  // pivots over both phases; 0: 50 (R + N) + 1000
};

struct LpResult {
  enum Status { kOptimal, kInfeasible, kUnbounded, kIterationLimit } status = kInfeasible;
  VecD x;            // (N) an optimal vertex when kOptimal (exactly 0 off the basis)
  double value = 0;  // c^T x
  int iterations = 0;  // pivots, both phases
};
LpResult SolveLp(const MatD& A, const VecD& b, const VecD& c, const LpOptions& options = {});

// ---- engine-internal: the tableau itself -------------------------------------------------------
// SolveLp runs one of these once. same_output.cpp keeps one per polytope and asks it many
// questions: phase 1 once, then Maximize for each objective, each warm-started from the last.
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

}  // namespace attn
