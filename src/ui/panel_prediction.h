// The Prediction tab's panels (model mode; issue 40), one idea a file, sharing this header:
//   panel_prediction.cpp              the page (laptop: two columns; phone: one), the answer and
//                                     foil boxes, the logit lens
//   panel_prediction_attribution.cpp  the attribution: parts, a head's source words, the map
//   panel_prediction_patching.cpp     activation patching: the prompts, Run / Cancel, the grid
//   panel_prediction_generate.cpp     generation: the sampling settings, the tokens as chips
// Every number is the inspect room's (app/inspect); the panels ask for it (app::WantLens, ...)
// and draw what it holds. Linked only into the builds with the model's code (CMakeLists.txt:
// attn_prediction_ui); the default page links panel_prediction_absent.cpp.
#pragma once

#include "text/prediction_strings.h"
#include "ui/ui.h"

#include <string>
#include <vector>

namespace ui {

// One panel each; `h` its height (0: what it needs, in a phone's scrolling column).
void DrawLensPanel(Context& ctx, float h);
void DrawAttributionPanel(Context& ctx, float h);
void DrawPatchingPanel(Context& ctx, float h);
void DrawGeneratePanel(Context& ctx, float h);

// The attribution's parts, a chosen head's source words and the map (the attribution panel, and
// the generation panel for the step of a chip). `slot_picture`: the heatmap picture of the map;
// `chosen_head`: the head whose words are listed (index into a.heads; -1: the largest part's).
void DrawAttribution(Context& ctx, const attn::model::Attribution& a, const std::vector<std::string>& tokens,
                     int slot_picture, int* chosen_head);

// A token's label for a sentence: spaces shown as "·" so that " Paris" and "Paris" differ.
std::string TokenLabel(const std::string& text);
// The state's answer or foil set to a token id ("#<id>").
void ChooseToken(Context& ctx, const char* field, int id);

// The pictures of the tab in gfx::HeatmapSlot::kPrediction
enum PredictionPicture { kLensPicture = 0, kAttributionPicture = 1, kPatchingPicture = 2, kStepPicture = 3 };

}  // namespace ui
