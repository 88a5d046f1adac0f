// Is one head's pattern recoverable from what its layer passes on? information.h asks it of the
// head's own output A = V^T alpha; here the reader sees something later in the layer:
//
//   the concatenation   concat = [A_1; ...; A_H]                     (H*Dh)
//   the layer's output  out    = W_O^T concat = sum_j W_O^j^T A_j     (C)    W_O^j = rows of head j
//   with the residual   y      = x + out                              (C)
//
// Shapes: H = heads, n = the keys the query sees (every head sees the same keys: one mask),
// Dh = a head's d_v, C = the output width, k = unknown directions of the residual.
//
// The reader always knows every head's values (as in information.h: only weights are asked
// for); the unknowns are the H patterns a_j (each on its simplex: a_j >= 0, sum 1) and, for the
// residual, the coefficients c of the residual's unknown part. The weights giving the same
// observation form one polytope over all heads at once:
//
//   Q(alpha) = { (a_1..a_H, c) : a_j >= 0, 1^T a_j = 1,
//                sum_j M_j^T a_j + F^T c_f + P^T c_p = the observed y,  c_p >= 0 }          (**)
//
// with M_j = V_j W_O^j (n, C) (W_O = I for the concatenation), F (kf, C) directions with a free
// coefficient and P (kp, C) directions with a coefficient >= 0. What is true:
//   - concat: the heads' blocks are separate equations, so head h's weights are exactly as
//     determined as from A_h alone (the other heads' values add nothing), and the joint set's
//     dimension is the sum of the heads' own;
//   - out: when W_O has full rank H*Dh, concat = out W_O^+ exactly, so the same as concat; a
//     rank-deficient W_O couples the heads (one head's change can hide in another's);
//   - y = x + out with x known: the same as out. With x unknown, nothing (any out fits). With
//     only LN(x) known (it is what the values are computed from), x = mean 1 + (1/rstd) xhat:
//     two unknowns per query, F = [1], P = [xhat]: how much they open is what this file computes.
//
// Numerics as information.h: the rows of (**) are reduced to an orthonormal basis of the
// constraint matrix's column space (pivoted QR, tolerance 1e-9 relative), so the LP (lp.h) has
// independent rows; plain loops in a fixed order, no FMA: the same bits natively and in wasm.
#pragma once

#include "engine/base/types.h"

#include <vector>

namespace attn {

struct LayerHeadsInput {
  std::vector<MatD> values;  // H of (n, Dh): head j's values of the keys the query sees
  std::vector<VecD> alphas;  // H of (n): head j's weights of those keys (on the simplex)
  MatD mix;                  // (H*Dh, C): W_O; the identity (H*Dh, H*Dh) for the concatenation
  MatD free_dirs;            // (kf, C) unknown part of the residual with a free coefficient
  MatD pos_dirs;             // (kp, C) ... with a coefficient >= 0
  VecD pos_coef;             // (kp) their true coefficients (> 0): the observed y includes them
};

struct LayerInformation {
  bool ok = false;        // false: the input's shapes do not match (nothing below is valid)
  int variables = 0;      // H*n + kf + kp unknowns
  int rank = 0;           // rank of the constraint matrix [M_j^T, F^T, P^T; sums] (C + H rows)
  int dim = 0;            // variables - rank: the dimension of Q(alpha) (alpha inside its simplex)
  int head_dim = 0;       // the dimension of head h's weights within Q(alpha) (its projection)
  bool recoverable = false;  // head_dim == 0: head h's pattern is a function of the observation
  MatD ranges;            // (n, 2) [min, max] of head h's weight of each key over Q(alpha)
  int target = -1;
  VecD alpha2;            // (n) head h's weights with the most on `target` within Q(alpha)
  double others_moved = 0;   // max |a_j - alpha_j| over the other heads in that solution
  double max_output_diff = 0;  // || y(alpha2 ...) - y ||_inf (rounding only)
  int lps = 0;            // LPs solved (0 when recoverable)
};

// Head `head`'s weights over Q(alpha) (**): the dimensions, and with `lps` the ranges of each
// key's weight and the second scenario (the most weight on `target` in [0, n); -1 for none).
// Without `lps` (the dimensions only: three QRs) the ranges are the points alpha_i and alpha2 =
// alpha. Cost with `lps`: 2n + 1 LPs of H n + 2 kf + kp columns and up to C + H rows.
LayerInformation AnalyzeLayerHeads(const LayerHeadsInput& in, int head, int target, bool lps = true);

// The singular values of A (m, n), largest first: one-sided Jacobi (Hestenes), plain loops, so
// that the page and the command line print the same condition numbers.
VecD SingularValues(const MatD& A);

struct RankSummary {
  int rank = 0;            // the pivoted QR's numerical rank (pivots above 1e-9 times the first)
  double largest = 0, smallest = 0;
  double condition = 0;    // largest / smallest (inf when singular)
};
// Rank, largest and smallest singular value (power and inverse iteration on the pivoted QR's R,
// 300 steps each: 3 significant digits and more; a few ms for 128 x 128).
RankSummary SummarizeRank(const MatD& A);

}  // namespace attn
