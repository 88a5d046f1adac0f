// The attribution (panel_prediction.h): the last position's logit of the answer split into the
// residual stream's parts (the largest as bars), one head's part over the words it reads --
// weight, contribution and push side by side, three different numbers -- and every head ×
// every word as a map on the diverging colours.
#include "ui/panel_prediction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace ui {

namespace {

constexpr int kBars = 10;  // the largest parts drawn as bars

std::string PartLabel(const attn::model::AttributionPart& p) {
  char buf[96];
  switch (p.kind) {
    case attn::model::AttributionPart::kEmbed: return L(tr::kPartEmbed);
    case attn::model::AttributionPart::kPosEmbed: return L(tr::kPartPos);
    case attn::model::AttributionPart::kHead: std::snprintf(buf, sizeof buf, L(tr::kPartHead), p.layer, p.head); return buf;
    case attn::model::AttributionPart::kAttnBias: std::snprintf(buf, sizeof buf, L(tr::kPartAttnBias), p.layer); return buf;
    case attn::model::AttributionPart::kMlp: std::snprintf(buf, sizeof buf, L(tr::kPartMlp), p.layer); return buf;
    case attn::model::AttributionPart::kFinalBias: return L(tr::kPartFinalBias);
  }
  return "";
}

// The head whose part is largest in size (index into a.heads), -1 when there are none.
int LargestHead(const attn::model::Attribution& a, int heads_per_layer) {
  int best = -1;
  double size = -1;
  for (const attn::model::AttributionPart& p : a.parts)
    if (p.kind == attn::model::AttributionPart::kHead && std::abs(p.value) > size) {
      size = std::abs(p.value);
      best = p.layer * heads_per_layer + p.head;
    }
  return best;
}

ImU32 PushColour(double x) { return x >= 0 ? IM_COL32(220, 90, 70, 255) : IM_COL32(70, 130, 220, 255); }

}  // namespace

