// What `attnlab model train` relies on: the thread count does not change a bit, a checkpoint
// continues to the same bits as an uninterrupted run, the n-gram baselines against counts done
// by hand, the head scores on a model whose attention is known, and the shipped folder's
// checks (a changed, truncated or mismatched file is refused with a message).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/base/rng.h"
#include "model/format/bundle.h"
#include "model/training/checkpoint.h"
#include "model/corpus/evaluate.h"
#include "model/inspect/heads.h"
#include "model/format/model_file.h"
#include "model/format/safetensors.h"
#include "model/training/train.h"

using namespace attn;
using namespace attn::model;

namespace {

std::vector<int> Stream(int n, int vocab, std::uint64_t seed) {
  rng::SplitMix64 s(seed);
  std::vector<int> out;
  // A pattern with structure (a period-5 cycle with some noise), so the loss can fall.
  for (int i = 0; i < n; ++i) out.push_back(s.Next() % 4 == 0 ? static_cast<int>(s.Next() % vocab) : (i % 5) % vocab);
  return out;
}

TrainConfig SmallConfig(int threads) {
  TrainConfig t;
  t.model = {11, 16, 2, 2, 12, 24};
  t.schedule = {3e-3, 3e-4, 5, 40};
  t.batch = 5;
  t.length = 12;
  t.threads = threads;
  t.seed = 3;
  return t;
}

bool SameParams(const Params<float>& a, const Params<float>& b) {
  Params<float> x = a, y = b;
  std::vector<TensorRef<float>> ta = Tensors(x), tb = Tensors(y);
  for (std::size_t k = 0; k < ta.size(); ++k) {
    if (std::memcmp(ta[k].data, tb[k].data, sizeof(float) * static_cast<std::size_t>(ta[k].size())) != 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("model training: one thread and two give the same bits, step after step (with and without dropout)") {
  const std::vector<int> stream = Stream(400, 11, 5);
  for (const double dropout : {0.0, 0.2}) {
    CAPTURE(dropout);
    TrainConfig c1 = SmallConfig(1), c2 = SmallConfig(2);
    c1.dropout = c2.dropout = dropout;
    Trainer<float> one, two;
    REQUIRE(one.Reset(c1, stream));
    REQUIRE(two.Reset(c2, stream));
    std::vector<double> losses;
    for (int k = 0; k < 15; ++k) {
      StepMetrics a, b;
      REQUIRE(one.Step(&a));
      REQUIRE(two.Step(&b));
      CHECK(a.loss == b.loss);  // exact
      CHECK(a.grad_norm == b.grad_norm);
      losses.push_back(a.loss);
    }
    CHECK(SameParams(one.params(), two.params()));
    if (dropout > 0) {  // and dropout does change the run (the masks are on)
      Trainer<float> none;
      REQUIRE(none.Reset(SmallConfig(1), stream));
      StepMetrics m;
      REQUIRE(none.Step(&m));
      CHECK(m.loss != losses[0]);
    }
  }
}

TEST_CASE("model training: a checkpoint continues to the same bits as an uninterrupted run") {
  const std::vector<int> stream = Stream(400, 11, 6);
  const TrainConfig cfg = SmallConfig(2);
  Trainer<float> whole, first, resumed;
  REQUIRE(whole.Reset(cfg, stream));
  REQUIRE(first.Reset(cfg, stream));
  for (int k = 0; k < 25; ++k) REQUIRE(whole.Step(nullptr));
  for (int k = 0; k < 10; ++k) REQUIRE(first.Step(nullptr));
  const std::string path = (std::filesystem::temp_directory_path() / "attnlab-test-checkpoint.bin").string();
  std::string error;
  REQUIRE_MESSAGE(WriteCheckpoint(path, 42, first, &error), error);
  REQUIRE(resumed.Reset(cfg, stream));
  CHECK_FALSE(ReadCheckpoint(path, 43, &resumed, cfg.adamw, &error));  // another configuration
  CHECK(error.find("another configuration") != std::string::npos);
  REQUIRE_MESSAGE(ReadCheckpoint(path, 42, &resumed, cfg.adamw, &error), error);
  CHECK(resumed.step() == 10);
  for (int k = 10; k < 25; ++k) REQUIRE(resumed.Step(nullptr));
  CHECK(SameParams(whole.params(), resumed.params()));
  // Truncated: refused, not read.
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 3);
  Trainer<float> broken;
  REQUIRE(broken.Reset(cfg, stream));
  CHECK_FALSE(ReadCheckpoint(path, 42, &broken, cfg.adamw, &error));
  CHECK(error.find("truncated") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("model evaluation: unigram and Witten-Bell bigram against counts done by hand") {
  // Training stream 0 1 2 1 2 (V = 3): n(0)=1, n(1)=2, n(2)=2, N = 5.
  // Pairs: 01 12 21 12 -> n(1 .)=2 with one distinct follower (2); n(2 .)=1 (follower 1).
  NgramBaseline b;
  b.Fit({0, 1, 2, 1, 2}, 3);
  TokenStream s;
  s.ids = {0, 1, 2, 0};  // targets 1, 2, 0
  s.chars = 3;
  const Score uni = b.Unigram(s), bi = b.Bigram(s);
  const double pu0 = 2.0 / 8, pu1 = 3.0 / 8, pu2 = 3.0 / 8;  // (n + 1) / (N + V)
  CHECK(uni.nats == doctest::Approx(-std::log(pu1) - std::log(pu2) - std::log(pu0)).epsilon(1e-15));
  // p(1|0) = (1 + 1 * pu1) / (1 + 1); p(2|1) = (2 + 1 * pu2) / (2 + 1); p(0|2) = (0 + 1 * pu0) / (1 + 1)
  const double want = -std::log((1 + pu1) / 2) - std::log((2 + pu2) / 3) - std::log(pu0 / 2);
  CHECK(bi.nats == doctest::Approx(want).epsilon(1e-15));
  CHECK(bi.targets == 3);
  CHECK(bi.BitsPerChar() == doctest::Approx(want / std::log(2.0) / 3).epsilon(1e-15));
}

TEST_CASE("model evaluation: the sliding windows score every target once, in any thread count") {
  const ModelConfig c{11, 16, 2, 2, 8, 24};
  const Params<float> p = InitParams<float>(c, 9);
  TokenStream s;
  s.ids = Stream(50, 11, 8);  // 49 targets: windows of 8, the last one short
  s.chars = 100;
  Score one, two, prefix;
  REQUIRE(ScoreModel(p, c, s, 1, &one));
  REQUIRE(ScoreModel(p, c, s, 2, &two));
  CHECK(one.nats == two.nats);
  CHECK(one.targets == 49);
  // By hand: windows of 8 with stride 4; the first scores its 8 targets, the others their last
  // 4 (targets 9..12, 13..16, ...; the last window holds what is left).
  double want = 0;
  int scored = 0;
  for (int begin = 0, k = 0; (k == 0 ? 0 : begin + 4) < 49; begin += 4, ++k) {
    const int len = std::min(8, 49 - begin);
    Sequence q;
    q.tokens.assign(s.ids.begin() + begin, s.ids.begin() + begin + len);
    q.targets.assign(s.ids.begin() + begin + 1, s.ids.begin() + begin + len + 1);
    SequenceActs<float> acts;
    REQUIRE(Forward(acts, p, c, q));
    for (int t = k == 0 ? 0 : 4; t < len; ++t, ++scored) want += static_cast<double>(acts.losses(t));
  }
  CHECK(scored == 49);
  CHECK(one.nats == want);
  REQUIRE(ScoreModel(p, c, s, 2, &prefix, nullptr, 16));
  CHECK(prefix.targets == 16);
}

TEST_CASE("model heads: a model whose attention is uniform scores 1/(t+1) on every measure") {
  // All-zero attention weights: every score is 0, so each row is uniform over t + 1 keys.
  const ModelConfig c{20, 8, 1, 2, 8, 8};
  Params<float> p = InitParams<float>(c, 4);
  for (auto& w : p.blocks[0].attn.W_Q) w.setZero();
  TokenStream s;
  s.ids = Stream(40, 20, 2);
  HeadReport r;
  std::string error;
  REQUIRE_MESSAGE(AnalyzeHeads(p, c, {&s}, 2, 3, 1, 7, 2, &r, &error), error);
  double uniform = 0, entropy = 0;  // rows t = 1 .. 7
  for (int t = 1; t < 8; ++t) {
    uniform += 1.0 / (t + 1);
    entropy += std::log(t + 1.0);
  }
  CHECK(r.windows == 2);
  REQUIRE(r.heads.size() == 2);
  for (const HeadScores& h : r.heads) {
    CHECK(h.previous == doctest::Approx(uniform / 7).epsilon(1e-6));
    CHECK(h.first == doctest::Approx(uniform / 7).epsilon(1e-6));
    CHECK(h.self == doctest::Approx(uniform / 7).epsilon(1e-6));
    CHECK(h.entropy == doctest::Approx(entropy / 7).epsilon(1e-5));
    double ind = 0;  // rows t = 4 .. 7 (R = 4)
    for (int t = 4; t < 8; ++t) ind += 1.0 / (t + 1);
    CHECK(h.induction == doctest::Approx(ind / 4).epsilon(1e-6));
  }
}

namespace {
// A small folder's files, as `attnlab model train` writes them.
std::vector<std::pair<std::string, std::string>> SmallBundle() {
  Bpe bpe;
  REQUIRE(bpe.Train({"the cat sat on the mat", "кот сидел на ковре"}, 300, 1));
  const ModelConfig c{bpe.size(), 16, 1, 2, 8, 24};
  Params<float> p = InitParams<float>(c, 1);
  std::vector<std::pair<std::string, std::string>> files;
  std::string st;
  REQUIRE(WriteSafetensors(ParamsToFile(p, c, Dtype::kF16), &st));
  files = {{"config.json", "{\"format\": \"attnlab-model-1\"}\n"}, {"tokenizer.json", BpeToJson(bpe)},
           {"model.safetensors", st}, {"eval.json", "{}\n"}};
  files.push_back({"MANIFEST.sha256", ManifestText(files)});
  return files;
}
std::string LoadError(const std::vector<std::pair<std::string, std::string>>& files) {
  Bundle b;
  std::string error;
  return LoadBundleFiles(files, &b, &error) ? std::string() : error;
}
}  // namespace

TEST_CASE("model bundle: SHA-256 of known texts (FIPS 180-4 examples)") {
  CHECK(Sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("model bundle: a good folder loads; a changed, truncated or mismatched file is refused") {
  auto files = SmallBundle();
  REQUIRE_MESSAGE(LoadError(files).empty(), LoadError(files));
  {
    auto f = files;
    f[2].second[f[2].second.size() / 2] ^= 1;  // one bit of the weights
    CHECK(LoadError(f).find("model.safetensors: SHA-256 differs") == 0);
  }
  {
    auto f = files;
    f[2].second.resize(f[2].second.size() - 10);  // truncated
    CHECK(LoadError(f).find("model.safetensors: SHA-256 differs") == 0);
  }
  {
    auto f = files;  // truncated, and a manifest that agrees: the safetensors checks refuse it
    f[2].second.resize(f[2].second.size() - 10);
    f.pop_back();
    f.push_back({"MANIFEST.sha256", ManifestText(f)});
    CHECK(LoadError(f).find("model.safetensors: ") == 0);
  }
  {
    auto f = files;  // a tokenizer of another size than the model's vocabulary
    Bpe small;
    REQUIRE(small.Train({"the cat sat on the mat"}, 270, 1));
    f[1].second = BpeToJson(small);
    f.pop_back();
    f.push_back({"MANIFEST.sha256", ManifestText(f)});
    CHECK(LoadError(f).find("tokenizer.json has") == 0);
  }
  {
    auto f = files;  // F32 weights where the folder promises F16
    StFile st;
    REQUIRE(ReadSafetensors(files[2].second, &st));
    for (StTensor& t : st.tensors) t.dtype = Dtype::kF32;
    REQUIRE(WriteSafetensors(st, &f[2].second));
    f.pop_back();
    f.push_back({"MANIFEST.sha256", ManifestText(f)});
    CHECK(LoadError(f).find("expected F16") != std::string::npos);
  }
  {
    auto f = files;
    f.back().second = "not a manifest\n";
    CHECK(LoadError(f).find("MANIFEST.sha256 line 1") == 0);
  }
  {
    auto f = files;
    f.erase(f.begin() + 3);  // eval.json missing
    CHECK(LoadError(f) == "eval.json is missing");
  }
}
