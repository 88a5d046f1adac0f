// The Training tab in two files, by idea: panel_training.cpp (the controls and the panel's
// layout) and panel_training_pictures.cpp (the example's heatmaps, the backward pass, the
// curves and the gradient norms). What both use is here.
#pragma once

#include "ui/ui.h"

#include <string>

namespace ui {
namespace training {

inline const ImU32 kColA = IM_COL32(245, 155, 40, 255);   // run A: orange (like the query)
inline const ImU32 kColB = IM_COL32(90, 200, 230, 255);   // run B: light blue
inline const ImU32 kColQ = IM_COL32(240, 110, 110, 255);  // W_Q
inline const ImU32 kColK = IM_COL32(120, 210, 120, 255);  // W_K
inline const ImU32 kColV = IM_COL32(170, 140, 250, 255);  // W_V
inline const ImU32 kPos = IM_COL32(110, 190, 250, 255);   // signed bars: > 0
inline const ImU32 kNeg = IM_COL32(250, 120, 100, 255);   //              < 0

// A training setting through ApplyPatch ({"train": {key: value}}).
void SetTrain(app::AppState& s, const char* key, const app::Json& value, app::Source source = app::Source::kUi);
// What run B changes, in words ("B: no ÷√d_k", "B: sparsemax", ...), from the engine's config.
std::string CompareText(const app::AppState& s);
// The panel's right side: the pictures of runs A (and B); `narrow` stacks them.
void DrawPictures(Context& ctx, bool narrow);

}  // namespace training
}  // namespace ui
