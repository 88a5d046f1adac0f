// Learning attention: a one-layer model trained on tasks whose right attention pattern is known,
// so that a heatmap has something to converge to (the seed's "backpropagation learns which words
// relate", watched rather than asserted).
//
// Legend: B = batch, N = tokens of one example, L = longest example, D = d_model,
// V = vocabulary size, H = heads, Dk = d_k, Dv = d_v.
//
//   x_t      = E[token_t] + P[t]                        (D)     learned token and position rows
//   X        = [x_0; ...; x_{N-1}]                      (N, D)
//   O        = MultiHeadForward(X)                      (N, D)  the engine's attention, any
//                                                               normalizer, optional causal mask
//   logits   = O R + 1 b^T                              (N, V)  linear readout (no residual: what
//                                                               a position predicts must come
//                                                               through attention)
//   loss     = mean over the batch's target positions of  -log softmax(logits_t)[target_t]
//
// Everything is double. Training is deterministic for a seed: the parameters come from the seed,
// batch k from (seed, k), and every product is a plain loop in a fixed order (linalg.h), so a
// run repeats bit for bit on one platform (the browser's libm may differ in the last bit of exp).
//
// The tasks (vocabularies, sampling, labelling) are in tasks.h, the optimizers in optim.h.
#pragma once

#include "engine/base/fields.h"
#include "engine/base/limits.h"
#include "engine/attention/multihead.h"
#include "engine/training/optim.h"
#include "engine/base/rng.h"
#include "engine/training/tasks.h"
#include "engine/training/trainer.h"
#include "engine/base/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// The limits ValidateTrainConfig checks (kMinLength, kMaxTrainDModel, ...): limits.h.

struct TrainConfig {
  TaskKind task = TaskKind::kVerbObject;
  int length = 6;                 // previous, reverse, max: tokens per example
  Optimizer optimizer = Optimizer::kAdam;
  double lr = 0.01;               // (0, kMaxLearningRate]
  int batch = 16;                 // 1..kMaxBatch examples per step
  std::uint64_t seed = 1;         // 0..kMaxSeed
  Normalizer normalizer = Normalizer::kSoftmax;
  bool scaled = true;             // 1/sqrt(Dk) on the scores, or 1
  int d_model = 32;               // 2..kMaxTrainDModel
  int d_k = 16;                   // 1..kMaxTrainDk
  int d_v = 16;                   // 1..kMaxTrainDv
  int heads = 1;                  // 1..kMaxHeads
  bool causal = false;
  std::string example;            // the sentence to watch; empty = the task's default_example
};

// Why a training config was refused: `field` is the state's name of the setting ("task",
// "length", "optimizer", "lr", "batch", "seed", "normalizer", "dModel", "dK", "dV", "heads",
// "example"), `message` one English line (it names the field too).
struct TrainError {
  std::string field;
  std::string message;
  ExampleError example;  // field "example": why the sentence was refused (for translations)
  bool ok() const { return field.empty() && message.empty(); }
};
// The settings table: every field's JSON name, rule (from the limits above) and description.
const FieldTable<TrainConfig>& TrainFields();

// Checks the table's rules, then that the example sentence fits the task's vocabulary and rule.
// Messages read "<field>: expected <what>, got <value>" (the example: "example: <why>").
TrainError ValidateTrainConfig(const TrainConfig& cfg);

struct Params {
  MatD embed;                     // (V, D) token rows E, ~ N(0, 1/2)
  MatD pos;                       // (L, D) position rows P, ~ N(0, 1/2)  (so x ~ N(0, 1))
  MultiHeadWeights<double> attn;  // RandomWeights(D, H, Dk, Dv, seed): W ~ N(0, 1/fan_in)
  MatD readout;                   // (D, V) R ~ N(0, 1/D)
  MatD bias;                      // (1, V) b = 0
};

// Every parameter matrix in a fixed order (embed, pos, W_Q[h], W_K[h], W_V[h] per head, W_O,
// readout, bias): the optimizer walks this list.
std::vector<MatD*> ParamList(Params& p);
std::vector<const MatD*> ParamList(const Params& p);
Params InitParams(const Task& task, const TrainConfig& cfg);
Params ZerosLike(const Params& p);

// One example through the model, with every intermediate kept for the panels.
struct ExampleForward {
  MatD X;                        // (N, D) embeddings + positions
  MultiHeadTrace<double> attn;   // per head Q, K, V, scores, weights...; output (N, D)
  MatD logits;                   // (N, V)
  MatD probs;                    // (N, V) softmax of logits
  double loss = 0;               // sum over target positions of -log probs(t, target_t)
  int targets = 0;               // number of positions with a target
  int correct = 0;               // of which argmax(logits_t) == target_t (ties: lowest id)
};

