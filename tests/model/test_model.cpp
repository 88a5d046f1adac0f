// The whole model: its gradient against finite differences on a tiny config (double), a tiny
// config trained on a repeated sentence (float) whose loss falls clearly, and two runs that
// agree bit for bit; AdamW and the schedule against hand-computed values.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/base/rng.h"
#include "model/arch/layers.h"
#include "model/arch/model.h"
#include "model/training/train.h"

using namespace attn;
using namespace attn::model;

namespace {

ModelConfig Tiny() {
  ModelConfig c;
  c.vocab = 7;
  c.d_model = 8;
  c.layers = 2;
  c.heads = 2;
  c.context = 6;
  c.mlp = 12;
  return c;
}

// Parameters far from the initialization (std 0.3, LayerNorm weights around 1), so that every
// path carries a sizeable gradient.
Params<double> Scrambled(const ModelConfig& c) {
  Params<double> p = ZeroParams<double>(c);
  rng::SplitMix64 s(77);
  for (TensorRef<double>& t : Tensors(p)) {
    std::vector<double> z(static_cast<std::size_t>(t.size()));
    rng::FillStandardNormal(s, z.data(), static_cast<int>(z.size()));
    const bool ln_weight = t.name.find("ln") != std::string::npos &&
                           t.name.find("weight") != std::string::npos;
    for (Eigen::Index i = 0; i < t.size(); ++i)
      t.data[i] = 0.3 * z[static_cast<std::size_t>(i)] + (ln_weight ? 1.0 : 0.0);
  }
  return p;
}

std::vector<int> CharStream(const std::string& text, int repeats, int* vocab) {
  std::vector<int> ids(256, -1);
  int next = 0;
  std::vector<int> out;
  for (int r = 0; r < repeats; ++r) {
    for (unsigned char ch : text) {
      if (ids[ch] < 0) ids[ch] = next++;
      out.push_back(ids[ch]);
    }
  }
  *vocab = next;
  return out;
}

TrainConfig SentenceConfig(int vocab, int steps) {
  TrainConfig cfg;
  cfg.model.vocab = vocab;
  cfg.model.d_model = 16;
  cfg.model.layers = 2;
  cfg.model.heads = 2;
  cfg.model.context = 16;
  cfg.model.mlp = 32;
  cfg.batch = 4;
  cfg.length = 16;
  cfg.seed = 5;
  cfg.schedule.lr = 1e-2;
  cfg.schedule.min_lr = 1e-3;
  cfg.schedule.warmup = 20;
  cfg.schedule.steps = steps;
  cfg.adamw.weight_decay = 0.0;
  return cfg;
}

}  // namespace

// The largest |finite difference - gradient| over every parameter, relative to the largest
// finite difference (returned in *largest, so a test can check that it means something).
double WorstGradientError(const ModelConfig& c, Params<double>& p, const std::vector<Sequence>& batch,
                          double* largest) {
  Params<double> g;
  std::string error;
  const double loss = LossAndGrad(g, p, c, batch, &error);
  REQUIRE_MESSAGE(std::isfinite(loss), error);
  std::vector<TensorRef<double>> pt = Tensors(p), gt = Tensors(g);
  double worst = 0;
  *largest = 0;
  std::string worst_name;
  const double h = 1e-6;
  for (std::size_t k = 0; k < pt.size(); ++k) {
    for (Eigen::Index i = 0; i < pt[k].size(); ++i) {
      const double keep = pt[k].data[i];
      pt[k].data[i] = keep + h;
      const double up = Loss(p, c, batch);
      pt[k].data[i] = keep - h;
      const double down = Loss(p, c, batch);
      pt[k].data[i] = keep;
      const double numeric = (up - down) / (2 * h);
      const double diff = std::abs(numeric - gt[k].data[i]);
      if (diff > worst) worst = diff, worst_name = pt[k].name;
      *largest = std::max(*largest, std::abs(numeric));
    }
  }
  const double err = worst / std::max(1.0, *largest);
  std::printf("  fd whole model (%zu tensors%s) max error %.3g (at %s)\n", pt.size(),
              batch[0].dropout > 0 ? ", dropout" : "", err, worst_name.c_str());
  return err;
}

