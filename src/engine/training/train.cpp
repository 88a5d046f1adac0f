// Training a one-layer attention model (train.h): forward/backward of the whole model, and the
// Problem the one Trainer (trainer.h) steps. The tasks are in tasks.cpp, the optimizers in optim.cpp.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF  // same bits natively and in wasm (linalg.h)
#endif

#include "engine/training/train.h"

#include "engine/base/format.h"
#include "engine/base/limits.h"  // kMaxSeed, kMaxHeads
#include "engine/linalg/linalg.h"
#include "engine/base/rng.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {

namespace {

// Streams: parameters and batches never share one, and batch k is a pure function of (seed, k).
std::uint64_t StreamSeed(std::uint64_t seed, std::uint64_t purpose, std::uint64_t index) {
  return rng::Mix64(rng::Mix64(seed ^ (purpose * rng::kGolden)) + index);
}
constexpr std::uint64_t kStreamEmbed = 1, kStreamPos = 2, kStreamReadout = 3, kStreamBatch = 4,
                        kStreamEval = 5;

MatD Normal(int rows, int cols, double stddev, std::uint64_t seed) {  // (rows, cols), row by row
  rng::SplitMix64 s(seed);
  std::vector<double> z(static_cast<std::size_t>(rows) * cols);
  rng::FillStandardNormal(s, z.data(), static_cast<int>(z.size()));
  MatD m(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) m(r, c) = z[static_cast<std::size_t>(r) * cols + c] * stddev;
  return m;
}

MultiHeadConfig ModelAttention(const TrainConfig& cfg) {
  MultiHeadConfig m;
  m.head.normalizer = cfg.normalizer;
  m.head.scaled = cfg.scaled;
  m.causal = cfg.causal;
  return m;
}

double FrobeniusNorm(const MatD& m) {
  double acc = 0;
  for (Eigen::Index c = 0; c < m.cols(); ++c)
    for (Eigen::Index r = 0; r < m.rows(); ++r) acc += m(r, c) * m(r, c);
  return std::sqrt(acc);
}

double NormOf(const std::vector<MatD>& ms) {
  double acc = 0;
  for (const MatD& m : ms) {
    const double n = FrobeniusNorm(m);
    acc += n * n;
  }
  return std::sqrt(acc);
}

// The share of row t's positive weight that lies on key j: w_tj for softmax, sparsemax,
// relu-norm and hardmax (rows of non-negative weights summing to 1), and for sigmoid and none
// max(w_tj, 0) / sum_k max(w_tk, 0), so that the number is in [0, 1] for every normalizer
// (the convention of HeadTrace::entropy). 0 when no weight is positive.
double ShareOnKey(const MatD& w, std::size_t t, int j) {
  double positive = 0;
  for (Eigen::Index k = 0; k < w.cols(); ++k) positive += std::max(w(t, k), 0.0);
  return positive > 0 ? std::max(w(t, j), 0.0) / positive : 0.0;
}

}  // namespace

// ---- the model ------------------------------------------------------------------------------

TrainError ValidateTrainConfig(const TrainConfig& cfg) {
  if (const Field<TrainConfig>* f = FirstRefusedField(TrainFields(), cfg))
    return TrainError{f->name, RefusalText(f->name, f->rule, FieldText(*f, cfg)), {}};
  const Task task = MakeTask(cfg.task, cfg.length);
  Example ex;
  ExampleError error;
  if (!LabelExample(task, cfg.example.empty() ? task.default_example : cfg.example, &ex, &error))
    return TrainError{"example", "example: " + error.message, error};
  return {};
}

std::vector<MatD*> ParamList(Params& p) {
  std::vector<MatD*> out{&p.embed, &p.pos};
  for (std::size_t h = 0; h < p.attn.W_Q.size(); ++h) {
    out.push_back(&p.attn.W_Q[h]);
    out.push_back(&p.attn.W_K[h]);
    out.push_back(&p.attn.W_V[h]);
  }
  out.push_back(&p.attn.W_O);
  out.push_back(&p.readout);
  out.push_back(&p.bias);
  return out;
}

