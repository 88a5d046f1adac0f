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

bool GenerationRun::Start(const Params<float>& p, const ModelConfig& c, const std::vector<int>& prompt, int n,
                          int stop, const SamplingConfig& s, bool cached, std::string* error, int threads) {
  *this = GenerationRun{};
  const std::string bad = CheckSampling(s);
  if (!bad.empty()) {
    if (error) *error = bad;
    return false;
  }
  p_ = &p;
  c_ = &c;
  sampling_ = s;
  draw_ = rng::SplitMix64(rng::Mix64(s.seed));
  n_ = n;
  stop_ = stop;
  cached_ = cached;
  threads_ = threads;
  text_ = prompt;
  const int room = std::min(c.context - static_cast<int>(prompt.size()), n);  // positions left after the prompt
  if (cached) {
    if (!Prefill(&cache_, &acts_, p, c, prompt, static_cast<int>(prompt.size()) + std::max(room, 0), error, threads))
      return false;
    logits_ = acts_.logits;
  }
  done_ = n <= 0;
  return true;
}

bool GenerationRun::Step(std::string* error) {
  if (done_) return true;
  const int step = static_cast<int>(out_.tokens.size());
  if (!cached_) {
    Sequence seq;
    seq.tokens = text_;
    seq.targets.assign(text_.size(), -1);
    seq.threads = threads_;
    if (!Forward(acts_, *p_, *c_, seq, error, /*last_only=*/true)) return Fail();
    logits_ = acts_.logits;
  }
  const int next = SampleToken(logits_.data(), logits_.rows(), c_->vocab, sampling_, draw_);
  if (next == stop_) {
    out_.stopped = true;
    done_ = true;
    return true;
  }
  out_.tokens.push_back(next);
  text_.push_back(next);
  if (step + 1 >= n_) {
    done_ = true;
  } else if (static_cast<int>(text_.size()) >= c_->context) {  // no position left for its successor
    out_.full = true;
    done_ = true;
  } else if (cached_ && !DecodeStep(&cache_, &logits_, *p_, *c_, next, error, threads_)) {
    return Fail();
  }
  return true;
}

bool GenerationRun::Fail() {
  done_ = true;
  return false;
}

bool Generate(const Params<float>& p, const ModelConfig& c, const std::vector<int>& prompt, int n, int stop,
              const SamplingConfig& s, bool cached, Generation* out, std::string* error, int threads) {
  GenerationRun run;
  if (!run.Start(p, c, prompt, n, stop, s, cached, error, threads)) return false;
  while (!run.done())
    if (!run.Step(error)) return false;
  *out = run.result();
  return true;
}

}  // namespace model
}  // namespace attn
