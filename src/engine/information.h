// Is information lost in the sum? The geometry of A = V^T alpha with alpha on the simplex.
//
// Shapes: N = tokens, Dv = d_v. V is (N, Dv): row i is v_i. alpha is (N): alpha_i >= 0, sum 1.
// The weights that give the same output A form the polytope
//     P(alpha) = { a in R^N : a >= 0, [V^T; 1^T] a = [V^T alpha; 1^T alpha] }          (*)
// alpha can be read back from A exactly when P is the single point {alpha}; that holds for every
// alpha when the N vectors [v_i; 1] are linearly independent (the values are affinely
// independent), which needs N <= Dv + 1. With more tokens than Dv + 1, as in every real model,
// many patterns give the same A.
//
// Every question here is a small linear program over (*): solved exactly (up to 1e-9 in double)
// by a dense two-phase simplex with an anti-cycling rule, so degenerate inputs (repeated values,
// collinear values, one token) terminate with a defined answer.
//
// Numerics, once for the whole file:
//   - the values are first centred on their mean and written in an orthonormal frame of their
//     affine hull (Householder QR with column pivoting, plain loops). The frame's size is the
//     affine rank r; a direction counts when its pivot |R_kk| exceeds `tol` (1e-9) times the
//     largest one |R_00| (the longest v_i - mean) and 1e-13 times max |V_ij| (rounding left by
//     the centring). So "recoverable" is a statement about the values to 9 digits, independent
//     of their scale and of a common shift, and the LPs use the same r + 1 constraint rows;
//   - plain loops in a fixed order and no FMA contraction (linalg.h's rules), so the browser
//     and the command line compute the same bits;
//   - nothing throws; out-of-range arguments give documented defaults.
#pragma once

#include "embedding.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

using MatD = Mat<double>;
using VecD = Vec<double>;

// ---- the LP solver ---------------------------------------------------------------------------
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

// ---- diagnostics ------------------------------------------------------------------------------
struct AffineInfo {
  int affine_rank = 0;       // r = dim of the affine hull of the v_i = rank([v_i; 1]) - 1
                             // (-1 if N = 0; 0 for one token or all-equal values)
  int same_output_dim = 0;   // N - 1 - r: dimension of the weights giving the same A
                             // (of P(alpha) when alpha is in its relative interior, e.g. any
                             // softmax pattern); 0 iff recoverable
  bool recoverable = false;  // r == N - 1 (the values are affinely independent): every alpha is
                             // a function of A. Needs N <= Dv + 1.
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
};
InformationReport AnalyzeInformation(const MatD& V, const VecD& alpha, int target,
                                     bool then_minimize_top = false);

// The contributions of a pattern: row i = w_i * v_i, (N, Dv); their column sums are V^T w.
MatD Contributions(const MatD& V, const VecD& w);

// The learner drags one weight: alpha_i becomes `value` (clamped to [0, 1]) and the others are
// rescaled in proportion so the result stays on the simplex (shared equally when they were all 0).
VecD SetWeightOnSimplex(const VecD& alpha, int i, double value);

// Every vertex of P(alpha) (the weights giving the same A), by enumerating the basic feasible
// solutions: for small N only (N <= 6, 2^N subsets), for the simplex picture. Each vertex is
// (N); duplicates within 1e-9 are removed. Empty for N > 6 or mismatched sizes.
std::vector<VecD> SameOutputVertices(const MatD& V, const VecD& alpha);

// ---- measured, not only argued: a probe -------------------------------------------------------
// Can a readout that sees only A name the token that got the most weight?
//
// Data. Positions carry fixed codes: p_i ~ N(0, I_Dv), drawn once from the seed, the same in
// every sentence (a learned positional embedding, seen through W_V). Each sentence draws fresh
// content c_i ~ N(0, content^2 I_Dv) for its N tokens, so v_i = p_i + c_i: the position is
// identifiable in principle, and A = sum_i alpha_i v_i carries the pattern only through the
// weighted sum (plus content noise). The heads split the width Dv into `heads` blocks of
// Dv / heads columns (the first Dv % heads blocks one wider): head h has its own pattern
// alpha^h = softmax(s^h), scores s^h_i ~ N(0, sharpness^2), and its output is the weighted sum
// of its block of the values. The readout sees A = [A^1; ...; A^H] (Dv numbers, standardized
// with the training set's mean and spread) and must name argmax_i alpha^h_i for EVERY head h:
// one multinomial logistic regression (N classes, softmax of W_h A + b_h) per head, all on the
// whole A, trained jointly by full-batch Adam (lr 0.05, `steps` steps, L2 1e-4) in double from
// zero weights. Deterministic: seeded streams (rng.h), plain loops; the data pass through
// libm's log, cos, sin and exp (as the embeddings do), which C libraries may round differently
// in the last bit: the same accuracies natively and in wasm at the defaults, checked. Cost
// ~ steps x sentences x H x N x Dv: ~70 ms natively at the defaults; 1, 2, 4 heads at Dv = 16,
// N = 8: ~0.1, 0.2, 0.35 s.
//
// What to expect: with one head, accuracy rises with Dv (more room, less collision) and falls as
// N grows past Dv + 1 (the positions can no longer be affinely independent, so different
// patterns give the same A; chance also falls to 1/N). With H heads of Dv / H each at the same
// total width, each pattern has less room (lower per-head accuracy) but H patterns are kept:
// `patterns_named` = H x accuracy is the expected number of heads whose favourite the readout
// names, i.e. how much "which word mattered" survives the sum in total.
struct ProbeConfig {
  int tokens = 8;        // N >= 2
  int d_v = 8;           // total width Dv >= 1
  int heads = 1;         // 1..Dv (clamped)
  int train_sentences = 2000;
  int test_sentences = 1000;
  int steps = 100;       // Adam steps (converged by then at the defaults)
  double sharpness = 2.0;  // std of the scores: larger = peakier patterns
  double content = 0.5;    // std of the per-sentence content relative to the positional code
  std::uint64_t seed = 1;
};
struct ProbeResult {
  double accuracy = 0;        // mean over heads of the test accuracy (argmax named)
  std::vector<double> per_head;  // (H) test accuracy of each head's readout
  double all_heads = 0;       // fraction of test sentences with every head's argmax named
  double patterns_named = 0;  // H x accuracy: expected correctly named patterns per sentence
  double train_accuracy = 0;  // mean over heads, on the training sentences (overfitting check)
  double chance = 0;          // 1 / N
  int heads = 1;              // H actually used (after clamping)
};
ProbeResult RunProbe(const ProbeConfig& cfg);

}  // namespace attn
