// Training the model: AdamW, the learning-rate schedule, deterministic batches, and the model as
// a Problem of the one Trainer (engine/training/trainer.h).
#pragma once

#include "engine/training/trainer.h"
#include "model/arch/model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {
namespace model {

struct AdamWHyper {
  double beta1 = 0.9, beta2 = 0.95, eps = 1e-8;  // GPT-2/llm.c's betas
  double weight_decay = 0.1;                     // decoupled, only on tensors with decay = true
};

// AdamW (Loshchilov & Hutter 2019, torch.optim.AdamW), per entry, in double, the result rounded
// once to T; step t >= 1:
//   p <- p (1 - lr wd)                       (only when the tensor decays)
//   m <- b1 m + (1-b1) g;  v <- b2 v + (1-b2) g^2
//   p <- p - lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
// b1^t and b2^t are running products (no pow), so every C library gives the same bits.
template <typename T>
class AdamW {
 public:
  AdamW() = default;
  explicit AdamW(const AdamWHyper& h) : h_(h) {}
  // Updates every tensor of p with the same-order gradients g; lr for this step.
  void Step(Params<T>& p, Params<T>& g, double lr);
  int steps() const { return t_; }
  // The moments, per tensor in Tensors' order (empty before the first step): for checkpoints.
  const std::vector<std::vector<double>>& m() const { return m_; }
  const std::vector<std::vector<double>>& v() const { return v_; }
  // Restores a checkpoint taken after `steps` steps (b1^t, b2^t recomputed as running products,
  // as Step forms them, so the bits are the same as an uninterrupted run).
  void Restore(int steps, std::vector<std::vector<double>> m, std::vector<std::vector<double>> v);

 private:
  AdamWHyper h_;
  int t_ = 0;
  double b1t_ = 1, b2t_ = 1;
  std::vector<std::vector<double>> m_, v_;  // per tensor, Eigen's storage order
};

struct Schedule {
  double lr = 3e-3;      // peak learning rate
  double min_lr = 3e-4;  // at the end of the cosine
  int warmup = 20;       // steps of linear warm-up
  int steps = 200;       // total steps
};
// Learning rate of step k (0-based): lr (k + 1) / warmup during the warm-up, then
// min_lr + (lr - min_lr) (1 + cos(pi q)) / 2 with q = (k - warmup) / max(1, steps - warmup)
// (clamped to 1).
double LearningRate(const Schedule& s, int step);

// Batch `step` of a token stream: `batch` windows of length + 1 tokens; window b starts at
// SplitMix64(Mix64(seed) ^ Mix64(step)).Next() (b-th draw) modulo (size - length).
// Repeated spans (a reason to learn induction heads): with repeat_percent > 0, a second
// generator SplitMix64(Mix64(seed) ^ Mix64(step) ^ kRepeatSalt) draws u for every window; when
// u % 100 < repeat_percent the window becomes its first `span` tokens followed by the window
// again from its start, span = 4 + (u >> 8) % (length / 2 - 3) (4 .. length / 2): w[0, span)
// then w[0, length + 1 - span). The starts are the same draws as without repeats.
std::vector<Sequence> SampleBatch(const std::vector<int>& stream, int batch, int length,
                                  std::uint64_t seed, int step, int repeat_percent = 0);

// Global gradient norm clipping: the norm over every tensor in Tensors' order (a double sum of
// squares), scaled by max_norm / norm when above it. Returns the norm before clipping.
template <typename T>
double ClipGradNorm(Params<T>& g, double max_norm);

struct TrainConfig {
  ModelConfig model;
  Schedule schedule;
  AdamWHyper adamw;
  std::uint64_t seed = 1;  // initialization and batches
  int batch = 8;           // sequences per step
  int length = 32;         // tokens per sequence (<= context)
  double clip = 1.0;       // global norm clip (<= 0: none)
  int threads = 1;         // natively 2 on this machine; the result does not depend on it
  int repeat_percent = 0;  // windows with a repeated span, in percent (SampleBatch)
  double dropout = 0;      // model.h Sequence::dropout; sequence b of step k draws its masks from
                           // Mix64(Mix64(seed) ^ Mix64(k) ^ kDropoutSalt) + b
};

struct StepMetrics {
  int step = 0;        // 0-based step that produced these
  double loss = 0;     // mean cross-entropy in nats of the batch, before the update
  double lr = 0;
  double grad_norm = 0;
};

// The model as a Problem of the one Trainer (engine/training/trainer.h), trained on one token
// stream: its batch for step k is SampleBatch(step k - 1) with its dropout seeds, its loss the
// mean cross-entropy (LossAndGrad), its clip the global norm (cfg.clip), its update AdamW at
// the schedule's rate of step k - 1. StepMetrics::step counts from 0 (the step k - 1 that
// produced them), as the CLI's records and the shipped training's logs do.
template <typename T>
class LanguageModelProblem {
 public:
  using Params = model::Params<T>;
  using OptimizerState = AdamW<T>;
  using Batch = std::vector<Sequence>;
  using Metrics = StepMetrics;

  // Returns false with a message when the config is unusable or the stream too short.
  bool Reset(const TrainConfig& cfg, std::vector<int> stream, std::string* error = nullptr);
  const TrainConfig& config() const { return cfg_; }

  // The Trainer's interface (trainer.h).
  Params InitialParams() const;  // InitParams(cfg.model, cfg.seed)
  OptimizerState InitialOptimizer(const Params& p) const;
  Batch BatchFor(int k) const;
  bool LossAndGrads(const Params& p, const Batch& batch, Params* grads, Metrics* m, std::string* why) const;
  double ClipGradients(Params& grads, Metrics* m) const;
  bool Update(int k, Params& p, OptimizerState& o, Params& grads, Metrics* m) const;

 private:
  TrainConfig cfg_;
  std::vector<int> stream_;
};

// The model's trainer (T = float): Reset(cfg, stream, &error), Step(&metrics, &error),
// params(), optimizer(), Restore(step, params, optimizer) for checkpoints (trainer.h).
template <typename T>
using Trainer = training::Trainer<LanguageModelProblem<T>>;

}  // namespace model
}  // namespace attn

namespace attn {
namespace training {
extern template class Trainer<model::LanguageModelProblem<float>>;  // train.cpp
extern template class Trainer<model::LanguageModelProblem<double>>;
}  // namespace training
}  // namespace attn
