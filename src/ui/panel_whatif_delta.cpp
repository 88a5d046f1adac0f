// The What if tab's pictures of the difference (panel_whatif.h): the plain and the edited weights
// side by side, Δα of the chosen head (large, on the diverging colour map with its legend) and of
// every head (small), ΔA per dimension. Every number is the what-if room's comparison
// (attn::CompareRuns).
#include "text/i18n.h"
#include "ui/panel_whatif.h"
#include "ui/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace ui {
namespace whatif {

namespace {

constexpr float kDeltaFloor = 1e-3f;  // the colour scale's smallest half-width: rounding stays grey

const ImU32 kQueryCol = IM_COL32(245, 155, 40, 255);

// A small picture of a run's weights (chosen head) with its caption above.
void SmallWeights(Context& ctx, int picture, const attn::MatF& weights, const char* caption, float side) {
  ImGui::BeginGroup();
  ImGui::TextDisabled("%s", caption);
  const int n = static_cast<int>(weights.rows());
  ctx.heatmap.Upload(gfx::HeatmapSlot::kWhatIf, picture, attn::ToRowMajor(weights), n, n);
  const ImVec2 a = ImGui::GetCursorScreenPos(), b(a.x + side, a.y + side);
  ctx.heatmap.Draw(ImGui::GetWindowDrawList(), gfx::HeatmapSlot::kWhatIf, picture, a, b, 0.0f, 1.0f);
  ImGui::Dummy(ImVec2(side, side));
  ImGui::EndGroup();
}

float DeltaRange(const attn::LabComparison& c) {
  return std::max(kDeltaFloor, static_cast<float>(c.max_abs_d_weight));
}

}  // namespace

void DrawBeforeAfter(Context& ctx, const attn::LabComparison& c) {
  const int head = std::clamp(ctx.state.lab.config.head, 0, static_cast<int>(c.plain.mha.heads.size()) - 1);
  const float side = std::min(84.0f, ImGui::GetContentRegionAvail().x * 0.3f);
  auto words = [](const std::vector<attn::Token>& t) {
    std::string out;
    for (const attn::Token& k : t) out += (out.empty() ? "" : " ") + k.text;
    return out.size() > 40 ? out.substr(0, 37) + "…" : out;
  };
  char cap[256];
  std::snprintf(cap, sizeof cap, "%s", L(tr::kBefore));
  SmallWeights(ctx, 1, c.plain.mha.heads[static_cast<std::size_t>(head)].weights, cap, side);
  ImGui::SameLine(0, 24);
  std::snprintf(cap, sizeof cap, "%s", L(tr::kAfter));
  SmallWeights(ctx, 2, c.edited.mha.heads[static_cast<std::size_t>(head)].weights, cap, side);
  ImGui::SameLine(0, 16);
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s: %s", L(tr::kBefore), words(c.plain.tokens).c_str());
  ImGui::TextDisabled("%s: %s", L(tr::kAfter), words(c.edited.tokens).c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

void DrawDelta(Context& ctx, const attn::LabComparison& c) {
  app::AppState& s = ctx.state;
  const int heads = static_cast<int>(c.d_weights.size());
  const int head = std::clamp(s.lab.config.head, 0, heads - 1);
  const attn::MatD& d = c.d_weights[static_cast<std::size_t>(head)];
  const auto& tokens = c.plain.tokens;
  const int n = static_cast<int>(d.rows());
  char buf[512];
  std::snprintf(buf, sizeof buf, L(tr::kDeltaCaption), head, Sci(c.max_abs_d_weight).c_str());
  TextWrappedAtSpaces(buf);  // never inside a number
  const attn::MatF df = d.cast<float>();
  ctx.heatmap.Upload(gfx::HeatmapSlot::kWhatIf, 0, attn::ToRowMajor(df), n, n);
  const float m = DeltaRange(c);

  float label_w = 0;
  for (const auto& tok : tokens) label_w = std::max(label_w, ImGui::CalcTextSize(tok.text.c_str()).x);
  label_w = std::min(label_w + 8.0f + ImGui::CalcTextSize("00 ").x, 130.0f);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side = std::max(60.0f, std::min({avail.x - label_w - 8.0f, 420.0f, std::max(160.0f, avail.y - 3.5f * line)}));
  const float cell = side / static_cast<float>(std::max(n, 1));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + label_w, origin.y + line), p1(p0.x + side, p0.y + side);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ctx.heatmap.Draw(dl, gfx::HeatmapSlot::kWhatIf, 0, p0, p1, -m, m, gfx::Colormap::kDiverging);
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  bool names_fit = true;
  for (int i = 0; i < n; ++i) names_fit = names_fit && cell >= ImGui::CalcTextSize(tokens[i].text.c_str()).x + 4;
  for (int i = 0; i < n; ++i) {
    char label[160];
    if (names_fit) std::snprintf(label, sizeof label, "%s", tokens[i].text.c_str());
    else std::snprintf(label, sizeof label, "%d %s", i, tokens[i].text.c_str());
    const ImVec2 ts = ImGui::CalcTextSize(label);
    if (cell >= ts.y * 0.8f || i == c.query) {
      dl->PushClipRect(origin, ImVec2(p0.x - 4, p1.y), true);
      dl->AddText(ImVec2(p0.x - 4 - ts.x, p0.y + cell * (i + 0.5f) - ts.y * 0.5f), i == c.query ? kQueryCol : text_col, label);
      dl->PopClipRect();
    }
    if (names_fit) {
      dl->AddText(ImVec2(p0.x + cell * (i + 0.5f) - ts.x * 0.5f, origin.y), text_col, label);
    } else if (cell >= ImGui::CalcTextSize("00").x + 4 || i % 5 == 0) {
      char idx[16];
      std::snprintf(idx, sizeof idx, "%d", i);
      const ImVec2 is = ImGui::CalcTextSize(idx);
      dl->AddText(ImVec2(std::min(p0.x + cell * (i + 0.5f) - is.x * 0.5f, p1.x - is.x), origin.y), IM_COL32(160, 170, 185, 255), idx);
    }
  }
  // the numbers in the cells when they fit (dark text: the map is light in the middle)
  if (cell >= ImGui::CalcTextSize("−0.00").x + 6) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (!c.row_present[static_cast<std::size_t>(i)]) continue;
        const float v = df(i, j);
        const char* txt = Num(v, 2);
        const ImVec2 ts = ImGui::CalcTextSize(txt);
        dl->AddText(ImVec2(p0.x + cell * (j + 0.5f) - ts.x * 0.5f, p0.y + cell * (i + 0.5f) - ts.y * 0.5f),
                    std::abs(v) > 0.6f * m ? IM_COL32(255, 255, 255, 255) : IM_COL32(20, 20, 20, 255), txt);
      }
  }
  // a row whose query was deleted: hatched, it has no edited row
  for (int i = 0; i < n; ++i) {
    if (c.row_present[static_cast<std::size_t>(i)]) continue;
    const ImVec2 a(p0.x, p0.y + cell * i), b(p1.x, a.y + cell);
    dl->AddRectFilled(a, b, IM_COL32(40, 42, 50, 255));
    for (float x = a.x; x < b.x; x += 8.0f) dl->AddLine(ImVec2(x, b.y), ImVec2(std::min(x + cell, b.x), a.y), IM_COL32(120, 120, 130, 160));
  }
  int i = 0, j = 0;
  if (CellGrid("delta_cells", p0, side, n, c.query, kQueryCol, IM_COL32(0, 0, 0, 255), &i, &j)) {
    const int ie = c.to_edited[static_cast<std::size_t>(i)], je = c.to_edited[static_cast<std::size_t>(j)];
    if (ie < 0) {
      ImGui::SetTooltip(L(tr::kDeltaRowGone), tokens[i].text.c_str());
    } else {
      const attn::MatF& before = c.plain.mha.heads[static_cast<std::size_t>(head)].weights;
      const attn::MatF& after = c.edited.mha.heads[static_cast<std::size_t>(head)].weights;
      ImGui::SetTooltip(L(tr::kDeltaHover), tokens[i].text.c_str(), tokens[j].text.c_str(), Num(df(i, j), 4),
                        Num(before(i, j), 4), Num(je >= 0 ? after(ie, je) : 0.0f, 4));
    }
  }
  // the legend: the diverging ramp over [-m, m], zero in the middle
  const float lw = std::min(side, 240.0f);
  const ImVec2 l0(p0.x, p1.y + line * 0.5f), l1(p0.x + lw, p1.y + line * 1.1f);
  ctx.heatmap.DrawRamp(dl, l0, l1, -m, m, gfx::Colormap::kDiverging);
  const std::string lo = "−" + std::string(Num(m, 3)), hi = "+" + std::string(Num(m, 3));
  dl->AddText(ImVec2(l0.x, l1.y + 2), text_col, lo.c_str());
  dl->AddText(ImVec2((l0.x + l1.x - ImGui::CalcTextSize("0").x) * 0.5f, l1.y + 2), text_col, "0");
  dl->AddText(ImVec2(l1.x - ImGui::CalcTextSize(hi.c_str()).x, l1.y + 2), text_col, hi.c_str());
  dl->AddText(ImVec2(l1.x + 8, l0.y), text_col, L(tr::kDeltaLegend));
  const ImVec2 fig_max(std::max(p1.x, l1.x + 8 + ImGui::CalcTextSize(L(tr::kDeltaLegend)).x) + 2, l1.y + line + 4);
  AddFigure(ctx.ui, "whatif", ImVec2(origin.x - 2, origin.y - 2), fig_max, true, true);
  const ImVec2 top_right(fig_max.x, origin.y - 2);
  ImGui::SetCursorScreenPos(ImVec2(origin.x, l1.y + line + 4));
  ExportMenu(ctx.ui, "whatif", true, true, &top_right);
  ImGui::SetCursorScreenPos(ImVec2(origin.x, l1.y + line + 4));
  ImGui::Dummy(ImVec2(1, 1));

