// The N x N weights: row = query i, column = key j. Drawn by the GPU from a float texture
// through shaders/heatmap.frag (viridis), with token labels, the query's row outlined, the
// value under the mouse, and a legend.
#include "text/i18n.h"
#include "ui/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ui {

namespace {
static_assert(attn::kMaxHeads <= gfx::kHeatmapHeadsPerSlot, "one heatmap texture per head");
constexpr float kMin = 0.0f, kMax = 1.0f;  // weights are probabilities: one fixed scale for all
}  // namespace

void DrawHeatmapPanel(Context& ctx) {
  if (ModelPendingPanel(ctx, L(tr::kHeatmap), "heatmap")) return;
  app::AppState& s = ctx.state;
  const attn::AttentionTrace<float>& t = s.attention.result.trace;
  const auto& tokens = s.attention.result.tokens;
  const int n = static_cast<int>(t.weights.rows());
  float natural = 0;  // auto-height: with room, the map as wide as the panel
  if (BeginPanel(ctx, L(tr::kHeatmap), "heatmap", ImVec2(0, 0), PanelExport{"weights", true, true})) {
    const attn::Normalizer nz = Shown(ctx).normalizer;  // sigmoid's and none's rows need not sum to 1
    const bool sums_to_1 = nz != attn::Normalizer::kSigmoid && nz != attn::Normalizer::kNone;
    ImGui::TextWrapped("%s", L(sums_to_1 ? tr::kHeatmapCaption : tr::kHeatmapCaptionNoSum));
    ctx.heatmap.Upload(gfx::HeatmapSlot::kLab, 0, attn::ToRowMajor(t.weights), n, n);

    // Several heads: all of them small, side by side; a click follows that head.
    const int heads = static_cast<int>(s.attention.result.mha.heads.size());
    if (heads > 1) {
      ImGui::TextDisabled("%s", L(tr::kHeadsStrip));
      const float gap = ImGui::GetStyle().ItemSpacing.x;
      const float small = std::min(56.0f, (ImGui::GetContentRegionAvail().x - gap * (heads - 1)) / heads);
      ImDrawList* sdl = ImGui::GetWindowDrawList();
      for (int h = 0; h < heads; ++h) {
        ctx.heatmap.Upload(gfx::HeatmapSlot::kLabHeads, h, attn::ToRowMajor(s.attention.result.mha.heads[h].weights), n, n);
        if (h) ImGui::SameLine();
        const ImVec2 a = ImGui::GetCursorScreenPos();
        ImGui::PushID(h);
        if (ImGui::InvisibleButton("head", ImVec2(small, small)) && !Locked(ctx, "weights")) app::ApplyPatch(s, attn::api::Obj({{"head", h}}));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip(L(tr::kHeadOf), h, heads - 1);
        ImGui::PopID();
        const ImVec2 b(a.x + small, a.y + small);
        ctx.heatmap.Draw(sdl, gfx::HeatmapSlot::kLabHeads, h, a, b, kMin, kMax);
        sdl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2),
                     h == s.lab.config.head ? IM_COL32(245, 155, 40, 255) : IM_COL32(90, 90, 100, 255), 0, 0,
                     h == s.lab.config.head ? 2.5f : 1.0f);
        char num[16];
        std::snprintf(num, sizeof num, "%d", h);  // from 0, as the state, Settings and the CLI
        sdl->AddText(ImVec2(a.x + 2, a.y + 1), IM_COL32(255, 255, 255, 230), num);
      }
    }

    // Room for the row labels on the left and the column labels on top.
    float label_w = 0;
    for (const auto& tok : tokens) label_w = std::max(label_w, ImGui::CalcTextSize(tok.text.c_str()).x);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // At most 150 px, or a third of a narrow panel (1 024 px wide, the lesson's column beside
    // it): a longer label keeps its index and the word's start and ends in "…" (FitText), so
    // the heatmap keeps the room and the rows can still be matched with the columns.
    label_w = std::min({label_w + 8.0f + ImGui::CalcTextSize("00 ").x, 150.0f,
                        std::max(ImGui::CalcTextSize("00 ").x + 8.0f, 0.33f * avail.x)});
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float entropy_w = ImGui::CalcTextSize("H 0.000").x + 10.0f;  // the rows' entropy, on the right
    // As wide as the panel allows, as tall as it allows too; but never under 60 % of the width
    // (a phone's short tab under the lesson then scrolls rather than shrinking it to a stamp).
    const float by_width = avail.x - label_w - entropy_w - 4.0f;
    const float side = std::max(40.0f, std::min(by_width, std::max(avail.y - 5.8f * line, 0.6f * by_width)));
    natural = ImGui::GetCursorPosY() + std::max(40.0f, by_width) + 5.8f * line + ImGui::GetStyle().WindowPadding.y;
    const float cell = side / static_cast<float>(std::max(n, 1));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 p0(origin.x + label_w, origin.y + line);
    const ImVec2 p1(p0.x + side, p0.y + side);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ctx.heatmap.Draw(dl, gfx::HeatmapSlot::kLab, 0, p0, p1, kMin, kMax);

    // Labels: rows are queries (left), columns are keys (top, where they fit).
    const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 query_col = IM_COL32(245, 155, 40, 255);
    // When a word does not fit above its column, every column shows its index instead, and the
    // rows say "index word", so that the two can be matched.
    bool names_fit = true;
    for (int i = 0; i < n; ++i) names_fit = names_fit && cell >= ImGui::CalcTextSize(tokens[i].text.c_str()).x + 4;
    const float idx_w = ImGui::CalcTextSize(n > 10 ? "00" : "0").x;
    // Every k-th index, k the first of 1, 2, 5, 10, 20, ... whose span holds a number and a gap
    // (at ~50 tokens in a phone's column every 5th still crowded).
    int idx_step = 1;
    for (const int k : {1, 2, 5, 10, 20, 50}) {
      idx_step = k;
      if (cell * static_cast<float>(k) >= idx_w + 6) break;
    }

    for (int i = 0; i < n; ++i) {
      char label[160];
      if (names_fit) std::snprintf(label, sizeof label, "%s", tokens[i].text.c_str());
      else std::snprintf(label, sizeof label, "%d %s", i, tokens[i].text.c_str());
      const ImVec2 ts = ImGui::CalcTextSize(label);
      const float cy = p0.y + cell * (i + 0.5f);
      if (cell >= ts.y * 0.8f || i == s.attention.result.steps.query) {
        const std::string row = FitText(label, p0.x - 4 - origin.x);
        const float row_w = ImGui::CalcTextSize(row.c_str()).x;
        dl->PushClipRect(origin, ImVec2(p0.x - 4, p1.y), true);
        dl->AddText(ImVec2(p0.x - 4 - row_w, cy - ts.y * 0.5f), i == s.attention.result.steps.query ? query_col : text_col, row.c_str());
        dl->PopClipRect();
      }
      if (names_fit) {
        dl->AddText(ImVec2(p0.x + cell * (i + 0.5f) - ts.x * 0.5f, origin.y), text_col, label);
      } else if (i % idx_step == 0) {
        char idx[16];
        std::snprintf(idx, sizeof idx, "%d", i);
        const ImVec2 is = ImGui::CalcTextSize(idx);
        // Centred on its column, but never past the heatmap's right edge (the "H" header is there).
        const float x = std::min(p0.x + cell * (i + 0.5f) - is.x * 0.5f, p1.x - is.x);
        dl->AddText(ImVec2(x, origin.y), IM_COL32(160, 170, 185, 255), idx);
      }
    }
    // Values in the cells when they fit (dark text on the light end of viridis).
    if (cell >= ImGui::CalcTextSize("0.00").x + 6) {
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const float w = t.weights(i, j);
          const char* txt = Num(w, 2);
          const ImVec2 ts = ImGui::CalcTextSize(txt);
          dl->AddText(ImVec2(p0.x + cell * (j + 0.5f) - ts.x * 0.5f, p0.y + cell * (i + 0.5f) - ts.y * 0.5f),
                      w > 0.6f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 230), txt);
        }
    }
    // Masked cells: hatched, so that a 0 from the mask reads differently from a learned 0.
    const attn::Mask& mask = s.attention.result.mha.mask;
    if (mask.rows() == n && mask.cols() == n && cell >= 6.0f) {
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (!mask(i, j)) {
            const ImVec2 a(p0.x + cell * j, p0.y + cell * i), b(a.x + cell, a.y + cell);
            dl->AddLine(a, b, IM_COL32(160, 160, 170, 120), 1.0f);
            dl->AddLine(ImVec2(a.x + cell * 0.5f, a.y), ImVec2(b.x, a.y + cell * 0.5f), IM_COL32(160, 160, 170, 120), 1.0f);
            dl->AddLine(ImVec2(a.x, a.y + cell * 0.5f), ImVec2(a.x + cell * 0.5f, b.y), IM_COL32(160, 160, 170, 120), 1.0f);
          }
    }
    // Each row's entropy, from the engine (nats): how spread out that query's attention is.
    const attn::Vec<float>& entropy = s.attention.result.mha.heads[s.lab.config.head].entropy;
    if (entropy.size() == n) {
      if (cell >= ImGui::GetTextLineHeight() * 0.8f)
        for (int i = 0; i < n; ++i)
          dl->AddText(ImVec2(p1.x + 6, p0.y + cell * (i + 0.5f) - ImGui::GetTextLineHeight() * 0.5f),
                      IM_COL32(180, 200, 220, 255), Num(entropy(i), 2));
      dl->AddText(ImVec2(p1.x + 6, origin.y), IM_COL32(180, 200, 220, 255), L(tr::kEntropyHeader));
    }

    // The query's row; hover: which cell, and its value; a click on a row makes it the query.
    const int q = s.attention.result.steps.query;  // the run's index (an edit can move the query)
    int i = 0, j = 0;
    if (CellGrid("cells", p0, side, n, q, query_col, IM_COL32(255, 255, 255, 255), &i, &j)) {
      ImGui::SetTooltip(L(tr::kHover), tokens[i].text.c_str(), tokens[j].text.c_str(), Num(t.weights(i, j), 4));
      ctx.ui.hovered_key = j;
      // the query names a token as typed: an edited run's row i is typed token from_typed[i]
      const std::vector<int>& from = s.attention.result.edits.from_typed;
      const int typed_i = from.empty() ? i : (i < static_cast<int>(from.size()) ? from[static_cast<std::size_t>(i)] : -1);
      if (ImGui::IsItemClicked() && !Locked(ctx, "weights") && typed_i >= 0) app::ApplyPatch(s, attn::api::Obj({{"query", typed_i}}));
    }

    // Legend: the colour ramp over the fixed range [0, 1].
    const float lw = std::min(side, 220.0f);
    const ImVec2 l0(p0.x, p1.y + line * 0.5f), l1(p0.x + lw, p1.y + line * 1.1f);
    ctx.heatmap.DrawRamp(dl, l0, l1, kMin, kMax);
    dl->AddText(ImVec2(l0.x, l1.y + 2), text_col, "0");
    const ImVec2 half = ImGui::CalcTextSize("0.5");
    dl->AddText(ImVec2((l0.x + l1.x - half.x) * 0.5f, l1.y + 2), text_col, "0.5");
    dl->AddText(ImVec2(l1.x - ImGui::CalcTextSize("1").x, l1.y + 2), text_col, "1");
    dl->AddText(ImVec2(l1.x + 8, l0.y), text_col, "αᵢⱼ");
    // The exported picture: labels, cells, entropies and the legend.
    AddFigure(ctx.ui, "weights", ImVec2(origin.x - 2, origin.y - 2), ImVec2(p1.x + entropy_w + 2, l1.y + line + 4), true, true);
    ImGui::SetCursorScreenPos(ImVec2(origin.x, l1.y + line + 4));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", L(tr::kEntropyNote));
    ImGui::PopStyleColor();
  }
  EndPanel();
  if (natural > 0) SetNatural(ctx.ui, "heatmap", natural);
}

}  // namespace ui
