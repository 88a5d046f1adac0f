// A setting's choices, each with its label in both languages, and the combo that picks one (the
// normalizer in the settings and in run B, the training task, what run B changes, the text "Train
// it more" reads). The values are what the state holds (an enum, or a name compared with ==).
#pragma once

#include "ui/ui.h"

#include "engine/attention/normalizers.h"

#include <cstddef>

namespace ui {

template <class V>
struct Choice {
  V value;
  const Text* label;
};

// The label of `current` among `choices`, in the current language ("" when it is none of them).
template <class V, class C, std::size_t N>
const char* ChoiceLabel(const Choice<V> (&choices)[N], const C& current) {
  for (const Choice<V>& c : choices)
    if (c.value == current) return L(*c.label);
  return "";
}

// A combo labelled `label` showing `current`; true with *picked when the learner chose an entry.
template <class V, class C, std::size_t N>
bool ChoiceCombo(const char* label, const Choice<V> (&choices)[N], const C& current, V* picked) {
  bool chosen = false;
  if (ImGui::BeginCombo(label, ChoiceLabel(choices, current))) {
    for (const Choice<V>& c : choices)
      if (ImGui::Selectable(L(*c.label), c.value == current)) {
        *picked = c.value;
        chosen = true;
      }
    ImGui::EndCombo();
  }
  return chosen;
}

// The normalizers as the lab and the Training tab list them.
inline constexpr Choice<attn::Normalizer> kNormalizerChoices[] = {
    {attn::Normalizer::kSoftmax, &tr::kNormSoftmax}, {attn::Normalizer::kSparsemax, &tr::kNormSparsemax},
    {attn::Normalizer::kReluNorm, &tr::kNormRelu},   {attn::Normalizer::kSigmoid, &tr::kNormSigmoid},
    {attn::Normalizer::kNone, &tr::kNormNone},       {attn::Normalizer::kHardmax, &tr::kNormHardmax}};

}  // namespace ui
