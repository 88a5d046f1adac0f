// Training (train.h); the optimizers and the tasks have their own files (test_optim.cpp,
// test_tasks.cpp):
//   1. the model's forward against a reference written here with Eigen's own products, and its
//      backward (every parameter) against central finite differences, for every normalizer that
//      has a gradient, with and without the causal mask and scaling, with one and two heads;
//   2. each task reaches a stated accuracy within a stated number of steps for seed 1, and the
//      learned attention on the task's example follows its known pattern;
//   3. bit-for-bit repeatability, divergence handling, config refusals.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "engine/training/train.h"

using namespace attn;

namespace {

// ---- 1. a reference model with Eigen products (a different summation order) -----------------

double SoftmaxRowsReference(MatD& w, const MatD& s, const Mask& mask) {  // (N, M) in place
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    double top = -1e300;
    for (Eigen::Index j = 0; j < s.cols(); ++j)
      if (mask(i, j)) top = std::max(top, s(i, j));
    double sum = 0;
    for (Eigen::Index j = 0; j < s.cols(); ++j) sum += (w(i, j) = mask(i, j) ? std::exp(s(i, j) - top) : 0.0);
    w.row(i) /= sum;
  }
  return 0;
}

// The loss of one softmax example computed from the formulas in train.h.
double ReferenceLoss(const Params& p, const TrainConfig& cfg, const Example& ex, MatD* weights0) {
  const int n = static_cast<int>(ex.tokens.size());
  MatD X(n, p.embed.cols());  // (N, D)
  for (int t = 0; t < n; ++t) X.row(t) = p.embed.row(ex.tokens[t]) + p.pos.row(t);
  const int heads = static_cast<int>(p.attn.W_Q.size());
  MatD concat(n, 0);
  for (int h = 0; h < heads; ++h) {
    const MatD Q = X * p.attn.W_Q[h], K = X * p.attn.W_K[h], V = X * p.attn.W_V[h];
    const double scale = cfg.scaled ? 1.0 / std::sqrt(static_cast<double>(Q.cols())) : 1.0;
    const MatD s = (Q * K.transpose()) * scale;  // (N, N)
    Mask mask = Mask::Constant(n, n, true);
    if (cfg.causal)
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) mask(i, j) = false;
    MatD w(n, n);
    SoftmaxRowsReference(w, s, mask);
    if (h == 0 && weights0) *weights0 = w;
    MatD next(n, concat.cols() + V.cols());
    next << concat, w * V;
    concat = next;
  }
  const MatD logits = (concat * p.attn.W_O) * p.readout + MatD::Ones(n, 1) * p.bias;  // (N, V)
  double loss = 0;
  for (int t = 0; t < n; ++t) {
    if (ex.targets[t] < 0) continue;
    const double top = logits.row(t).maxCoeff();
    loss += std::log((logits.row(t).array() - top).exp().sum()) - (logits(t, ex.targets[t]) - top);
  }
  return loss;
}

TrainConfig SmallConfig(Normalizer n, bool causal, bool scaled, int heads) {
  TrainConfig c;
  c.task = TaskKind::kPreviousToken;
  c.length = 4;
  c.d_model = 4;
  c.d_k = 3;
  c.d_v = 2;
  c.heads = heads;
  c.normalizer = n;
  c.causal = causal;
  c.scaled = scaled;
  c.seed = 11;
  return c;
}

// Parameters a little away from the initial ones (so that nothing sits at a symmetric point).
Params Perturbed(const Task& task, const TrainConfig& cfg) {
  Params p = InitParams(task, cfg);
  rng::SplitMix64 s(99);
  for (MatD* m : ParamList(p))
    for (Eigen::Index k = 0; k < m->size(); ++k) (*m)(k) += 0.3 * (s.Uniform() - 0.5);
  return p;
}

double BatchLoss(const Params& p, const TrainConfig& cfg, const std::vector<Example>& batch) {
  BatchResult r;
  REQUIRE(BatchLossAndGrads(&r, nullptr, p, cfg, batch));
  return r.loss;
}

