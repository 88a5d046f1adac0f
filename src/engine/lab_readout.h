// A few numbers read off the lab's result and a training example, which the guided lesson shows
// (app/lesson/lesson_readout.cpp) and no panel computes. Pure engine: Eigen and std.
#pragma once

#include "lab.h"
#include "train.h"

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

}  // namespace attn
