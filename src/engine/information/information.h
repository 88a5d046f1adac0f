// Is information lost in the sum? The geometry of A = V^T alpha with alpha on the simplex (and,
// for the normalizers whose weights do not sum to 1, in the box or in all of R^N: FeasibleSet).
//
// Shapes: N = tokens, Dv = d_v. V is (N, Dv): row i is v_i. alpha is (N): alpha_i >= 0, sum 1.
// The weights that give the same output A form the polytope
//     P(alpha) = { a in R^N : a >= 0, [V^T; 1^T] a = [V^T alpha; 1^T alpha] }          (*)
// alpha can be read back from A exactly when P is the single point {alpha}; that holds for every
// alpha when the N vectors [v_i; 1] are linearly independent (the values are affinely
// independent), which needs N <= Dv + 1. With more tokens than Dv + 1, as in every real model,
// many patterns give the same A.
//
// Every question here is a small linear program over (*) (same_output.h): solved exactly (up to
// 1e-9 in double) by a dense two-phase simplex with an anti-cycling rule (lp.h), so degenerate
// inputs (repeated values, collinear values, one token) terminate with a defined answer. The
// vertices of (*) are in same_output.h; the probe, which measures the loss on data, in probe.h.
//
// Numerics, once for the whole file:
//   - the values are first centred on their mean and written in an orthonormal frame of their
//     affine hull (Householder QR with column pivoting, plain loops: affine_frame.h). The
//     frame's size is the affine rank r; a direction counts when its pivot |R_kk| exceeds
//     `tol` (1e-9) times the largest one |R_00| (the longest v_i - mean) and 1e-13 times
//     max |V_ij| (rounding left by the centring). So "recoverable" is a statement about the
//     values to 9 digits, independent of their scale and of a common shift, and the LPs use
//     the same r + 1 constraint rows;
//   - plain loops in a fixed order and no FMA contraction (linalg.h's rules), so the browser
//     and the command line compute the same bits;
//   - nothing throws; out-of-range arguments give documented defaults.
#pragma once

#include "engine/attention/normalizers.h"
#include "engine/base/types.h"

#include <vector>