TEST_CASE("model: the whole gradient matches central finite differences on a tiny config") {
  ModelConfig c = Tiny();  // smaller still: every entry is checked, also under the sanitizers
  c.d_model = 4;
  c.mlp = 6;
  Params<double> p = Scrambled(c);
  std::vector<Sequence> batch = {{{1, 4, 4, 0, 6}, {4, 4, 0, 6, 2}},
                                 {{3, 2, 5, 1}, {2, -1, 1, 3}}};
  double largest = 0;
  CHECK(WorstGradientError(c, p, batch, &largest) < 1e-7);
  CHECK(largest > 1e-3);  // the test means something
  // With dropout: the masks are a function of the sequence's seed, so Loss sees the same ones.
  batch[0].dropout = 0.3, batch[0].dropout_seed = 11;
  batch[1].dropout = 0.3, batch[1].dropout_seed = 12;
  CHECK(WorstGradientError(c, p, batch, &largest) < 1e-7);
  CHECK(largest > 1e-3);
}

TEST_CASE("model: GPT-2-family options (attention biases, an untied lm_head, erf GELU, another epsilon): the gradient matches finite differences, and each option changes the loss") {
  ModelConfig c = Tiny();
  c.d_model = 4;
  c.mlp = 6;
  c.attn_bias = c.out_bias = true;
  c.tied = false;
  c.gelu_erf = true;
  c.ln_eps = 1e-2;  // large enough that it shows in the loss
  Params<double> p = Scrambled(c);
  REQUIRE(p.lm_head.rows() == c.vocab);
  REQUIRE(p.blocks[0].bq.size() == static_cast<std::size_t>(c.heads));
  const std::vector<Sequence> batch = {{{1, 4, 4, 0, 6}, {4, 4, 0, 6, 2}}, {{3, 2, 5, 1}, {2, -1, 1, 3}}};
  double largest = 0;
  CHECK(WorstGradientError(c, p, batch, &largest) < 1e-7);
  CHECK(largest > 1e-3);
  // Each option is used: turning it off (the same numbers otherwise) moves the loss.
  const double loss = Loss(p, c, batch);
  ModelConfig plain = c;
  plain.gelu_erf = false;
  CHECK(std::abs(Loss(p, plain, batch) - loss) > 1e-6);
  plain = c;
  plain.ln_eps = 1e-5;
  CHECK(std::abs(Loss(p, plain, batch) - loss) > 1e-6);
  Params<double> no_bias = p;
  for (BlockParams<double>& b : no_bias.blocks) b.bq[0].setZero();
  CHECK(std::abs(Loss(no_bias, c, batch) - loss) > 1e-6);
  plain = c;
  plain.tied = true;  // the logits from wte instead
  CHECK(std::abs(Loss(p, plain, batch) - loss) > 1e-6);
}

TEST_CASE("model: dropout masks are 0 or 1/(1-p), about p of them 0, a function of the seed alone") {
  Mat<double> a, b, other;
  DropoutMask(a, 64, 48, 0.25, 99);
  DropoutMask(b, 64, 48, 0.25, 99);
  DropoutMask(other, 64, 48, 0.25, 100);
  CHECK(std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0);
  int zeros = 0, differ = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    CHECK((a.data()[i] == 0.0 || a.data()[i] == 1.0 / 0.75));
    zeros += a.data()[i] == 0.0;
    differ += a.data()[i] != other.data()[i];
  }
  // 3072 entries: p = 0.25 gives 768 zeros on average, standard deviation 24
  CHECK(zeros > 768 - 5 * 24);
  CHECK(zeros < 768 + 5 * 24);
  CHECK(differ > 500);  // another seed, another mask
  // p = 0 in a sequence: no mask at all, and the same bits as a sequence without the field
  const ModelConfig c = Tiny();
  Params<double> p = Scrambled(c);
  Sequence plain{{1, 4, 4, 0, 6}, {4, 4, 0, 6, 2}}, zero = plain, dropped = plain;
  zero.dropout_seed = 123;
  dropped.dropout = 0.5, dropped.dropout_seed = 123;
  SequenceActs<double> x, y, z;
  REQUIRE(Forward(x, p, c, plain));
  REQUIRE(Forward(y, p, c, zero));
  CHECK(y.drop_emb.size() == 0);
  CHECK(x.loss_sum == y.loss_sum);
  REQUIRE(Forward(z, p, c, dropped));
  CHECK(z.drop_emb.rows() == 5);
  CHECK(z.loss_sum != x.loss_sum);
  REQUIRE(Forward(z, p, c, plain));  // the same acts reused without dropout: the masks go
  CHECK(z.blocks[0].drop_attn.size() == 0);
  CHECK(z.loss_sum == x.loss_sum);
  Sequence bad = plain;
  bad.dropout = 1.0;
  std::string error;
  CHECK_FALSE(Forward(z, p, c, bad, &error));
  CHECK(error.find("dropout") != std::string::npos);
}