std::vector<const MatD*> ParamList(const Params& p) {
  std::vector<MatD*> list = ParamList(const_cast<Params&>(p));  // the same order, read only
  return std::vector<const MatD*>(list.begin(), list.end());
}

Params InitParams(const Task& task, const TrainConfig& cfg) {
  const int v = static_cast<int>(task.vocab.size()), d = cfg.d_model;
  Params p;
  const double half = std::sqrt(0.5);  // E and P ~ N(0, 1/2): their sum x ~ N(0, 1)
  p.embed = Normal(v, d, half, StreamSeed(cfg.seed, kStreamEmbed, 0));                  // (V, D)
  p.pos = Normal(task.max_length, d, half, StreamSeed(cfg.seed, kStreamPos, 0));         // (L, D)
  p.attn = RandomWeights<double>(d, cfg.heads, cfg.d_k, cfg.d_v, cfg.seed);
  p.readout = Normal(d, v, 1.0 / std::sqrt(d), StreamSeed(cfg.seed, kStreamReadout, 0)); // (D, V)
  p.bias = MatD::Zero(1, v);                                                             // (1, V)
  return p;
}

Params ZerosLike(const Params& p) {
  Params z = p;
  for (MatD* m : ParamList(z)) m->setZero();
  return z;
}

bool ForwardExample(ExampleForward& f, const Params& p, const TrainConfig& cfg, const Example& ex,
                    std::string* error) {
  const int n = static_cast<int>(ex.tokens.size());
  const int d = static_cast<int>(p.embed.cols()), v = static_cast<int>(p.embed.rows());
  if (n < 1 || n > p.pos.rows()) return linalg::Fail(error, "example length out of range");
  // 1. embeddings: x_t = E[token_t] + P[t]
  f.X.resize(n, d);  // (N, D)
  for (int t = 0; t < n; ++t)
    for (int c = 0; c < d; ++c) f.X(t, c) = p.embed(ex.tokens[t], c) + p.pos(t, c);
  // 2. attention
  if (!MultiHeadForward<double>(f.attn, f.X, nullptr, p.attn, ModelAttention(cfg), error)) return false;
  // 3. readout: logits = O R + b
  f.logits = linalg::MatMul(f.attn.output, p.readout);  // (N, V)
  for (int t = 0; t < n; ++t)
    for (int k = 0; k < v; ++k) f.logits(t, k) += p.bias(0, k);
  // 4. softmax over the vocabulary and the cross-entropy at target positions
  f.probs.resize(n, v);  // (N, V)
  f.loss = 0;
  f.targets = f.correct = 0;
  for (int t = 0; t < n; ++t) {
    double top = f.logits(t, 0);
    int arg = 0;
    for (int k = 1; k < v; ++k)
      if (f.logits(t, k) > top) { top = f.logits(t, k); arg = k; }
    double sum = 0;
    for (int k = 0; k < v; ++k) sum += (f.probs(t, k) = std::exp(f.logits(t, k) - top));
    for (int k = 0; k < v; ++k) f.probs(t, k) /= sum;
    const int target = ex.targets[t];
    if (target < 0) continue;
    f.loss += std::log(sum) - (f.logits(t, target) - top);  // -log softmax, from the shifted row
    ++f.targets;
    if (arg == target) ++f.correct;
  }
  if (!std::isfinite(f.loss) || !linalg::AllFinite(f.logits))
    return linalg::Fail(error, "the readout overflowed (logits are not finite)");
  return true;
}

