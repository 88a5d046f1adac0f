// Sampling the next token (issue 40): temperature, top-k, top-p (nucleus) and a seed, the usual
// order of Hugging Face's generate():
//
//   order the tokens by logit, likeliest first (ties: the lower id first)
//   temperature 0: the first (greedy); else p_i = softmax(logit_i / temperature)
//   top-k > 0: keep the first k;  top-p < 1: keep the shortest prefix whose p sum reaches top-p
//   draw u = Uniform() * (the kept p's sum) from SplitMix64(Mix64(seed)), walk the kept list
//
// In double, each sum in list order: the same token natively and in the page for the same seed.
// Generate runs it step after step, with the key/value cache (kv_cache.h) or, for the tests and the
// benchmark's comparison, a whole forward per step: the same tokens either way.
#pragma once

#include "engine/base/rng.h"
#include "model/arch/kv_cache.h"
#include "model/arch/model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {
namespace model {

struct SamplingConfig {
  double temperature = 1.0;  // 0: greedy
  int top_k = 0;             // 0: every token
  double top_p = 1.0;        // (0, 1]
  std::uint64_t seed = 0;
};
// An English one-line message naming the field, empty when fine.
std::string CheckSampling(const SamplingConfig& s);

// The next token from one row of logits (V).
int SampleToken(const float* logits, Eigen::Index stride, int vocab, const SamplingConfig& s, rng::SplitMix64& draw);

struct Generation {
  std::vector<int> tokens;  // the generated ids (the stop token not included)
  bool stopped = false;     // the stop token came
  bool full = false;        // the context filled up before n tokens
};
// Generation one token at a time, so that the page can draw between the steps (a progress bar,
// the chips as they come, Cancel): Start runs the prompt (cached: its keys and values kept), each
// Step samples one token and, cached, runs that token's position. The tokens are Generate's.
class GenerationRun {
 public:
  bool Start(const Params<float>& p, const ModelConfig& c, const std::vector<int>& prompt, int n, int stop,
             const SamplingConfig& s, bool cached, std::string* error = nullptr, int threads = 1);
  bool Step(std::string* error = nullptr);  // one token (or the stop token, or the context full)
  bool done() const { return done_; }
  const Generation& result() const { return out_; }
  const std::vector<int>& text() const { return text_; }  // the prompt and the tokens so far

 private:
  bool Fail();
  const Params<float>* p_ = nullptr;  // the caller keeps the weights while the run lasts
  const ModelConfig* c_ = nullptr;
  SamplingConfig sampling_;
  rng::SplitMix64 draw_{0};
  int n_ = 0, stop_ = -1, threads_ = 1;
  bool cached_ = true, done_ = true;
  std::vector<int> text_;
  KvCache cache_;
  SequenceActs<float> acts_;
  Mat<float> logits_;  // (1, V) the next token's
  Generation out_;
};

// n tokens after `prompt` (stop: the end-of-text id, or -1). cached: each step one position's
// forward (kv_cache.h); else the whole text's forward each step.
bool Generate(const Params<float>& p, const ModelConfig& c, const std::vector<int>& prompt, int n, int stop,
              const SamplingConfig& s, bool cached, Generation* out, std::string* error = nullptr, int threads = 1);

}  // namespace model
}  // namespace attn
