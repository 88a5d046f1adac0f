// The Prediction tab (panel_prediction.h): the page, the answer and foil boxes, and the logit
// lens -- layer × position, coloured by the answer's probability, each cell's top token written
// in it, the top 5 of the last position on hover (or a tap).
#include "ui/panel_prediction.h"

#include <imgui_internal.h>  // GetActiveID: is the learner typing in a box
#include <misc/cpp/imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ui {

namespace {

using app::Json;

void SetRow(app::AppState& s, const char* key, const std::string& value) {
  app::ApplyPatch(s, attn::api::Obj({{key, value}}));
}

// The answer and foil boxes: the text is applied when the learner leaves the box or presses
// Enter (a half-typed token would be refused at every letter); while not typed in, a box shows
// the state's.
void DrawTokenBoxes(Context& ctx) {
  app::AppState& s = ctx.state;
  LockScope lock(ctx, "prediction");
  const float w = std::min(180.0f, ImGui::GetContentRegionAvail().x * 0.3f);
  for (int k = 0; k < 2; ++k) {
    const char* field = k == 0 ? "answer" : "foil";
    std::string& box = k == 0 ? ctx.ui.answer_box : ctx.ui.foil_box;
    const std::string& current = k == 0 ? s.lab.answer : s.lab.foil;
    const char* label = Label(k == 0 ? tr::kAnswer : tr::kFoil, k == 0 ? "p_answer" : "p_foil");
    if (ImGui::GetActiveID() != ImGui::GetID(label)) box = current;
    ImGui::SetNextItemWidth(w);
    ImGui::InputTextWithHint(label, L(k == 0 ? tr::kAnswerHint : tr::kFoilHint), &box);
    if (ImGui::IsItemDeactivatedAfterEdit() && box != current) SetRow(s, field, box);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", L(tr::kTokenHelp));
    if (k == 0) ImGui::SameLine();
  }
  if (!s.lab.answer.empty() || !s.lab.foil.empty()) {
    ImGui::SameLine();
    if (ImGui::SmallButton("×###clear_tokens")) app::ApplyPatch(s, attn::api::Obj({{"answer", ""}, {"foil", ""}}));
  }
}

// A cell's text colour on the viridis map: light on the dark end.
ImU32 OnViridis(float p) { return p < 0.55f ? IM_COL32(255, 255, 255, 235) : IM_COL32(20, 20, 20, 235); }

}  // namespace

std::string TokenLabel(const std::string& text) {
  std::string out;
  for (char c : text) out += c == ' ' ? std::string("·") : c == '\n' ? std::string("↵") : std::string(1, c);
  return out;
}

void ChooseToken(Context& ctx, const char* field, int id) {
  if (Locked(ctx, "prediction")) return;
  SetRow(ctx.state, field, "#" + std::to_string(id));
}

