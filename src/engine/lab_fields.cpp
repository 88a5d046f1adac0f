// The lab's settings table (LabConfig): one row per field, the only place that names them,
// gives their ranges and says what they do.
#include "common_fields.h"
#include "lab.h"

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
  };
  return table;
}

}  // namespace attn
