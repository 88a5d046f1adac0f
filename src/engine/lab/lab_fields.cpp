// The lab's settings table (LabConfig): one row per field, the only place that names them,
// gives their ranges and says what they do.
#include "engine/base/common_fields.h"
#include "engine/lab/lab.h"

namespace attn {

const FieldTable<LabConfig>& LabFields() {
  using C = LabConfig;
  static const FieldTable<C> table = {
      TextField<C>("sentence", &C::sentence, "the sentence (Latin or Cyrillic), at most 64 tokens"),
      IntegerField<C>("query", &C::query, 0, kMaxTokens - 1, "token index of the query word"),
      NameField<C>("projection", &C::projection, ProjectionName, ParseProjection,
                   {Projection::kIdentity, Projection::kRandom, Projection::kModel},
                   "identity (q = k = v = x, the seed's account), seeded random W_Q, W_K, W_V, or "
                   "model: a head of the trained bilingual model (loaded when chosen; it fixes "
                   "dModel, dK, dV, heads, seed, positional, normalizer, causal, scaled and "
                   "temperature)"),
      NumberField<C>("temperature", &C::temperature, kMinTemperature, kMaxTemperature, false,
                     "divides the scores before the normalizer"),
      ScaledField<C>(&C::scaled),
      IntegerField<C>("dModel", &C::d_model, kMinDim, kMaxDim, "width of the word embeddings x"),
      IntegerField<C>("dK", &C::d_k, kMinDim, kMaxDim, "width of q and k (random projections)"),
      SeedField<C>(&C::seed, "seed of the embeddings and the random projections"),
      BooleanField<C>("positional", &C::positional, "add the sinusoidal positional encoding"),
      HeadsField<C>(&C::heads),
      IntegerField<C>("head", &C::head, 0, kMaxHeads - 1,
                      "the head the panels explain (0..heads-1; the model's 0..3)"),
      IntegerField<C>("layer", &C::layer, 0, kMaxLayers - 1,
                      "projection model: the layer of the head the panels explain (0..3)"),
      NormalizerField<C>(&C::normalizer),
      CausalField<C>(&C::causal),
      IntegerField<C>("dV", &C::d_v, kMinDim, kMaxDim, "width of the values v"),
      IntegerField<C>("target", &C::target, -1, kMaxTokens - 1,
                      "the information panel's second scenario moves weight onto this token; "
                      "-1 = the first token after the most-weighted one that the query can see; "
                      "a token the query cannot see (masked) is moved to the automatic one"),
      // ---- edits (whatif.h): token indices name the typed sentence's tokens
      OnlyLinkedWhenChanged(IntegerField<C>("whatIfToken", &C::what_if_token, -1, kMaxTokens - 1,
                      "what if: the token replaced by whatIfWith, deleted (whatIfWith \"\") or "
                      "inserted before (whatIfMode insert); -1 = none")),
      OnlyLinkedWhenChanged(TextField<C>("whatIfWith", &C::what_if_with,
                   "what if: the replacement or inserted word (one token); \"\" deletes")),
      OnlyLinkedWhenChanged(NameField<C>("whatIfMode", &C::what_if_mode, WhatIfModeName, ParseWhatIfMode,
                   {WhatIfMode::kReplace, WhatIfMode::kInsert},
                   "what if: replace (or delete) the token, or insert the word before it")),
      OnlyLinkedWhenChanged(NameField<C>("shuffle", &C::shuffle, ShuffleModeName, ParseShuffleMode,
                   {ShuffleMode::kOff, ShuffleMode::kReverse, ShuffleMode::kSeeded},
                   "permute the tokens (after the what-if): off, reverse, or seeded by shuffleSeed")),
      OnlyLinkedWhenChanged(IntegerField<C>("shuffleSeed", &C::shuffle_seed, 0, static_cast<double>(kMaxSeed),
                      "the seed of shuffle seeded")),
      OnlyLinkedWhenChanged(ParsedTextField<C>("knockoutKeys", &C::knockout_keys,
                   "knock-out: token indices no query may attend to, comma-separated (\"1,3\"); "
                   "the normalizer renormalizes the rest (projection model: model tokens, 0 = "
                   "<|endoftext|>, in the chosen head)")),
      OnlyLinkedWhenChanged(ParsedTextField<C>("knockoutHeads", &C::knockout_heads,
                   "knock-out: layer:head pairs whose output A is set to zero (\"0:1\"; layer 0 "
                   "only, except in the trained model)")),
      OnlyLinkedWhenChanged(IntegerField<C>("valueToken", &C::value_token, -1, kMaxTokens - 1,
                      "value edit: the token whose value v (chosen head) moves by valueA, valueB "
                      "in the vectors view's plane; -1 = none")),
      OnlyLinkedWhenChanged(NumberField<C>("valueA", &C::value_a, -kMaxValueOffset, kMaxValueOffset, false,
                     "value edit: the offset along the vectors view's first direction")),
      OnlyLinkedWhenChanged(NumberField<C>("valueB", &C::value_b, -kMaxValueOffset, kMaxValueOffset, false,
                     "value edit: the offset along the vectors view's second direction")),
  };
  return table;
}

}  // namespace attn