double PatternWeight(const Trainer& t) {  // the smallest weight on the right key over target rows
  const ExampleView v = ViewExample(t);
  double worst = 1;
  for (std::size_t i = 0; i < v.example.sources.size(); ++i) {
    if (v.example.sources[i] < 0 || v.example.targets[i] < 0) continue;
    double best = 0;
    for (const auto& head : v.forward.attn.heads) best = std::max(best, head.weights(i, v.example.sources[i]));
    worst = std::min(worst, best);
  }
  return worst;
}

bool SameBits(const Params& a, const Params& b) {
  const auto la = ParamList(a), lb = ParamList(b);
  for (std::size_t i = 0; i < la.size(); ++i) {
    if (la[i]->size() != lb[i]->size()) return false;
    if (std::memcmp(la[i]->data(), lb[i]->data(), sizeof(double) * la[i]->size()) != 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("train: forward against an Eigen-product reference") {
  for (bool causal : {false, true}) {
    for (int heads : {1, 2}) {
      CAPTURE(causal);
      CAPTURE(heads);
      const TrainConfig cfg = SmallConfig(Normalizer::kSoftmax, causal, true, heads);
      const Task task = MakeTask(cfg.task, cfg.length);
      const Params p = Perturbed(task, cfg);
      rng::SplitMix64 s(5);
      for (int k = 0; k < 4; ++k) {
        const Example ex = SampleExample(task, s);
        ExampleForward f;
        REQUIRE(ForwardExample(f, p, cfg, ex));
        MatD w0;
        const double ref = ReferenceLoss(p, cfg, ex, &w0);
        CHECK(f.loss == doctest::Approx(ref).epsilon(1e-12));
        CHECK((f.attn.heads[0].weights - w0).cwiseAbs().maxCoeff() < 1e-14);
        CHECK(f.targets == 3);  // previous token: positions 1..3
        for (int t = 0; t < 4; ++t) CHECK(f.probs.row(t).sum() == doctest::Approx(1.0));
      }
    }
  }
}

TEST_CASE("train: backward of every parameter against central finite differences") {
  struct Case {
    Normalizer n;
    bool causal, scaled;
    int heads;
  };
  const Case cases[] = {{Normalizer::kSoftmax, false, true, 1},  {Normalizer::kSoftmax, true, false, 2},
                        {Normalizer::kSparsemax, false, true, 1}, {Normalizer::kReluNorm, true, true, 1},
                        {Normalizer::kSigmoid, false, true, 2},   {Normalizer::kNone, false, false, 1}};
  for (const Case& c : cases) {
    CAPTURE(NormalizerName(c.n));
    CAPTURE(c.causal);
    CAPTURE(c.heads);
    const TrainConfig cfg = SmallConfig(c.n, c.causal, c.scaled, c.heads);
    const Task task = MakeTask(cfg.task, cfg.length);
    Params p = Perturbed(task, cfg);
    rng::SplitMix64 s(3);
    const std::vector<Example> batch{SampleExample(task, s), SampleExample(task, s), SampleExample(task, s)};
    BatchResult r;
    Params grads;
    REQUIRE(BatchLossAndGrads(&r, &grads, p, cfg, batch));
    const auto ps = ParamList(p);
    const auto gs = ParamList(grads);
    double worst = 0;
    int checked = 0;
    const double h = 1e-6;
    for (std::size_t i = 0; i < ps.size(); ++i) {
      for (Eigen::Index k = 0; k < ps[i]->size(); ++k) {
        const double keep = (*ps[i])(k);
        (*ps[i])(k) = keep + h;
        const double up = BatchLoss(p, cfg, batch);
        (*ps[i])(k) = keep - h;
        const double down = BatchLoss(p, cfg, batch);
        (*ps[i])(k) = keep;
        const double numeric = (up - down) / (2 * h);
        const double err = std::abs(numeric - (*gs[i])(k)) / std::max(1.0, std::abs(numeric));
        worst = std::max(worst, err);
        ++checked;
      }
    }
    CAPTURE(worst);
    CHECK(checked > 150);
    CHECK(worst < 1e-6);
  }
}

TEST_CASE("train: a broken gradient is caught by the finite-difference check") {
  // The check above can fail: scale one gradient and the same comparison sees it.
  const TrainConfig cfg = SmallConfig(Normalizer::kSoftmax, false, true, 1);
  const Task task = MakeTask(cfg.task, cfg.length);
  Params p = Perturbed(task, cfg);
  rng::SplitMix64 s(3);
  const std::vector<Example> batch{SampleExample(task, s)};
  BatchResult r;
  Params grads;
  REQUIRE(BatchLossAndGrads(&r, &grads, p, cfg, batch));
  const double keep = p.attn.W_K[0](1, 1), h = 1e-6;
  p.attn.W_K[0](1, 1) = keep + h;
  const double up = BatchLoss(p, cfg, batch);
  p.attn.W_K[0](1, 1) = keep - h;
  const double down = BatchLoss(p, cfg, batch);
  const double numeric = (up - down) / (2 * h);
  CHECK(std::abs(numeric) > 1e-6);  // the entry matters
  CHECK(std::abs(numeric - grads.attn.W_K[0](1, 1)) < 1e-7);
  CHECK(std::abs(numeric - 1.01 * grads.attn.W_K[0](1, 1)) > 1e-9);
}

TEST_CASE("train: every task learns its pattern (seed 1, stated steps)" * doctest::test_suite("long")) {
  struct Goal {
    TaskKind task;
    const char* example;
    int steps;
  };
  // Measured: every task passes 0.95 accuracy and a 0.8 pattern weight by step 70 for seeds 1-5
  // (max, seed 4: 120); the budget below leaves room.
  const Goal goals[] = {{TaskKind::kPreviousToken, "", 200},
                        {TaskKind::kReverse, "", 200},
                        {TaskKind::kVerbObject, "я люблю суши", 200},
                        {TaskKind::kVerbObject, "I love sushi", 200},
                        {TaskKind::kMax, "", 200}};
  for (const Goal& g : goals) {
    CAPTURE(TaskName(g.task));
    CAPTURE(g.example);
    TrainConfig cfg;
    cfg.task = g.task;
    cfg.example = g.example;
    Trainer t;
    REQUIRE(t.Reset(cfg));
    const double before = PatternWeight(t);
    for (int s = 0; s < g.steps; ++s) REQUIRE(t.Step());
    const BatchResult eval = Evaluate(t, 512, 1);
    CHECK(eval.accuracy >= 0.95);
    CHECK(PatternWeight(t) >= 0.8);
    CHECK(before < 0.6);  // it was not there from the start
    CHECK(t.history().back().loss < t.history().front().loss / 10);
  }
}

TEST_CASE("train: the seed's example, learned: «люблю» attends to «суши»") {
  TrainConfig cfg;  // the defaults: verb_object, softmax, scaled, Adam
  Trainer t;
  REQUIRE(t.Reset(cfg));
  for (int s = 0; s < 150; ++s) REQUIRE(t.Step());
  const ExampleView v = ViewExample(t);
  REQUIRE(v.tokens == std::vector<std::string>{"я", "люблю", "суши"});
  CHECK(v.forward.attn.heads[0].weights(1, 2) >= 0.8);
  CHECK(v.predicted[1] == v.example.tokens[2]);  // and so «люблю»'s output names «суши»
  // The gradient into the weights of the verb's row exists and is finite.
  CHECK(v.grads.heads[0].dweights.rows() == 3);
  CHECK(std::isfinite(v.grads.heads[0].dweights.row(1).norm()));
}

TEST_CASE("train: bit-for-bit repeatable for a seed; another seed differs") {
  TrainConfig cfg;
  cfg.heads = 2;
  Trainer a, b, c;
  REQUIRE(a.Reset(cfg));
  REQUIRE(b.Reset(cfg));
  cfg.seed = 2;
  REQUIRE(c.Reset(cfg));
  for (int s = 0; s < 15; ++s) {
    REQUIRE(a.Step());
    REQUIRE(b.Step());
    REQUIRE(c.Step());
  }
  CHECK(SameBits(a.params(), b.params()));
  CHECK_FALSE(SameBits(a.params(), c.params()));
  CHECK(std::memcmp(&a.history().back().loss, &b.history().back().loss, sizeof(double)) == 0);
  // Evaluate and View do not move the parameters.
  const Params before = a.params();
  Evaluate(a, 64, 3);
  ViewExample(a);
  CHECK(SameBits(before, a.params()));
  // Batch k is a pure function of (seed, k).
  CHECK(a.problem().BatchFor(7)[0].tokens == b.problem().BatchFor(7)[0].tokens);
}

TEST_CASE("train: divergence stops training and keeps the last good parameters") {
  TrainConfig cfg;
  cfg.optimizer = Optimizer::kSgd;
  cfg.lr = 10.0;
  cfg.normalizer = Normalizer::kNone;
  cfg.scaled = false;
  cfg.d_k = 64;
  Trainer t;
  REQUIRE(t.Reset(cfg));
  Params last;
  int steps = 0;
  while (steps < 500) {
    last = t.params();
    if (!t.Step()) break;
    ++steps;
  }
  REQUIRE(steps < 500);
  CHECK(t.diverged());
  CHECK(t.message().find("step " + std::to_string(steps + 1)) == 0);
  CHECK(t.divergence().step == steps + 1);  // the same, as a code an interface can translate
  CHECK(t.divergence().cause != DivergenceCause::kNone);
  CHECK(SameBits(last, t.params()));
  CHECK(t.step() == steps);
  CHECK(static_cast<int>(t.history().size()) == steps);
  CHECK_FALSE(t.Step());  // stays stopped
}

TEST_CASE("train: configs are refused with the field named") {
  struct Bad {
    void (*edit)(TrainConfig&);
    const char* field;
  };
  const Bad bad[] = {{[](TrainConfig& c) { c.lr = 0; }, "lr"},
                     {[](TrainConfig& c) { c.lr = std::nan(""); }, "lr"},
                     {[](TrainConfig& c) { c.lr = 11; }, "lr"},
                     {[](TrainConfig& c) { c.batch = 0; }, "batch"},
                     {[](TrainConfig& c) { c.batch = 257; }, "batch"},
                     {[](TrainConfig& c) { c.d_k = 0; }, "dK"},
                     {[](TrainConfig& c) { c.d_k = 257; }, "dK"},
                     {[](TrainConfig& c) { c.d_model = 1; }, "dModel"},
                     {[](TrainConfig& c) { c.d_v = 0; }, "dV"},
                     {[](TrainConfig& c) { c.heads = 9; }, "heads"},
                     {[](TrainConfig& c) { c.length = 1; }, "length"},
                     {[](TrainConfig& c) { c.length = 17; }, "length"},
                     {[](TrainConfig& c) { c.seed = 1ull << 32; }, "seed"},
                     {[](TrainConfig& c) { c.example = "I love pizza"; }, "example"},
                     {[](TrainConfig& c) { c.example = std::string(5000, 'a'); }, "example"}};
  for (const Bad& b : bad) {
    TrainConfig cfg;
    b.edit(cfg);
    const TrainError e = ValidateTrainConfig(cfg);
    CAPTURE(b.field);
    CHECK(e.field == b.field);
    CHECK(e.message.find(b.field) == 0);
    Trainer t;
    TrainError e2;
    CHECK_FALSE(t.Reset(cfg, &e2));
    CHECK(e2.field == b.field);
    CHECK_FALSE(t.ready());
    CHECK_FALSE(t.Step());
  }
  CHECK(ValidateTrainConfig(TrainConfig()).ok());
  TaskKind k = TaskKind::kMax;
  CHECK_FALSE(ParseTask("verb-object", &k));
  CHECK(k == TaskKind::kMax);
  CHECK(ParseTask("verb_object", &k));
  CHECK(k == TaskKind::kVerbObject);
}

TEST_CASE("train: scaling matters at large d_k (the seed's claim, measured)" * doctest::test_suite("long")) {
  // softmax, d_k = 256, Adam lr 0.01, 200 steps, seeds 1-3: scaled training gets far lower loss
  // than unscaled, whose scores (variance ~ d_k) saturate the softmax.
  double scaled = 0, unscaled = 0;
  for (int seed = 1; seed <= 3; ++seed) {
    for (bool sc : {true, false}) {
      TrainConfig cfg;
      cfg.d_k = 256;
      cfg.scaled = sc;
      cfg.seed = static_cast<std::uint64_t>(seed);
      Trainer t;
      REQUIRE(t.Reset(cfg));
      for (int s = 0; s < 200; ++s) REQUIRE(t.Step());
      (sc ? scaled : unscaled) += Evaluate(t, 256, 1).loss / 3;
    }
  }
  CAPTURE(scaled);
  CAPTURE(unscaled);
  CHECK(unscaled > 3 * scaled);
}

namespace {
// A toy Problem of the one Trainer (trainer.h): x <- x - lr 2 (x - 3), batch k is k, the pass
// fails at step `fail_at`; the optimizer's state counts the updates.
struct ToyProblem {
  using Params = std::vector<double>;
  using OptimizerState = int;
  using Batch = int;
  struct Metrics {
    int step = 0;
    double loss = 0;
  };
  double lr = 0;
  int fail_at = 0;
  bool Reset(double rate, int fail) {
    lr = rate;
    fail_at = fail;
    return rate > 0;
  }
  Params InitialParams() const { return {0.0}; }
  OptimizerState InitialOptimizer(const Params&) const { return 0; }
  Batch BatchFor(int k) const { return k; }
  bool LossAndGrads(const Params& p, const Batch& k, Params* g, Metrics* m, std::string* why) const {
    if (k == fail_at) {
      *why = "the toy's pass failed";
      return false;
    }
    m->loss = (p[0] - 3) * (p[0] - 3);
    *g = {2 * (p[0] - 3)};
    return true;
  }
  double ClipGradients(Params& g, Metrics*) const { return std::abs(g[0]); }
  bool Update(int k, Params& p, OptimizerState& o, Params& g, Metrics* m) const {
    m->step = k;
    p[0] -= lr * g[0];
    ++o;
    return std::isfinite(p[0]);
  }
};
}  // namespace

TEST_CASE("trainer: a refused step keeps the parameters and stops the run; Restore continues") {
  training::Trainer<ToyProblem> t;
  CHECK_FALSE(t.Reset(0.0, 0));  // the problem refuses its config
  CHECK_FALSE(t.ready());
  CHECK_FALSE(t.Step());
  REQUIRE(t.Reset(0.25, 4));
  for (int k = 0; k < 3; ++k) REQUIRE(t.Step());  // x: 1.5, 2.25, 2.625 (exact in binary)
  CHECK(t.params()[0] == 2.625);
  CHECK(t.history().size() == 3);
  CHECK(t.history().back().step == 3);
  std::string why;
  CHECK_FALSE(t.Step(nullptr, &why));  // step 4's pass fails
  CHECK(why == "the toy's pass failed");
  CHECK(t.diverged());
  CHECK(t.divergence().step == 4);
  CHECK(t.divergence().cause == DivergenceCause::kPass);
  CHECK(t.message() == "step 4: training diverged: the toy's pass failed");
  CHECK(t.step() == 3);
  CHECK(t.params()[0] == 2.625);
  CHECK(t.optimizer() == 3);
  CHECK(t.history().size() == 3);
  CHECK_FALSE(t.Step());  // stays stopped
  t.Restore(4, {2.625}, 3);  // past the failing batch
  CHECK_FALSE(t.diverged());
  CHECK(t.history().empty());
  ToyProblem::Metrics m;
  REQUIRE(t.Step(&m));
  CHECK(m.step == 5);
  CHECK(t.params()[0] == 2.8125);

  REQUIRE(t.Reset(1e308, 0));  // the first update overflows: refused, x stays 0
  CHECK_FALSE(t.Step());
  CHECK(t.divergence().cause == DivergenceCause::kParameters);
  CHECK(t.params()[0] == 0.0);
  CHECK(t.optimizer() == 0);
  CHECK(t.step() == 0);
}