TEST_CASE("model: the tensors come in the documented order with their shapes") {
  ModelConfig c = Tiny();
  Params<float> p = InitParams<float>(c, 1);
  std::vector<TensorRef<float>> t = Tensors(p);
  // wte, wpe, 2 x (2 + 3*2 + 1 + 2 + 4), ln_f.weight, ln_f.bias
  REQUIRE(t.size() == 2 + 2 * 15 + 2);
  CHECK(t[0].name == "wte");
  CHECK(t[0].shape == std::vector<std::int64_t>{7, 8});
  CHECK(t[1].name == "wpe");
  CHECK(t[1].shape == std::vector<std::int64_t>{6, 8});
  CHECK(t[2].name == "h.0.ln1.weight");
  CHECK(t[4].name == "h.0.attn.w_q.0");
  CHECK(t[4].shape == std::vector<std::int64_t>{8, 4});
  CHECK(t[10].name == "h.0.attn.w_o");
  CHECK(t[13].name == "h.0.mlp.fc.weight");
  CHECK(t[13].shape == std::vector<std::int64_t>{8, 12});
  CHECK(t.back().name == "ln_f.bias");
  CHECK(t[2].data[0] == 1.0f);   // LayerNorm weights start at 1
  CHECK(t[3].data[0] == 0.0f);   // biases at 0
  CHECK(t[0].data[0] != 0.0f);
}

TEST_CASE("model: AdamW and the schedule against values computed by hand") {
  Schedule s;
  s.lr = 1.0;
  s.min_lr = 0.1;
  s.warmup = 4;
  s.steps = 14;
  CHECK(LearningRate(s, 0) == 0.25);
  CHECK(LearningRate(s, 3) == 1.0);
  CHECK(LearningRate(s, 4) == 1.0);
  CHECK(LearningRate(s, 9) == doctest::Approx(0.55).epsilon(1e-15));
  CHECK(LearningRate(s, 14) == doctest::Approx(0.1).epsilon(1e-15));
  CHECK(LearningRate(s, 100) == doctest::Approx(0.1).epsilon(1e-15));

  ModelConfig c = Tiny();
  Params<double> p = ZeroParams<double>(c), g = ZeroParams<double>(c);
  p.wte(0, 0) = 2.0;  // decays
  p.lnf_b(0) = 2.0;   // does not
  g.wte(0, 0) = 0.5;
  g.lnf_b(0) = 0.5;
  AdamWHyper h;
  h.weight_decay = 0.1;
  AdamW<double> opt(h);
  opt.Step(p, g, 0.01);
  // step 1: m_hat = g, v_hat = g^2, so the Adam step is lr g / (|g| + eps)
  const double adam = 0.01 * 0.5 / (0.5 + 1e-8);
  CHECK(p.wte(0, 0) == doctest::Approx(2.0 * (1 - 0.01 * 0.1) - adam).epsilon(1e-15));
  CHECK(p.lnf_b(0) == doctest::Approx(2.0 - adam).epsilon(1e-15));
  CHECK(p.wte(1, 1) == 0.0);  // zero gradient, zero weight: stays
}

TEST_CASE("model: batches are a function of (seed, step) only") {
  std::vector<int> stream(100);
  for (int i = 0; i < 100; ++i) stream[static_cast<std::size_t>(i)] = i;
  const auto a = SampleBatch(stream, 3, 10, 9, 4), b = SampleBatch(stream, 3, 10, 9, 4);
  const auto other = SampleBatch(stream, 3, 10, 9, 5);
  REQUIRE(a.size() == 3);
  CHECK(a[0].tokens == b[0].tokens);
  CHECK(a[2].targets == b[2].targets);
  CHECK(a[0].tokens != other[0].tokens);
  for (const Sequence& s : a) {
    REQUIRE(s.tokens.size() == 10);
    CHECK(s.targets[0] == s.tokens[0] + 1);  // the next token
    CHECK(s.targets[9] == s.tokens[9] + 1);
  }
}