namespace attn {

// ---- the set the weights live in -------------------------------------------------------------
// "Another pattern with the same A" means another point of the set the normalizer's weights live
// in, with V^T a = A:
//   kSimplex  softmax, sparsemax, relunorm, hardmax: a >= 0, sum a = 1: the polytope P (*).
//             Unique for every alpha iff the values are affinely independent (N <= Dv + 1).
//   kBox      sigmoid: each 0 <= a_i <= 1, no sum: B = {a in [0,1]^N : V^T a = A}. Unique for
//             every alpha iff the values are linearly independent (N <= Dv).
//   kAffine   none: any real weights: {a in R^N : V^T a = A}, an affine set of dimension
//             N - rank(V), unbounded unless it is a point. Unique iff rank(V) = N (N <= Dv); a
//             single weight a_i is known from A iff e_i lies in the row space of V^T, and else
//             it can be anything (its range is (-inf, +inf)).
// "Recoverable" always assumes the reader knows every v_i (the values are given, only the
// weights are asked for).
enum class FeasibleSet { kSimplex, kBox, kAffine };
FeasibleSet FeasibleSetOf(Normalizer n);
const char* FeasibleSetName(FeasibleSet s);  // "simplex", "box", "affine"

// What the analysis is asked about: the set, the keys the query can see (a mask: masked keys
// have weight 0 and are left out of every question: their range is [0, 0], the second scenario
// puts nothing on them, ranks and counts are over the visible keys), and the lexicographic
// second LP of Collide.
struct InformationScope {
  FeasibleSet set = FeasibleSet::kSimplex;
  std::vector<char> visible;       // (N) 1 = the query may attend to key i; empty = all visible
  bool then_minimize_top = false;
};

// ---- diagnostics ------------------------------------------------------------------------------
struct AffineInfo {
  int affine_rank = 0;       // r = dim of the affine hull of the v_i = rank([v_i; 1]) - 1
                             // (-1 if N = 0; 0 for one token or all-equal values)
  int same_output_dim = 0;   // N - 1 - r: dimension of the weights giving the same A
                             // (of P(alpha) when alpha is in its relative interior, e.g. any
                             // softmax pattern); 0 iff recoverable
  bool recoverable = false;  // r == N - 1 (the values are affinely independent): every alpha is
                             // a function of A. Needs N <= Dv + 1.
  // Within AnalyzeInformation, for its scope: N counts the visible keys only, and for the box and
  // the affine set the linear rank decides: same_output_dim = N - linear_rank, recoverable iff
  // linear_rank == N.
  int linear_rank = 0;       // rank(V) of the (visible) values
};
AffineInfo AnalyzeValues(const MatD& V, double tol = 1e-9);  // V: (N, Dv)

// Reads alpha back from A: solves [V^T; 1^T] a = [A; 1] in the frame of the values' affine hull.
// When recoverable this is the unique solution (compare it with alpha for the "recovery error",
// max_i |a_i - alpha_i|, ~1e-15 for well-spread values). When not, it is the smallest-norm a
// among all that give A (sum 1, possibly with negative entries): a guess, not the pattern; the
// UI shows it only when recoverable.
struct Recovery {
  VecD alpha;           // (N)
  double residual = 0;  // || [V^T; 1^T] a - [A; 1] ||_inf, in the units of V: ~1e-15 |V| when
                        // A is an average of the values, larger when no weights give A at all
};
Recovery RecoverWeights(const MatD& V, const VecD& A);  // V: (N, Dv), A: (Dv)

// ---- the two scenarios ------------------------------------------------------------------------
struct Collision {
  VecD alpha2;                 // (N) alpha' in P(alpha) with the most weight on `target`
  VecD output;                 // (Dv) A  = V^T alpha
  VecD output2;                // (Dv) A' = V^T alpha'
  double max_output_diff = 0;  // || A - A' ||_inf (rounding only: ~1e-15 times |V|)
  int top = -1;                // the token alpha leans on most (argmax, lowest index on ties)
  bool unique = false;         // P(alpha) = {alpha}: no other pattern gives this A
  bool changed = false;        // alpha' differs from alpha by more than 1e-9 somewhere
};
// Maximizes alpha'_target over P(alpha); with `then_minimize_top`, among those optima also
// minimizes the weight on `top` when top != target (lexicographic: the second LP runs on the
// first one's optimal face, i.e. with every column of negative reduced cost fixed at 0).
// alpha' is a vertex of P(alpha) (at most r + 1 nonzero weights), or alpha itself when it is
// already optimal or unique. `unique` is exact geometry, not a width test: it holds when the
// values are affinely independent, or else when no weight can move onto a token outside the
// support S = {i : alpha_i > 1e-9} (one LP) and the values of S are affinely independent
// (e.g. alpha = e_i on a vertex of the hull). Preconditions: alpha.size() == N (else an empty
// result), alpha >= 0 (its sum may differ from 1: P keeps it; with negative entries P may be
// empty and alpha' = alpha); target outside [0, N) gives alpha' = alpha.
Collision Collide(const MatD& V, const VecD& alpha, int target, bool then_minimize_top = false);

// For every token i, [min a_i, max a_i] over P(alpha): what A alone tells about word i.
// A single point (hi - lo < 1e-9) means the weight of i is fully determined by A. Recoverable
// values give exactly [alpha_i, alpha_i]. Cost: at most 2N LPs sharing one phase 1, each warm
// started from the previous optimum; LPs whose answer a vertex already showed (a_i = 0 seen,
// or a_i = the whole weight) are skipped. N = 12: ~10 us; N = 64: 0.2 to 10 ms (worst near
// Dv = N / 2). alpha.size() != N gives (0, 2); alpha with negative entries, the points
// [alpha_i, alpha_i].
MatD WeightRanges(const MatD& V, const VecD& alpha);  // (N, 2): column 0 = min, 1 = max

// Everything the "Information" panel shows, in one call (one frame, one phase 1).
struct InformationReport {
  AffineInfo info;
  Collision collision;  // Collide(V, alpha, target, then_minimize_top)
  MatD ranges;          // (N, 2) WeightRanges(V, alpha)
  Recovery recovery;    // RecoverWeights(V, collision.output)
  double recovery_error = 0;  // max_i |recovery.alpha_i - alpha_i| (meaningful if recoverable)
  FeasibleSet set = FeasibleSet::kSimplex;  // the set used
  std::vector<int> visible;   // the keys the analysis ran over, in order (all N without a mask)
};
InformationReport AnalyzeInformation(const MatD& V, const VecD& alpha, int target,
                                     bool then_minimize_top = false);
// The same over the scope's set and visible keys; every vector in the report still has N (or
// N x 2) entries, the masked ones 0 (ranges [0, 0]). A target the query cannot see moves
// nothing (alpha' = alpha). For kAffine the ranges of the weights A does not determine are
// (-inf, +inf), and alpha' = alpha + d / d_target, d the part of e_target outside V's row space:
// one whole unit more weight on the target, the same A (there is no "most").
InformationReport AnalyzeInformation(const MatD& V, const VecD& alpha, int target,
                                     const InformationScope& scope);

// The contributions of a pattern: row i = w_i * v_i, (N, Dv); their column sums are V^T w.
MatD Contributions(const MatD& V, const VecD& w);

// The learner drags one weight: alpha_i becomes `value` (clamped to [0, 1]) and the others are
// rescaled in proportion so the result stays on the simplex (shared equally when they were all 0).
// With `visible` (N, 1 = the query can see the key), masked weights stay 0 and dragging one
// changes nothing.
VecD SetWeightOnSimplex(const VecD& alpha, int i, double value,
                        const std::vector<char>& visible = {});
// The same for any set: the simplex as above; box and affine: alpha_i alone becomes `value`
// (clamped to [0, 1], the bars' range), the others stay (masked ones 0).
VecD SetWeightIn(FeasibleSet set, const VecD& alpha, int i, double value,
                 const std::vector<char>& visible = {});

}  // namespace attn
