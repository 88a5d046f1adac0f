// The probe (probe.h): a readout trained on the weighted sums alone, and its accuracy.
//
// Shapes: S = sentences, N = tokens, Dv = d_v, H = heads.
// Deterministic: seeded streams (rng.h), plain loops in a fixed order, no FMA contraction
// (linalg.h's rules).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/information/probe.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "engine/base/rng.h"

namespace attn {

namespace {

// One data set: features (S, Dv) row-major and labels (S, H) row-major.
struct ProbeData {
  std::vector<double> x;
  std::vector<int> y;
};

ProbeData MakeProbeData(rng::SplitMix64& stream, int sentences, int n, int dv,
                        const std::vector<int>& offset,  // (H + 1) block starts, offset[H] = Dv
                        const std::vector<double>& pos,  // (N, Dv) row-major positional codes
                        double content, double sharpness) {
  const int heads = static_cast<int>(offset.size()) - 1;
  ProbeData data;
  data.x.assign(static_cast<std::size_t>(sentences) * dv, 0.0);
  data.y.assign(static_cast<std::size_t>(sentences) * heads, 0);
  std::vector<double> values(static_cast<std::size_t>(n) * dv);  // (N, Dv) v_i = p_i + c_i
  std::vector<double> scores(n), alpha(n);
  for (int s = 0; s < sentences; ++s) {
    rng::FillStandardNormal(stream, values.data(), n * dv);
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = pos[k] + content * values[k];
    for (int h = 0; h < heads; ++h) {
      rng::FillStandardNormal(stream, scores.data(), n);
      double mx = -std::numeric_limits<double>::infinity();
      int best = 0;
      for (int i = 0; i < n; ++i) {
        scores[i] *= sharpness;
        if (scores[i] > mx) {
          mx = scores[i];
          best = i;
        }
      }
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += (alpha[i] = std::exp(scores[i] - mx));
      for (int i = 0; i < n; ++i) alpha[i] /= sum;
      data.y[static_cast<std::size_t>(s) * heads + h] = best;  // argmax alpha = argmax scores
      double* a = &data.x[static_cast<std::size_t>(s) * dv];
      for (int i = 0; i < n; ++i) {
        for (int c = offset[h]; c < offset[h + 1]; ++c) {
          a[c] += alpha[i] * values[static_cast<std::size_t>(i) * dv + c];
        }
      }
    }
  }
  return data;
}

}  // namespace

ProbeResult RunProbe(const ProbeConfig& cfg) {
  const int n = std::max(2, cfg.tokens);
  const int dv = std::max(1, cfg.d_v);
  const int heads = std::min(std::max(1, cfg.heads), dv);
  const int n_train = std::max(1, cfg.train_sentences);
  const int n_test = std::max(1, cfg.test_sentences);
  const int steps = std::max(0, cfg.steps);
  ProbeResult res;
  res.heads = heads;
  res.chance = 1.0 / n;
  std::vector<int> offset(heads + 1, 0);  // head h owns columns offset[h] .. offset[h+1]-1
  for (int h = 0; h < heads; ++h) offset[h + 1] = offset[h] + dv / heads + (h < dv % heads);

  // Three independent streams: the positional codes, the training and the test sentences.
  auto stream_for = [&](std::uint64_t which) {
    return rng::SplitMix64(rng::Mix64(rng::Mix64(cfg.seed) ^ which * rng::kGolden));
  };
  rng::SplitMix64 pos_stream = stream_for(1), train_stream = stream_for(2),
                  test_stream = stream_for(3);
  std::vector<double> pos(static_cast<std::size_t>(n) * dv);  // (N, Dv)
  rng::FillStandardNormal(pos_stream, pos.data(), n * dv);
  ProbeData train = MakeProbeData(train_stream, n_train, n, dv, offset, pos, cfg.content,
                                  cfg.sharpness);
  ProbeData test = MakeProbeData(test_stream, n_test, n, dv, offset, pos, cfg.content,
                                 cfg.sharpness);

  const ReadoutResult r = TrainReadout(std::move(train.x), train.y, std::move(test.x), test.y, dv, n,
                                       heads, steps);
  res.per_head = r.per_head;
  res.all_heads = r.all;
  for (int h = 0; h < heads; ++h) {
    res.accuracy += res.per_head[h] / heads;
    res.train_accuracy += r.train_per_head[h] / heads;
  }
  res.patterns_named = heads * res.accuracy;
  return res;
}

ReadoutResult TrainReadout(std::vector<double> train_x, const std::vector<int>& train_y,
                           std::vector<double> test_x, const std::vector<int>& test_y, int dv, int n,
                           int heads, int steps) {
  ReadoutResult out;
  const int n_train = static_cast<int>(train_y.size()) / std::max(1, heads);
  const int n_test = static_cast<int>(test_y.size()) / std::max(1, heads);
  if (dv < 1 || n < 1 || heads < 1 || n_train < 1 || n_test < 1 ||
      train_x.size() != static_cast<std::size_t>(n_train) * dv ||
      test_x.size() != static_cast<std::size_t>(n_test) * dv) {
    out.per_head.assign(static_cast<std::size_t>(std::max(1, heads)), 0.0);
    out.train_per_head = out.per_head;
    return out;
  }
  ProbeData train{std::move(train_x), train_y}, test{std::move(test_x), test_y};
  // Standardize every feature with the training set's mean and spread.
  std::vector<double> mean(dv, 0.0), sd(dv, 0.0);
  for (int s = 0; s < n_train; ++s) {
    for (int c = 0; c < dv; ++c) mean[c] += train.x[static_cast<std::size_t>(s) * dv + c];
  }
  for (int c = 0; c < dv; ++c) mean[c] /= n_train;
  for (int s = 0; s < n_train; ++s) {
    for (int c = 0; c < dv; ++c) {
      const double e = train.x[static_cast<std::size_t>(s) * dv + c] - mean[c];
      sd[c] += e * e;
    }
  }
  for (int c = 0; c < dv; ++c) {
    sd[c] = std::sqrt(sd[c] / n_train);
    if (!(sd[c] > 1e-12)) sd[c] = 1;
  }
  for (ProbeData* data : {&train, &test}) {
    for (std::size_t k = 0; k < data->x.size(); ++k) {
      const int c = static_cast<int>(k % dv);
      data->x[k] = (data->x[k] - mean[c]) / sd[c];
    }
  }

  // Parameters: per head h, W_h (N, Dv) and b_h (N): logits_h = W_h a + b_h, and
  // loss = mean over sentences and heads' sum of cross-entropies + (l2 / 2) |W|^2. Stored
  // feature-major, theta(c, h N + k) = W_h(k, c) with the biases as row c = Dv, so that the
  // inner loops run over the H N logits (contiguous, independent: vectorizable without
  // reordering any sum; each logit still sums b, then c = 0, 1, ... in order).
  const int hn = heads * n;
  const std::size_t size = static_cast<std::size_t>(dv + 1) * hn;
  std::vector<double> theta(size, 0.0), grad(size), m1(size, 0.0), m2(size, 0.0);
  std::vector<double> logits(hn);
  const double lr = 0.05, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, l2 = 1e-4;
  auto forward = [&](const double* a) {  // logits of every head for features a (Dv)
    const double* bias = &theta[static_cast<std::size_t>(dv) * hn];
    for (int k = 0; k < hn; ++k) logits[k] = bias[k];
    for (int c = 0; c < dv; ++c) {
      const double* w = &theta[static_cast<std::size_t>(c) * hn];
      const double ac = a[c];
      for (int k = 0; k < hn; ++k) logits[k] += w[k] * ac;
    }
  };
  double pow1 = 1, pow2 = 1;
  for (int step = 0; step < steps; ++step) {
    std::fill(grad.begin(), grad.end(), 0.0);
    for (int s = 0; s < n_train; ++s) {
      const double* a = &train.x[static_cast<std::size_t>(s) * dv];
      forward(a);
      for (int h = 0; h < heads; ++h) {  // logits -> dloss/dlogit = (p_k - [k == y]) / S
        double* z = &logits[static_cast<std::size_t>(h) * n];
        double mx = z[0];
        for (int k = 1; k < n; ++k) mx = std::max(mx, z[k]);
        double sum = 0;
        for (int k = 0; k < n; ++k) sum += (z[k] = std::exp(z[k] - mx));
        const int y = train.y[static_cast<std::size_t>(s) * heads + h];
        for (int k = 0; k < n; ++k) z[k] = (z[k] / sum - (k == y ? 1.0 : 0.0)) / n_train;
      }
      for (int c = 0; c < dv; ++c) {
        double* dw = &grad[static_cast<std::size_t>(c) * hn];
        const double ac = a[c];
        for (int k = 0; k < hn; ++k) dw[k] += logits[k] * ac;
      }
      double* db = &grad[static_cast<std::size_t>(dv) * hn];
      for (int k = 0; k < hn; ++k) db[k] += logits[k];
    }
    pow1 *= beta1;
    pow2 *= beta2;
    const std::size_t first_bias = static_cast<std::size_t>(dv) * hn;
    for (std::size_t k = 0; k < size; ++k) {
      const double g = grad[k] + (k < first_bias ? l2 * theta[k] : 0.0);
      m1[k] = beta1 * m1[k] + (1 - beta1) * g;
      m2[k] = beta2 * m2[k] + (1 - beta2) * g * g;
      theta[k] -= lr * (m1[k] / (1 - pow1)) / (std::sqrt(m2[k] / (1 - pow2)) + eps);
    }
  }

  // Score: per head, the share of sentences whose argmax (lowest index on ties) is named.
  auto score = [&](const ProbeData& data, int sentences, std::vector<double>& per_head,
                   double& all, std::vector<int>* predictions) {
    if (predictions) predictions->assign(static_cast<std::size_t>(sentences) * heads, 0);
    per_head.assign(heads, 0.0);
    int all_right = 0;
    for (int s = 0; s < sentences; ++s) {
      const double* a = &data.x[static_cast<std::size_t>(s) * dv];
      bool every = true;
      forward(a);
      for (int h = 0; h < heads; ++h) {
        const double* z = &logits[static_cast<std::size_t>(h) * n];
        int best = 0;
        for (int k = 1; k < n; ++k) {
          if (z[k] > z[best]) best = k;
        }
        const bool right = best == data.y[static_cast<std::size_t>(s) * heads + h];
        if (predictions) (*predictions)[static_cast<std::size_t>(s) * heads + h] = best;
        per_head[h] += right ? 1 : 0;
        every = every && right;
      }
      all_right += every ? 1 : 0;
    }
    for (double& p : per_head) p /= sentences;
    all = static_cast<double>(all_right) / sentences;
  };
  score(train, n_train, out.train_per_head, out.train_all, nullptr);
  score(test, n_test, out.per_head, out.all, &out.test_predictions);
  return out;
}

}  // namespace attn
