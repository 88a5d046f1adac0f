// The weights that give the same output: the polytope
//     P(alpha) = { a in R^N : a >= 0, [V^T; 1^T] a = [V^T alpha; 1^T alpha] }          (*)
// for values V (N, Dv) and a pattern alpha (N) on the simplex, or, for weights in [0, 1] that
// need not sum to 1 (sigmoid), the box polytope
//     B(alpha) = { a in [0, 1]^N : V^T a = V^T alpha }                                 (**) information.h asks it its questions (is alpha
// unique, how far can weight move, the ranges of every a_i); the simplex picture shows its
// vertices.
//
// Shapes: N = tokens, Dv = d_v, r = affine rank of the values (affine_frame.h).
// Bit-exactness: plain loops in a fixed order, no FMA contraction (linalg.h's rules).
#pragma once

#include "engine/geometry/affine_frame.h"
#include "engine/information/information.h"  // FeasibleSet
#include "engine/geometry/lp.h"
#include "engine/base/types.h"

#include <vector>

namespace attn {

// Every vertex of P(alpha) (the weights giving the same A), by enumerating the basic feasible
// solutions: for small N only (N <= 6, 2^N subsets), for the simplex picture. Each vertex is
// (N); duplicates within 1e-9 are removed. Empty for N > 6 or mismatched sizes.
std::vector<VecD> SameOutputVertices(const MatD& V, const VecD& alpha);
// The same over the scope's visible keys (at most 6 of them), each vertex scattered back to (N)
// with 0 on the masked keys; empty unless the set is the simplex (the picture is the simplex).
std::vector<VecD> SameOutputVerticesIn(const MatD& V, const VecD& alpha, const InformationScope& scope);

// ---- engine-internal: P(alpha) as one LP, asked many questions ---------------------------------
// Simplex (*): z a = z alpha (r rows: the values' coordinates in their centred frame) and
// 1^T a = 1^T alpha; a >= 0. The r + 1 rows are independent by construction (z's rows are
// orthogonal to 1 since the frame is centred, and rank-revealed), so phase 1 is clean.
// Box (**): the variables are [a; s] (2N), s = 1 - a the slacks: z a = z alpha (r = the linear
// rank, uncentred frame) and a + s = 1; a, s >= 0. Maximize, the solution and the frozen face
// speak of a (N) only. FeasibleSet::kAffine has no LP (it is not bounded): information.cpp.
class SameOutput {
 public:
  // Builds the frame of V (N, Dv) and the LP of P(alpha) or B(alpha), and runs phase 1 (no LP
  // at all when the values are independent for the set: P = {alpha}).
  SameOutput(const MatD& V, const VecD& alpha, double tol = 1e-9,
             FeasibleSet set = FeasibleSet::kSimplex);

  // Back to the basis phase 1 found, so that each question's answer does not depend on which
  // questions were asked before (Collide alone = Collide within AnalyzeInformation, bit for bit).
  void Reset() { lp_ = after_phase1_; }

  int n() const { return n_; }
  const affine::Frame& frame() const { return frame_; }
  bool recoverable() const { return recoverable_; }
  bool feasible() const { return feasible_; }  // an LP exists and alpha is in it
  double total() const { return total_; }
  FeasibleSet set() const { return set_; }
  // The most any one weight can be: the total for the simplex, 1 for the box.
  double upper() const { return set_ == FeasibleSet::kBox ? 1.0 : total_; }

  // The vertex maximizing c^T a (c, a: (N)), or nothing (false) when the LP failed.
  bool Maximize(const VecD& c, VecD& a) {
    if (!feasible_ || lp_.Maximize(Extend(c)) != LpResult::kOptimal) return false;
    a = lp_.Solution().head(n_);
    return true;
  }
  // After Maximize(c): only the optimal face of c stays for the next Maximize (lp.h).
  void FreezeOffOptimalFace(const VecD& c) { lp_.FreezeOffOptimalFace(Extend(c)); }
  void Unfreeze() { lp_.Unfreeze(); }

 private:
  VecD Extend(const VecD& c) const {  // (N) -> the LP's columns: (N) or (2N) with the slacks at 0
    if (set_ != FeasibleSet::kBox) return c;
    VecD e = VecD::Zero(2 * n_);
    e.head(n_) = c;
    return e;
  }
  FeasibleSet set_ = FeasibleSet::kSimplex;
  affine::Frame frame_;
  int n_ = 0;
  bool recoverable_ = false;
  bool feasible_ = false;
  double total_ = 0;
  Simplex lp_;
  Simplex after_phase1_;
};

}  // namespace attn
