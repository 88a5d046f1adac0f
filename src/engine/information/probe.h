// Measured, not only argued: a probe of how much of the pattern survives the weighted sum
// (information.h argues it from the geometry).
#pragma once

#include <cstdint>
#include <vector>

namespace attn {

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

// The readout alone, as RunProbe trains it, for any features: train_x (S, Dv) and test_x
// (S', Dv) row-major, labels (S, H) and (S', H) row-major in [0, n); every feature standardized
// with the training set's mean and spread, one multinomial logistic regression per head on the
// whole feature vector, full-batch Adam from zero. model/inspect/head_probe.h runs it on real heads' A.
struct ReadoutResult {
  std::vector<double> per_head;        // (H) test accuracy
  double all = 0;                      // test: every head's label named
  std::vector<double> train_per_head;  // (H) training accuracy
  double train_all = 0;
  std::vector<int> test_predictions;   // (S', H) the class named for each test sample
};
// Mismatched sizes give accuracies 0.
ReadoutResult TrainReadout(std::vector<double> train_x, const std::vector<int>& train_y,
                           std::vector<double> test_x, const std::vector<int>& test_y, int dv, int n,
                           int heads, int steps);

}  // namespace attn