TEST_CASE("model: repeated-span windows are the window's start, then the window again; the starts do not move") {
  std::vector<int> stream(1000);
  for (int i = 0; i < 1000; ++i) stream[static_cast<std::size_t>(i)] = i;
  const int length = 32, batch = 400;
  const auto plain = SampleBatch(stream, batch, length, 3, 7);
  const auto none = SampleBatch(stream, batch, length, 3, 7, 0);
  const auto mixed = SampleBatch(stream, batch, length, 3, 7, 25);
  const auto all = SampleBatch(stream, batch, length, 3, 7, 100);
  REQUIRE(mixed.size() == static_cast<std::size_t>(batch));
  int repeated = 0;
  for (int b = 0; b < batch; ++b) {
    const auto i = static_cast<std::size_t>(b);
    CHECK(none[i].tokens == plain[i].tokens);  // 0 % is the plain batch, bit for bit
    const int start = plain[i].tokens[0];
    for (const auto* seqs : {&mixed, &all}) {
      const Sequence& s = (*seqs)[i];
      REQUIRE(s.tokens.size() == static_cast<std::size_t>(length));
      CHECK(s.tokens[0] == start);  // the same start as without repeats
      std::vector<int> w = s.tokens;
      w.push_back(s.targets.back());
      for (int t = 0; t + 1 < length; ++t) CHECK(s.targets[static_cast<std::size_t>(t)] == w[static_cast<std::size_t>(t) + 1]);
      // The span: where the window first jumps back to its start.
      int span = 0;
      for (int t = 1; t <= length && span == 0; ++t) span = w[static_cast<std::size_t>(t)] == start ? t : 0;
      if (seqs == &all) REQUIRE(span > 0);
      if (span == 0) continue;  // a plain window
      if (seqs == &mixed) ++repeated;
      CHECK(span >= 4);
      CHECK(span <= length / 2);
      for (int t = 0; t <= length; ++t) {
        const int want = t < span ? start + t : start + (t - span);
        CHECK(w[static_cast<std::size_t>(t)] == want);
      }
    }
  }
  // about a quarter of the windows (binomial: 100 +- 3 sigma of 8.7)
  CHECK(repeated > 70);
  CHECK(repeated < 130);
}

// 300 steps take 0.3 s in the release build and minutes under the sanitizers (Debug, -O0):
// the suite "long" runs in the release build only (tests/CMakeLists.txt), as the engine's does.
TEST_SUITE("long") {
TEST_CASE("model: a tiny config learns a repeated sentence (300 steps), bit for bit twice") {
  int vocab = 0;
  const std::vector<int> stream = CharStream("the cat sat on the mat. ", 40, &vocab);
  const int steps = 300;
  const TrainConfig cfg = SentenceConfig(vocab, steps);
  Trainer<float> a, b;
  std::string error;
  REQUIRE_MESSAGE(a.Reset(cfg, stream, &error), error);
  REQUIRE(b.Reset(cfg, stream, &error));
  double first = 0, last10 = 0;
  for (int k = 0; k < steps; ++k) {
    StepMetrics ma, mb;
    REQUIRE_MESSAGE(a.Step(&ma, &error), error);
    REQUIRE(b.Step(&mb, &error));
    CHECK(ma.loss == mb.loss);  // exact
    if (k == 0) first = ma.loss;
    if (k >= steps - 10) last10 += ma.loss / 10;
  }
  std::printf("  tiny sentence model: loss %.9g -> %.9g (mean of the last 10 of %d steps)\n",
              first, last10, steps);
  CHECK(first == doctest::Approx(std::log(static_cast<double>(vocab))).epsilon(0.05));
  CHECK(last10 < 0.25 * first);
  // the parameters too, bit for bit
  Params<float> pa = a.params(), pb = b.params();
  std::vector<TensorRef<float>> ta = Tensors(pa), tb = Tensors(pb);
  for (std::size_t k = 0; k < ta.size(); ++k) {
    CHECK(std::memcmp(ta[k].data, tb[k].data, sizeof(float) * ta[k].size()) == 0);
  }
}
}  // TEST_SUITE("long")

