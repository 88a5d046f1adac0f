// The probe on real heads (head_probe.h).
// Deterministic: plain loops in a fixed order, no FMA contraction; the readout is the engine's.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "head_probe.h"

#include "engine/probe.h"

#include <algorithm>
#include <map>

namespace attn {
namespace model {

bool ProbeHead(const Params<float>& p, const ModelConfig& c,
               const std::vector<std::vector<int>>& windows, const HeadProbeConfig& cfg,
               HeadProbeResult* out, std::string* error) {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (cfg.layer < 0 || cfg.layer >= c.layers) return fail("layer: out of range");
  if (cfg.head < 0 || cfg.head >= c.heads) return fail("head: out of range");
  const int nw = static_cast<int>(windows.size());
  if (cfg.train_windows < 1 || cfg.train_windows >= nw) return fail("windows: need training and test windows");
  const int dh = c.d_model / c.heads, classes = c.context;
  std::vector<double> x[2];
  std::vector<int> y[2], t_of[2];
  for (int w = 0; w < nw; ++w) {
    const std::vector<int>& ids = windows[static_cast<std::size_t>(w)];
    Sequence s;
    s.tokens = ids;
    s.targets.assign(ids.size(), -1);
    SequenceActs<float> acts;
    std::string e;
    if (ids.size() < 2 || !Forward(acts, p, c, s, &e)) return fail("window " + std::to_string(w) + ": " + e);
    const HeadTrace<float>& h = acts.blocks[static_cast<std::size_t>(cfg.layer)].attn.heads[static_cast<std::size_t>(cfg.head)];
    const int set = w < cfg.train_windows ? 0 : 1;
    for (int t = 1; t < static_cast<int>(ids.size()); ++t) {
      int best = 0;
      for (int k = 1; k <= t; ++k) {
        if (h.weights(t, k) > h.weights(t, best)) best = k;
      }
      for (int d = 0; d < dh; ++d) x[set].push_back(static_cast<double>(h.output(t, d)));
      y[set].push_back(t - best);  // how far back: 0 = itself, 1 = the previous token, ...
      t_of[set].push_back(t);
    }
  }
  HeadProbeResult r;
  r.train_samples = static_cast<int>(y[0].size());
  r.test_samples = static_cast<int>(y[1].size());
  const ReadoutResult readout = TrainReadout(x[0], y[0], x[1], y[1], dh, classes, 1, cfg.steps);
  r.accuracy = readout.per_head[0];
  r.train_accuracy = readout.train_per_head[0];
  // Baselines: chance and the reader that knows only t.
  std::map<int, std::map<int, int>> counts;  // t -> label -> training count
  for (int k = 0; k < r.train_samples; ++k) ++counts[t_of[0][static_cast<std::size_t>(k)]][y[0][static_cast<std::size_t>(k)]];
  for (int k = 0; k < r.test_samples; ++k) {
    const int t = t_of[1][static_cast<std::size_t>(k)];
    const bool within = t + 1 <= dh + 1;
    int guess = 0, most = -1;
    for (const auto& [label, n] : counts[t]) {
      if (n > most) {
        most = n;
        guess = label;
      }
    }
    const int label = y[1][static_cast<std::size_t>(k)];
    (within ? r.position_within : r.position_beyond) += guess == label ? 1.0 : 0.0;
    if (!readout.test_predictions.empty())
      (within ? r.accuracy_within : r.accuracy_beyond) += readout.test_predictions[static_cast<std::size_t>(k)] == label ? 1.0 : 0.0;
    (within ? r.test_within : r.test_beyond) += 1;
    (within ? r.chance_within : r.chance_beyond) += 1.0 / (t + 1);
  }
  if (r.test_within > 0) {
    r.accuracy_within /= r.test_within;
    r.position_within /= r.test_within;
    r.chance_within /= r.test_within;
  }
  if (r.test_beyond > 0) {
    r.accuracy_beyond /= r.test_beyond;
    r.position_beyond /= r.test_beyond;
    r.chance_beyond /= r.test_beyond;
  }
  *out = r;
  return true;
}

}  // namespace model
}  // namespace attn