  // the weight an inserted word took from the query
  const attn::RunEdits& e = c.edited.edits;
  if (e.inserted >= 0 && c.query >= 0 && c.query < n) {
    std::snprintf(buf, sizeof buf, L(tr::kInsertedTook), c.edited.tokens[static_cast<std::size_t>(e.inserted)].text.c_str(),
                  Num(static_cast<float>(c.inserted_weight[static_cast<std::size_t>(head)](c.query)), 3));
    ImGui::TextWrapped("%s", buf);
  }
}

void DrawDeltaHeads(Context& ctx, const attn::LabComparison& c) {
  app::AppState& s = ctx.state;
  const int heads = static_cast<int>(c.d_weights.size());
  if (heads < 2) return;
  ImGui::TextDisabled("%s", L(tr::kDeltaHeads));
  const float m = DeltaRange(c);
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float small = std::min(56.0f, (ImGui::GetContentRegionAvail().x - gap * (heads - 1)) / heads);
  for (int h = 0; h < heads; ++h) {
    if (h) ImGui::SameLine();
    char num[16];
    std::snprintf(num, sizeof num, "%d", h);
    const bool clicked = DeltaThumbnail(ctx, c.d_weights[static_cast<std::size_t>(h)], 3 + h, small, m,
                                        h == s.lab.config.head, num);
    if (clicked && !Locked(ctx, "whatif")) app::ApplyPatch(s, attn::api::Obj({{"head", h}}));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(L(tr::kHeadOf), h, heads - 1);
  }
}

