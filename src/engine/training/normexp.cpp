// Normalization experiments (see normexp.h for what each one measures and its contract).
//
// Shapes: Dk = d_k, M = keys per row, Dv = d_v, S = samples, R = rows of one chunk (<= kChunk).
// Contents, top to bottom:
//   1. streams and argument checks;
//   2. score variance against d_k;
//   3. softmax saturation: entropy, largest weight and the gradient at the scores;
//   4. output norm against the size of the scores;
//   5. training curves over seeds (CurveExperiment) and the default comparison.
// The normalizers are the engine's own (NormalizeRows, NormalizeRowsBackward: normalizers.h),
// the products linalg.h's plain loops, the random numbers rng.h's streams: a seed gives the
// same points natively and in the browser.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/training/normexp.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/linalg/linalg.h"
#include "engine/attention/normalizers.h"
#include "engine/base/rng.h"

namespace attn {

using linalg::MatMul;
using linalg::MatMulTransposed;

namespace {

// ---- 1. streams and argument checks ----------------------------------------------------------

// Which experiment a stream belongs to (mixed into its seed).
enum StreamTag : std::uint64_t { kVarianceTag = 1, kSaturationTag = 2, kOutputTag = 3 };

// The stream of one point: a function of (seed, experiment, key) only, so that a point does not
// depend on the rest of the list.
rng::SplitMix64 PointStream(std::uint64_t seed, std::uint64_t tag, std::uint64_t key) {
  return rng::SplitMix64(rng::Mix64(rng::Mix64(seed) ^ rng::Mix64(tag * rng::kGolden + key)));
}

// Rows per chunk: bounds the memory of the batched normalizations whatever the sample count.
constexpr int kChunk = 256;

bool InRange(int x, int lo, int hi) { return x >= lo && x <= hi; }

bool ValidDks(const std::vector<int>& d_ks) {
  if (d_ks.empty()) return false;
  for (const int d : d_ks)
    if (!InRange(d, 1, kMaxNormDk)) return false;
  return true;
}

bool KnownNormalizer(Normalizer n) {
  switch (n) {
    case Normalizer::kSoftmax:
    case Normalizer::kSparsemax:
    case Normalizer::kReluNorm:
    case Normalizer::kSigmoid:
    case Normalizer::kNone:
    case Normalizer::kHardmax:
      return true;
  }
  return false;
}

// Entropy in nats of a row of weights that sums to 1: -sum p log p over p > 0.
double RowEntropy(const MatD& p, Eigen::Index i) {  // p: (R, M)
  double h = 0;
  for (Eigen::Index j = 0; j < p.cols(); ++j)
    if (p(i, j) > 0) h -= p(i, j) * std::log(p(i, j));
  return h > 0 ? h : 0.0;  // a one-hot row gives -0
}

double RowMax(const MatD& p, Eigen::Index i) {  // p: (R, M)
  double mx = p(i, 0);
  for (Eigen::Index j = 1; j < p.cols(); ++j) mx = std::max(mx, p(i, j));
  return mx;
}

double RowNorm(const MatD& a, Eigen::Index i) {  // a: (R, C), the Euclidean norm of row i
  double sq = 0;
  for (Eigen::Index j = 0; j < a.cols(); ++j) sq += a(i, j) * a(i, j);
  return std::sqrt(sq);
}

}  // namespace

// ---- 2. score variance ------------------------------------------------------------------------

std::vector<ScoreVariancePoint> ScoreVarianceExperiment(const std::vector<int>& d_ks, int samples,
                                                       std::uint64_t seed) {
  std::vector<ScoreVariancePoint> out;
  if (!ValidDks(d_ks) || !InRange(samples, 1, kMaxNormSamples)) return out;
  for (const int dk : d_ks) {
    rng::SplitMix64 stream = PointStream(seed, kVarianceTag, static_cast<std::uint64_t>(dk));
    const double factor = 1.0 / std::sqrt(static_cast<double>(dk));  // exactly 1 for Dk = 1
    std::vector<double> qk(2 * static_cast<std::size_t>(dk));  // (2 Dk): q, then k
    double sum_sq = 0, sum_sq_scaled = 0;
    for (int s = 0; s < samples; ++s) {
      rng::FillStandardNormal(stream, qk.data(), 2 * dk);
      // 1. the score q.k, summed in order
      double score = 0;
      for (int t = 0; t < dk; ++t) score += qk[t] * qk[dk + t];
      // 2. its square, and the square of the same score times the factor
      const double scaled = score * factor;
      sum_sq += score * score;
      sum_sq_scaled += scaled * scaled;
    }
    ScoreVariancePoint p;
    p.d_k = dk;
    p.var_unscaled = sum_sq / samples;  // the variance about the known mean 0
    p.var_scaled = sum_sq_scaled / samples;
    p.analytic_unscaled = dk;
    p.analytic_scaled = 1;
    out.push_back(p);
  }
  return out;
}

// ---- 3. softmax saturation --------------------------------------------------------------------

std::vector<SaturationPoint> SoftmaxSaturationExperiment(const std::vector<int>& d_ks, int keys,
                                                         int samples, std::uint64_t seed) {
  std::vector<SaturationPoint> out;
  if (!ValidDks(d_ks) || !InRange(keys, 1, kMaxNormKeys) || !InRange(samples, 1, kMaxNormSamples))
    return out;
  const Mask all;  // (0, 0): every key allowed
  const int m = keys;
  for (const int dk : d_ks) {
    rng::SplitMix64 stream = PointStream(seed, kSaturationTag, static_cast<std::uint64_t>(dk));
    const double factor = 1.0 / std::sqrt(static_cast<double>(dk));
    const std::size_t per_row = static_cast<std::size_t>(dk) + static_cast<std::size_t>(m) * dk + m;
    std::vector<double> draws(per_row);  // one row's q (Dk), keys (M, Dk) row-major, g (M)
    MatD q(1, dk);                       // (1, Dk)
    MatD k(m, dk);                       // (M, Dk)
    double entropy[2] = {0, 0}, grad[2] = {0, 0}, max_weight[2] = {0, 0};  // unscaled, scaled
    for (int first = 0; first < samples; first += kChunk) {
      const int rows = std::min(kChunk, samples - first);
      MatD scores(rows, m);  // (R, M) q . k_j
      MatD upstream(rows, m);  // (R, M) g ~ N(0, I_M), dL/d weights
      for (int r = 0; r < rows; ++r) {
        rng::FillStandardNormal(stream, draws.data(), static_cast<int>(per_row));
        const double* d = draws.data();
        for (int t = 0; t < dk; ++t) q(0, t) = *d++;
        for (int j = 0; j < m; ++j)
          for (int t = 0; t < dk; ++t) k(j, t) = *d++;
        for (int j = 0; j < m; ++j) upstream(r, j) = *d++;
        const MatD row = MatMulTransposed<double>(q, k);  // (1, M)
        for (int j = 0; j < m; ++j) scores(r, j) = row(0, j);
      }
      // Unscaled (the scores as they are), then scaled (times 1/sqrt(Dk)): the same rows.
      for (int variant = 0; variant < 2; ++variant) {
        MatD input = scores;  // (R, M) the softmax's input
        if (variant == 1) input *= factor;
        const MatD p = NormalizeRows<double>(input, all, Normalizer::kSoftmax);  // (R, M)
        const MatD ds =
            NormalizeRowsBackward<double>(upstream, p, input, all, Normalizer::kSoftmax);  // (R, M)
        for (int r = 0; r < rows; ++r) {
          entropy[variant] += RowEntropy(p, r);
          grad[variant] += RowNorm(ds, r);
          max_weight[variant] += RowMax(p, r);
        }
      }
    }
    SaturationPoint pt;
    pt.d_k = dk;
    pt.entropy_unscaled = entropy[0] / samples;
    pt.entropy_scaled = entropy[1] / samples;
    pt.grad_unscaled = grad[0] / samples;
    pt.grad_scaled = grad[1] / samples;
    pt.max_weight_unscaled = max_weight[0] / samples;
    pt.max_weight_scaled = max_weight[1] / samples;
    out.push_back(pt);
  }
  return out;
}

// ---- 4. output norm ---------------------------------------------------------------------------

std::vector<OutputNormPoint> OutputNormExperiment(const std::vector<double>& magnitudes,
                                                  const std::vector<Normalizer>& normalizers,
                                                  int keys, int d_v, int samples,
                                                  std::uint64_t seed) {
  std::vector<OutputNormPoint> out;
  if (magnitudes.empty() || normalizers.empty() || !InRange(keys, 1, kMaxNormKeys) ||
      !InRange(d_v, 1, kMaxNormDv) || !InRange(samples, 1, kMaxNormSamples))
    return out;
  for (const double c : magnitudes)
    if (!std::isfinite(c)) return out;
  for (const Normalizer n : normalizers)
    if (!KnownNormalizer(n)) return out;
  const Mask all;  // (0, 0): every key allowed
  const int m = keys;
  const std::size_t per_sample = static_cast<std::size_t>(m) + static_cast<std::size_t>(m) * d_v;
  const std::size_t count = normalizers.size();
  std::vector<double> draws(per_sample);  // one sample's z (M), then V (M, Dv) row-major
  std::vector<MatD> values(kChunk, MatD(m, d_v));  // R of (M, Dv)
  for (const double c : magnitudes) {
    // The same draws for every magnitude: the stream starts afresh.
    rng::SplitMix64 stream = PointStream(seed, kOutputTag, 0);
    std::vector<double> norm_sum(count, 0.0);
    double bound_sum = 0;
    for (int first = 0; first < samples; first += kChunk) {
      const int rows = std::min(kChunk, samples - first);
      MatD scores(rows, m);  // (R, M) c * z
      for (int r = 0; r < rows; ++r) {
        rng::FillStandardNormal(stream, draws.data(), static_cast<int>(per_sample));
        const double* d = draws.data();
        for (int j = 0; j < m; ++j) scores(r, j) = c * *d++;
        MatD& v = values[static_cast<std::size_t>(r)];  // (M, Dv)
        for (int j = 0; j < m; ++j)
          for (int t = 0; t < d_v; ++t) v(j, t) = *d++;
        double largest = 0;  // max_j ||v_j||
        for (int j = 0; j < m; ++j) largest = std::max(largest, RowNorm(v, j));
        bound_sum += largest;
      }
      for (std::size_t n = 0; n < count; ++n) {
        const MatD w = NormalizeRows<double>(scores, all, normalizers[n]);  // (R, M)
        for (int r = 0; r < rows; ++r) {
          const MatD w_row = w.row(r);                                         // (1, M)
          const MatD o = MatMul<double>(w_row, values[static_cast<std::size_t>(r)]);  // (1, Dv)
          norm_sum[n] += RowNorm(o, 0);
        }
      }
    }
    OutputNormPoint p;
    p.magnitude = c;
    p.norm.resize(count);
    for (std::size_t n = 0; n < count; ++n) p.norm[n] = norm_sum[n] / samples;
    p.bound = bound_sum / samples;
    out.push_back(p);
  }
  return out;
}

// ---- 5. training curves -----------------------------------------------------------------------

std::vector<CurveSpec> DefaultCurveSpecs(const TrainConfig& base) {
  std::vector<CurveSpec> specs;
  auto add = [&](Normalizer n, bool scaled, int d_k) {
    CurveSpec s;
    s.config = base;
    s.config.normalizer = n;
    s.config.scaled = scaled;
    s.config.d_k = d_k;
    s.label = std::string(NormalizerName(n)) + (scaled ? " ÷√d_k" : " no scaling") +
              ", d_k=" + std::to_string(d_k);
    specs.push_back(s);
  };
  for (const int d_k : {4, 64}) {
    add(Normalizer::kSoftmax, true, d_k);
    add(Normalizer::kSoftmax, false, d_k);
  }
  for (const Normalizer n :
       {Normalizer::kSparsemax, Normalizer::kReluNorm, Normalizer::kSigmoid, Normalizer::kNone})
    add(n, true, base.d_k);
  add(Normalizer::kSoftmax, true, base.d_k);  // the reference the other normalizers are read against
  return specs;
}

void CurveExperiment::Clear() {
  specs_.clear();
  series_.clear();
  seeds_ = steps_ = 0;
  done_steps_ = total_steps_ = 0;
  run_ = 0;
  trainer_ = Trainer();
  trainer_live_ = false;
  loss_sum_.clear();
  acc_sum_.clear();
  attn_sum_.clear();
  count_.clear();
}

bool CurveExperiment::Start(const std::vector<CurveSpec>& specs, int seeds, int steps,
                            std::string* error) {
  Clear();
  auto refuse = [&](const std::string& message) { return linalg::Fail(error, message); };
  if (specs.empty()) return refuse("no curves to train (the list of specs is empty)");
  if (!InRange(seeds, 1, kMaxCurveSeeds))
    return refuse("seeds: expected an integer from 1 to " + std::to_string(kMaxCurveSeeds) + ", got " +
                  std::to_string(seeds));
  if (!InRange(steps, 1, kMaxCurveSteps))
    return refuse("steps: expected an integer from 1 to " + std::to_string(kMaxCurveSteps) + ", got " +
                  std::to_string(steps));
  for (const CurveSpec& s : specs) {
    TrainConfig cfg = s.config;
    cfg.seed = 1;  // the experiment's seeds replace the spec's
    const TrainError problem = ValidateTrainConfig(cfg);
    if (!problem.ok()) return refuse("\"" + s.label + "\": " + problem.message);
  }
  specs_ = specs;
  seeds_ = seeds;
  steps_ = steps;
  total_steps_ = static_cast<long long>(specs.size()) * seeds * steps;
  for (const CurveSpec& s : specs) {
    CurveSeries c;
    c.label = s.label;
    c.config = s.config;
    series_.push_back(c);
  }
  loss_sum_.assign(specs.size(), std::vector<double>(steps, 0.0));
  acc_sum_ = attn_sum_ = loss_sum_;
  count_.assign(specs.size(), std::vector<int>(steps, 0));
  return true;
}

void CurveExperiment::Record(int spec, const StepMetrics& m) {
  const std::size_t k = static_cast<std::size_t>(trainer_.step() - 1);  // 0-based step
  CurveSeries& c = series_[static_cast<std::size_t>(spec)];
  std::vector<int>& count = count_[static_cast<std::size_t>(spec)];
  double& loss_sum = loss_sum_[static_cast<std::size_t>(spec)][k];
  double& acc_sum = acc_sum_[static_cast<std::size_t>(spec)][k];
  double& attn_sum = attn_sum_[static_cast<std::size_t>(spec)][k];
  if (c.loss_mean.size() <= k) {  // the first seed to reach step k + 1 (steps are reached in order)
    c.loss_mean.push_back(0);
    c.loss_min.push_back(m.loss);
    c.loss_max.push_back(m.loss);
    c.acc_mean.push_back(0);
    c.acc_min.push_back(m.accuracy);
    c.acc_max.push_back(m.accuracy);
    c.attn_mean.push_back(0);
    c.alive.push_back(0);
  }
  loss_sum += m.loss;
  acc_sum += m.accuracy;
  attn_sum += m.attention_on_source;
  const int n = ++count[k];
  c.alive[k] = n;
  c.loss_min[k] = std::min(c.loss_min[k], m.loss);
  c.loss_max[k] = std::max(c.loss_max[k], m.loss);
  c.acc_min[k] = std::min(c.acc_min[k], m.accuracy);
  c.acc_max[k] = std::max(c.acc_max[k], m.accuracy);
  // The mean of numbers lies between their min and max; a rounded sum / n may step out by an
  // ulp (n equal numbers), so it is clamped back.
  c.loss_mean[k] = std::clamp(loss_sum / n, c.loss_min[k], c.loss_max[k]);
  c.acc_mean[k] = std::clamp(acc_sum / n, c.acc_min[k], c.acc_max[k]);
  c.attn_mean[k] = attn_sum / n;
}

bool CurveExperiment::Advance(int max_steps) {
  const int runs = static_cast<int>(specs_.size()) * seeds_;
  for (int budget = max_steps; budget > 0 && run_ < runs;) {
    const int spec = run_ / seeds_;
    const int seed = run_ % seeds_ + 1;
    CurveSeries& c = series_[static_cast<std::size_t>(spec)];
    if (!trainer_live_) {
      TrainConfig cfg = specs_[static_cast<std::size_t>(spec)].config;
      cfg.seed = static_cast<std::uint64_t>(seed);
      TrainError error;
      if (!trainer_.Reset(cfg, &error)) {  // Start validated the config: not expected
        ++c.diverged;
        if (c.message.empty()) c.message = "seed " + std::to_string(seed) + ": " + error.message;
        done_steps_ = static_cast<long long>(++run_) * steps_;
        continue;
      }
      trainer_live_ = true;
    }
    --budget;
    const bool ok = trainer_.Step();
    if (ok && !trainer_.history().empty()) {
      ++done_steps_;
      Record(spec, trainer_.history().back());
      if (trainer_.step() < steps_) continue;
    } else {  // diverged: this run's curve stops; its remaining steps count as done
      ++c.diverged;
      if (c.message.empty()) {
        c.message = "seed " + std::to_string(seed) + ": " + trainer_.message();
        c.diverged_seed = seed;
        c.divergence = trainer_.divergence();
      }
    }
    trainer_live_ = false;
    done_steps_ = static_cast<long long>(++run_) * steps_;  // every run has `steps_` steps
  }
  if (run_ >= runs && runs > 0) trainer_ = Trainer();  // the last run's memory back
  return run_ < runs;
}

double CurveExperiment::progress() const {
  if (total_steps_ <= 0) return 0;
  return std::min(1.0, static_cast<double>(done_steps_) / static_cast<double>(total_steps_));
}

bool CurveExperiment::done() const {
  return total_steps_ > 0 && run_ >= static_cast<int>(specs_.size()) * seeds_;
}

}  // namespace attn