bool BackwardExample(Params& grads, const ExampleForward& f, const Params& p, const TrainConfig& cfg,
                     const Example& ex, double loss_scale, MultiHeadGrads<double>* attn_grads,
                     std::string* error) {
  const int n = static_cast<int>(ex.tokens.size());
  const int d = static_cast<int>(p.embed.cols()), v = static_cast<int>(p.embed.rows());
  // 4'. cross-entropy through softmax: dlogits = (probs - onehot(target)) * loss_scale
  MatD dlogits = MatD::Zero(n, v);  // (N, V)
  for (int t = 0; t < n; ++t) {
    if (ex.targets[t] < 0) continue;
    for (int k = 0; k < v; ++k) dlogits(t, k) = f.probs(t, k) * loss_scale;
    dlogits(t, ex.targets[t]) -= loss_scale;
  }
  // 3'. readout: dR += O^T dlogits, db += column sums, dO = dlogits R^T
  linalg::AddInPlace(grads.readout, linalg::MatMulTransposedA(f.attn.output, dlogits));  // (D, V)
  for (int t = 0; t < n; ++t)
    for (int k = 0; k < v; ++k) grads.bias(0, k) += dlogits(t, k);
  const MatD dO = linalg::MatMulTransposed(dlogits, p.readout);  // (N, D)
  // 2'. attention
  MultiHeadGrads<double> local;
  MultiHeadGrads<double>& g = attn_grads ? *attn_grads : local;
  if (!MultiHeadBackward<double>(g, dO, f.attn, f.X, nullptr, p.attn, ModelAttention(cfg), error))
    return false;
  for (std::size_t h = 0; h < g.dW_Q.size(); ++h) {
    linalg::AddInPlace(grads.attn.W_Q[h], g.dW_Q[h]);
    linalg::AddInPlace(grads.attn.W_K[h], g.dW_K[h]);
    linalg::AddInPlace(grads.attn.W_V[h], g.dW_V[h]);
  }
  linalg::AddInPlace(grads.attn.W_O, g.dW_O);
  // 1'. embeddings: x_t = E[token_t] + P[t] sends dX's row t to both
  for (int t = 0; t < n; ++t) {
    for (int c = 0; c < d; ++c) {
      grads.embed(ex.tokens[t], c) += g.dX(t, c);
      grads.pos(t, c) += g.dX(t, c);
    }
  }
  return true;
}

bool BatchLossAndGrads(BatchResult* out, Params* grads, const Params& p, const TrainConfig& cfg,
                       const std::vector<Example>& batch, std::string* error) {
  if (grads) *grads = ZerosLike(p);
  int targets = 0;
  for (const Example& ex : batch)
    for (int t : ex.targets) targets += t >= 0;
  BatchResult r;
  r.targets = targets;
  const double scale = targets > 0 ? 1.0 / targets : 0.0;
  const std::size_t heads = p.attn.W_Q.size();
  std::vector<double> on_source(heads, 0.0);
  int source_rows = 0;
  ExampleForward f;
  for (const Example& ex : batch) {
    if (!ForwardExample(f, p, cfg, ex, error)) return false;
    r.loss += f.loss;
    r.accuracy += f.correct;
    for (std::size_t t = 0; t < ex.sources.size(); ++t) {
      if (ex.sources[t] < 0 || ex.targets[t] < 0) continue;
      ++source_rows;
      for (std::size_t h = 0; h < heads; ++h) on_source[h] += ShareOnKey(f.attn.heads[h].weights, t, ex.sources[t]);
    }
    if (grads && !BackwardExample(*grads, f, p, cfg, ex, scale, nullptr, error)) return false;
  }
  r.loss *= scale;
  r.accuracy *= scale;
  if (source_rows > 0)
    r.attention_on_source = *std::max_element(on_source.begin(), on_source.end()) / source_rows;
  *out = r;
  return true;
}

// ---- the one-layer model as a Problem of the Trainer (trainer.h) -----------------------------

bool OneLayerProblem::Reset(const TrainConfig& cfg, TrainError* error) {
  *this = OneLayerProblem();
  const TrainError e = ValidateTrainConfig(cfg);
  if (!e.ok()) {
    if (error) *error = e;
    return false;
  }
  cfg_ = cfg;
  task_ = MakeTask(cfg.task, cfg.length);
  std::string ignored;
  LabelExample(task_, cfg.example.empty() ? task_.default_example : cfg.example, &example_, &ignored);
  return true;
}

Params OneLayerProblem::InitialParams() const { return InitParams(task_, cfg_); }

AdamMoments OneLayerProblem::InitialOptimizer(const Params& p) const {
  AdamMoments o;
  for (const MatD* m : ParamList(p)) {
    o.m.push_back(MatD::Zero(m->rows(), m->cols()));
    o.v.push_back(MatD::Zero(m->rows(), m->cols()));
  }
  return o;
}

