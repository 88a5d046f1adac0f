// Weight against contribution (issue 23, "what mattered"): beside every weight alpha_i of the
// query's row, how much key i changed the result.
//
// The seed asks which words *mattered*; alpha_i answers a different question (how much of the
// normalizer's mass key i got). A key with a large weight and a short value moves A little; a key
// with a small weight and a long value can move it a lot. Three measures, per key i:
//   value_norm     ||alpha_i v_i||            what key i adds to A                      (Dv)
//   residual_norm  ||alpha_i v_i W_O[h]||     what of it reaches the residual stream    (Do)
//                                             (W_O[h] = the head's Dv rows of W_O)
//   removal        ||A - A_{-i}||             A_{-i}: the query's output with key i masked out
//                                             and the other weights renormalized by the same
//                                             normalizer (softmax: the others grow)
// removal is exactly what two lab runs give: the plain one and one with knockoutKeys = "i"
// (the same HeadForward on the same row: the same bits; tests/engine/test_whatif.cpp).
// Why removal differs from value_norm: removing a key also moves its weight onto the others.
// For softmax A = (1 - alpha_i) A_{-i} + alpha_i v_i, so removal = alpha_i ||v_i - A_{-i}||: a
// heavy key whose value is close to what the others average to hardly matters.
//
// Shapes: N = keys, Dk = d_k, Dv = d_v, Do = the projected output's width.
// Norms are Euclidean, in double, summed in order over the coordinates of the float numbers.
#pragma once

#include "engine/attention/attention.h"
#include "engine/base/types.h"

#include <vector>

namespace attn {

struct KeyContribution {
  double weight = 0;         // alpha_i (the trace's float, widened)
  double value_norm = 0;     // ||alpha_i v_i||, over the trace's weighted value (float)
  double residual_norm = 0;  // ||(alpha_i v_i) W_O[h]||, the product in double
  double removal = 0;        // ||A - A_{-i}||; 0 for a key the query cannot see
  VecF output_without;       // (Dv) A_{-i}, as the engine computes it (float)
  bool masked = false;       // the query cannot see key i (its weight is 0 anyway)
};

struct ContributionTable {
  int query = -1;                     // the row explained (an index of the trace)
  std::vector<KeyContribution> keys;  // (N), empty when the query is not a row of the trace
  double value_norm_sum = 0;          // sum_i value_norm (>= ||A||, triangle inequality)
};

// The query's contributions in `trace` (the chosen head). `w_o` is the full W_O (sum Dv, Do)
// and `head_row` the first of the head's rows in it (head * Dv in the lab); an empty w_o or
// rows out of range give residual_norm 0.
ContributionTable ComputeContributions(const AttentionTrace<float>& trace, int query,
                                       const MatF& w_o, int head_row);

// The query's output with a set of keys masked out (besides those the trace's mask hides),
// renormalized by the trace's normalizer: HeadForward on the query's row alone, with the trace's
// scale and temperature. `removed` (N): 1 = masked out. Returns an empty vector on bad input.
VecF OutputWithout(const AttentionTrace<float>& trace, int query, const std::vector<char>& removed);

// Euclidean norm of a - b in double, summed in order; a and b must have the same size.
double DistanceInOrder(const VecF& a, const VecF& b);

}  // namespace attn
