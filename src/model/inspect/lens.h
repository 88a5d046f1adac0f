// The logit lens (issue 40; TransformerLens's accumulated residual through ln_final and the
// unembedding): what would the model say if it stopped after layer k? For every k = 0..L and
// position t, the residual stream x_k[t] (k = 0: the embeddings, resid_pre of block 0; k >= 1:
// resid_post of block k - 1) through the final norm -- its statistics computed afresh for each
// vector, as TransformerLens does -- and W_U:
//
//   lens[k][t] = softmax(FinalNorm(x_k[t]) W_U^T)                 (V)
//
// Row k = L is the model's own prediction (the same products, the same bits as its logits). The
// picture is L + 1 rows by T columns: the top token of each cell, its probability, and the
// probability of a target token (default: the model's own final prediction at that position;
// or one token the learner chose, the same for every column).
#pragma once

#include "model/arch/model.h"

#include <string>
#include <vector>

namespace attn {
namespace model {

struct LensToken {
  int id = 0;
  double p = 0;  // softmax probability
};

struct LensCell {
  LensToken top;    // the most likely token at (k, t)
  double target_p = 0;  // the probability of the column's target
};

struct LogitLens {
  int rows = 0;     // L + 1: k = 0 the embeddings, k = l + 1 after block l
  int positions = 0;  // T
  bool chosen_target = false;  // targets are one chosen token (else each column's own prediction)
  std::vector<int> targets;    // (T) the target token of each column
  std::vector<LensCell> cells;  // rows x positions, row-major: cells[k * T + t]
  std::vector<std::vector<LensToken>> last_top5;  // (rows) the top 5 at the last position, likeliest first
  const LensCell& At(int k, int t) const { return cells[static_cast<std::size_t>(k * positions + t)]; }
};

// acts: a full Forward of `tokens` with p and c (every row of every block kept; last_only is fine:
// only the residual streams are read). target: -1 for each column's own prediction, else a token
// id in [0, V). threads: the unembedding's products by output slices (the same bits). False with
// an English one-line message on a bad target or acts that do not belong to the model.
bool ComputeLogitLens(const Params<float>& p, const ModelConfig& c, const SequenceActs<float>& acts, int target,
                      LogitLens* out, std::string* error = nullptr, int threads = 1);

}  // namespace model
}  // namespace attn
