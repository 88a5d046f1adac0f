// Sampling and generation (sampling.h).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/arch/sampling.h"

#include "model/arch/kv_cache.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn {
namespace model {

std::string CheckSampling(const SamplingConfig& s) {
  if (!(s.temperature >= 0 && s.temperature <= 100)) return "temperature: expected a number from 0 to 100";
  if (s.top_k < 0) return "topK: expected 0 (every token) or more";
  if (!(s.top_p > 0 && s.top_p <= 1)) return "topP: expected a number in (0, 1]";
  return "";
}

int SampleToken(const float* logits, Eigen::Index stride, int vocab, const SamplingConfig& s, rng::SplitMix64& draw) {
  auto logit = [&](int id) { return static_cast<double>(logits[id * stride]); };
  std::vector<int> order(static_cast<std::size_t>(vocab));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logit(a) > logit(b); });
  if (s.temperature == 0) return order[0];
  std::size_t keep = s.top_k > 0 ? std::min<std::size_t>(static_cast<std::size_t>(s.top_k), order.size()) : order.size();
  const double m = logit(order[0]);
  std::vector<double> p(keep);
  double sum = 0;  // over every token: top-p reads the full distribution's probabilities
  for (int id : order) sum += std::exp((logit(id) - m) / s.temperature);
  for (std::size_t i = 0; i < keep; ++i) p[i] = std::exp((logit(order[i]) - m) / s.temperature) / sum;
  if (s.top_p < 1) {
    double run = 0;
    for (std::size_t i = 0; i < keep; ++i) {
      run += p[i];
      if (run >= s.top_p) {
        keep = i + 1;
        break;
      }
    }
  }
  double total = 0;
  for (std::size_t i = 0; i < keep; ++i) total += p[i];
  double u = draw.Uniform() * total;
  for (std::size_t i = 0; i < keep; ++i) {
    u -= p[i];
    if (u < 0) return order[i];
  }
  return order[keep - 1];
}

bool Generate(const Params<float>& p, const ModelConfig& c, const std::vector<int>& prompt, int n, int stop,
              const SamplingConfig& s, bool cached, Generation* out, std::string* error, int threads) {
  const std::string bad = CheckSampling(s);
  if (!bad.empty()) {
    if (error) *error = bad;
    return false;
  }
  Generation g;
  rng::SplitMix64 draw(rng::Mix64(s.seed));
  const int room = std::min(c.context - static_cast<int>(prompt.size()), n);  // positions left after the prompt
  KvCache cache;
  SequenceActs<float> acts;
  Mat<float> logits;  // (1, V) each step
  std::vector<int> text = prompt;
  if (cached) {
    if (!Prefill(&cache, &acts, p, c, prompt, static_cast<int>(prompt.size()) + std::max(room, 0), error, threads)) return false;
    logits = acts.logits;
  }
  for (int step = 0; step < n; ++step) {
    if (!cached) {
      Sequence seq;
      seq.tokens = text;
      seq.targets.assign(text.size(), -1);
      seq.threads = threads;
      if (!Forward(acts, p, c, seq, error, /*last_only=*/true)) return false;
      logits = acts.logits;
    }
    const int next = SampleToken(logits.data(), logits.rows(), c.vocab, s, draw);
    if (next == stop) {
      g.stopped = true;
      break;
    }
    g.tokens.push_back(next);
    text.push_back(next);
    if (static_cast<int>(text.size()) >= c.context && step + 1 < n) {  // no position left for its successor
      g.full = true;
      break;
    }
    if (step + 1 < n && cached && !DecodeStep(&cache, &logits, p, c, next, error, threads)) return false;
  }
  *out = std::move(g);
  return true;
}

}  // namespace model
}  // namespace attn
