// The sentence box and its tokens as chips; clicking a chip makes that token the query.
#include "ui/i18n.h"
#include "ui/ui.h"

#include <misc/cpp/imgui_stdlib.h>

#include <algorithm>

namespace ui {

void DrawSentencePanel(Context& ctx) {
  app::AppState& s = ctx.state;
  // As tall as its content: the chips wrap like words, so count their rows first.
  const ImGuiStyle& st = ImGui::GetStyle();
  const float inner_w = ImGui::GetContentRegionAvail().x - 2 * st.WindowPadding.x;
  int chip_rows = 1;
  float x = 0;
  for (const auto& tok : s.result.tokens) {
    const float w = ImGui::CalcTextSize(tok.text.c_str()).x + 2 * st.FramePadding.x + st.ItemSpacing.x;
    if (x > 0 && x + w > inner_w) { ++chip_rows; x = 0; }
    x += w;
  }
  const float frame = ImGui::GetFrameHeightWithSpacing(), line = ImGui::GetTextLineHeightWithSpacing();
  const float wanted = 2 * st.WindowPadding.y + 3 * line + frame * (1 + chip_rows) + st.ItemSpacing.y * 2;
  const float h = std::min(wanted, std::max(120.0f, ImGui::GetContentRegionAvail().y * 0.6f));
  if (BeginPanel(ctx, L(tr::kSentence), "sentence", ImVec2(0, h))) {
    LockScope lock(ctx, "sentence");  // shown read-only: the box and the chips are disabled
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputTextWithHint("##sentence", L(tr::kSentenceHint), &s.sentence_edit))
      app::ApplyPatch(s, {{"sentence", s.sentence_edit}}, app::Source::kSentenceBox);

    ImGui::TextDisabled("%s", L(tr::kTokensHint));
    const auto& tokens = s.result.tokens;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
      const bool is_query = i == s.lab.config.query;
      ImGui::PushID(i);
      if (is_query) {
        ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.95f, 0.60f, 0.15f, 1.0f));
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.05f, 0.05f, 0.05f, 1.0f));
      }
      if (ImGui::Button(tokens[i].text.c_str())) app::ApplyPatch(s, {{"query", i}});
      if (ImGui::IsItemHovered()) {
        ctx.ui.hovered_key = i;
        ImGui::SetTooltip("%d: «%s»%s", i, tokens[i].text.c_str(), is_query ? "  (q)" : "");
      }
      if (is_query) ImGui::PopStyleColor(2);
      ImGui::PopID();
      // Wrap the chips like words in a paragraph.
      if (i + 1 < static_cast<int>(tokens.size())) {
        const float next_w = ImGui::CalcTextSize(tokens[i + 1].text.c_str()).x +
                             2 * ImGui::GetStyle().FramePadding.x;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + next_w < right) ImGui::SameLine();
      }
    }
    if (!tokens.empty())
      ImGui::Text("%s: «%s»", L(tr::kQuery), tokens[s.lab.config.query].text.c_str());
  }
  EndPanel();
}

}  // namespace ui
