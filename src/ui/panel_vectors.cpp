// A 2D picture of the sum: the values vᵢ (labelled), the scaled vectors αᵢ·vᵢ, and A, with the
// convex hull of the vᵢ shaded, so that A is visibly a weighted average of the values. The
// coordinates are the engine's PCA projection; the picture keeps equal scales on both axes.
#include "text/i18n.h"
#include "ui/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ui {

void DrawVectorsPanel(Context& ctx) {
  if (ModelPendingPanel(ctx, L(tr::kVectors), "vectors")) return;
  app::AppState& s = ctx.state;
  const attn::Pca2D& pca = s.attention.result.vectors;
  const auto& tokens = s.attention.result.tokens;
  const int n = static_cast<int>(tokens.size());
  if (BeginPanel(ctx, L(tr::kVectors), "vectors", ImVec2(0, 0), PanelExport{"vectors", false, false})) {
    char caption[512];
    std::snprintf(caption, sizeof caption, L(tr::kVectorsCaption), 100.0 * pca.explained, 100.0 * pca.explained1);
    ImGui::TextWrapped("%s", caption);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", L(tr::kVectorsLegend));
    ImGui::PopStyleColor();

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float note_h = ImGui::GetTextLineHeightWithSpacing() * 4.4f;  // the notes and the drag line
    const ImVec2 c0 = ImGui::GetCursorScreenPos();
    const ImVec2 size(avail.x, std::max(80.0f, avail.y - note_h));
    const ImVec2 c1(c0.x + size.x, c0.y + size.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(c0, c1, IM_COL32(20, 22, 28, 255), 4.0f);

    // Fit every point (and the origin) with one scale for both axes.
    const int m = static_cast<int>(pca.points.rows());  // 2N + 1: values, scaled values, A
    const bool has_origin = pca.origin.size() == 2;
    float lo_x = 0, hi_x = 0, lo_y = 0, hi_y = 0;
    bool first = true;
    auto fit = [&](float x, float y) {
      if (first) { lo_x = hi_x = x; lo_y = hi_y = y; first = false; }
      lo_x = std::min(lo_x, x); hi_x = std::max(hi_x, x);
      lo_y = std::min(lo_y, y); hi_y = std::max(hi_y, y);
    };
    for (int r = 0; r < m; ++r) fit(pca.points(r, 0), pca.points(r, 1));
    if (has_origin) fit(pca.origin(0), pca.origin(1));
    const float pad = 28.0f;
    const float span = std::max({hi_x - lo_x, hi_y - lo_y, 1e-6f});
    const float scale = std::min(size.x - 2 * pad, size.y - 2 * pad) / span;
    const ImVec2 mid((c0.x + c1.x) * 0.5f, (c0.y + c1.y) * 0.5f);
    const float cx = (lo_x + hi_x) * 0.5f, cy = (lo_y + hi_y) * 0.5f;
    auto at = [&](float x, float y) { return ImVec2(mid.x + (x - cx) * scale, mid.y - (y - cy) * scale); };
    auto pt = [&](int r) { return at(pca.points(r, 0), pca.points(r, 1)); };

    dl->PushClipRect(c0, c1, true);
    if (m == 2 * n + 1 && n > 0) {
      // The hull of the values: every convex combination of them lies inside.
      std::vector<ImVec2> hull;
      for (int idx : s.attention.result.value_hull) hull.push_back(pt(idx));
      if (hull.size() >= 3) {
        dl->AddConvexPolyFilled(hull.data(), static_cast<int>(hull.size()), IM_COL32(90, 140, 220, 55));
        dl->AddPolyline(hull.data(), static_cast<int>(hull.size()), IM_COL32(90, 140, 220, 160), ImDrawFlags_Closed, 1.5f);
      } else if (hull.size() == 2) {
        dl->AddLine(hull[0], hull[1], IM_COL32(90, 140, 220, 160), 3.0f);
      }
      const ImU32 value_col = IM_COL32(120, 190, 255, 255);
      const ImU32 scaled_col = IM_COL32(170, 230, 140, 255);
      const ImU32 a_col = IM_COL32(245, 155, 40, 255);
      // The sum, one term at a time, from the origin: 0 → α₀v₀ → α₀v₀ + α₁v₁ → … → A.
      if (has_origin) {
        const ImVec2 o = at(pca.origin(0), pca.origin(1));
        dl->AddCircle(o, 4.0f, IM_COL32(200, 200, 200, 200));
        dl->AddText(ImVec2(o.x + 5, o.y + 2), IM_COL32(200, 200, 200, 200), L(tr::kOrigin));
        ImVec2 cur = o;
        for (int i = 0; i < n; ++i) {
          const ImVec2 term = pt(n + i);  // αᵢ·vᵢ drawn from the origin, then moved tip to tail
          const ImVec2 next(cur.x + term.x - o.x, cur.y + term.y - o.y);
          dl->AddLine(o, term, IM_COL32(170, 230, 140, 90), 1.0f);
          for (int k = 0; k < 8; k += 2) {  // dashed
            const float a = k / 8.0f, b = (k + 1) / 8.0f;
            dl->AddLine(ImVec2(cur.x + (next.x - cur.x) * a, cur.y + (next.y - cur.y) * a),
                        ImVec2(cur.x + (next.x - cur.x) * b, cur.y + (next.y - cur.y) * b),
                        IM_COL32(245, 155, 40, 170), 1.5f);
          }
          cur = next;
        }
      }
      for (int i = 0; i < n; ++i) {
        const ImVec2 v = pt(i);
        const bool q = i == s.attention.result.steps.query;
        dl->AddCircleFilled(v, q ? 6.0f : 5.0f, value_col);
        if (i == ctx.ui.hovered_key) dl->AddCircle(v, 9.0f, IM_COL32(255, 255, 255, 255), 0, 2.0f);
        if (i == s.attention.result.edits.value_token) dl->AddCircle(v, 10.0f, IM_COL32(255, 184, 102, 255), 0, 2.0f);  // edited
        dl->AddText(ImVec2(v.x + 7, v.y - 8), q ? a_col : value_col, tokens[i].text.c_str());
        dl->AddCircle(pt(n + i), 4.0f, scaled_col, 0, 1.5f);
      }
      const ImVec2 a = pt(2 * n);
      const ImVec2 diamond[4] = {ImVec2(a.x, a.y - 8), ImVec2(a.x + 8, a.y), ImVec2(a.x, a.y + 8), ImVec2(a.x - 8, a.y)};
      dl->AddConvexPolyFilled(diamond, 4, a_col);
      dl->AddText(ImVec2(a.x + 10, a.y + 2), a_col, "A");
    }
    dl->PopClipRect();
    // Drag a value (issue 23): the offset is the state's valueA, valueB along the plane's two
    // directions (the engine applies it, engine/whatif/whatif.h); A, the hull, the same-A set and the
    // verdict are the edited run's. valueToken names the token as typed.
    ImGui::SetCursorScreenPos(c0);
    ImGui::InvisibleButton("canvas", size);
    const attn::RunEdits& edits = s.attention.result.edits;
    const attn::LabConfig& cfg = s.lab.config;
    UiState& ui = ctx.ui;
    const bool can_drag = !Locked(ctx, "vectors") && m == 2 * n + 1 && n > 0 &&
                          cfg.projection != attn::Projection::kModel;
    // The default page's build has no value drag: a press asks for the full build (the what-if
    // tools, app/whatif/whatif.h), where the next press drags.
    if (can_drag && ImGui::IsItemActivated() && !app::WhatIfToolsInBuild()) app::ShowWhatIfTools(s);
    if (can_drag && ImGui::IsItemActivated() && app::WhatIfToolsInBuild()) {
      const ImVec2 mouse = ImGui::GetIO().MousePos;
      int best = -1;
      float best_d = 12.0f * 12.0f;
      for (int i = 0; i < n; ++i) {
        const ImVec2 v = pt(i);
        const float d2 = (v.x - mouse.x) * (v.x - mouse.x) + (v.y - mouse.y) * (v.y - mouse.y);
        const int typed = edits.from_typed.empty() ? i : edits.from_typed[static_cast<std::size_t>(i)];
        if (d2 < best_d && typed >= 0) { best_d = d2; best = i; }
      }
      if (best >= 0) {
        const int typed = edits.from_typed.empty() ? best : edits.from_typed[static_cast<std::size_t>(best)];
        ui.drag_value = typed;
        const bool same = cfg.value_token == typed;
        ui.drag_from[0] = same ? static_cast<float>(cfg.value_a) : 0.0f;
        ui.drag_from[1] = same ? static_cast<float>(cfg.value_b) : 0.0f;
        ui.drag_mouse[0] = mouse.x;
        ui.drag_mouse[1] = mouse.y;
        ui.drag_scale = scale;
      }
    }
    if (ui.drag_value >= 0 && ImGui::IsItemActive()) {
      const ImVec2 mouse = ImGui::GetIO().MousePos;
      const double a = std::clamp(ui.drag_from[0] + (mouse.x - ui.drag_mouse[0]) / ui.drag_scale, -100.0f, 100.0f);
      const double b = std::clamp(ui.drag_from[1] - (mouse.y - ui.drag_mouse[1]) / ui.drag_scale, -100.0f, 100.0f);
      if (cfg.value_token != ui.drag_value || cfg.value_a != a || cfg.value_b != b)
        app::ApplyPatch(s, attn::api::Obj({{"valueToken", ui.drag_value}, {"valueA", a}, {"valueB", b}}));
    } else if (!ImGui::IsItemActive()) {
      ui.drag_value = -1;
    }
    if (can_drag && ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    AddFigure(ctx.ui, "vectors", c0, c1, false, false);
    if (edits.value_token >= 0 && edits.value_token < n) {
      char line[400];
      std::snprintf(line, sizeof line, L(tr::kValueEdited), tokens[static_cast<std::size_t>(edits.value_token)].text.c_str(),
                    Num(static_cast<float>(cfg.value_a), 2), Num(static_cast<float>(cfg.value_b), 2));
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.72f, 0.4f, 1.0f));
      ImGui::TextWrapped("%s", line);
      ImGui::PopStyleColor();
      if (ImGui::SmallButton(Label(tr::kValueReset, "value_reset")))
        app::ApplyPatch(s, attn::api::Obj({{"valueToken", -1}, {"valueA", 0}, {"valueB", 0}}));
    } else if (can_drag) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s", L(tr::kValueDragHint));
      ImGui::PopStyleColor();
    }
    const attn::Normalizer norm = Shown(ctx).normalizer;
    const bool convex = norm != attn::Normalizer::kSigmoid && norm != attn::Normalizer::kNone;
    ImGui::TextWrapped("%s", L(convex ? tr::kVectorsNote : tr::kVectorsNoteUnnormalized));
  }
  EndPanel();
}

}  // namespace ui
