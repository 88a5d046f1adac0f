// The model-training settings table.
#include "model/training/run_config.h"

#include "engine/base/common_fields.h"

namespace attn {
namespace model {

const FieldTable<RunConfig>& RunFields() {
  using C = RunConfig;
  static const FieldTable<C> table = {
      TextField<C>("enFolder", &C::en_folder, "folder of the English fortune files"),
      TextField<C>("ruFolder", &C::ru_folder, "folder of the Russian fortune files (UTF-8)"),
      TextField<C>("enDocs", &C::en_docs, "folder of English documents, *.txt (scripts/corpus.sh; empty: none)"),
      TextField<C>("ruDocs", &C::ru_docs, "folder of Russian documents, *.txt (scripts/corpus.sh; empty: none)"),
      IntegerField<C>("fortuneCopies", &C::fortune_copies, 1, 16,
                      "times the fortunes enter the training text and the tokenizer's (weights the mix)"),
      IntegerField<C>("vocab", &C::vocab, 258, 16384, "BPE vocabulary size (at most)"),
      IntegerField<C>("dModel", &C::d_model, 8, 1024, "width of the residual stream"),
      IntegerField<C>("layers", &C::layers, 1, 16, "transformer blocks"),
      IntegerField<C>("heads", &C::heads, 1, 16, "attention heads per block (divides dModel)"),
      IntegerField<C>("context", &C::context, 2, 1024, "positions per sequence"),
      IntegerField<C>("mlp", &C::mlp, 1, 8192, "width of the MLP's hidden layer"),
      IntegerField<C>("steps", &C::steps, 1, 1000000, "optimizer steps"),
      IntegerField<C>("batch", &C::batch, 1, 1024, "sequences per step"),
      IntegerField<C>("repeats", &C::repeats, 0, 100,
                      "percent of training windows that repeat their start (a reason to learn induction)"),
      NumberField<C>("dropout", &C::dropout, 0, 0.9, false,
                     "dropout probability on the embeddings and both residual branches (training only; 0: none)"),
      NumberField<C>("lr", &C::lr, 0, 1, /*min_open=*/true, "peak learning rate (AdamW)"),
      NumberField<C>("minLr", &C::min_lr, 0, 1, false, "learning rate at the end of the cosine"),
      IntegerField<C>("warmup", &C::warmup, 0, 1000000, "steps of linear warm-up"),
      NumberField<C>("weightDecay", &C::weight_decay, 0, 1, false, "AdamW's decoupled decay of the matrices"),
      NumberField<C>("clip", &C::clip, 0, 1e6, false, "global gradient-norm clip (0: none)"),
      SeedField<C>(&C::seed, "seed of the initialization and of every batch"),
      IntegerField<C>("threads", &C::threads, 1, 64, "threads (the result does not depend on it)"),
      IntegerField<C>("logEvery", &C::log_every, 1, 1000000, "a metrics line every k steps"),
      IntegerField<C>("evalEvery", &C::eval_every, 0, 1000000,
                      "a quick validation score every k steps (0: only at the end)"),
      IntegerField<C>("evalTargets", &C::eval_targets, 1, 100000000,
                      "tokens per language in the quick validation score"),
      IntegerField<C>("checkpointEvery", &C::checkpoint_every, 0, 1000000,
                      "write checkpoint.bin every k steps (0: never)"),
  };
  return table;
}

TrainConfig ToTrainConfig(const RunConfig& r, int vocab) {
  TrainConfig t;
  t.model = {vocab, r.d_model, r.layers, r.heads, r.context, r.mlp};
  t.schedule = {r.lr, r.min_lr, r.warmup, r.steps};
  t.adamw.weight_decay = r.weight_decay;
  t.seed = r.seed;
  t.batch = r.batch;
  t.length = r.context;
  t.clip = r.clip;
  t.threads = r.threads;
  t.repeat_percent = r.repeats;
  t.dropout = r.dropout;
  return t;
}

}  // namespace model
}  // namespace attn
