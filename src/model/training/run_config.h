// What `attnlab model train CONFIG.json` reads: the text, the tokenizer's size, the model's
// shape, the training and its bookkeeping, one settings row each (RunFields), so --help, the
// refusals and MODEL.md's table come from one place. Every field has a default: {} trains the
// shipped configuration.
#pragma once

#include "engine/base/fields.h"
#include "model/training/train.h"

#include <cstdint>
#include <string>

namespace attn {
namespace model {

struct RunConfig {
  std::string en_folder = "/usr/share/games/fortunes";     // Debian's fortunes
  std::string ru_folder = "/usr/share/games/fortunes/ru";  // Debian's fortunes-ru
  std::string en_docs, ru_docs;  // folders of documents (scripts/corpus.sh); empty: none
  int repeats = 0;           // percent of training windows with a repeated span (induction)
  double dropout = 0;        // on the embeddings and both residual branches, training only
  int fortune_copies = 1;    // the fortunes enter the training text (and the tokenizer's) this many times
  int vocab = 2048;          // BPE tokens at most (fewer when no pair occurs twice)
  int d_model = 128;
  int layers = 4;
  int heads = 4;
  int context = 64;
  int mlp = 512;
  int steps = 6000;
  int batch = 16;            // sequences per step, each `context` tokens
  double lr = 3e-3;
  double min_lr = 3e-4;
  int warmup = 200;
  double weight_decay = 0.1;
  double clip = 1.0;
  std::uint32_t seed = 1;
  int threads = 2;
  int log_every = 10;        // a metrics line every k steps
  int eval_every = 1000;     // a quick validation score every k steps (0: only at the end)
  int eval_targets = 8192;   // targets per language in the quick score
  int checkpoint_every = 500;
};

const FieldTable<RunConfig>& RunFields();

// The trainer's configuration for a vocabulary of `vocab` tokens (the tokenizer's real size).
TrainConfig ToTrainConfig(const RunConfig& r, int vocab);

}  // namespace model
}  // namespace attn