void DrawAttribution(Context& ctx, const attn::model::Attribution& a, const std::vector<std::string>& tokens,
                     int picture, int* chosen_head) {
  const attn::model::LabModel& m = *ctx.state.model.loaded;
  const int heads_per_layer = m.config().heads;
  const auto label = [&m](int id) { return TokenLabel(m.tokenizer().Label(id)); };
  char buf[700];
  if (a.foil >= 0)
    std::snprintf(buf, sizeof buf, L(tr::kAttrOfFoil), label(a.target).c_str(), label(a.foil).c_str(), Num(static_cast<float>(a.logit), 4),
                  Num(static_cast<float>(a.scale), 4));
  else
    std::snprintf(buf, sizeof buf, L(tr::kAttrOf), label(a.target).c_str(), Num(static_cast<float>(a.logit), 4), Num(static_cast<float>(a.scale), 4));
  TextWrappedAtSpaces(buf);
  std::snprintf(buf, sizeof buf, L(tr::kAttrSum), Num(static_cast<float>(a.sum), 4), Num(static_cast<float>(a.logit), 4));
  ImGui::TextDisabled("%s", buf);

  // The largest parts, as bars around zero; a head's bar chooses that head
  std::vector<int> order(a.parts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return std::abs(a.parts[x].value) > std::abs(a.parts[y].value); });
  if (order.size() > kBars) order.resize(kBars);
  double scale = 1e-9;
  for (int i : order) scale = std::max(scale, std::abs(a.parts[static_cast<std::size_t>(i)].value));
  ImGui::TextDisabled("%s", L(tr::kAttrLargest));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float label_w = 0;  // the longest label shown, at most 45 % of the width
  for (int i : order) label_w = std::max(label_w, ImGui::CalcTextSize(PartLabel(a.parts[static_cast<std::size_t>(i)]).c_str()).x);
  label_w = std::min(label_w + 12.0f, ImGui::GetContentRegionAvail().x * 0.45f);
  const float bar_w = std::max(60.0f, ImGui::GetContentRegionAvail().x - label_w - 80.0f);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  if (*chosen_head < 0 || *chosen_head >= static_cast<int>(a.heads.size())) *chosen_head = LargestHead(a, heads_per_layer);
  for (int i : order) {
    const attn::model::AttributionPart& p = a.parts[static_cast<std::size_t>(i)];
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::PushID(i);
    const bool head = p.kind == attn::model::AttributionPart::kHead;
    const int index = head ? p.layer * heads_per_layer + p.head : -1;
    if (ImGui::InvisibleButton("part", ImVec2(label_w + bar_w + 70.0f, line)) && head) *chosen_head = index;
    ImGui::PopID();
    const bool chosen = head && index == *chosen_head;
    dl->AddText(ImVec2(at.x, at.y + 1), chosen ? IM_COL32(245, 155, 40, 255) : IM_COL32(225, 225, 232, 255), FitText(PartLabel(p), label_w - 6.0f).c_str());
    const float mid = at.x + label_w + bar_w * 0.5f;
    const float len = static_cast<float>(p.value / scale) * bar_w * 0.5f;
    dl->AddRectFilled(ImVec2(std::min(mid, mid + len), at.y + 3), ImVec2(std::max(mid, mid + len), at.y + line - 3), PushColour(p.value));
    dl->AddLine(ImVec2(mid, at.y), ImVec2(mid, at.y + line), IM_COL32(150, 150, 160, 255));
    dl->AddText(ImVec2(at.x + label_w + bar_w + 6.0f, at.y + 1), IM_COL32(225, 225, 232, 255), Num(static_cast<float>(p.value), 3));
  }
  if (*chosen_head < 0) return;  // (a model with no heads is refused before: defensive)

  // One head's part over the words it reads: weight, contribution, push
  const attn::model::HeadSources& h = a.heads[static_cast<std::size_t>(*chosen_head)];
  double part = 0;
  for (const attn::model::AttributionPart& p : a.parts)
    if (p.kind == attn::model::AttributionPart::kHead && p.layer == h.layer && p.head == h.head) part = p.value;
  ImGui::Spacing();
  std::snprintf(buf, sizeof buf, L(tr::kAttrHeadSources), h.layer, h.head, Num(static_cast<float>(part), 3));
  ImGui::TextColored(ImVec4(0.95f, 0.60f, 0.15f, 1.0f), "%s", buf);
  const int n = static_cast<int>(h.weight.size());
  int top_weight = 0, top_push = 0;
  for (int j = 1; j < n; ++j) {
    if (h.weight[j] > h.weight[top_weight]) top_weight = j;
    if (std::abs(h.attribution[j]) > std::abs(h.attribution[top_push])) top_push = j;
  }
  if (n > 0) {
    const std::string w_tok = TokenLabel(tokens[static_cast<std::size_t>(top_weight)]);
    const std::string p_tok = TokenLabel(tokens[static_cast<std::size_t>(top_push)]);
    if (top_weight == top_push)
      std::snprintf(buf, sizeof buf, L(tr::kAttrSame), w_tok.c_str());
    else
      std::snprintf(buf, sizeof buf, L(tr::kAttrVerdict), w_tok.c_str(), Num(static_cast<float>(h.weight[top_weight]), 3), p_tok.c_str(),
                    Num(static_cast<float>(h.attribution[top_push]), 3));
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.8f, 1.0f, 1.0f));
    TextWrappedAtSpaces(buf);
    ImGui::PopStyleColor();
  }
  ImGui::PushFont(ctx.fonts.mono);
  const float table_h = std::min(line * (n + 1.5f), line * 9.0f);
  if (ImGui::BeginTable("sources", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp,
                        ImVec2(0, table_h))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn(L(tr::kAttrToken));
    ImGui::TableSetupColumn(L(tr::kAttrWeight));
    ImGui::TableSetupColumn(L(tr::kAttrContribution));
    ImGui::TableSetupColumn(L(tr::kAttrAttribution));
    ImGui::TableHeadersRow();
    for (int j = 0; j < n; ++j) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FitText(TokenLabel(tokens[static_cast<std::size_t>(j)]), 160.0f).c_str());
      ImGui::TableNextColumn();
      if (j == top_weight) ImGui::TextColored(ImVec4(0.95f, 0.60f, 0.15f, 1.0f), "%s", Num(static_cast<float>(h.weight[j]), 4));
      else ImGui::TextUnformatted(Num(static_cast<float>(h.weight[j]), 4));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(Num(static_cast<float>(h.contribution[j]), 4));
      ImGui::TableNextColumn();
      ImGui::TextColored(h.attribution[j] >= 0 ? ImVec4(0.95f, 0.45f, 0.38f, 1.0f) : ImVec4(0.45f, 0.62f, 0.95f, 1.0f), "%s",
                         Num(static_cast<float>(h.attribution[j]), 4));
    }
    ImGui::EndTable();
  }
  ImGui::PopFont();

  // Every head × every word: the push (diverging, symmetric range); hover for the three numbers
  const int rows = static_cast<int>(a.heads.size());
  if (rows == 0 || n == 0) return;
  ImGui::TextDisabled("%s", L(tr::kAttrMap));
  std::vector<float> values(static_cast<std::size_t>(rows * n), 0.0f);
  double range = 1e-6;
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < n; ++j) {
      const double x = a.heads[static_cast<std::size_t>(r)].attribution[static_cast<std::size_t>(j)];
      values[static_cast<std::size_t>(r * n + j)] = static_cast<float>(x);
      range = std::max(range, std::abs(x));
    }
  ctx.heatmap.Upload(gfx::HeatmapSlot::kPrediction, picture, values, rows, n);
  const float w = ImGui::GetContentRegionAvail().x;
  const float cell_h = std::clamp(line * 12.0f / rows, 3.0f, line);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 p1(p0.x + w, p0.y + cell_h * rows);
  ImGui::InvisibleButton("attr_map", ImVec2(w, cell_h * rows));
  const bool clicked = ImGui::IsItemClicked();
  ctx.heatmap.Draw(dl, gfx::HeatmapSlot::kPrediction, picture, p0, p1, static_cast<float>(-range), static_cast<float>(range),
                   gfx::Colormap::kDiverging);
  const int ch = *chosen_head;
  dl->AddRect(ImVec2(p0.x, p0.y + cell_h * ch), ImVec2(p1.x, p0.y + cell_h * (ch + 1)), IM_COL32(245, 155, 40, 255));
  if (ImGui::IsItemHovered()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int j = std::clamp(static_cast<int>((mouse.x - p0.x) / (w / n)), 0, n - 1);
    const int r = std::clamp(static_cast<int>((mouse.y - p0.y) / cell_h), 0, rows - 1);
    const attn::model::HeadSources& hr = a.heads[static_cast<std::size_t>(r)];
    ImGui::SetTooltip(L(tr::kAttrCellTip), hr.layer, hr.head, TokenLabel(tokens[static_cast<std::size_t>(j)]).c_str(),
                      Num(static_cast<float>(hr.attribution[j]), 4), Num(static_cast<float>(hr.weight[j]), 4),
                      Num(static_cast<float>(hr.contribution[j]), 4));
    if (clicked) *chosen_head = r;
  }
}

void DrawAttributionPanel(Context& ctx, float h) {
  app::AppState& s = ctx.state;
  if (!BeginPanel(ctx, L(tr::kAttrTitle), "attribution", ImVec2(0, h))) {
    EndPanel();
    return;
  }
  const app::InspectCache<attn::model::Attribution>& c = s.inspect.Work().attribution;
  if (!app::AttributionCurrent(s)) {
    app::WantAttribution(s);
    ImGui::TextDisabled("%s", L(tr::kComputing));
  } else if (!c.ok) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    ImGui::TextWrapped("%s", c.error.c_str());
    ImGui::PopStyleColor();
  } else {
    if (ctx.ui.prediction_key != c.key) {  // another sentence or answer: the largest part's head again
      ctx.ui.prediction_key = c.key;
      ctx.ui.prediction_head = -1;
    }
    DrawAttribution(ctx, c.value, s.attention.model_result.texts, kAttributionPicture, &ctx.ui.prediction_head);
  }
  EndPanel();
}

}  // namespace ui
