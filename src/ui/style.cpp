#include "ui/ui.h"

#include "DejaVuSans_ranges.h"  // generated: kFontRanges, every code point the subset font holds
#include "attn_assets.h"  // generated: the subset DejaVu fonts embedded at build time

namespace ui {

void ApplyStyle() {
  ImGui::StyleColorsDark();
  ImGuiStyle& st = ImGui::GetStyle();
  st.WindowRounding = 0.0f;
  st.ChildRounding = 4.0f;
  st.FrameRounding = 3.0f;
  st.GrabRounding = 3.0f;
  st.WindowPadding = ImVec2(10, 8);
  st.ItemSpacing = ImVec2(8, 6);
  st.Colors[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.12f, 1.0f);
  st.Colors[ImGuiCol_ChildBg] = ImVec4(0.12f, 0.13f, 0.16f, 1.0f);
}

Fonts LoadFonts(float pixel_ratio, float text_scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  // Every glyph the subset holds (the letters learners type, the symbols the sources use:
  // cmake/font_subset.py), so a symbol in a source is drawn, never a �.
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;  // the bytes are static, in the program
  cfg.OversampleH = 2;
  const float size = 15.0f * text_scale * pixel_ratio;
  Fonts f;
  f.text = io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kAsset_DejaVuSans_subset_ttf),
                                          static_cast<int>(kAsset_DejaVuSans_subset_ttf_size), size, &cfg,
                                          kFontRanges);
  // Tables use the text font too: DejaVu Sans's digits all have the same width, so numbers still
  // line up, and the page no longer carries a second font (about 6 KB gzipped of its 500 KB).
  f.mono = f.text;
  io.FontGlobalScale = 1.0f / pixel_ratio;  // rasterized at device pixels, laid out in CSS pixels
  return f;
}

}  // namespace ui
