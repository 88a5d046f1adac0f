// The weights that give the same output: the polytope
//     P(alpha) = { a in R^N : a >= 0, [V^T; 1^T] a = [V^T alpha; 1^T alpha] }          (*)
// for values V (N, Dv) and a pattern alpha (N). information.h asks it its questions (is alpha
// unique, how far can weight move, the ranges of every a_i); the simplex picture shows its
// vertices.
//
// Shapes: N = tokens, Dv = d_v, r = affine rank of the values (affine_frame.h).
// Bit-exactness: plain loops in a fixed order, no FMA contraction (linalg.h's rules).
#pragma once

#include "affine_frame.h"
#include "lp.h"
#include "types.h"

#include <vector>

namespace attn {

// Every vertex of P(alpha) (the weights giving the same A), by enumerating the basic feasible
// solutions: for small N only (N <= 6, 2^N subsets), for the simplex picture. Each vertex is
// (N); duplicates within 1e-9 are removed. Empty for N > 6 or mismatched sizes.
std::vector<VecD> SameOutputVertices(const MatD& V, const VecD& alpha);

// ---- engine-internal: P(alpha) as one LP, asked many questions ---------------------------------
// Constraints: z a = z alpha (r rows: the values' coordinates in their frame) and
// 1^T a = 1^T alpha; a >= 0. The r + 1 rows are independent by construction (z's rows are
// orthogonal to 1 since the frame is centred, and rank-revealed), so phase 1 is clean.
class SameOutput {
 public:
  // Builds the frame of V (N, Dv) and the LP of P(alpha), and runs phase 1 (no LP at all when
  // the values are affinely independent: P = {alpha}).
  SameOutput(const MatD& V, const VecD& alpha, double tol = 1e-9);

  // Back to the basis phase 1 found, so that each question's answer does not depend on which
  // questions were asked before (Collide alone = Collide within AnalyzeInformation, bit for bit).
  void Reset() { lp_ = after_phase1_; }

  int n() const { return n_; }
  const affine::Frame& frame() const { return frame_; }
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
  affine::Frame frame_;
  int n_ = 0;
  bool recoverable_ = false;
  bool feasible_ = false;
  double total_ = 0;
  Simplex lp_;
  Simplex after_phase1_;
};

}  // namespace attn
