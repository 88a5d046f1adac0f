// The lab's interface: one function per panel, each reading the engine's result from AppState and
// writing settings only through app::ApplyPatch. No maths here: every number comes from the engine.
#pragma once

#include "app/app.h"
#include "gfx/heatmap_renderer.h"

#include <imgui.h>

namespace ui {

struct Fonts {
  ImFont* text = nullptr;  // DejaVu Sans: Latin, Cyrillic, Greek, maths signs
  ImFont* mono = nullptr;  // DejaVu Sans Mono: numbers that line up in tables
};

struct Context {
  app::AppState& state;
  gfx::HeatmapRenderer& heatmap;
  const Fonts& fonts;
};

// style.cpp: colours and fonts. Fonts are rasterized at `pixel_ratio` so text stays sharp on
// HiDPI screens; call again (and rebuild the font texture) when the ratio or ui_scale changes.
void ApplyStyle();
Fonts LoadFonts(float pixel_ratio, float ui_scale);

void DrawLab(Context& ctx);  // layout.cpp: arranges the panels for a laptop or a phone

void DrawSentencePanel(Context& ctx);  // panel_sentence.cpp: text box and token chips
void DrawSettingsPanel(Context& ctx);  // panel_settings.cpp: projection, scaling, T, sizes
void DrawStepsPanel(Context& ctx);     // panel_steps.cpp: the step table and the formula
void DrawHeatmapPanel(Context& ctx);   // panel_heatmap.cpp: the N x N weights
void DrawVectorsPanel(Context& ctx);   // panel_vectors.cpp: PCA view, hull, A
void DrawInformationPanel(Context& ctx);  // panel_information.cpp: is information lost in the sum?
void DrawTrainingPanel(Context& ctx);     // panel_training.cpp: a model learns the pattern, live
void DrawNormalizationPanel(Context& ctx);  // panel_normalization.cpp: why softmax and ÷√d_k

// Shared helpers (layout.cpp).
bool BeginPanel(const char* title, const char* id, ImVec2 size);
void EndPanel();
const char* Num(float v, int decimals = 3);  // "−0.125" with a real minus sign, rotating buffer
std::string VectorText(const attn::VecF& v, int max_entries, int decimals = 3);

}  // namespace ui