bool DeltaThumbnail(Context& ctx, const attn::MatD& d, int index, float side, float range, bool chosen,
                    const char* label) {
  const int n = static_cast<int>(d.rows());
  ctx.heatmap.Upload(gfx::HeatmapSlot::kWhatIf, index, attn::ToRowMajor(attn::MatF(d.cast<float>())), n, n);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 a = ImGui::GetCursorScreenPos(), b(a.x + side, a.y + side);
  ImGui::PushID(index);
  const bool clicked = ImGui::InvisibleButton("dthumb", ImVec2(side, side));
  ImGui::PopID();
  ctx.heatmap.Draw(dl, gfx::HeatmapSlot::kWhatIf, index, a, b, -range, range, gfx::Colormap::kDiverging);
  dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), chosen ? kQueryCol : IM_COL32(90, 90, 100, 255), 0, 0,
              chosen ? 2.5f : 1.0f);
  dl->AddText(ImVec2(a.x + 2, a.y + 1), IM_COL32(20, 20, 20, 230), label);
  return clicked;  // the button is still the last item: the caller may ask IsItemHovered()
}

void DrawDeltaOutput(Context& ctx, const attn::LabComparison& c) {
  const int dv = static_cast<int>(c.d_output.size());
  if (dv == 0 || c.query < 0 || c.query >= static_cast<int>(c.plain.tokens.size())) return;
  char buf[512];
  std::snprintf(buf, sizeof buf, L(tr::kDeltaA), c.plain.tokens[static_cast<std::size_t>(c.query)].text.c_str(),
                ctx.state.lab.config.head + 1, Num(static_cast<float>(c.d_output_norm), 4),
                Num(static_cast<float>(c.d_final_output_norm), 4));
  TextWrappedAtSpaces(buf);
  // one bar per dimension around a zero line, scaled by the largest |ΔA_k|
  double top = 0;
  for (int k = 0; k < dv; ++k) top = std::max(top, std::abs(c.d_output(k)));
  const float h = 56.0f;
  const float w = std::min(ImGui::GetContentRegionAvail().x, std::max(120.0f, 18.0f * dv));
  const float bar = w / static_cast<float>(dv);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float mid = o.y + h * 0.5f;
  dl->AddRectFilled(o, ImVec2(o.x + w, o.y + h), IM_COL32(20, 22, 28, 255), 3.0f);
  dl->AddLine(ImVec2(o.x, mid), ImVec2(o.x + w, mid), IM_COL32(150, 150, 160, 200));
  for (int k = 0; k < dv; ++k) {
    const float v = top > 0 ? static_cast<float>(c.d_output(k) / top) : 0.0f;
    const float x0 = o.x + bar * k + std::min(2.0f, bar * 0.2f), x1 = o.x + bar * (k + 1) - std::min(2.0f, bar * 0.2f);
    const float y = mid - v * (h * 0.5f - 3.0f);
    dl->AddRectFilled(ImVec2(x0, std::min(y, mid)), ImVec2(x1, std::max(y, mid)),
                      v >= 0 ? IM_COL32(214, 96, 77, 255) : IM_COL32(67, 147, 195, 255));
  }
  ImGui::InvisibleButton("delta_a", ImVec2(w, h));
  if (ImGui::IsItemHovered()) {
    const int k = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - o.x) / bar), 0, dv - 1);
    ImGui::SetTooltip("ΔA[%d] = %s", k, Num(static_cast<float>(c.d_output(k)), 5));
  }
  ImGui::PushFont(ctx.fonts.mono);
  ImGui::TextWrapped("ΔA = %s", VectorText(c.d_output.cast<float>(), 8).c_str());
  ImGui::PopFont();
}

}  // namespace whatif
}  // namespace ui
