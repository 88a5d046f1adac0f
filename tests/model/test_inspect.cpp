// Issue 40's tools on small random models of each family (GPT-2-like with every bias, and
// Llama-like with GQA, q/k norm, RoPE and a sliding window): the logit lens's last row is the
// model's own prediction, direct logit attribution's parts sum to the logit (difference) and each
// head's sources to its part, patching nothing gives 0 and every resid_pre[0] row gives 1, and the
// key/value cache's logits are the whole forward's, bit for bit, so generation gives the same
// tokens either way. (Against PyTorch: test_inspect_reference.cpp.)
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "model/arch/kv_cache.h"
#include "model/arch/sampling.h"
#include "model/inspect/attribution.h"
#include "model/inspect/lens.h"
#include "model/inspect/patching.h"

using namespace attn;
using namespace attn::model;

namespace {

struct Family {
  const char* name;
  ModelConfig config;
};

// Small models of both families, with every optional part switched on somewhere; the vectors
// (norm weights, biases) drawn too, so that no part is trivially zero.
std::vector<Family> Families() {
  ModelConfig gpt2;
  gpt2.vocab = 50; gpt2.d_model = 16; gpt2.layers = 2; gpt2.heads = 4; gpt2.context = 24; gpt2.mlp = 32;
  gpt2.attn_bias = true; gpt2.out_bias = true; gpt2.tied = false;
  ModelConfig llama = gpt2;
  llama.attn_bias = false; llama.out_bias = false; llama.tied = true;
  llama.rms_norm = true; llama.rotary = true; llama.swiglu = true; llama.kv_heads = 2; llama.rope_theta = 10000;
  ModelConfig qwen3 = llama;
  qwen3.qk_norm = true; qwen3.head_dim = 8; qwen3.kv_heads = 1; qwen3.sliding_window = 5; qwen3.attn_bias = true;
  return {{"gpt2-like", gpt2}, {"llama-like (GQA 4/2)", llama}, {"qwen3-like (MQA, q/k norm, window 5, head_dim 8, biases)", qwen3}};
}

Params<float> RandomParams(const ModelConfig& c, std::uint64_t seed) {
  Params<float> p = InitParams<float>(c, seed);
  rng::SplitMix64 draw(rng::Mix64(seed + 99));
  for (TensorRef<float>& t : Tensors(p)) {
    for (Eigen::Index i = 0; i < t.size(); ++i) {
      if (t.shape.size() == 1) t.data[i] += static_cast<float>(0.2 * (draw.Uniform() - 0.5));  // norms, biases
      else t.data[i] *= 8.0f;  // larger weights: patterns and predictions that differ
    }
  }
  if (!c.tied) p.lm_head *= 4.0f;
  return p;
}

SequenceActs<float> Run(const Params<float>& p, const ModelConfig& c, const std::vector<int>& ids, bool last_only) {
  Sequence s;
  s.tokens = ids;
  s.targets.assign(ids.size(), -1);
  SequenceActs<float> acts;
  std::string error;
  REQUIRE_MESSAGE(Forward(acts, p, c, s, &error, last_only), error);
  return acts;
}

const std::vector<int> kIds = {3, 17, 5, 29, 11, 2, 40, 8, 33};

}  // namespace

TEST_CASE("logit lens: the last row is the model's own prediction; a chosen target's probability everywhere") {
  for (const Family& f : Families()) {
    INFO(f.name);
    const Params<float> p = RandomParams(f.config, 5);
    const SequenceActs<float> full = Run(p, f.config, kIds, false);
    LogitLens lens;
    std::string error;
    REQUIRE_MESSAGE(ComputeLogitLens(p, f.config, full, -1, &lens, &error), error);
    const int T = static_cast<int>(kIds.size()), L = f.config.layers;
    CHECK(lens.rows == L + 1);
    CHECK(lens.positions == T);
    for (int t = 0; t < T; ++t) {
      int best = 0;
      for (int v = 1; v < f.config.vocab; ++v)
        if (full.probs(t, v) > full.probs(t, best)) best = v;
      CHECK(lens.At(L, t).top.id == best);
      CHECK(lens.targets[static_cast<std::size_t>(t)] == best);
      CHECK(std::abs(lens.At(L, t).top.p - full.probs(t, best)) < 1e-6);
      CHECK(std::abs(lens.At(L, t).target_p - lens.At(L, t).top.p) < 1e-12);
    }
    // the top 5 at the last position: ordered, and the first is the cell's top
    for (int k = 0; k <= L; ++k) {
      const auto& top = lens.last_top5[static_cast<std::size_t>(k)];
      REQUIRE(top.size() == 5);
      CHECK(top[0].id == lens.At(k, T - 1).top.id);
      for (std::size_t i = 1; i < 5; ++i) CHECK(top[i].p <= top[i - 1].p);
    }
    // row 0 is the embeddings through the final norm: not the last row (the blocks change it)
    bool differs = false;
    for (int t = 0; t < T; ++t) differs = differs || lens.At(0, t).top.id != lens.At(L, t).top.id;
    CHECK(differs);
    LogitLens chosen;
    REQUIRE(ComputeLogitLens(p, f.config, full, 7, &chosen, &error));
    CHECK(chosen.chosen_target);
    CHECK(std::abs(chosen.At(L, 3).target_p - full.probs(3, 7)) < 1e-6);
    CHECK_FALSE(ComputeLogitLens(p, f.config, full, f.config.vocab, &chosen, &error));
    CHECK(error == "target: expected a token id from 0 to 49, got 50");
  }
}

