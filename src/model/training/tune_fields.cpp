// The rows of "Train it more" (finetune.h: TuneFields). A file of its own: the page's state
// and `attnlab` read these rows in every build, the default page's too, which links none of
// the model's code (absent.cpp).
#include "model/training/finetune.h"

#include "engine/base/common_fields.h"

namespace attn {
namespace model {

const FieldTable<TuneConfig>& TuneFields() {
  using C = TuneConfig;
  static const FieldTable<C> table = {
      IntegerField<C>("batch", &C::batch, 1, 16, "sequences per step"),
      IntegerField<C>("length", &C::length, 2, 64,
                      "tokens per sequence (at most the model's context, 64 for the shipped one; fewer when the text is shorter)"),
      NumberField<C>("lr", &C::lr, 0, 0.1, /*min_open=*/true, "learning rate (AdamW, constant)"),
      SeedField<C>(&C::seed, "seed of the batches (which windows of the text each step reads)"),
  };
  return table;
}

}  // namespace model
}  // namespace attn
