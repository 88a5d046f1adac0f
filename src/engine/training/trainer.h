// The one Trainer (issue 37): what training a model means in this lab, whatever the model. The
// Training tab's one-layer attention model (train.h's OneLayerProblem) and the small transformer
// (model/training/train.h's LanguageModelProblem<T>) are two Problems of this one class.
//
// The Trainer owns the step counter, the loop, the history and the restart from a step:
//
//   step k (1-based; step() is k - 1 before it, k after it):
//     1. batch    = problem.BatchFor(k)                          a pure function of (seed, k)
//     2. loss, g  = problem.LossAndGrads(params, batch)          refused: DivergenceCause::kPass
//     3. norm     = problem.ClipGradients(g)                     not finite: kGradients
//     4. params', optimizer' = problem.Update(k, copies of both, g)
//                                                                a non-finite parameter: kParameters
//     5. params, optimizer = params', optimizer'; history += the step's metrics
//
// A refused step changes nothing: the parameters and the optimizer's state stay those of step
// k - 1 (the update is made on copies), step() stays k - 1, and the trainer stops: diverged()
// is true, divergence() says where and why, and every later Step() returns false until Reset or
// Restore. (The one-layer trainer always did this; the language model's Step used to return an
// error and check only the loss, so a non-finite gradient or parameter now stops it at the step
// that made it, one step earlier, with the parameters still finite.)
//
// A Problem supplies only what is its own:
//   types   Params (also the gradients' type), OptimizerState (e.g. Adam's moments), Batch,
//           Metrics (one step's record: the history's entries)
//   bool Reset(args...)                       takes its config (checked: false = refused, with
//                                             the problem's own error); Trainer::Reset forwards
//   Params InitialParams() const;  OptimizerState InitialOptimizer(const Params&) const
//   Batch BatchFor(int k) const
//   bool LossAndGrads(const Params&, const Batch&, Params* grads, Metrics*, std::string* why) const
//   double ClipGradients(Params& grads, Metrics*) const      clips (or not) and returns the norm
//                                                            to check
//   bool Update(int k, Params&, OptimizerState&, Params& grads, Metrics*) const
//                                                            false when a parameter is not finite
// The Trainer does no arithmetic of its own: every floating-point operation is the Problem's,
// in the Problem's order, so the bits are the Problem's.
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace attn {
namespace training {

// Why a training step was refused: where it met a number that is not finite. An interface says
// it in its own language from `step` and `cause` (text/i18n.h); Trainer::message() is the
// English line.
enum class DivergenceCause {
  kNone,
  kPass,        // the forward or backward pass of the batch (`detail`: the pass's English line)
  kGradients,   // the gradients' norm is not finite
  kParameters   // the update would make a parameter non-finite
};
struct Divergence {
  int step = 0;  // the step that was refused (1-based)
  DivergenceCause cause = DivergenceCause::kNone;
  std::string detail;
};

template <class Problem>
class Trainer {
 public:
  using Params = typename Problem::Params;
  using OptimizerState = typename Problem::OptimizerState;
  using Metrics = typename Problem::Metrics;

  // Starts over: the problem's Reset(args...) (its config, checked), then its initial parameters
  // and optimizer state at step 0, an empty history. False (and the trainer left empty, not
  // ready) when the problem refuses.
  template <typename... Args>
  bool Reset(Args&&... args) {
    *this = Trainer();
    if (!problem_.Reset(std::forward<Args>(args)...)) return false;
    params_ = problem_.InitialParams();
    opt_ = problem_.InitialOptimizer(params_);
    ready_ = true;
    return true;
  }

  // One step, number step() + 1 (the loop above). True: the parameters moved and the step's
  // metrics are history().back() (and *metrics when asked). False when the trainer is not
  // ready, has diverged, or this step is refused: nothing changes but diverged(), divergence()
  // and message(); *error (when asked) gets divergence().detail.
  bool Step(Metrics* metrics = nullptr, std::string* error = nullptr) {
    if (!ready_) {
      if (error) *error = "nothing to train: the trainer was not reset";
      return false;
    }
    if (diverged_) {
      if (error) *error = divergence_.detail;
      return false;
    }
    const int k = step_ + 1;
    Metrics m{};
    std::string why;
    if (!problem_.LossAndGrads(params_, problem_.BatchFor(k), &grads_, &m, &why))
      return Stop(k, DivergenceCause::kPass, std::move(why), error);
    const double norm = problem_.ClipGradients(grads_, &m);
    if (!std::isfinite(norm))
      return Stop(k, DivergenceCause::kGradients, "the gradients are not finite", error);
    Params next = params_;  // the update on copies: a refused step leaves both as they were
    OptimizerState next_opt = opt_;
    if (!problem_.Update(k, next, next_opt, grads_, &m))
      return Stop(k, DivergenceCause::kParameters, "a parameter became non-finite", error);
    params_ = std::move(next);
    opt_ = std::move(next_opt);
    step_ = k;
    history_.push_back(m);
    if (metrics) *metrics = m;
    return true;
  }

  // Continues from a checkpoint: the parameters and the optimizer's state after `step` steps
  // (after Reset on the same config, so that the batches and the schedule are the run's). The
  // history starts empty there; the divergence, if any, is forgotten.
  void Restore(int step, Params params, OptimizerState opt) {
    step_ = step;
    params_ = std::move(params);
    opt_ = std::move(opt);
    history_.clear();
    diverged_ = false;
    divergence_ = Divergence{};
    message_.clear();
  }

  bool ready() const { return ready_; }
  bool diverged() const { return diverged_; }
  const std::string& message() const { return message_; }  // "step k: training diverged: ..."
  const Divergence& divergence() const { return divergence_; }
  int step() const { return step_; }  // steps done
  const Problem& problem() const { return problem_; }
  const Params& params() const { return params_; }
  const OptimizerState& optimizer() const { return opt_; }
  const std::vector<Metrics>& history() const { return history_; }  // since Reset or Restore

 private:
  bool Stop(int k, DivergenceCause cause, std::string why, std::string* error) {
    diverged_ = true;
    message_ = "step " + std::to_string(k) + ": training diverged: " + why;
    if (error) *error = why;
    divergence_ = Divergence{k, cause, std::move(why)};
    return false;
  }

  Problem problem_;
  bool ready_ = false, diverged_ = false;
  std::string message_;
  Divergence divergence_;
  Params params_, grads_;
  OptimizerState opt_;
  int step_ = 0;
  std::vector<Metrics> history_;
};

}  // namespace training
}  // namespace attn
