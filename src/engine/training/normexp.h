// Normalization experiments: why softmax and the 1/sqrt(d_k) factor, measured rather than
// asserted. Each function returns plottable data computed by the engine (the normalization panel
// draws it; `attnlab` can print it). All random inputs come from seeded splitmix64 streams
// (rng.h), so a seed gives the same points everywhere.
//
// Legend: Dk = d_k, M = keys per row, Dv = d_v, S = samples.
//
// Arguments out of range (an empty list, a d_k, key count, d_v or sample count below 1 or above
// the limits below, a non-finite magnitude or a value outside the Normalizer enum) give an empty
// vector: there is nothing meaningful to plot, and the callers check `empty()`.
// Each point draws from its own stream, a function of (seed, experiment, d_k) (the output
// experiment: of (seed) alone, the same draws for every magnitude), so a point does not change
// when other points are added to or removed from the list.
#pragma once

#include "engine/base/limits.h"
#include "engine/training/train.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// The limits of the experiments (kMaxNormSamples, kMaxCurveSteps, ...): limits.h.

// 1. Variance of the scores q.k against d_k, q and k ~ N(0, I_Dk): unscaled the variance is Dk,
// scaled by 1/sqrt(Dk) it is 1 (the analytic values are given next to the measured ones).
// "Measured" is the mean of s^2 over the pairs: the variance about the known mean 0 (unbiased
// for any sample count; its standard error is sqrt((2 Dk^2 + 6 Dk) / S), relative
// sqrt((2 + 6 / Dk) / S)). At Dk = 1 the factor is 1 and both are the same number, bit for bit.
struct ScoreVariancePoint {
  int d_k = 0;
  double var_unscaled = 0;   // measured over `samples` pairs
  double var_scaled = 0;     // measured, the same pairs times 1/sqrt(Dk)
  double analytic_unscaled = 0;  // Dk
  double analytic_scaled = 0;    // 1
};
std::vector<ScoreVariancePoint> ScoreVarianceExperiment(const std::vector<int>& d_ks, int samples,
                                                       std::uint64_t seed);

// 2. Softmax saturation: rows of M scores q.k_j (q, k_j ~ N(0, I_Dk)), with and without the
// factor; mean row entropy (nats; the uniform row has log M) and mean norm of the gradient that
// reaches the scores, ||NormalizeRowsBackward(g)|| for an upstream g ~ N(0, I_M) (the engine's
// own softmax backward). Saturated rows (one weight near 1) pass almost no gradient.
// The gradient is taken at the softmax's input (the scaled scores); the same q, keys and g serve
// both columns, so at Dk = 1 they are equal bit for bit. Unscaled the row's scores have variance
// |q|^2 ~ Dk and the entropy falls towards 0 as Dk grows; scaled it stays near
// log M - 1/2 (the large-M limit for N(0, 1) scores).
struct SaturationPoint {
  int d_k = 0;
  double entropy_unscaled = 0, entropy_scaled = 0;
  double grad_unscaled = 0, grad_scaled = 0;
  double max_weight_unscaled = 0, max_weight_scaled = 0;  // mean of the row's largest weight
};
std::vector<SaturationPoint> SoftmaxSaturationExperiment(const std::vector<int>& d_ks, int keys,
                                                         int samples, std::uint64_t seed);

// 3. Output norm as the scores grow: scores = c * z (z ~ N(0, I_M)), values V ~ N(0, I) (M, Dv),
// output = normalize(scores) V. Softmax, sparsemax, relu-norm and hardmax give a convex
// combination, so ||output|| <= max_i ||v_i|| (`bound`); "none" grows with c; sigmoid up to
// sum_i ||v_i||.
// The samples (z, V) are the same for every magnitude, so "none" is c times one number (up to
// rounding) and relu-norm, which ignores a positive factor, is the same number for every c > 0.
// Any of the six normalizers may be asked for (hardmax too: its rows are convex combinations).
struct OutputNormPoint {
  double magnitude = 0;        // c
  std::vector<double> norm;    // per normalizer (same order as the argument): mean ||output||
  double bound = 0;            // mean of max_i ||v_i|| over the samples
};
std::vector<OutputNormPoint> OutputNormExperiment(const std::vector<double>& magnitudes,
                                                  const std::vector<Normalizer>& normalizers,
                                                  int keys, int d_v, int samples,
                                                  std::uint64_t seed);