std::vector<Example> OneLayerProblem::BatchFor(int k) const {
  rng::SplitMix64 s(StreamSeed(cfg_.seed, kStreamBatch, static_cast<std::uint64_t>(k)));
  std::vector<Example> batch;
  for (int b = 0; b < cfg_.batch; ++b) batch.push_back(SampleExample(task_, s));
  return batch;
}

bool OneLayerProblem::LossAndGrads(const Params& p, const Batch& batch, Params* grads, StepMetrics* m,
                                   std::string* why) const {
  BatchResult r;
  if (!BatchLossAndGrads(&r, grads, p, cfg_, batch, why)) {
    // The attention's messages advise the lab's settings ("use smaller embeddings..."), which
    // training does not have: keep only what happened.
    const std::size_t advice = why->find("; use ");
    if (advice != std::string::npos) why->erase(advice);
    return false;
  }
  m->loss = r.loss;
  m->accuracy = r.accuracy;
  m->attention_on_source = r.attention_on_source;
  return true;
}

double OneLayerProblem::ClipGradients(Params& grads, StepMetrics* m) const {
  m->grad_norm_q = NormOf(grads.attn.W_Q);
  m->grad_norm_k = NormOf(grads.attn.W_K);
  m->grad_norm_v = NormOf(grads.attn.W_V);
  m->grad_norm_o = FrobeniusNorm(grads.attn.W_O);
  double total = 0;
  for (const MatD* g : ParamList(grads)) total += FrobeniusNorm(*g) * FrobeniusNorm(*g);
  m->grad_norm = std::sqrt(total);
  return m->grad_norm;
}

bool OneLayerProblem::Update(int k, Params& p, AdamMoments& o, Params& grads, StepMetrics* m) const {
  m->step = k;
  const std::vector<MatD*> ps = ParamList(p);
  const std::vector<MatD*> gs = ParamList(grads);
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (cfg_.optimizer == Optimizer::kAdam) AdamUpdate(*ps[i], o.m[i], o.v[i], *gs[i], k, cfg_.lr);
    else SgdUpdate(*ps[i], *gs[i], cfg_.lr);
    if (!linalg::AllFinite(*ps[i])) return false;
  }
  return true;
}

BatchResult Evaluate(const Trainer& t, int count, std::uint64_t eval_seed) {
  BatchResult r;
  if (!t.ready() || count < 1) return r;
  const OneLayerProblem& problem = t.problem();
  rng::SplitMix64 s(StreamSeed(problem.config().seed, kStreamEval, eval_seed));
  std::vector<Example> batch;
  for (int i = 0; i < count; ++i) batch.push_back(SampleExample(problem.task(), s));
  std::string error;
  if (!BatchLossAndGrads(&r, nullptr, t.params(), problem.config(), batch, &error)) {
    r = BatchResult();
    r.loss = std::numeric_limits<double>::quiet_NaN();
  }
  return r;
}

ExampleView ViewExample(const Trainer& trainer) {
  ExampleView view;
  if (!trainer.ready()) return view;
  const OneLayerProblem& problem = trainer.problem();
  const Example& example = problem.example();
  const Params& params = trainer.params();
  view.example = example;
  for (int id : example.tokens) view.tokens.push_back(problem.task().vocab[id]);
  if (!ForwardExample(view.forward, params, problem.config(), example)) return view;
  Params grads = ZerosLike(params);
  const double scale = view.forward.targets > 0 ? 1.0 / view.forward.targets : 0.0;
  BackwardExample(grads, view.forward, params, problem.config(), example, scale, &view.grads);
  const int n = static_cast<int>(example.tokens.size());
  for (int t = 0; t < n; ++t) {
    Eigen::Index arg = 0;
    const double p = view.forward.probs.row(t).maxCoeff(&arg);
    view.predicted.push_back(static_cast<int>(arg));
    view.confidence.push_back(p);
  }
  return view;
}

namespace training {
template class Trainer<OneLayerProblem>;
}  // namespace training

}  // namespace attn
