// The one check of a layer and a head index, for every caller that picks a head out of a model
// (the lab's heads, the trained model's layers and heads, its probe and its Information), in the
// lab's one wording: "layer: expected a layer index from 0 to 3, got 4" ("head: ... a head
// index ..."). The interface translates it by its code and value (ui/i18n.cpp).
#pragma once

#include "engine/lab/refuse.h"

#include <string>

namespace attn {

// ok() when 0 <= layer < layers and 0 <= head < heads; else the layer's refusal first, then
// the head's (kLayerOutOfRange / kHeadOutOfRange, field "layer" / "head", value = the index).
inline LabError CheckLayerHead(int layers, int heads, int layer, int head) {
  if (layer < 0 || layer >= layers) return RefuseIndex(ConfigError::kLayerOutOfRange, "layer", "a layer index", layers, layer);
  if (head < 0 || head >= heads) return RefuseIndex(ConfigError::kHeadOutOfRange, "head", "a head index", heads, head);
  return LabError();
}

}  // namespace attn
