// "What if, and what mattered" (issue 23): the learner edits a run and compares it with the plain
// one. The edits are LabConfig fields (lab_fields.cpp's rows); ComputeLab applies them, in this
// order, so that every number of an edited run still comes from the one pipeline:
//   1. what-if    whatIfToken / whatIfWith / whatIfMode: replace a token by a word, delete it
//                 (whatIfWith ""), or insert a word before it
//   2. shuffle    shuffle / shuffleSeed: permute the tokens (after the what-if); the positional
//                 encoding follows the new positions
//   3. knock-out  knockoutKeys: those keys are masked for every query of every head (the
//                 normalizer renormalizes the rest); knockoutHeads: those heads' output A is
//                 set to zero before W_O
//   4. values     valueToken / valueA / valueB: v_i of the chosen head += a p1 + b p2, p1 and p2
//                 the directions of the unedited run's vectors view (Pca2D::components); the
//                 head's A, the final output, the hull, the same-A set and the verdict follow
// Token indices (query, target, whatIfToken, knockoutKeys, valueToken) name the tokens of the
// sentence as typed and follow their token through the edits (RunEdits::to_run).
//
// CompareLab runs the lab twice, plain and edited, and aligns the two: Δα, ΔA and the change of
// the information verdict.
//
// Shapes: N = tokens of the typed sentence, N' = of the edited run, H = heads, Dv = d_v,
// Do = d_model (the projected output).
#pragma once

#include "engine/lab/lab.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// ---- the edits alone (ComputeLab calls these) ---------------------------------------------------

// Whether any edit field differs from "no edit".
bool HasEdits(const LabConfig& cfg);
// The same configuration without any edit: the plain run CompareLab compares with.
LabConfig WithoutEdits(const LabConfig& cfg);

// Checks the edit fields against the typed sentence's token count (the table's rules already
// passed). Refusals read "<field>: expected <what>, got <value>" with code kEditInvalid. In
// model mode: the word edit is checked here, the knock-outs' indices by the model
// (model::CheckModelEdits); the shuffle, value edits and a word edit with knock-outs are refused.
LabError CheckEdits(const LabConfig& cfg, int n_tokens);

// The sentence as typed with the word edit applied to its text (model mode tokenizes it again):
// replace = the token's bytes replaced; insert = the word and a space before the token;
// delete = the token's bytes and the spaces after it (before it, for the last token).
// `typed` = Tokenize(cfg.sentence).tokens; without a word edit, the sentence itself.
std::string EditedSentence(const LabConfig& cfg, const std::vector<Token>& typed);

// The permutation of n tokens: perm[k] = the token at position k after the shuffle.
std::vector<int> ShufflePermutation(int n, ShuffleMode mode, std::uint64_t seed);

// Steps 1-2: the run's tokens from the typed ones, and the alignment (edits->from_typed,
// to_run, replaced, inserted, deleted, shuffled). Preconditions: CheckEdits passed.
std::vector<Token> EditTokens(const LabConfig& cfg, const std::vector<Token>& typed, RunEdits* edits);

// Step 3, keys: the explicit mask (N', N') with the knocked-out keys' columns false.
Mask KnockoutMask(int n, const std::vector<int>& keys);

// Steps 3 (heads) and 4 as hooks on the forward (attention/hooks.h), which every number after
// them then follows (that head's output, the concatenation, W_O, the panels): each knocked-out
// head's z set to 0, and v_i of head cfg.head moved by a p1 + b p2, p1 and p2 the directions of
// that head's vectors view in this run without the value edit (edits->plane, computed here by a
// forward of x with the other edits; edits->value_offset = a p1 + b p2). `cfg` is the run's
// configuration (its query an index of the run's tokens), x (N, D) what the heads read, w and
// mcfg the forward's weights and settings. False (and an English line) if that forward fails.
bool AddEditHooks(const LabConfig& cfg, const MatF& x, const MultiHeadWeights<float>& w,
                  const MultiHeadConfig& mcfg, RunEdits* edits, Hooks<float>* hooks, std::string* error);

// After FinishLab: the vectors view of a value edit stays in edits->plane (a dragged point moves
// by exactly (a, b), up to rounding) and its hull follows; a knocked-out chosen head's
// contributions say that nothing reaches A (removal 0, A_{-i} = 0).
void FinishEdits(const LabConfig& run, LabResult* result);

// ---- the comparison ---------------------------------------------------------------------------

// The information verdict of one run (LabResult::information), the part that can change.
struct Verdict {
  bool recoverable = false;  // alpha is a function of A (AffineInfo::recoverable)
  bool unique = false;       // no other pattern gives this A (Collision::unique)
  int affine_rank = 0;
  int same_output_dim = 0;   // dimension of the weights with the same A
};
Verdict VerdictOf(const InformationReport& info);

struct LabComparison {
  LabError error;         // the edited run's refusal (or the plain one's); nothing below is valid
  LabResult plain;        // ComputeLab(WithoutEdits(cfg))
  LabResult edited;       // ComputeLab(cfg)
  // Alignment: plain index i <-> edited index to_edited[i] (-1: the token was deleted); edited
  // tokens with from_plain == -1 were inserted. A replaced token stays aligned with its slot.
  std::vector<int> to_edited;   // (N)
  std::vector<int> from_plain;  // (N')
  // Δα per head, indexed by the plain run's tokens: d_weights[h](i, j) = α'(i', j') - α(i, j)
  // with i' = to_edited[i], j' = to_edited[j], computed in double from the two float runs. A
  // deleted key counts α' = 0 (its column is -α); a deleted query has no row in the edited run:
  // its row is 0 (and row_present[i] = 0). Weight an inserted key took: inserted_weight[h](i).
  std::vector<MatD> d_weights;        // H of (N, N)
  std::vector<VecD> inserted_weight;  // H of (N): α'(i', inserted), 0 when nothing was inserted
  std::vector<char> row_present;      // (N)
  double max_abs_d_weight = 0;        // over every head and present row
  int query = 0;                      // the plain run's query; the edited one is to_edited[query]
  VecD d_output;        // (Dv) A'(query') - A(query), the chosen head, per dimension
  VecD d_final_output;  // (Do) the same for the projected output (after W_O)
  double d_output_norm = 0, d_final_output_norm = 0;  // ||d_output||, ||d_final_output||, in order
  // A shuffle (the only edit): both runs again in double (the same embeddings and weights), the
  // largest |difference| of any head's weights and outputs, each token followed to its new place.
  // Without positions and causal mask it is only the rounding of sums taken in another order
  // (~1e-16); -1 when the edit is not a shuffle alone.
  double shuffle_double_max_diff = -1;
  Verdict verdict_plain, verdict_edited;
  bool verdict_changed = false;  // recoverable, unique or same_output_dim differ
};

// Both runs and their difference. Never throws; a refusal of either run is in `error`.
LabComparison CompareLab(const LabConfig& cfg);
// The same from two finished runs of `cfg`: plain = ComputeLab(WithoutEdits(cfg)) and edited =
// ComputeLab(cfg) (or the model's), e.g. the app's, which keeps the plain run while only the
// edits change (a dragged value). The edited run's refusal comes first, as in CompareLab.
LabComparison CompareRuns(const LabConfig& cfg, LabResult plain, LabResult edited);

}  // namespace attn
