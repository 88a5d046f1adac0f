// Issue 23 in model mode: knock-outs inside the trained model, and what they do to the next token.
//
// The lab's head (layer l, head h) weighs the keys; what reaches the prediction is another matter:
// a key with a large weight may change nothing after W_O, the MLP and the later layers. Here the
// model itself is asked: key i masked out for every query of that head (the rest renormalized by
// its softmax), or whole heads' outputs A set to zero, then the model's own forward pass to the
// end, and the next token's log-probability compared with the plain run's.
//
// A knock-out is a set of hooks on model::Forward (engine/attention/hooks.h): a key masked out
// of one head = its column of that head's attn_scores set to -inf; a head knocked out = its z set
// to 0. Without a knock-out the run is Forward's, bit for bit.
// Shapes: T = tokens with <|endoftext|> first, C = d_model, Dh = C / H, V = vocabulary.
#pragma once

#include "model/arch/model.h"
#include "model/lab/model_lab.h"

#include <string>
#include <utility>
#include <vector>

namespace attn {
namespace model {

struct ModelKnockout {
  std::vector<std::pair<int, int>> heads;  // (layer, head) pairs whose output A is set to zero
  int layer = -1;                          // the head whose keys are masked: (layer, head);
  int head = -1;                           // -1 = none
  std::vector<int> keys;                   // token indices (0 = <|endoftext|>) masked for every
                                           // query of that head
};

// The knock-out's hooks (indices outside the model are skipped: CheckModelEdits refuses them).
Hooks<float> KnockoutHooks(const ModelKnockout& k, const ModelConfig& c);
// Forward of one sequence, last position only, with the knock-out's hooks. False (and an English
// line) on bad input or a non-finite result.
bool ForwardKnockedOut(SequenceActs<float>& acts, const Params<float>& p, const ModelConfig& c,
                       const Sequence& s, const ModelKnockout& k, std::string* error = nullptr);

// For the lab's head (cfg.layer, cfg.head), every token i: the log-probability of the plain run's
// likeliest next token (plain.next[0]) with key i masked out in that head, minus the plain one.
// Masking <|endoftext|> (i = 0) is allowed (it is often the head's sink). (T) entries.
struct NextTokenEffects {
  int next_id = 0;              // the token whose log-probability is followed
  double logp = 0;              // its log-probability in the plain run
  std::vector<double> delta;    // (T) log p without key i - logp
  std::vector<double> logp_without;  // (T)
};
bool KeyNextTokenEffects(const LabModel& m, const LabConfig& cfg, const ModelLabResult& plain,
                         NextTokenEffects* out, std::string* error = nullptr);
// One key of it: starts *out (next_id, logp) when it is empty, then appends key
// out->delta.size()'s entry; the page computes one key per frame (app/model/model_effects.cpp).
bool NextKeyNextTokenEffect(const LabModel& m, const LabConfig& cfg, const ModelLabResult& plain,
                            NextTokenEffects* out, std::string* error = nullptr);

// ---- the lab's what-if in model mode (app/whatif/) ---------------------------------------------

// The knock-outs' indices against the model and the plain run's n tokens (<|endoftext|> = 0):
// knockoutKeys name tokens of the chosen head (cfg.layer, cfg.head), knockoutHeads layer:head
// pairs of any layer. The one wording, code kEditInvalid; ok when there are none.
LabError CheckModelEdits(const LabConfig& cfg, const ModelConfig& c, int n_tokens);
// The knock-outs of cfg (CheckModelEdits passed) as the forward pass takes them.
ModelKnockout KnockoutOf(const LabConfig& cfg, const ModelConfig& c);

// The edited run against the plain one, in the model: a word edit runs the model on the edited
// sentence (engine EditedSentence); knock-outs run ForwardKnockedOut on the plain tokens.
// Shapes: T = the plain run's tokens, T' = the edited run's.
struct ModelComparison {
  std::string sentence;                  // the edited run's sentence (the plain one for knock-outs)
  std::vector<std::string> texts;        // (T') the edited run's tokens
  std::vector<int> to_edited;            // (T) plain token -> edited token, -1 = none (the edited word)
  std::vector<NextToken> next_plain;     // top 5 after the last token
  std::vector<NextToken> next_edited;
  // Δα = α' − α of every head, index layer * H + head, each (T, T) on the plain run's tokens (in
  // double from the two float runs); 0 where the plain token has no counterpart.
  std::vector<MatD> d_weights;
  double max_abs_d_weight = 0;
};
// False (lab error in *error, the one wording) when the edited run is refused (e.g. the edited
// sentence has too many model tokens). `plain` is ComputeModelLab(m, WithoutEdits(cfg)).
bool CompareModelRuns(const LabModel& m, const LabConfig& cfg, const ModelLabResult& plain,
                      ModelComparison* out, LabError* error);

}  // namespace model
}  // namespace attn