// Forward of one example; false (with a message) when a result is not finite. `loss_scale`
// multiplies the loss in the backward pass (1 / targets in the batch).
bool ForwardExample(ExampleForward& f, const Params& p, const TrainConfig& cfg, const Example& ex,
                    std::string* error = nullptr);
// Adds d(loss * loss_scale)/d(every parameter) into `grads` (same shapes as p, zero them first).
// Also returns the attention's gradients (dL/dweights, dL/dscaled per head) in `attn_grads`
// when it is not null.
bool BackwardExample(Params& grads, const ExampleForward& f, const Params& p,
                     const TrainConfig& cfg, const Example& ex, double loss_scale,
                     MultiHeadGrads<double>* attn_grads = nullptr, std::string* error = nullptr);

// Mean loss over target positions of a batch and, when `grads` is not null, its gradients
// (zeroed first; shaped like p).
struct BatchResult {
  double loss = 0;      // mean -log p(target) over the batch's target positions
  double accuracy = 0;  // fraction of target positions predicted right
  double attention_on_source = 0;  // mean over target rows of the row's share of weight on the
                                   // right key, best head: the weight itself for normalizers whose
                                   // rows sum to 1; for sigmoid and none the key's share of the
                                   // row's positive weights (so always in [0, 1])
  int targets = 0;
};
bool BatchLossAndGrads(BatchResult* out, Params* grads, const Params& p, const TrainConfig& cfg,
                       const std::vector<Example>& batch, std::string* error = nullptr);

struct StepMetrics {
  int step = 0;            // 1 after the first update
  double loss = 0;         // of the batch, before the update
  double accuracy = 0;     // of the batch, before the update
  double attention_on_source = 0;  // see BatchResult
  double grad_norm_q = 0, grad_norm_k = 0, grad_norm_v = 0;  // Frobenius, over all heads
  double grad_norm_o = 0;  // W_O
  double grad_norm = 0;    // every parameter
};

// What the panels show for the example sentence at the current parameters.
struct ExampleView {
  std::vector<std::string> tokens;  // (N)
  Example example;
  ExampleForward forward;           // weights of head h: forward.attn.heads[h].weights (N, N)
  MultiHeadGrads<double> grads;     // of the example's own loss: heads[h].dweights (N, N) is
                                    // dL/d scale(i) for every query row, dscaled likewise
  std::vector<int> predicted;       // (N) argmax id per position
  std::vector<double> confidence;   // (N) its probability
};

// Adam's state: the moments, per ParamList entry (zero, and unused, for SGD).
struct AdamMoments {
  std::vector<MatD> m, v;
};

// The one-layer model as a Problem of the one Trainer (trainer.h): its config, task and example
// sentence, its parameters, its batch for step k, its loss and gradients, its optimizer (Adam or
// SGD per matrix, at step k). It does not clip: ClipGradients only measures (StepMetrics' norms).
class OneLayerProblem {
 public:
  using Params = attn::Params;
  using OptimizerState = AdamMoments;
  using Batch = std::vector<Example>;
  using Metrics = StepMetrics;

  // Validates cfg, builds the task and the example. False with the refusal when cfg is refused.
  bool Reset(const TrainConfig& cfg, TrainError* error = nullptr);
  const TrainConfig& config() const { return cfg_; }
  const Task& task() const { return task_; }
  const Example& example() const { return example_; }

  // The Trainer's interface (trainer.h).
  Params InitialParams() const;  // from the seed
  OptimizerState InitialOptimizer(const Params& p) const;
  // The batch of step number k (1-based): a pure function of (seed, k).
  Batch BatchFor(int k) const;
  bool LossAndGrads(const Params& p, const Batch& batch, Params* grads, Metrics* m, std::string* why) const;
  double ClipGradients(Params& grads, Metrics* m) const;
  bool Update(int k, Params& p, OptimizerState& o, Params& grads, Metrics* m) const;

 private:
  TrainConfig cfg_;
  Task task_;
  Example example_;
};

// The Training tab's trainer: Reset(cfg, &error), Step(), history(), diverged() (trainer.h);
// config(), task(), example() and BatchFor(k) are its problem()'s.
using Trainer = training::Trainer<OneLayerProblem>;
using training::Divergence;
using training::DivergenceCause;

// Accuracy and mean loss on `count` fresh examples drawn from (seed, eval_seed), at the trainer's
// current parameters (an empty result when it is not ready).
BatchResult Evaluate(const Trainer& t, int count, std::uint64_t eval_seed);
// Forward and backward of the example sentence at the trainer's current parameters.
ExampleView ViewExample(const Trainer& t);

}  // namespace attn

namespace attn {
namespace training {
extern template class Trainer<OneLayerProblem>;  // train.cpp
}  // namespace training
}  // namespace attn
