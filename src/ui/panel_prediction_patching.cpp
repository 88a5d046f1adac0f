// Activation patching (panel_prediction.h): the sentence is the clean prompt, the box the
// corrupted one; what is swapped; Run / Cancel with a progress bar (the room runs a few forwards
// per frame, the page stays responsive); the grid of the normalized logit difference on the
// diverging colours, exportable as PNG, SVG, CSV and JSON.
#include "ui/panel_prediction.h"

#include "ui/choice.h"

#include <imgui_internal.h>  // GetActiveID: is the learner typing in the box
#include <misc/cpp/imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ui {

namespace {

void DrawPrompts(Context& ctx) {
  app::AppState& s = ctx.state;
  LockScope lock(ctx, "prediction");
  const char* label = Label(tr::kCorrupted, "p_corrupted");
  std::string& box = ctx.ui.corrupted_box;
  if (ImGui::GetActiveID() != ImGui::GetID(label)) box = s.lab.corrupted;
  const float example_w = ImGui::CalcTextSize(L(tr::kPatchExample)).x + ImGui::GetStyle().FramePadding.x * 2 + 8.0f;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - example_w - ImGui::CalcTextSize(L(tr::kCorrupted)).x - 12.0f);
  ImGui::InputTextWithHint(label, L(tr::kCorruptedHint), &box);
  if (ImGui::IsItemDeactivatedAfterEdit() && box != s.lab.corrupted) app::ApplyPatch(s, attn::api::Obj({{"corrupted", box}}));
  ImGui::SameLine();
  if (ImGui::Button(Label(tr::kPatchExample, "p_example")))  // a name swapped, in the interface's language
    app::ApplyPatch(s, attn::api::Obj({{"sentence", L(tr::kPatchExampleClean)}, {"corrupted", L(tr::kPatchExampleCorrupted)}}));
  static constexpr Choice<const char*> kWhat[] = {{"resid", &tr::kPatchResid}, {"attn", &tr::kPatchAttn}, {"mlp", &tr::kPatchMlp},
                                                 {"head", &tr::kPatchHead}, {"pattern", &tr::kPatchPattern}};
  ImGui::SetNextItemWidth(std::min(300.0f, ImGui::GetContentRegionAvail().x * 0.6f));
  if (const char* picked = nullptr; ChoiceCombo(Label(tr::kPatchWhat, "p_what"), kWhat, s.lab.patch, &picked))
    app::ApplyPatch(s, attn::api::Obj({{"patch", picked}}));
}

}  // namespace

