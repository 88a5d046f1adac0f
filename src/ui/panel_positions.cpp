// "Positions" (model mode; issue 39's RoPE scene): does the chosen head's score of the query's
// word on the word it leans on depend on where the two stand, or only on how far apart they
// are? The app measures it on the loaded model (model/inspect/offsets.h: layer 0's scores from
// the model's own forward, the two words moved together to ten places, then one apart more);
// this panel writes the table and what it shows. Rotary models (Llama, Qwen, Mistral): one
// number to rounding. Learned positions (GPT-2, the lab's own): numbers that move.
#include "text/i18n.h"
#include "ui/ui.h"

#include <cmath>
#include <cstdio>

namespace ui {

void DrawPositionsPanel(Context& ctx) {
  app::AppState& s = ctx.state;
  if (!ModelMode(ctx)) return;
  app::EnsureModelOffsets(s);  // the app measures it once per result shown here
  // Its content's height (the last frame's), at least the room it has: a tab on a laptop, a
  // panel among others in a phone's column.
  const float h = std::fmax(ImGui::GetContentRegionAvail().y, Natural(ctx.ui, "positions", ImGui::GetTextLineHeightWithSpacing() * 24.0f));
  if (!BeginPanel(ctx, L(tr::kPositionsTitle), "positions", ImVec2(0, h))) {
    EndPanel();
    return;
  }
  const app::ModelOffsets& o = s.model.offsets;
  if (!o.ok) {
    ImGui::TextWrapped("%s", o.error.c_str());
    EndPanel();
    return;
  }
  const attn::model::OffsetScene& sc = o.value;
  const auto& texts = s.attention.model_result.texts;
  const char* a = texts[static_cast<std::size_t>(o.query)].c_str();
  const char* b = texts[static_cast<std::size_t>(o.key_position)].c_str();
  char buf[900];
  std::snprintf(buf, sizeof buf, L(tr::kPositionsWhat), a, o.query, b, o.key_position, sc.offset, sc.head);
  ImGui::TextWrapped("%s", buf);
  // What the numbers say (before the table, which may scroll): the model's kind of positions and
  // the spreads measured below
  if (sc.rotary)
    std::snprintf(buf, sizeof buf, L(tr::kPositionsRotary), sc.same_spread, sc.change);
  else
    std::snprintf(buf, sizeof buf, L(tr::kPositionsLearned), sc.same_spread, sc.change);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.8f, 1.0f, 1.0f));
  ImGui::TextWrapped("%s", buf);
  ImGui::PopStyleColor();
  ImGui::PushFont(ctx.fonts.mono);
  if (ImGui::BeginTable("offsets", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn(L(tr::kPositionsB));
    ImGui::TableSetupColumn(L(tr::kPositionsA));
    ImGui::TableSetupColumn(L(tr::kPositionsScore));
    ImGui::TableSetupColumn(L(tr::kPositionsAMoved));
    ImGui::TableSetupColumn(L(tr::kPositionsScore));
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < sc.starts.size(); ++i) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%d", sc.starts[i]);
      ImGui::TableNextColumn();
      ImGui::Text("%d", sc.starts[i] + sc.offset);
      ImGui::TableNextColumn();
      ImGui::Text("%.6f", sc.same[i]);
      ImGui::TableNextColumn();
      ImGui::Text("%d", sc.starts[i] + sc.offset + 1);
      ImGui::TableNextColumn();
      ImGui::Text("%.6f", sc.moved[i]);
    }
    ImGui::EndTable();
  }
  ImGui::PopFont();
  EndPanel();
}

}  // namespace ui
