// Rows that several settings tables share (the lab's, training's, the CLI's raw attention input):
// written once so that the same setting reads the same everywhere.
#pragma once

#include "engine/base/fields.h"
#include "engine/base/limits.h"  // kMaxSeed, kMinHeads, kMaxHeads
#include "engine/attention/normalizers.h"

#include <iterator>
#include <string>

namespace attn {

template <class C>
Field<C> NormalizerField(Normalizer C::*member) {
  return NameField<C>("normalizer", member, NormalizerName, ParseNormalizer,
                      {std::begin(kAllNormalizers), std::end(kAllNormalizers)},
                      "how the scaled scores become weights");
}

template <class C, class M>
Field<C> SeedField(M C::*member, FieldHelp help) {
  return IntegerField<C>("seed", member, 0, static_cast<double>(kMaxSeed), std::move(help));
}

template <class C>
Field<C> HeadsField(int C::*member) {
  return IntegerField<C>("heads", member, kMinHeads, kMaxHeads, "number of attention heads");
}

template <class C>
Field<C> ScaledField(bool C::*member) {
  return BooleanField<C>("scaled", member, "multiply the scores by 1/sqrt(d_k)");
}

template <class C>
Field<C> CausalField(bool C::*member) {
  return BooleanField<C>("causal", member, "causal mask: a token attends to itself and the earlier ones");
}

}  // namespace attn