void DrawPatchingPanel(Context& ctx, float h) {
  app::AppState& s = ctx.state;
  const app::PatchJob& job = s.inspect.Work().patching;
  if (!BeginPanel(ctx, L(tr::kPatchTitle), "patching", ImVec2(0, h), PanelExport{"patching", true, true})) {
    EndPanel();
    return;
  }
  TextWrappedAtSpaces(L(tr::kPatchIntro));
  DrawPrompts(ctx);
  const bool current = app::PatchingCurrent(s);
  char buf[300];
  {
    LockScope lock(ctx, "prediction");
    if (job.running) {
      if (ImGui::Button(Label(tr::kPatchCancel, "p_cancel"))) app::CancelPatching(s);
      ImGui::SameLine();
      std::snprintf(buf, sizeof buf, L(tr::kPatchProgress), job.run.finished(), job.run.total());
      ImGui::ProgressBar(job.run.total() > 0 ? job.run.finished() / static_cast<float>(job.run.total()) : 0.0f, ImVec2(-1, 0), buf);
    } else if (ImGui::Button(Label(tr::kPatchRun, "p_run"))) {
      app::StartPatching(s);
    }
  }
  if (!job.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    ImGui::TextWrapped("%s", job.error.c_str());
    ImGui::PopStyleColor();
  }
  if (!job.has) {
    EndPanel();
    return;
  }
  if (!current && !job.running) ImGui::TextDisabled("%s", L(tr::kPatchStale));
  if (job.cancelled) {
    std::snprintf(buf, sizeof buf, L(tr::kPatchCancelled), job.run.finished(), job.run.total());
    ImGui::TextDisabled("%s", buf);
  }
  const attn::model::LabModel& m = *s.model.loaded;
  const attn::model::PatchRun& run = job.run;
  std::snprintf(buf, sizeof buf, L(tr::kPatchLd), TokenLabel(m.tokenizer().Label(run.spec().target)).c_str(),
                TokenLabel(m.tokenizer().Label(run.spec().foil)).c_str(), Num(static_cast<float>(run.ld_clean()), 3),
                Num(static_cast<float>(run.ld_corrupted()), 3), job.ms / 1000.0);
  ImGui::TextDisabled("%s", buf);

  // The grid: layers (rows) × positions or heads, NaN (not run yet) as the colour of zero
  const int rows = run.rows(), cols = run.cols();
  const bool per_head = job.what == "head" || job.what == "pattern";
  std::vector<float> values(static_cast<std::size_t>(rows * cols), 0.0f);
  float range = 1.0f;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = run.metric()[i];
    values[i] = std::isnan(x) ? 0.0f : static_cast<float>(x);
    range = std::max(range, std::abs(values[i]));
  }
  ctx.heatmap.Upload(gfx::HeatmapSlot::kPrediction, kPatchingPicture, values, rows, cols);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float row_label_w = ImGui::CalcTextSize("00").x + 8.0f;
  const float w = ImGui::GetContentRegionAvail().x - row_label_w;
  const float cell_w = std::max(w / std::max(cols, 1), 18.0f);
  const float cell_h = std::clamp(line * 10.0f / std::max(rows, 1), 6.0f, line * 1.4f);
  ImGui::BeginChild("patch_map", ImVec2(0, cell_h * rows + line * 1.6f + ImGui::GetStyle().ScrollbarSize), false,
                    ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + row_label_w, origin.y), p1(p0.x + cell_w * cols, p0.y + cell_h * rows);
  ImGui::Dummy(ImVec2(row_label_w + cell_w * cols, cell_h * rows + line * 1.4f));
  ctx.heatmap.Draw(dl, gfx::HeatmapSlot::kPrediction, kPatchingPicture, p0, p1, -range, range, gfx::Colormap::kDiverging);
  AddFigure(ctx.ui, "patching", p0, p1, true, true);
  for (int r = 0; r < rows; r += std::max(1, rows / 12)) {
    char label[12];
    std::snprintf(label, sizeof label, "%d", r);
    dl->AddText(ImVec2(origin.x, p0.y + cell_h * r), IM_COL32(200, 200, 210, 255), label);
  }
  for (int c = 0; c < cols; ++c) {
    const std::string label = per_head ? std::to_string(c) : FitText(TokenLabel(job.clean[static_cast<std::size_t>(c)]), cell_w - 2.0f);
    dl->AddText(ImVec2(p0.x + cell_w * c + 1.0f, p1.y + 2.0f), IM_COL32(220, 220, 230, 255), label.c_str());
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsWindowHovered() && mouse.x >= p0.x && mouse.x < p1.x && mouse.y >= p0.y && mouse.y < p1.y) {
    const int c = std::clamp(static_cast<int>((mouse.x - p0.x) / cell_w), 0, cols - 1);
    const int r = std::clamp(static_cast<int>((mouse.y - p0.y) / cell_h), 0, rows - 1);
    const double x = run.metric()[static_cast<std::size_t>(r * cols + c)];
    char where[160];
    if (per_head)
      std::snprintf(where, sizeof where, L(tr::kPatchHeadN), c);
    else
      std::snprintf(where, sizeof where, L(tr::kPatchPosition), c, TokenLabel(job.clean[static_cast<std::size_t>(c)]).c_str());
    ImGui::SetTooltip(L(tr::kPatchCellTip), r, where, std::isnan(x) ? "…" : Num(static_cast<float>(x), 3));
  }
  ImGui::EndChild();
  EndPanel();
}

}  // namespace ui
