// Direct logit attribution (issue 40; TransformerLens's decompose_resid / stack_head_results with
// apply_ln_to_stack, then the dot with the unembedding direction): the final position's residual
// stream is a sum of parts -- the token's embedding, its position's (learned positions), every
// head's output z_h W_O[h], each layer's b_O, each MLP's output -- and the logit of the target
// (minus the foil's: a logit difference) splits the same way once the final norm's scale is
// taken as computed on the whole stream (cached, so the split is linear):
//
//   u = W_U[target] (- W_U[foil])                                         (C)
//   LayerNorm: part(c) = ((c - mean(c)) / sigma) (.) w_f . u,   sigma = sqrt(var(x) + eps)
//   RMSNorm:   part(c) = (c / r) (.) w_f . u,                    r = sqrt(mean(x^2) + eps)
//   constant:  b_f . u (LayerNorm's bias; RMSNorm has none)
//
// The parts sum to the model's own logit (difference) to float rounding (the tests: within 1e-4
// on every family). Each head's part splits further into its source tokens: key j gives
// part(alpha_j v_j W_O[h]) -- beside alpha_j (the attention weight) and ||alpha_j v_j W_O[h]|| (the
// contribution): three different numbers, and the largest weight is not always the word that
// moved the prediction most. The frozen scale is an approximation of what each part would do
// alone (the norm is not linear): docs/inspect.md.
//
// Everything in double from the forward's float activations, in a fixed order: the same numbers
// natively and in the page.
#pragma once

#include "model/arch/model.h"

#include <string>
#include <vector>

namespace attn {
namespace model {

struct AttributionPart {
  enum Kind { kEmbed, kPosEmbed, kHead, kAttnBias, kMlp, kFinalBias };
  Kind kind = kEmbed;
  int layer = -1, head = -1;  // kHead: both; kAttnBias, kMlp: the layer
  double value = 0;           // its share of the logit (difference)
  // "embed", "pos_embed", "head", "attn_bias", "mlp", "final_bias" (TransformerLens's labels' stems)
  const char* Name() const {
    static const char* const kNames[] = {"embed", "pos_embed", "head", "attn_bias", "mlp", "final_bias"};
    return kNames[kind];
  }
};

// One head's part, split over the keys the final position sees.
struct HeadSources {
  int layer = 0, head = 0;
  std::vector<double> weight;        // (T) alpha_j: the head's attention weight
  std::vector<double> contribution;  // (T) ||alpha_j v_j W_O[h]||
  std::vector<double> attribution;   // (T) part(alpha_j v_j W_O[h]): its share of the logit (difference)
};

struct Attribution {
  int position = 0;       // T - 1
  int target = 0;         // the token whose logit is split
  int foil = -1;          // -1: none; else the logit difference target - foil
  double logit = 0;       // the model's own logit (difference) at the position, from the forward
  double sum = 0;         // the parts' sum, in their order
  double scale = 0;       // sigma (LayerNorm) or r (RMSNorm) of the final stream
  std::vector<AttributionPart> parts;  // embed, pos_embed (learned positions), then per layer: its heads, attn bias (when it has one), mlp; final bias (LayerNorm)
  std::vector<HeadSources> heads;      // L * H, layer-major
};

// acts: a Forward of `tokens` with p and c (last_only is fine). target: -1 for the model's own
// prediction at the last position, else an id in [0, V); foil: -1 for none, else an id other
// than the target. False with an English one-line message otherwise.
bool ComputeAttribution(const Params<float>& p, const ModelConfig& c, const std::vector<int>& tokens,
                        const SequenceActs<float>& acts, int target, int foil, Attribution* out,
                        std::string* error = nullptr);

}  // namespace model
}  // namespace attn
