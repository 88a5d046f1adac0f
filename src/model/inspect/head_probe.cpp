// The probe on real heads (head_probe.h).
// Deterministic: plain loops in a fixed order, no FMA contraction; the readout is the engine's.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/inspect/head_probe.h"

#include "engine/lab/validate.h"
#include "engine/information/probe.h"
#include "model/training/finetune.h"

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
  const LabError chosen = CheckLayerHead(c.layers, c.heads, cfg.layer, cfg.head);
  if (!chosen.ok()) return fail(chosen.message);
  const int nw = static_cast<int>(windows.size());
  if (cfg.train_windows < 1 || cfg.train_windows >= nw) return fail("windows: need training and test windows");
  // one class per position a window holds: how far back the head looked
  std::size_t longest = 0;
  for (const std::vector<int>& w : windows) longest = std::max(longest, w.size());
  const int dh = HeadDim(c), classes = std::min(c.context, static_cast<int>(longest));
  // The head's layer reads only the blocks up to it: the model cut after it gives the same
  // numbers there, every bit, for (layer + 1) / L of the blocks' work.
  Params<float> upto;
  upto.wte = p.wte;
  upto.wpe = p.wpe;  // empty for rotary models
  upto.blocks.assign(p.blocks.begin(), p.blocks.begin() + cfg.layer + 1);
  upto.lnf_w = p.lnf_w;
  upto.lnf_b = p.lnf_b;
  upto.lm_head = p.lm_head;  // an untied output matrix
  upto.stored = p.stored;    // stored weights: block l is still blocks[l] there
  std::vector<double> x[2];
  std::vector<int> y[2], t_of[2];
  for (int w = 0; w < nw; ++w) {
    const std::vector<int>& ids = windows[static_cast<std::size_t>(w)];
    Sequence s;
    s.tokens = ids;
    s.targets.assign(ids.size(), -1);
    SequenceActs<float> acts;
    std::string e;
    // (the head's output is what is read: no logits beyond the last row)
    if (ids.size() < 2 || !Forward(acts, upto, c, s, &e, /*last_only=*/true)) return fail("window " + std::to_string(w) + ": " + e);
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

bool ProbeHeadOnText(const Tokenizer& tokenizer, const Params<float>& p, const ModelConfig& c, std::string_view text,
                     std::string_view field, int layer, int head, TextProbe* out, std::string* error) {
  const LabError chosen = CheckLayerHead(c.layers, c.heads, layer, head);
  if (!chosen.ok()) {
    if (error) *error = chosen.message;
    return false;
  }
  std::vector<int> ids;
  if (!TuneStream(tokenizer, text, field, &ids, error)) return false;
  TextProbe r;
  r.tokens = static_cast<int>(ids.size());
  r.stride = kTextProbeStride;
  r.split = static_cast<int>(static_cast<double>(r.tokens) * kTextProbeTrainShare);
  // The context, at most kTextProbeMaxWindow, and no longer than the test side of the split (a
  // long-context model on a built-in text), but not below kTextProbeMinWindow (or the context).
  const int longest = std::min(c.context, kTextProbeMaxWindow), shortest = std::min(c.context, kTextProbeMinWindow);
  r.window = std::max(shortest, std::min(longest, r.tokens - r.split));
  std::vector<std::vector<int>> windows;
  for (int start = 0; start + r.window <= r.split; start += r.stride, ++r.train_windows)
    windows.emplace_back(ids.begin() + start, ids.begin() + start + r.window);
  for (int start = r.split; start + r.window <= r.tokens; start += r.stride, ++r.test_windows)
    windows.emplace_back(ids.begin() + start, ids.begin() + start + r.window);
  if (r.train_windows < 1 || r.test_windows < 1) {
    int need = r.window;  // the shortest stream with a window on each side of its split
    while (need - static_cast<int>(static_cast<double>(need) * kTextProbeTrainShare) < r.window) ++need;
    if (error)
      *error = std::string(field) + ": expected a text of at least " + std::to_string(need) + " tokens, got " +
               std::to_string(r.tokens) + " tokens (with <|endoftext|>)";
    return false;
  }
  HeadProbeConfig cfg;
  cfg.layer = layer;
  cfg.head = head;
  cfg.train_windows = r.train_windows;
  cfg.steps = kTextProbeSteps;
  if (!ProbeHead(p, c, windows, cfg, &r.result, error)) return false;
  *out = r;
  return true;
}

}  // namespace model
}  // namespace attn