// 4. Training curves over several seeds: the same TrainConfig with one thing changed, trained
// seed by seed; per step the mean and the spread (min, max) of loss, accuracy and attention on
// the right key. Runs in slices (Advance) so that a page stays responsive.
struct CurveSpec {
  std::string label;   // e.g. "softmax ÷√d_k, d_k=64"
  TrainConfig config;  // its seed is ignored: the experiment's seeds are used
};
struct CurveSeries {
  std::string label;
  TrainConfig config;
  std::vector<double> loss_mean, loss_min, loss_max;  // (steps) over the seeds that are running
  std::vector<double> acc_mean, acc_min, acc_max;     // (steps)
  std::vector<double> attn_mean;                      // (steps) attention on the right key
  std::vector<int> alive;  // (steps) how many seeds each step's aggregates cover
  int diverged = 0;  // seeds whose run stopped on a non-finite number (its curve stops there)
  std::string message;  // the first divergence message, if any
  int diverged_seed = 0;   // that run's seed, and where it stopped (for translations)
  Divergence divergence;
};

// The standard comparison for a base config, in this order (8 specs; every other field is the
// base's): softmax scaled and unscaled at d_k = 4, the same at d_k = 64, then sparsemax,
// relu-norm, sigmoid and none, scaled, at the base d_k. Labels: "softmax ÷√d_k, d_k=4",
// "softmax no scaling, d_k=4", ..., "sparsemax ÷√d_k, d_k=16", ..., and last softmax ÷√d_k at
// the base d_k, the reference for the normalizers.
std::vector<CurveSpec> DefaultCurveSpecs(const TrainConfig& base);

// Runs spec by spec, and within a spec seed 1, 2, ..., seeds, each for `steps` steps. The series
// are updated after every step: during a run a step's mean covers the seeds that have reached it
// so far. A run that diverges stops there (its remaining steps count as done for progress()),
// so a step's aggregates cover the seeds still alive at it; when every seed of a spec diverged
// before step k, that spec's vectors end before k (they are never longer than `steps`).
class CurveExperiment {
 public:
  // Refuses (false, message; the experiment is then empty and done() false) no specs, an invalid
  // spec (ValidateTrainConfig, its message prefixed with the quoted label), seeds outside
  // 1..kMaxCurveSeeds or steps outside 1..kMaxCurveSteps. Restarts from scratch when called again.
  bool Start(const std::vector<CurveSpec>& specs, int seeds, int steps, std::string* error);
  // Runs up to `max_steps` optimizer steps (over all runs) and returns true while work remains
  // (false once done, or before a successful Start).
  bool Advance(int max_steps);
  double progress() const;  // 0..1: steps done (or skipped by a divergence) / specs*seeds*steps
  bool done() const;        // true once every run of a started experiment has finished
  const std::vector<CurveSeries>& series() const { return series_; }
  int steps() const { return steps_; }
  int seeds() const { return seeds_; }

 private:
  void Clear();
  void Record(int spec, const StepMetrics& m);  // adds one step of one seed to the series

  std::vector<CurveSpec> specs_;
  std::vector<CurveSeries> series_;
  int seeds_ = 0, steps_ = 0;
  long long done_steps_ = 0, total_steps_ = 0;
  int run_ = 0;            // index over (spec, seed) pairs: spec = run_ / seeds_
  Trainer trainer_;        // the run in progress
  bool trainer_live_ = false;
  // Per spec and step: sums over the seeds that reached it, and how many did.
  std::vector<std::vector<double>> loss_sum_, acc_sum_, attn_sum_;  // specs of (steps)
  std::vector<std::vector<int>> count_;                              // specs of (steps)
};

}  // namespace attn
