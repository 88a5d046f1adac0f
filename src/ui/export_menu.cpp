// The export menus (issue 11.5): a small "↓" button beside each picture that can be saved. A
// choice is queued in UiState::export_clicks; the platform writes the file after the frame
// (platform/export.cpp: the PNG from the GPU, the texts from app/figure_export.h) and the page
// downloads it (web/js/export.js).
#include "text/i18n.h"
#include "ui/ui.h"

#include "app/exports/figure_export.h"

#include <algorithm>
#include <cstring>

namespace ui {

void AddFigure(UiState& ui, const char* id, ImVec2 min, ImVec2 max, bool svg, bool numbers) {
  // Only what shows: a PNG is the screen's picture drawn again, so a picture scrolled partly out
  // of its panel is exported as far as it shows, and one scrolled out entirely is not on screen
  // (the page API's export is then refused: scroll to it first).
  const ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 c0 = dl->GetClipRectMin(), c1 = dl->GetClipRectMax();
  min = ImVec2(std::max(min.x, c0.x), std::max(min.y, c0.y));
  max = ImVec2(std::min(max.x, c1.x), std::min(max.y, c1.y));
  if (max.x - min.x < 4 || max.y - min.y < 4) return;
  ui.figures.push_back(Figure{id, min, max, svg, numbers});
}

void ExportMenu(UiState& ui, const char* id, bool svg, bool numbers, const ImVec2* top_right) {
  ImGui::PushID(id);
  const float w = ImGui::CalcTextSize("↓").x + ImGui::GetStyle().FramePadding.x * 2;
  if (top_right) {
    ImGui::SetCursorScreenPos(ImVec2(top_right->x - w, top_right->y));
  } else {
    ImGui::SameLine();
    const float right = ImGui::GetContentRegionMax().x;
    if (ImGui::GetCursorPosX() < right - w) ImGui::SetCursorPosX(right - w);
  }
  if (ImGui::SmallButton("↓###export")) ImGui::OpenPopup("export_menu");
  ui.export_menus.push_back(ExportMenuRect{id, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()});
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", L(tr::kExport));
  if (ImGui::BeginPopup("export_menu")) {
    // only what the export target writes (e.g. the what-if's Δ has CSV but no JSON)
    const app::ExportTarget* target = app::FindExportTarget(id);
    auto item = [&](const Text& label, const char* format) {
      if (target && std::none_of(target->formats.begin(), target->formats.end(),
                                 [&](const char* f) { return std::strcmp(f, format) == 0; }))
        return;
      if (ImGui::Selectable(Label(label, format))) ui.export_clicks.push_back(ExportClick{id, format});
      ui.export_menus.push_back(ExportMenuRect{std::string(id) + "." + format, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()});
    };
    item(tr::kExportPng, "png");
    if (svg) item(tr::kExportSvg, "svg");
    if (numbers) {
      item(tr::kExportCsv, "csv");
      item(tr::kExportJson, "json");
    }
    ImGui::EndPopup();
  }
  ImGui::PopID();
}

}  // namespace ui
