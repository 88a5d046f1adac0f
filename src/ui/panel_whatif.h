// The What if tab in three files, by idea: panel_whatif.cpp (the edits, their list, the verdict,
// the panel's layout), panel_whatif_delta.cpp (the pictures of the difference) and
// panel_whatif_model.cpp (model mode). What the first calls of the second.
#pragma once

#include "ui/ui.h"

#include "engine/whatif/whatif.h"

#include <cstdio>
#include <string>

namespace ui {
namespace whatif {

// A small number as the tab writes it (1.2e-07): the differences are often at rounding's scale.
inline std::string Sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", x);
  return buf;
}

void DrawBeforeAfter(Context& ctx, const attn::LabComparison& c);  // the plain and the edited weights, small
void DrawDelta(Context& ctx, const attn::LabComparison& c);        // Δα of the chosen head, with its legend
void DrawDeltaHeads(Context& ctx, const attn::LabComparison& c);   // Δα of every head (several heads)
void DrawDeltaOutput(Context& ctx, const attn::LabComparison& c);  // ΔA per dimension, its norm, after W_O

// One head's Δα `d` (N, N) as a side × side thumbnail at the cursor (texture `index` of the
// what-if slot, the diverging colours over [-range, range]), outlined (orange when `chosen`) and
// labelled in its corner; true when clicked. The lab's heads and the model's gallery draw it.
bool DeltaThumbnail(Context& ctx, const attn::MatD& d, int index, float side, float range, bool chosen,
                    const char* label);

}  // namespace whatif
}  // namespace ui
