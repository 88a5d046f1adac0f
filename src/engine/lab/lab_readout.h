// A few numbers read off the lab's result and a training example, which the guided lesson shows
// (app/lesson/lesson_readout.cpp) and no panel computes. Pure engine: Eigen and std.
#pragma once

#include "engine/lab/lab.h"
#include "engine/training/train.h"

namespace attn {

// Numbers the lesson shows that no panel computes (tested in tests/app/lesson/test_lesson.cpp):
// the query's weights after adding `shift` to every scaled score (the chosen head, the lab's
// normalizer and mask): for softmax the shift cancels.
VecD ShiftedWeights(const LabResult& r, Normalizer normalizer, double shift);
// The residual stream after the attention layer for the query: x + W_O·[A¹; …; A^H], (D).
VecD ResidualOutput(const LabResult& r);
// The training example's query row: vᵢ·∂L/∂A for every key i of head h, (N). Equals the
// engine's ∂L/∂αᵢ (dweights) up to rounding: the gradient into each weight.
VecD WeightGradientFromValues(const ExampleView& v, int head, int query);

// An induction head's signature on a sentence with repeats: for every token t seen before (its
// latest earlier occurrence j >= 1 with j + 1 < t), the weight its query puts on the token after
// that occurrence, j + 1, and where its largest weight is (keys 1..t: <|endoftext|> at 0 aside).
struct InductionRow {
  int query = 0, after_copy = 0, largest = 0;
  double weight_after_copy = 0, weight_largest = 0, spread_evenly = 0;  // 1 / (t + 1)
};
// ids: the tokens (T); weights: one head's causal weights (T, T). Empty when nothing repeats.
std::vector<InductionRow> InductionRows(const std::vector<int>& ids, const MatF& weights);

}  // namespace attn