// The same in miniature for every build (the sanitizers included): a smaller model, 30 steps.
TEST_CASE("model: a miniature run lowers the loss and repeats bit for bit") {
  int vocab = 0;
  const std::vector<int> stream = CharStream("abcdefg ", 20, &vocab);
  TrainConfig cfg = SentenceConfig(vocab, 30);
  cfg.model.d_model = 8;
  cfg.model.mlp = 16;
  cfg.model.context = 8;
  cfg.length = 8;
  cfg.batch = 2;
  cfg.schedule.warmup = 5;
  cfg.schedule.lr = 3e-2;
  Trainer<float> a, b;
  std::string error;
  REQUIRE_MESSAGE(a.Reset(cfg, stream, &error), error);
  REQUIRE(b.Reset(cfg, stream, &error));
  double first = 0, last = 0;
  for (int k = 0; k < 30; ++k) {
    StepMetrics ma, mb;
    REQUIRE_MESSAGE(a.Step(&ma, &error), error);
    REQUIRE(b.Step(&mb, &error));
    CHECK(ma.loss == mb.loss);
    CHECK(ma.grad_norm == mb.grad_norm);
    if (k == 0) first = ma.loss;
    if (k >= 25) last += ma.loss / 5;
  }
  std::printf("  miniature model: loss %.9g -> %.9g = %a (mean of the last 5 of 30 steps)\n", first,
              last, last);
  CHECK(last < 0.5 * first);
  // The exact value, recorded from the release build: the sanitizer build (-O0) must print the
  // same bits, and so must faster kernels that keep linalg.h's order of operations. (Recorded
  // again when the batch's gradient became the in-order sum of per-sequence gradients, the
  // change that lets training use both cores.)
  CHECK(last == 0x1.107321p-1);
  Params<float> pa = a.params(), pb = b.params();
  std::vector<TensorRef<float>> ta = Tensors(pa), tb = Tensors(pb);
  for (std::size_t k = 0; k < ta.size(); ++k) {
    CHECK(std::memcmp(ta[k].data, tb[k].data, sizeof(float) * ta[k].size()) == 0);
  }
}

TEST_CASE("model: bad sequences are refused with a message") {
  const ModelConfig c = Tiny();
  const Params<float> p = InitParams<float>(c, 1);
  SequenceActs<float> acts;
  std::string error;
  CHECK_FALSE(Forward(acts, p, c, Sequence{{1, 2, 3, 4, 5, 6, 0}, {0, 0, 0, 0, 0, 0, 0}}, &error));
  CHECK(error == "sequence length must be 1 to context");
  CHECK_FALSE(Forward(acts, p, c, Sequence{{1, 7}, {0, 0}}, &error));
  CHECK(error == "token id out of the vocabulary");
  CHECK(CheckModelConfig(ModelConfig{10, 6, 1, 4, 8, 8}) == "heads must divide d_model");
}

TEST_CASE("model: the float forward follows the double one within float rounding, and repeats exactly") {
  const ModelConfig c = Tiny();
  const Params<double> pd = Scrambled(c);
  Params<float> pf = ZeroParams<float>(c);
  Params<double> copy = pd;
  std::vector<TensorRef<double>> td = Tensors(copy);
  std::vector<TensorRef<float>> tf = Tensors(pf);
  for (std::size_t k = 0; k < td.size(); ++k) {
    for (Eigen::Index i = 0; i < td[k].size(); ++i) tf[k].data[i] = static_cast<float>(td[k].data[i]);
  }
  const Sequence s{{1, 4, 4, 0, 6, 2}, {4, 4, 0, 6, 2, 3}};
  SequenceActs<double> ad;
  SequenceActs<float> af, again;
  REQUIRE(Forward(ad, pd, c, s));
  REQUIRE(Forward(af, pf, c, s));
  REQUIRE(Forward(again, pf, c, s));
  double worst = 0;
  for (Eigen::Index i = 0; i < ad.logits.size(); ++i)
    worst = std::max(worst, std::abs(ad.logits.data()[i] - static_cast<double>(af.logits.data()[i])));
  CHECK(worst < 1e-4);
  CHECK(std::memcmp(af.logits.data(), again.logits.data(), sizeof(float) * af.logits.size()) == 0);
  // every head's weights are kept, causal: nothing above the diagonal
  REQUIRE(af.blocks.size() == 2);
  REQUIRE(af.blocks[1].attn.heads.size() == 2);
  const MatF& w = af.blocks[1].attn.heads[1].weights;
  CHECK(w.rows() == 6);
  CHECK(w(0, 1) == 0.0f);
  CHECK(w(2, 3) == 0.0f);
  CHECK(w.row(4).sum() == doctest::Approx(1.0f));
  // The last position alone (what the lab and `model run` show): the same bits as that row.
  SequenceActs<float> last;
  REQUIRE(Forward(last, pf, c, s, nullptr, /*last_only=*/true));
  REQUIRE(last.logits.rows() == 1);
  REQUIRE(last.probs.rows() == 1);
  for (Eigen::Index k = 0; k < c.vocab; ++k) {
    CHECK(std::memcmp(&last.logits(0, k), &af.logits(5, k), sizeof(float)) == 0);
    CHECK(std::memcmp(&last.probs(0, k), &af.probs(5, k), sizeof(float)) == 0);
  }
  CHECK(last.losses(0) == af.losses(5));
  CHECK(std::memcmp(last.blocks[1].attn.heads[1].weights.data(), w.data(), sizeof(float) * w.size()) == 0);
}
