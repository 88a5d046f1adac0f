// Auto-height (the page's attentionLab:height): the height the lab would like, from what it
// shows. Panels record their natural height as they end (layout.cpp's EndPanel, or SetNatural
// after it for a picture); WantedHeight adds them up as the layout arranges them.
#include "ui/ui.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ui {

void SetNatural(UiState& ui, const char* id, float h) {
  for (UiState::Natural& n : ui.natural)
    if (!n.id || std::strcmp(n.id, id) == 0) {
      n = {id, h};
      return;
    }
}

float Natural(const UiState& ui, const char* id, float guess) {
  for (const UiState::Natural& n : ui.natural)
    if (n.id && std::strcmp(n.id, id) == 0) return n.h;
  return guess;  // not drawn yet (another tab)
}

// In CSS px: the header (`top`: where the pages begin), the lesson, the tab bar and the tallest
// shown page, so that changing tabs does not resize the iframe. Text panels count as tall as their content (measured); pictures and
// the tables that scroll inside their panels at a height in lines, or by the width for a
// square picture on a phone.
float WantedHeight(const Context& ctx, bool phone, bool lesson, float top) {
  const UiState& ui = ctx.ui;
  const attn::api::LabState& lab = ctx.state.lab;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing(), gap = st.ItemSpacing.y;
  const float tab_bar = ImGui::GetFrameHeight() + gap;
  const float width = ImGui::GetMainViewport()->WorkSize.x;
  auto shown = [&](const char* view) { return app::ViewVisible(lab, view); };
  auto panel = [&](const char* id, float lines) { return Natural(ui, id, lines * line) + gap; };
  // The sentence, the settings and (model mode) the head gallery: the laptop's left column, the
  // phone's first tab.
  float input = 0;
  if (!Hidden(ctx, "sentence")) input += panel("sentence", 6);
  if (!Hidden(ctx, "settings")) input += panel("settings", 20);
  if (ModelMode(ctx) && !Hidden(ctx, "weights")) input += panel("heads", 12);
  float pages = 0;
  if (phone) {
    // The tabs of text and tables (they scroll inside): 38 lines.
    if (shown("sentence")) pages = input + (TuneShown(ctx) ? 14 * line : 0.0f);
    if (shown("weights")) pages = std::fmax(pages, panel("heatmap", 7 + width / line));
    if (shown("vectors")) pages = std::fmax(pages, 5 * line + 0.8f * width);
    if (shown("steps") || shown("information") || shown("whatif") || shown("training") || shown("normalization"))
      pages = std::fmax(pages, 38 * line);
    pages += tab_bar;
    if (lesson) pages += ui.lesson_folded ? 2.2f * ImGui::GetFrameHeightWithSpacing() : std::fmin(panel("lesson", 12), 22 * line);
  } else {
    const bool top_row = !Hidden(ctx, "weights") || !Hidden(ctx, "vectors");
    const bool bottom = !Hidden(ctx, "steps") || !Hidden(ctx, "information") || !Hidden(ctx, "whatif") || TuneShown(ctx);
    const float right = (top_row ? 20 * line + gap : 0.0f) + (bottom ? 15 * line + gap : 0.0f);
    const bool attention = shown("steps") || shown("weights") || shown("vectors") || shown("information") ||
                           shown("whatif") || shown("sentence");
    const int count = attention + shown("training") + shown("normalization");
    if (attention) pages = std::fmax(input, right);
    if (shown("training")) pages = std::fmax(pages, 36 * line);
    if (shown("normalization")) pages = std::fmax(pages, 34 * line);
    if (count > 1) pages += tab_bar;
    if (lesson) pages = std::fmax(pages, panel("lesson", 16));
  }
  return std::floor(std::clamp(top + pages + st.WindowPadding.y, 240.0f, 2400.0f));
}

}  // namespace ui