TEST_CASE("attribution: the parts sum to the logit and to the logit difference; each head's sources to its part") {
  for (const Family& f : Families()) {
    INFO(f.name);
    const Params<float> p = RandomParams(f.config, 6);
    const SequenceActs<float> acts = Run(p, f.config, kIds, true);
    for (const int foil : {-1, 12}) {
      Attribution a;
      std::string error;
      REQUIRE_MESSAGE(ComputeAttribution(p, f.config, kIds, acts, -1, foil, &a, &error), error);
      INFO("foil " << foil);
      CHECK(std::abs(a.sum - a.logit) < 1e-4 * std::max(1.0, std::abs(a.logit)));
      CHECK(a.heads.size() == static_cast<std::size_t>(f.config.layers * f.config.heads));
      double largest_head = 0;
      for (const HeadSources& h : a.heads) {
        double part = 0;
        for (const AttributionPart& q : a.parts)
          if (q.kind == AttributionPart::kHead && q.layer == h.layer && q.head == h.head) part = q.value;
        double sources = 0, weights = 0;
        for (std::size_t j = 0; j < h.attribution.size(); ++j) {
          sources += h.attribution[j];
          weights += h.weight[j];
          CHECK(h.contribution[j] >= 0);
        }
        CHECK(std::abs(sources - part) < 1e-5 * std::max(1.0, std::abs(part)));
        CHECK(std::abs(weights - 1) < 1e-5);
        largest_head = std::max(largest_head, std::abs(part));
      }
      CHECK(largest_head > 1e-3);  // the heads do take part
    }
    Attribution a;
    std::string error;
    CHECK_FALSE(ComputeAttribution(p, f.config, kIds, acts, 4, 4, &a, &error));
    CHECK(error == "foil: the foil must differ from the target (4)");
  }
}

TEST_CASE("patching: nothing patched is 0, every resid_pre[0] row patched is 1; every kind fills its grid; lengths named") {
  for (const Family& f : Families()) {
    INFO(f.name);
    const Params<float> p = RandomParams(f.config, 7);
    PatchSpec spec;
    spec.clean = kIds;
    spec.corrupted = kIds;
    spec.corrupted[1] = 44;
    spec.corrupted[4] = 21;
    for (PatchWhat what : {PatchWhat::kResid, PatchWhat::kAttn, PatchWhat::kMlp, PatchWhat::kHead, PatchWhat::kPattern}) {
      spec.what = what;
      PatchRun run;
      std::string error;
      REQUIRE_MESSAGE(run.Start(p, f.config, spec, &error), error);
      INFO(PatchWhatName(what));
      double ld = 0;
      REQUIRE(run.PatchedDifference({}, &ld, &error));
      CHECK((ld - run.ld_corrupted()) / (run.ld_clean() - run.ld_corrupted()) == doctest::Approx(0.0).epsilon(1e-9));
      while (!run.done()) REQUIRE_MESSAGE(run.Step(3, &error), error);
      CHECK(run.finished() == run.total());
      for (double m : run.metric()) CHECK(std::isfinite(m));
      if (what == PatchWhat::kResid) {
        std::vector<std::pair<int, int>> all;
        for (int t = 0; t < static_cast<int>(kIds.size()); ++t) all.emplace_back(0, t);
        REQUIRE(run.PatchedDifference(all, &ld, &error));
        CHECK((ld - run.ld_corrupted()) / (run.ld_clean() - run.ld_corrupted()) == doctest::Approx(1.0).epsilon(1e-6));
        // positions where the prompts agree, before the first change, restore nothing at layer 0
        CHECK(run.metric()[0] == doctest::Approx(0.0).epsilon(1e-9));
      }
    }
    PatchRun run;
    std::string error;
    spec.corrupted.pop_back();
    CHECK_FALSE(run.Start(p, f.config, spec, &error));
    CHECK(error == "the clean and the corrupted prompts must have the same length in tokens (clean 9, corrupted 8)");
  }
}

