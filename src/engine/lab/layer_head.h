// The one check of a layer and a head index, for every caller that picks a head out of a model
// (the lab's heads, the trained model's layers and heads, its probe and its Information), in the
// lab's one wording: "layer: expected a layer index from 0 to 3, got 4" ("head: ... a head
// index ..."). The interface translates it by its code and value (ui/i18n.cpp).
#pragma once

#include "engine/lab/lab.h"

#include <string>

namespace attn {

// ok() when 0 <= layer < layers and 0 <= head < heads; else the layer's refusal first, then
// the head's (kLayerOutOfRange / kHeadOutOfRange, field "layer" / "head", value = the index).
inline LabError CheckLayerHead(int layers, int heads, int layer, int head) {
  auto refuse = [](ConfigError code, const char* field, const char* what, int count, int got) {
    LabError e;
    e.code = code;
    e.field = field;
    e.message = std::string(field) + ": expected " + what + " from 0 to " + std::to_string(count - 1) + ", got " +
                std::to_string(got);
    e.value = got;
    return e;
  };
  if (layer < 0 || layer >= layers) return refuse(ConfigError::kLayerOutOfRange, "layer", "a layer index", layers, layer);
  if (head < 0 || head >= heads) return refuse(ConfigError::kHeadOutOfRange, "head", "a head index", heads, head);
  return LabError();
}

}  // namespace attn
