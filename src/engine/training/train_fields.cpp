// The training settings table (TrainConfig): one row per field, the only place that names them,
// gives their ranges and says what they do.
#include "engine/base/common_fields.h"
#include "engine/training/train.h"

namespace attn {

const FieldTable<TrainConfig>& TrainFields() {
  using C = TrainConfig;
  static const FieldTable<C> table = {
      NameField<C>("task", &C::task, TaskName, ParseTask,
                   {TaskKind::kPreviousToken, TaskKind::kReverse, TaskKind::kVerbObject, TaskKind::kMax},
                   "what the model learns; each task has a known right attention pattern"),
      IntegerField<C>("length", &C::length, kMinLength, kMaxLength,
                      "tokens per example (previous, reverse, max)"),
      NameField<C>("optimizer", &C::optimizer, OptimizerName, ParseOptimizer,
                   {Optimizer::kAdam, Optimizer::kSgd}, "Adam (Kingma & Ba) or plain SGD"),
      NumberField<C>("lr", &C::lr, 0, kMaxLearningRate, /*min_open=*/true, "learning rate"),
      IntegerField<C>("batch", &C::batch, 1, kMaxBatch, "examples per step"),
      SeedField<C>(&C::seed, "seed of the parameters and of every batch"),
      NormalizerField<C>(&C::normalizer),
      ScaledField<C>(&C::scaled),
      IntegerField<C>("dModel", &C::d_model, 2, kMaxTrainDModel, "width of the token and position rows"),
      IntegerField<C>("dK", &C::d_k, 1, kMaxTrainDk, "width of q and k"),
      IntegerField<C>("dV", &C::d_v, 1, kMaxTrainDv, "width of the values"),
      HeadsField<C>(&C::heads),
      CausalField<C>(&C::causal),
      TextField<C>("example", &C::example,
                   "the sentence whose attention is shown; \"\" = the task's own example"),
  };
  return table;
}

}  // namespace attn
