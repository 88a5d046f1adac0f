// Issue 40's fast paths give the plain definitions' bits, on small random models of each family
// (as test_inspect.cpp's: GPT-2-like with every bias and an untied output, Llama-like with GQA,
// Qwen3-like with MQA, q/k norm and a sliding window), their weights in float and stored (F16,
// BF16), and in the gpt2 and llama suites on the fixture checkpoints:
//   - patching from the first patched layer (model.h ForwardFrom, the layers below are the
//     corrupted run's; a step's runs in lockstep) = the corrupted prompt's whole forward with the
//     same patch, every kind;
//   - the cached step's row products (row_product.h, one product per key/value head) = the last
//     row of the whole text's forward, on one and two threads;
//   - the logit lens's stacked product and column-wise softmax summaries = each layer's own
//     product and a row-by-row summary, including a vocabulary large enough to split the layers
//     into groups.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint_reference.h"
#include "quick.h"
#include "engine/attention/hooks.h"
#include "engine/base/rng.h"
#include "model/arch/kv_cache.h"
#include "model/format/fp16.h"
#include "model/format/hf_checkpoint.h"
#include "model/inspect/lens.h"
#include "model/inspect/patching.h"

using namespace attn;
using namespace attn::model;

// A namespace of its own, test cases too: the model tests are built as unity files, beside
// test_inspect.cpp's helpers of the same names.
namespace inspect_fast {

struct Family {
  const char* name;
  ModelConfig config;
};

std::vector<Family> Families() {
  ModelConfig gpt2;
  gpt2.vocab = 50; gpt2.d_model = 16; gpt2.layers = 3; gpt2.heads = 4; gpt2.context = 24; gpt2.mlp = 32;
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

StoredMatrix StoreAs(StoredType type, const Mat<float>& m) {
  StoredMatrix s(type, m.rows(), m.cols());
  for (Eigen::Index c = 0; c < m.cols(); ++c) {
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      const float f = m(r, c);
      std::uint32_t bits;
      std::memcpy(&bits, &f, 4);
      const std::uint32_t v = type == StoredType::kF32 ? bits : type == StoredType::kF16 ? FloatToHalf(f) : bits >> 16;
      const unsigned char bytes[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                                      static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
      s.SetRaw(r, c, bytes);
    }
  }
  return s;
}

// p's big matrices at a file's precision, as a checkpoint's loader keeps them (stored.h): one W_K
// and W_V per key/value head (the group's first query head's), the Params' own matrices empty.
Params<float> Stored(const Params<float>& p, const ModelConfig& c, StoredType type) {
  auto w = std::make_shared<StoredWeights>();
  w->wte = StoreAs(type, p.wte);
  if (!c.tied) w->lm_head = StoreAs(type, p.lm_head);
  const std::size_t group = static_cast<std::size_t>(c.heads / KvHeads(c));
  Params<float> out = p;
  for (BlockParams<float>& b : out.blocks) {
    StoredBlock s;
    for (std::size_t h = 0; h < b.attn.W_Q.size(); ++h) {
      s.wq.push_back(StoreAs(type, b.attn.W_Q[h]));
      if (h % group == 0) {
        s.wk.push_back(StoreAs(type, b.attn.W_K[h]));
        s.wv.push_back(StoreAs(type, b.attn.W_V[h]));
      }
    }
    s.wo = StoreAs(type, b.attn.W_O);
    if (c.swiglu) s.gate_w = StoreAs(type, b.gate_w);
    s.fc_w = StoreAs(type, b.fc_w);
    s.proj_w = StoreAs(type, b.proj_w);
    w->blocks.push_back(std::move(s));
    b.attn.W_Q.clear();
    b.attn.W_K.clear();
    b.attn.W_V.clear();
    b.attn.W_O.resize(0, 0);
    b.gate_w.resize(0, 0);
    b.fc_w.resize(0, 0);
    b.proj_w.resize(0, 0);
  }
  out.wte.resize(0, 0);
  out.lm_head.resize(0, 0);
  out.stored = w;
  return out;
}

// Each family's weights in float, and stored in F16 and in BF16 (under the sanitizers, quick.h:
// F16 only, the stored path with the most code).
struct Weights {
  std::string name;
  Params<float> params;
};
std::vector<Weights> Variants(const Params<float>& p, const ModelConfig& c) {
  if (testing_quick::Quick()) return {{"F16", Stored(p, c, StoredType::kF16)}};
  return {{"float", p}, {"F16", Stored(p, c, StoredType::kF16)}, {"BF16", Stored(p, c, StoredType::kBF16)}};
}

SequenceActs<float> Run(const Params<float>& p, const ModelConfig& c, const std::vector<int>& ids, bool last_only,
                        const Hooks<float>* hooks = nullptr, int threads = 1) {
  Sequence s;
  s.tokens = ids;
  s.targets.assign(ids.size(), -1);
  s.threads = threads;
  SequenceActs<float> acts;
  std::string error;
  REQUIRE_MESSAGE(Forward(acts, p, c, s, &error, last_only, hooks), error);
  return acts;
}

bool SameBits(const Mat<float>& a, const Mat<float>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

// The patch of one cell as its definition says (patching.h), a hook on the corrupted run.
void AddPatch(Hooks<float>* hooks, const SequenceActs<float>& clean, PatchWhat what, int layer, int col) {
  const BlockActs<float>& b = clean.blocks[static_cast<std::size_t>(layer)];
  if (what == PatchWhat::kHead || what == PatchWhat::kPattern) {
    const HeadTrace<float>& h = b.attn.heads[static_cast<std::size_t>(col)];
    const Mat<float> from = what == PatchWhat::kHead ? h.output : h.weights;
    hooks->Add(what == PatchWhat::kHead ? HookPoint::kZ : HookPoint::kPattern, layer, col,
               [from](const HookSite&, Mat<float>& act, std::string*) {
                 act = from;
                 return true;
               });
    return;
  }
  const Mat<float> from = what == PatchWhat::kResid ? b.x : what == PatchWhat::kAttn ? b.attn.output : b.proj;
  const HookPoint point = what == PatchWhat::kResid ? HookPoint::kResidPre : what == PatchWhat::kAttn ? HookPoint::kAttnOut : HookPoint::kMlpOut;
  hooks->Add(point, layer, -1, [from, col](const HookSite&, Mat<float>& act, std::string*) {
    act.row(col) = from.row(col);
    return true;
  });
}

// Every cell of every kind, and two cells at once in different layers: PatchRun's difference and
// metric are the whole patched forward's, bit for bit.
void CheckPatching(const Params<float>& p, const ModelConfig& c, const std::vector<int>& clean_ids,
                   const std::vector<int>& corrupted_ids, int threads) {
  for (PatchWhat what : {PatchWhat::kResid, PatchWhat::kAttn, PatchWhat::kMlp, PatchWhat::kHead, PatchWhat::kPattern}) {
    CAPTURE(PatchWhatName(what));
    PatchSpec spec;
    spec.clean = clean_ids;
    spec.corrupted = corrupted_ids;
    spec.what = what;
    PatchRun run;
    std::string error;
    REQUIRE_MESSAGE(run.Start(p, c, spec, &error, threads), error);
    while (!run.done()) REQUIRE_MESSAGE(run.Step(5, &error), error);
    const SequenceActs<float> clean = Run(p, c, clean_ids, true);
    const int target = run.spec().target, foil = run.spec().foil;
    auto whole = [&](const std::vector<std::pair<int, int>>& cells) {
      Hooks<float> hooks;
      for (const auto& [layer, col] : cells) AddPatch(&hooks, clean, what, layer, col);
      const SequenceActs<float> a = Run(p, c, corrupted_ids, true, &hooks, threads);
      return static_cast<double>(a.logits(0, target)) - static_cast<double>(a.logits(0, foil));
    };
    int differ = 0, moved = 0;
    for (int r = 0; r < run.rows(); ++r) {
      for (int col = 0; col < run.cols(); ++col) {
        const double ld = whole({{r, col}});
        double fast = 0;
        REQUIRE(run.PatchedDifference({{r, col}}, &fast, &error));
        differ += fast != ld;
        differ += run.metric()[static_cast<std::size_t>(r * run.cols() + col)] !=
                  (ld - run.ld_corrupted()) / (run.ld_clean() - run.ld_corrupted());
        moved += ld != run.ld_corrupted();
      }
    }
    CHECK_MESSAGE(differ == 0, differ << " cells differ from the whole forward's");
    CHECK(moved > 0);  // the patches do change the run
    const std::vector<std::pair<int, int>> two = {{c.layers - 1, 1}, {std::min(1, c.layers - 1), 0}};  // from layer 1
    double fast = 0;
    REQUIRE(run.PatchedDifference(two, &fast, &error));
    CHECK(fast == whole(two));
  }
}

// Prefill `prompt`, then one step per further token of `text`: each step's logits are the whole
// text's last row, bit for bit.
void CheckCache(const Params<float>& p, const ModelConfig& c, const std::vector<int>& text, int prompt, int threads) {
  KvCache cache;
  SequenceActs<float> acts;
  std::string error;
  const std::vector<int> first(text.begin(), text.begin() + prompt);
  REQUIRE_MESSAGE(Prefill(&cache, &acts, p, c, first, static_cast<int>(text.size()), &error, threads), error);
  CHECK(SameBits(acts.logits, Run(p, c, first, true).logits));
  for (std::size_t n = static_cast<std::size_t>(prompt); n < text.size(); ++n) {
    Mat<float> logits;
    REQUIRE_MESSAGE(DecodeStep(&cache, &logits, p, c, text[n], &error, threads), error);
    const std::vector<int> upto(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(n) + 1);
    CHECK_MESSAGE(SameBits(logits, Run(p, c, upto, true).logits), "position " << n << ": the cached logits differ");
  }
}

// The lens as its definition says, one layer at a time and one row after another (the code
// before the stacked product): each value must come out the same.
void CheckLens(const Params<float>& p, const ModelConfig& c, const SequenceActs<float>& acts, int target, int threads) {
  LogitLens fast;
  std::string error;
  REQUIRE_MESSAGE(ComputeLogitLens(p, c, acts, target, &fast, &error, threads), error);
  const int L = c.layers, T = static_cast<int>(acts.emb.rows());
  std::vector<int> targets(static_cast<std::size_t>(T), target);
  int differ = 0;
  for (int k = L; k >= 0; --k) {
    Mat<float> normed, logits;
    FinalNormRows(normed, k == 0 ? acts.emb : acts.blocks[static_cast<std::size_t>(k - 1)].res2, p, c);
    UnembedRows(logits, normed, p, c, 1);
    for (int t = 0; t < T; ++t) {
      double m = -INFINITY;
      for (int v = 0; v < c.vocab; ++v) m = std::max(m, static_cast<double>(logits(t, v)));
      double sum = 0;
      for (int v = 0; v < c.vocab; ++v) sum += std::exp(static_cast<double>(logits(t, v)) - m);
      std::vector<int> order(static_cast<std::size_t>(c.vocab));
      for (int v = 0; v < c.vocab; ++v) order[static_cast<std::size_t>(v)] = v;
      std::partial_sort(order.begin(), order.begin() + 5, order.end(), [&](int a, int b) {  // ties: the lower id first
        return logits(t, a) > logits(t, b) || (logits(t, a) == logits(t, b) && a < b);
      });
      auto prob = [&](int v) { return std::exp(static_cast<double>(logits(t, v)) - m) / sum; };
      if (k == L && target < 0) targets[static_cast<std::size_t>(t)] = order[0];
      const LensCell& cell = fast.At(k, t);
      differ += cell.top.id != order[0] || cell.top.p != prob(order[0]);
      differ += cell.target_p != prob(targets[static_cast<std::size_t>(t)]);
      if (t == T - 1) {
        const std::vector<LensToken>& top = fast.last_top5[static_cast<std::size_t>(k)];
        for (std::size_t i = 0; i < 5; ++i) differ += top[i].id != order[i] || top[i].p != prob(order[i]);
      }
    }
  }
  CHECK(fast.targets == targets);
  CHECK_MESSAGE(differ == 0, differ << " lens values differ from the layer-by-layer definition");
}

const std::vector<int> kClean = {3, 17, 5, 29, 11, 2, 40, 8, 33};
const std::vector<int> kText = {3, 17, 5, 29, 11, 2, 40, 8, 33, 6, 14, 21};  // past the window of 5

TEST_CASE("patching from the first patched layer gives the whole patched forward's bits, every kind, float and stored weights") {
  std::vector<int> corrupted = kClean;
  corrupted[1] = 44;
  corrupted[4] = 21;
  for (const Family& f : Families()) {
    const Params<float> p = RandomParams(f.config, 7);
    for (const Weights& w : Variants(p, f.config)) {
      CAPTURE(f.name);
      CAPTURE(w.name);
      CheckPatching(w.params, f.config, kClean, corrupted, w.name == "F16" ? 2 : 1);
    }
  }
  // a block outside the model, and an input of the wrong shape, are refused
  const ModelConfig c = Families()[0].config;
  const Params<float> p = RandomParams(c, 7);
  SequenceActs<float> acts = Run(p, c, kClean, true);
  Sequence s;
  s.tokens = kClean;
  s.targets.assign(kClean.size(), -1);
  std::string error;
  CHECK_FALSE(ForwardFrom(acts, 3, p, c, s, &error, true));
  CHECK(error == "the forward must start at a block of the model (0 to 2)");
  acts.blocks[1].x.conservativeResize(4, c.d_model);
  CHECK_FALSE(ForwardFrom(acts, 1, p, c, s, &error, true));
  CHECK(error == "the block's input must have one row per token and d_model columns");
}

TEST_CASE("kv cache: the row products' steps give the whole forward's last row bit for bit, float and stored weights, 1 and 2 threads") {
  for (const Family& f : Families()) {
    const Params<float> p = RandomParams(f.config, 8);
    for (const Weights& w : Variants(p, f.config)) {
      for (const int threads : {1, 2}) {
        CAPTURE(f.name);
        CAPTURE(w.name);
        CAPTURE(threads);
        CheckCache(w.params, f.config, kText, 3, threads);
      }
    }
  }
}

TEST_CASE("logit lens: the stacked product gives each layer's own logits and probabilities, whole groups or not") {
  for (const Family& f : Families()) {
    const Params<float> p = RandomParams(f.config, 5);
    for (const Weights& w : Variants(p, f.config)) {
      CAPTURE(f.name);
      CAPTURE(w.name);
      const SequenceActs<float> acts = Run(w.params, f.config, kClean, true);
      CheckLens(w.params, f.config, acts, -1, 2);
      CheckLens(w.params, f.config, acts, 7, 1);
    }
  }
  // a vocabulary of 200 000 and 10 layers: the 11 lens rows of 9 positions are more logits than
  // one group holds (lens.cpp), so they come in two groups
  ModelConfig big;
  big.vocab = 200000; big.d_model = 8; big.layers = 10; big.heads = 2; big.context = 16; big.mlp = 16;
  const Params<float> p = RandomParams(big, 11);
  const Params<float> stored = Stored(p, big, StoredType::kF16);
  CheckLens(stored, big, Run(stored, big, kClean, true), -1, 2);
}

TEST_SUITE("gpt2") {
TEST_CASE("gpt2 checkpoints: patching from the first patched layer, the cached steps and the lens give the plain paths' bits") {
  const std::string dir = checkpoint_reference::FixtureFolder("ATTNLAB_GPT2_FIXTURES", "/usr/bin/python3 scripts/gpt2_fixture.py --out DIR");
  for (const char* name : {"f16-vocab", "bf16-sharded-tokjson-pairs", "f32-sharded-lmhead"}) {
    CAPTURE(name);
    HfCheckpoint ck;
    std::string error;
    REQUIRE_MESSAGE(ReadHfFolder(dir + "/" + name, &ck, &error), error);
    std::vector<int> corrupted = kClean;
    corrupted[2] = 900;
    CheckPatching(ck.params, ck.config, kClean, corrupted, 2);
    CheckCache(ck.params, ck.config, kText, 4, 2);
    CheckLens(ck.params, ck.config, Run(ck.params, ck.config, kClean, true), -1, 2);
  }
}
}  // TEST_SUITE

TEST_SUITE("llama") {
TEST_CASE("llama checkpoints: patching from the first patched layer, the cached steps and the lens give the plain paths' bits") {
  const std::string dir = checkpoint_reference::FixtureFolder("ATTNLAB_LLAMA_FIXTURES", "/usr/bin/python3 scripts/llama_fixture.py --out DIR");
  for (const char* name : {"llama-f16-sharded", "llama-mqa", "mistral", "qwen2", "qwen3"}) {
    CAPTURE(name);
    HfCheckpoint ck;
    std::string error;
    REQUIRE_MESSAGE(ReadHfFolder(dir + "/" + name, &ck, &error), error);
    std::vector<int> corrupted = kClean;
    corrupted[2] = 900;
    CheckPatching(ck.params, ck.config, kClean, corrupted, 2);
    CheckCache(ck.params, ck.config, kText, 4, 2);
    CheckLens(ck.params, ck.config, Run(ck.params, ck.config, kClean, true), -1, 2);
  }
}
}  // TEST_SUITE

}  // namespace inspect_fast