void DrawLensPanel(Context& ctx, float h) {
  app::AppState& s = ctx.state;
  if (!BeginPanel(ctx, L(tr::kLensTitle), "lens", ImVec2(0, h))) {
    EndPanel();
    return;
  }
  DrawTokenBoxes(ctx);
  const app::InspectCache<attn::model::LogitLens>& c = s.inspect.Work().lens;
  if (!app::LensCurrent(s)) {
    app::WantLens(s);  // computed in the next frame's Tick: this one says so
    ImGui::TextDisabled("%s", L(tr::kComputing));
    EndPanel();
    return;
  }
  if (!c.ok) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    ImGui::TextWrapped("%s", c.error.c_str());
    ImGui::PopStyleColor();
    EndPanel();
    return;
  }
  const attn::model::LogitLens& lens = c.value;
  const attn::model::LabModel& m = *s.model.loaded;
  const std::vector<std::string>& texts = s.attention.model_result.texts;
  std::string answer = lens.chosen_target ? "«" + TokenLabel(m.tokenizer().Label(lens.targets.front())) + "»" : L(tr::kLensOwn);
  char buf[600];
  std::snprintf(buf, sizeof buf, L(tr::kLensCaption), answer.c_str());
  TextWrappedAtSpaces(buf);

  // The picture: rows k = L .. 0 from the top (the output first, as the stream rises), T columns.
  const int rows = lens.rows, cols = lens.positions;
  std::vector<float> values(static_cast<std::size_t>(rows * cols));
  for (int r = 0; r < rows; ++r)
    for (int t = 0; t < cols; ++t)
      values[static_cast<std::size_t>(r * cols + t)] = static_cast<float>(lens.At(rows - 1 - r, t).target_p);
  ctx.heatmap.Upload(gfx::HeatmapSlot::kPrediction, kLensPicture, values, rows, cols);
  const float row_label_w = ImGui::CalcTextSize(L(tr::kLensRowEmbed)).x + 8.0f;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float avail_w = ImGui::GetContentRegionAvail().x - row_label_w;
  const float cell_w = std::max(avail_w / std::max(cols, 1), 34.0f);  // narrower: it scrolls sideways
  const float left_h = ImGui::GetContentRegionAvail().y - line * 2.5f;
  const float cell_h = std::clamp(left_h / std::max(rows, 1), line * 1.1f, line * 2.2f);
  ImGui::BeginChild("lens_map", ImVec2(0, cell_h * rows + line * 1.6f + ImGui::GetStyle().ScrollbarSize), false,
                    ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + row_label_w, origin.y);
  const ImVec2 p1(p0.x + cell_w * cols, p0.y + cell_h * rows);
  ImGui::Dummy(ImVec2(row_label_w + cell_w * cols, cell_h * rows + line * 1.4f));
  ctx.heatmap.Draw(dl, gfx::HeatmapSlot::kPrediction, kLensPicture, p0, p1, 0.0f, 1.0f);
  AddFigure(ctx.ui, "lens", p0, p1, false, false);
  for (int r = 0; r < rows; ++r) {
    const int k = rows - 1 - r;
    char label[16];
    if (k == 0)
      std::snprintf(label, sizeof label, "%s", L(tr::kLensRowEmbed));
    else
      std::snprintf(label, sizeof label, "%d", k);
    dl->AddText(ImVec2(origin.x, p0.y + cell_h * r + (cell_h - ImGui::GetTextLineHeight()) * 0.5f), IM_COL32(200, 200, 210, 255), label);
    for (int t = 0; t < cols; ++t) {
      const attn::model::LensCell& cell = lens.At(k, t);
      const std::string top = FitText(TokenLabel(m.tokenizer().Label(cell.top.id)), cell_w - 4.0f);
      dl->AddText(ImVec2(p0.x + cell_w * t + 2.0f, p0.y + cell_h * r + (cell_h - ImGui::GetTextLineHeight()) * 0.5f),
                  OnViridis(static_cast<float>(cell.target_p)), top.c_str());
    }
  }
  for (int t = 0; t < cols; ++t) {
    const std::string tok = FitText(TokenLabel(texts[static_cast<std::size_t>(t)]), cell_w - 2.0f);
    dl->AddText(ImVec2(p0.x + cell_w * t + 1.0f, p1.y + 2.0f), IM_COL32(220, 220, 230, 255), tok.c_str());
  }
  // Hover (a tap on a phone): the cell's numbers; at the last position, the top 5
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsWindowHovered() && mouse.x >= p0.x && mouse.x < p1.x && mouse.y >= p0.y && mouse.y < p1.y) {
    const int t = std::clamp(static_cast<int>((mouse.x - p0.x) / cell_w), 0, cols - 1);
    const int r = std::clamp(static_cast<int>((mouse.y - p0.y) / cell_h), 0, rows - 1);
    const int k = rows - 1 - r;
    dl->AddRect(ImVec2(p0.x + cell_w * t, p0.y + cell_h * r), ImVec2(p0.x + cell_w * (t + 1), p0.y + cell_h * (r + 1)),
                IM_COL32(255, 255, 255, 255), 0, 0, 2.0f);
    const attn::model::LensCell& cell = lens.At(k, t);
    char where[64];
    if (k == 0)
      std::snprintf(where, sizeof where, "%s", L(tr::kLensEmbeddings));
    else
      std::snprintf(where, sizeof where, L(tr::kLensLayer), k);
    const int target = lens.targets[static_cast<std::size_t>(t)];
    const std::string tgt = "«" + TokenLabel(m.tokenizer().Label(target)) + "»";
    ImGui::BeginTooltip();
    ImGui::Text(L(tr::kLensCell), where, t, TokenLabel(texts[static_cast<std::size_t>(t)]).c_str(),
                TokenLabel(m.tokenizer().Label(cell.top.id)).c_str(), Num(static_cast<float>(cell.top.p), 3), tgt.c_str(),
                Num(static_cast<float>(cell.target_p), 3));
    if (t == cols - 1) {
      ImGui::TextDisabled("%s", L(tr::kLensTop5));
      for (const attn::model::LensToken& tok : lens.last_top5[static_cast<std::size_t>(k)])
        ImGui::Text("  «%s» #%d  %s", TokenLabel(m.tokenizer().Label(tok.id)).c_str(), tok.id, Num(static_cast<float>(tok.p), 3));
    }
    ImGui::EndTooltip();
    // a click on a cell makes its top token the answer
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ChooseToken(ctx, "answer", cell.top.id);
  }
  ImGui::EndChild();
  ctx.heatmap.DrawRamp(dl, ImVec2(p0.x, ImGui::GetCursorScreenPos().y), ImVec2(p0.x + 120.0f, ImGui::GetCursorScreenPos().y + 8.0f), 0.0f, 1.0f);
  ImGui::Dummy(ImVec2(0, 10.0f));
  EndPanel();
}

// The page: on a laptop the lens and patching on the left, the attribution and generation on
// the right; on a phone the four under one another, each as tall as it needs (the tab scrolls).
void DrawPredictionPage(Context& ctx, bool phone) {
  if (!PredictionShown(ctx)) return;
  if (phone) {
    const float line = ImGui::GetTextLineHeightWithSpacing();
    DrawLensPanel(ctx, std::max(Natural(ctx.ui, "lens", line * 14.0f), line * 8.0f));
    DrawAttributionPanel(ctx, std::max(Natural(ctx.ui, "attribution", line * 30.0f), line * 8.0f));
    DrawPatchingPanel(ctx, std::max(Natural(ctx.ui, "patching", line * 20.0f), line * 8.0f));
    DrawGeneratePanel(ctx, std::max(Natural(ctx.ui, "generate", line * 16.0f), line * 8.0f));
    return;
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float left_w = std::floor((avail.x - gap) * 0.5f);
  ImGui::BeginChild("prediction_left", ImVec2(left_w, 0), false);
  DrawLensPanel(ctx, std::floor(avail.y * 0.5f));
  DrawPatchingPanel(ctx, 0);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("prediction_right", ImVec2(0, 0), false);
  DrawAttributionPanel(ctx, std::floor(avail.y * 0.6f));
  DrawGeneratePanel(ctx, 0);
  ImGui::EndChild();
}

}  // namespace ui