TEST_CASE("kv cache: each step's logits are the whole text's last row, bit for bit; generation the same tokens, greedy and sampled") {
  for (const Family& f : Families()) {
    INFO(f.name);
    const Params<float> p = RandomParams(f.config, 8);
    const std::vector<int> prompt(kIds.begin(), kIds.begin() + 4);
    KvCache cache;
    SequenceActs<float> acts;
    std::string error;
    REQUIRE_MESSAGE(Prefill(&cache, &acts, p, f.config, prompt, 12, &error), error);
    std::vector<int> text = prompt;
    for (int step = 0; step < 8; ++step) {  // past the qwen3-like window of 5
      const int token = kIds[static_cast<std::size_t>((step + 4) % kIds.size())];
      Mat<float> logits;
      REQUIRE_MESSAGE(DecodeStep(&cache, &logits, p, f.config, token, &error), error);
      text.push_back(token);
      const SequenceActs<float> whole = Run(p, f.config, text, true);
      REQUIRE(logits.size() == whole.logits.size());
      CHECK_MESSAGE(std::memcmp(logits.data(), whole.logits.data(), sizeof(float) * static_cast<std::size_t>(logits.size())) == 0,
                    "step " << step << ": the cached logits differ from the whole forward's");
    }
    Mat<float> logits;
    CHECK_FALSE(DecodeStep(&cache, &logits, p, f.config, 1, &error));
    CHECK(error == "the cache is full (12 positions)");
    for (const SamplingConfig s : {SamplingConfig{0, 0, 1, 0}, SamplingConfig{1.0, 0, 1, 3}, SamplingConfig{0.8, 10, 0.9, 4}}) {
      Generation cached, whole;
      REQUIRE(Generate(p, f.config, prompt, 12, -1, s, true, &cached, &error));
      REQUIRE(Generate(p, f.config, prompt, 12, -1, s, false, &whole, &error));
      CHECK(cached.tokens == whole.tokens);
      CHECK(cached.tokens.size() == 12);
    }
  }
}

TEST_CASE("sampling: temperature 0 is the argmax, top-k 1 too, a seed gives the same draw, bad settings named") {
  const std::vector<float> logits = {0.5f, 2.0f, 1.0f, 2.0f, -1.0f};
  rng::SplitMix64 draw(1);
  CHECK(SampleToken(logits.data(), 1, 5, {0, 0, 1, 0}, draw) == 1);  // the tie: the lower id
  CHECK(SampleToken(logits.data(), 1, 5, {1.0, 1, 1, 0}, draw) == 1);
  // top-p 0.5: the two tied likeliest hold about 0.62: only they can come
  int counts[5] = {};
  rng::SplitMix64 d2(7);
  for (int i = 0; i < 2000; ++i) ++counts[SampleToken(logits.data(), 1, 5, {1.0, 0, 0.5, 0}, d2)];
  CHECK(counts[0] == 0);
  CHECK(counts[2] == 0);
  CHECK(counts[4] == 0);
  CHECK(counts[1] > 800);
  CHECK(counts[3] > 800);
  // every token can come at temperature 1, and the frequencies follow softmax
  int all[5] = {};
  rng::SplitMix64 d3(9);
  for (int i = 0; i < 20000; ++i) ++all[SampleToken(logits.data(), 1, 5, {1.0, 0, 1, 0}, d3)];
  double z = 0;
  for (float l : logits) z += std::exp(static_cast<double>(l));
  for (int v = 0; v < 5; ++v) CHECK(std::abs(all[v] / 20000.0 - std::exp(static_cast<double>(logits[static_cast<std::size_t>(v)])) / z) < 0.015);
  CHECK(CheckSampling({-1, 0, 1, 0}) == "temperature: expected a number from 0 to 100");
  CHECK(CheckSampling({1, -2, 1, 0}) == "topK: expected 0 (every token) or more");
  CHECK(CheckSampling({1, 0, 0, 0}) == "topP: expected a number in (0, 1]");
}
