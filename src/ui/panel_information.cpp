// The question itself: can two different attention patterns give exactly the same A? Two
// scenarios side by side, the range of each word's weight given A alone, the simplex picture
// for 3 or 4 tokens, and the probe. Every number comes from the engine's InformationReport.
#include "text/i18n.h"
#include "ui/panel_information.h"
#include "ui/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace ui {

namespace {

const ImU32 kAlphaCol = IM_COL32(245, 155, 40, 255);
const ImU32 kAlpha2Col = IM_COL32(120, 210, 120, 255);

// Horizontal bars of one weight pattern, a row per token. With `drag` the bars can be dragged:
// the token and the weight under the mouse are returned through it (token -1 when untouched).
struct Drag {
  int token = -1;
  double value = 0;
};
void DrawBars(Context& ctx, const char* id, const attn::VecD& w, const attn::MatD& contributions, ImU32 colour,
              float width, Drag* drag = nullptr) {
  const auto& tokens = ctx.state.attention.result.tokens;
  const std::vector<char>& visible = ctx.state.attention.result.visible;  // a masked key: no bar, no dragging
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  ImGui::PushID(id);
  for (int i = 0; i < static_cast<int>(tokens.size()) && i < w.size(); ++i) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float label_w = std::min(90.0f, width * 0.3f), bar_w = width - label_w - 60.0f;
    const bool masked = i < static_cast<int>(visible.size()) && !visible[static_cast<std::size_t>(i)];
    dl->AddText(p, ImGui::GetColorU32(masked ? ImGuiCol_TextDisabled : ImGuiCol_Text), tokens[i].text.c_str());
    const ImVec2 b0(p.x + label_w, p.y + 2), b1(p.x + label_w + bar_w, p.y + line - 4);
    if (masked) {
      dl->AddText(ImVec2(b0.x, p.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), L(tr::kMaskedBar));
      ImGui::Dummy(ImVec2(width, line));
      continue;
    }
    dl->AddRectFilled(b0, b1, IM_COL32(50, 55, 65, 255));
    dl->AddRectFilled(b0, ImVec2(b0.x + bar_w * static_cast<float>(std::clamp(w(i), 0.0, 1.0)), b1.y), colour);
    dl->AddText(ImVec2(b1.x + 6, p.y), ImGui::GetColorU32(ImGuiCol_Text), Num(static_cast<float>(w(i)), 3));
    if (drag) {
      ImGui::SetCursorScreenPos(b0);
      ImGui::PushID(i);
      ImGui::InvisibleButton("bar", ImVec2(bar_w, line - 4));
      ImGui::PopID();
      if (ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
      if (ImGui::IsItemActive()) {
        drag->token = i;
        drag->value = (ImGui::GetIO().MousePos.x - b0.x) / bar_w;
        dl->AddRect(b0, b1, IM_COL32(255, 255, 255, 200));
      }
      ImGui::SetCursorScreenPos(p);
    }
    ImGui::Dummy(ImVec2(width, line));  // the row's full width, so groups side by side line up
    if (i < contributions.rows()) {      // this token's contribution w_i v_i to the output
      ImGui::PushFont(ctx.fonts.mono);
      ImGui::TextDisabled("   × v = %s", VectorText(contributions.row(i).transpose().cast<float>(), 4).c_str());
      ImGui::PopFont();
    }
  }
  ImGui::PopID();
}

// The simplex for 3 tokens (a triangle) or 4 (a tetrahedron seen from above one face).
void DrawSimplex(Context& ctx, float size) {
  const attn::LabResult& r = ctx.state.attention.result;
  if (r.information.set != attn::FeasibleSet::kSimplex) {
    ImGui::TextDisabled("%s", L(tr::kSimplexNotHere));
    return;
  }
  ImGui::TextWrapped("%s", L(tr::kSimplex));
  const std::vector<int>& keys = r.information.visible;  // the corners: the keys the query sees
  const int n = static_cast<int>(keys.size());
  if (n != 3 && n != 4) {
    ImGui::TextDisabled("%s", L(tr::kSimplexTooMany));
    return;
  }
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float s = size;
  ImVec2 corners[4] = {ImVec2(o.x + s * 0.08f, o.y + s * 0.9f), ImVec2(o.x + s * 0.92f, o.y + s * 0.9f),
                       ImVec2(o.x + s * 0.5f, o.y + s * 0.1f), ImVec2(o.x + s * 0.62f, o.y + s * 0.6f)};
  // Barycentric coordinates to the picture: the point sum_i w_i corner_i.
  auto at = [&](const attn::VecD& w) {
    ImVec2 p(0, 0);
    for (int i = 0; i < n; ++i) {
      p.x += static_cast<float>(w(keys[i])) * corners[i].x;
      p.y += static_cast<float>(w(keys[i])) * corners[i].y;
    }
    return p;
  };
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 edge = IM_COL32(140, 150, 170, 200);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) dl->AddLine(corners[i], corners[j], edge, 1.2f);
  for (int i = 0; i < n; ++i)
    dl->AddText(ImVec2(corners[i].x - 10, corners[i].y + (i == 2 ? -18.0f : 4.0f)), ImGui::GetColorU32(ImGuiCol_Text),
                r.tokens[keys[i]].text.c_str());
  // The weights that give the same A: a point, a segment or a polygon through alpha.
  std::vector<ImVec2> poly;
  for (const attn::VecD& v : ctx.state.attention.custom.active ? ctx.state.attention.custom.vertices : r.same_output_vertices)
    poly.push_back(at(v));
  if (poly.size() >= 2) {
    // Order the vertices around their centre so the outline is convex.
    ImVec2 c(0, 0);
    for (const ImVec2& p : poly) { c.x += p.x / poly.size(); c.y += p.y / poly.size(); }
    std::sort(poly.begin(), poly.end(), [&](const ImVec2& a, const ImVec2& b) {
      return std::atan2(a.y - c.y, a.x - c.x) < std::atan2(b.y - c.y, b.x - c.x);
    });
    if (poly.size() >= 3) dl->AddConvexPolyFilled(poly.data(), static_cast<int>(poly.size()), IM_COL32(120, 210, 120, 60));
    dl->AddPolyline(poly.data(), static_cast<int>(poly.size()), IM_COL32(120, 210, 120, 220),
                    poly.size() >= 3 ? ImDrawFlags_Closed : 0, 3.0f);
  }
  const bool custom = ctx.state.attention.custom.active;
  const attn::InformationReport& info = custom ? ctx.state.attention.custom.info : r.information;
  const attn::VecD alpha = custom ? ctx.state.attention.custom.alpha
                                  : attn::VecD(r.trace.weights.row(r.steps.query).transpose().cast<double>());
  dl->AddCircleFilled(at(alpha), 6.0f, kAlphaCol);
  if (info.collision.alpha2.size() == alpha.size()) dl->AddCircle(at(info.collision.alpha2), 7.0f, kAlpha2Col, 0, 2.5f);
  ImGui::Dummy(ImVec2(s, s));
  // Exportable (issue 11.5): the square and the corners' labels that stick out of it.
  const ImVec2 after = ImGui::GetCursorScreenPos();
  ImVec2 fig_min = o, fig_max(o.x + s, o.y + s);
  for (int i = 0; i < n; ++i) {
    const ImVec2 at_label(corners[i].x - 10, corners[i].y + (i == 2 ? -18.0f : 4.0f));
    const ImVec2 text = ImGui::CalcTextSize(r.tokens[keys[i]].text.c_str());
    fig_min = ImVec2(std::min(fig_min.x, at_label.x - 2), std::min(fig_min.y, at_label.y - 2));
    fig_max = ImVec2(std::max(fig_max.x, at_label.x + text.x + 2), std::max(fig_max.y, at_label.y + text.y + 2));
  }
  AddFigure(ctx.ui, "simplex", fig_min, fig_max, true, false);
  const ImVec2 top_right(fig_max.x, o.y);
  ExportMenu(ctx.ui, "simplex", true, false, &top_right);
  ImGui::SetCursorScreenPos(after);
}

// Which words mattered (issue 23): beside every weight, what the key contributes
// (engine/information/contribution.h: ||alpha_i v_i||, ||alpha_i v_i W_O[h]||, ||A - A_{-i}||), sortable by any
// column (ImGui's table sort: click a header), and a button that knocks the key out.
void DrawContributions(Context& ctx) {
  app::AppState& s = ctx.state;
  const attn::LabResult& r = s.attention.result;
  const attn::ContributionTable& t = r.contribution;
  const int n = static_cast<int>(t.keys.size());
  if (n == 0 || n > static_cast<int>(r.tokens.size())) return;
  ImGui::Separator();
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", L(tr::kMattered));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextWrapped("%s", L(tr::kMatteredNote));
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
  // model mode: each key's effect on the next token's log-probability, one key per frame
  const bool by_model = s.lab.config.projection == attn::Projection::kModel && s.model.loaded;
  const attn::model::NextTokenEffects* effects = nullptr;
  if (by_model) {
    app::WantModelKeyEffects(s);
    const app::ModelKeyEffects& e = s.model.effects;
    if (e.error.empty()) effects = &e.value;
    char buf[400];
    const std::string next = s.attention.model_result.next.empty() ? std::string() : "«" + s.attention.model_result.next.front().text + "»";
    std::snprintf(buf, sizeof buf, L(tr::kMatteredModelNote), next.c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", buf);
    if (effects && static_cast<int>(effects->delta.size()) < e.total)
      ImGui::TextDisabled(L(tr::kEffectsProgress), static_cast<int>(effects->delta.size()), e.total);
    else if (!e.error.empty())
      ImGui::TextDisabled("%s", e.error.c_str());
    ImGui::PopTextWrapPos();
  }
  const int columns = by_model ? 7 : 6;
  const float rows_h = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(n + 1) + ImGui::GetStyle().CellPadding.y * 2 * (n + 1) + 24.0f;
  if (!ImGui::BeginTable("contributions_table", columns, flags, ImVec2(0, rows_h))) return;
  ImGui::TableSetupColumn(L(tr::kColTokenShort), ImGuiTableColumnFlags_DefaultSort);
  ImGui::TableSetupColumn("αᵢ", ImGuiTableColumnFlags_PreferSortDescending);
  ImGui::TableSetupColumn("‖αᵢvᵢ‖", ImGuiTableColumnFlags_PreferSortDescending);
  ImGui::TableSetupColumn("‖αᵢvᵢW_O‖", ImGuiTableColumnFlags_PreferSortDescending);
  ImGui::TableSetupColumn("‖A − A₋ᵢ‖", ImGuiTableColumnFlags_PreferSortDescending);
  if (by_model) ImGui::TableSetupColumn("Δ log p");
  ImGui::TableSetupColumn(L(tr::kColKnock), ImGuiTableColumnFlags_NoSort);
  // a key's Δ log p, NaN while it is not computed yet (sorted last)
  auto effect = [&](int i) {
    return effects && i < static_cast<int>(effects->delta.size()) ? effects->delta[static_cast<std::size_t>(i)]
                                                                  : std::numeric_limits<double>::quiet_NaN();
  };
  ImGui::TableHeadersRow();
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  if (const ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsCount > 0) {
    const int column = specs->Specs[0].ColumnIndex;
    const bool up = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
    auto value = [&](int i) {
      const attn::KeyContribution& k = t.keys[static_cast<std::size_t>(i)];
      switch (column) {
        case 1: return k.weight;
        case 2: return k.value_norm;
        case 3: return k.residual_norm;
        case 4: return k.removal;
        case 5: return by_model ? effect(i) : static_cast<double>(i);
        default: return static_cast<double>(i);
      }
    };
    // equal values keep the tokens' order (what a stable sort gives, with less code in the page);
    // a value not computed yet goes last
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      const double va = value(a), vb = value(b);
      if (std::isnan(va) != std::isnan(vb)) return std::isnan(vb);
      return va != vb && !std::isnan(va) ? (up ? va < vb : va > vb) : a < b;
    });
  }
  // a key's typed index (the knock-out names tokens as typed); an inserted word has none
  const std::vector<int>& from_typed = r.edits.from_typed;
  for (int i : order) {
    const attn::KeyContribution& k = t.keys[static_cast<std::size_t>(i)];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (i == t.query) ImGui::TextColored(ImVec4(0.96f, 0.61f, 0.16f, 1.0f), "%s", r.tokens[static_cast<std::size_t>(i)].text.c_str());
    else if (k.masked) ImGui::TextDisabled("%s", r.tokens[static_cast<std::size_t>(i)].text.c_str());
    else ImGui::TextUnformatted(r.tokens[static_cast<std::size_t>(i)].text.c_str());
    ImGui::PushFont(ctx.fonts.mono);
    for (const double v : {k.weight, k.value_norm, k.residual_norm, k.removal}) {
      ImGui::TableNextColumn();
      if (k.masked) ImGui::TextDisabled("%s", L(tr::kMaskedBar));
      else ImGui::TextUnformatted(Num(static_cast<float>(v), 3));
    }
    if (by_model) {
      ImGui::TableNextColumn();
      const double d = effect(i);
      if (std::isnan(d)) ImGui::TextDisabled("…");
      else ImGui::TextUnformatted(Num(static_cast<float>(d), 3));
    }
    ImGui::PopFont();
    ImGui::TableNextColumn();
    const int typed = from_typed.empty() ? i : (i < static_cast<int>(from_typed.size()) ? from_typed[static_cast<std::size_t>(i)] : -1);
    if (typed >= 0) {
      const bool off = s.lab.config.knockout_keys.Has(typed);
      ImGui::PushID(4000 + i);
      ImGui::BeginDisabled(Locked(ctx, "information"));
      if (ImGui::SmallButton(off ? "↺" : "×")) app::ApplyPatch(s, attn::api::Obj({{"knockoutKeys", s.lab.config.knockout_keys.Toggled(typed)}}));
      ImGui::EndDisabled();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", L(off ? tr::kChipUnknock : tr::kChipKnock));
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
}

}  // namespace

void DrawInformationPanel(Context& ctx) {
  if (ModelPendingPanel(ctx, L(tr::kInformation), "information")) return;
  app::AppState& s = ctx.state;
  const attn::LabResult& r = s.attention.result;
  // Scenario 1 is the query's own weights, or the ones the learner dragged.
  const bool custom = s.attention.custom.active;
  const attn::InformationReport& info = custom ? s.attention.custom.info : r.information;
  const int n = static_cast<int>(r.tokens.size());
  const int dv = r.trace.d_v;
  if (!BeginPanel(ctx, L(tr::kInfoTitle), "information", ImVec2(0, 0))) {
    EndPanel();
    return;
  }
  // The verdict, in words, with the engine's numbers: over the keys the query sees, in the set
  // its normalizer's weights live in (information.h).
  char buf[640];
  const attn::FeasibleSet set = info.set;
  const int seen = static_cast<int>(info.visible.size());
  const int rank = set == attn::FeasibleSet::kSimplex ? info.info.affine_rank : info.info.linear_rank;
  const Text& kept = set == attn::FeasibleSet::kBox      ? tr::kVerdictBoxKept
                     : set == attn::FeasibleSet::kAffine ? tr::kVerdictAffineKept
                                                         : tr::kVerdictKept;
  const Text& lost = set == attn::FeasibleSet::kBox      ? tr::kVerdictBoxLost
                     : set == attn::FeasibleSet::kAffine ? tr::kVerdictAffineLost
                                                         : tr::kVerdictLost;
  if (info.info.recoverable) {
    char err[32];
    std::snprintf(err, sizeof err, "%.1e", info.recovery_error);
    std::snprintf(buf, sizeof buf, L(kept), seen, dv, rank, err);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.9f, 0.55f, 1.0f));
  } else {
    std::snprintf(buf, sizeof buf, L(lost), seen, rank, dv, info.info.same_output_dim);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.72f, 0.4f, 1.0f));
  }
  ImGui::TextWrapped("%s", buf);
  ImGui::PopStyleColor();
  if (!info.info.recoverable && info.collision.unique) ImGui::TextWrapped("%s", L(tr::kVerdictUniqueHere));
  ImGui::PushTextWrapPos(0.0f);  // the notes wrap at the panel's edge
  ImGui::TextDisabled("%s", L(set == attn::FeasibleSet::kBox      ? tr::kSetBox
                              : set == attn::FeasibleSet::kAffine ? tr::kSetAffine
                                                                  : tr::kSetSimplex));
  if (seen < n) {
    std::snprintf(buf, sizeof buf, L(tr::kMaskedKeys), n - seen, n);
    ImGui::TextDisabled("%s", buf);
  }
  const auto& typed = app::TypedTokens(s);  // config.target names a token as typed
  if (r.target_moved && s.lab.config.target >= 0 && s.lab.config.target < static_cast<int>(typed.size())) {
    std::snprintf(buf, sizeof buf, L(tr::kTargetMoved), typed[static_cast<std::size_t>(s.lab.config.target)].text.c_str());
    ImGui::TextDisabled("%s", buf);
  }
  ImGui::PopTextWrapPos();

  // Controls: the value width and the token to move the weight onto.
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::BeginDisabled(Locked(ctx, "information"));  // a locked panel: d_v and the target are the lesson's
  // In model mode d_v is the model's d_head (the head's own width), fixed like the Settings
  // panel's sizes: shown, not changeable.
  const bool by_model = s.lab.config.projection == attn::Projection::kModel;
  int d_v = by_model ? dv : s.lab.config.d_v;
  ImGui::BeginDisabled(by_model);
  ImGui::SetNextItemWidth(std::min(220.0f, w * 0.4f));
  if (ImGui::SliderInt(Label(tr::kDV, "dV"), &d_v, attn::kMinDim, std::max(attn::kMaxDim, d_v), "%d",
                       ImGuiSliderFlags_AlwaysClamp) && !by_model)
    app::ApplyPatch(s, attn::api::Obj({{"dV", d_v}}));
  ImGui::EndDisabled();
  if (by_model) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", L(tr::kSetByModel));
  }
  if (w >= 640.0f) ImGui::SameLine();  // on a phone the target goes on its own line
  ImGui::SetNextItemWidth(std::min(220.0f, w * 0.3f));
  const std::string current = s.lab.config.target < 0 ? std::string(L(tr::kAutoShort)) + ": «" + r.tokens[r.target].text + "»"
                                                      : "«" + r.tokens[r.target].text + "»";
  if (ImGui::BeginCombo(Label(tr::kShiftOnto, "target"), current.c_str())) {
    if (ImGui::Selectable(L(tr::kAuto), s.lab.config.target < 0)) app::ApplyPatch(s, attn::api::Obj({{"target", -1}}));
    for (int i = 0; i < n; ++i) {
      // target names a token as typed: an edited run's token i is typed token from_typed[i]
      // (an inserted word, -1, cannot be the target)
      const std::vector<int>& from = r.edits.from_typed;
      const int typed_i = from.empty() ? i : (i < static_cast<int>(from.size()) ? from[static_cast<std::size_t>(i)] : -1);
      const bool masked = (i < static_cast<int>(r.visible.size()) && !r.visible[static_cast<std::size_t>(i)]) || typed_i < 0;
      const std::string item = masked ? r.tokens[i].text + " " + L(tr::kMaskedBar) : r.tokens[i].text;
      ImGui::PushID(i);
      if (ImGui::Selectable(item.c_str(), s.lab.config.target == typed_i && typed_i >= 0, masked ? ImGuiSelectableFlags_Disabled : 0))
        app::ApplyPatch(s, attn::api::Obj({{"target", typed_i}}));
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();

  // Two scenarios side by side (one above the other on a phone).
  const bool narrow = ImGui::GetContentRegionAvail().x < 640.0f;
  const float col = narrow ? ImGui::GetContentRegionAvail().x
                           : (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  const attn::VecD alpha = custom ? s.attention.custom.alpha
                                  : attn::VecD(r.trace.weights.row(r.steps.query).transpose().cast<double>());
  ImGui::BeginGroup();  // both scenarios: the exportable "contributions" picture
  ImGui::BeginGroup();
  ImGui::TextColored(ImVec4(0.96f, 0.61f, 0.16f, 1.0f), "%s", L(custom ? tr::kScenario1Custom : tr::kScenario1));
  Drag drag;
  DrawBars(ctx, "alpha", alpha, custom ? s.attention.custom.contributions : r.contributions, kAlphaCol, col, &drag);
  if (drag.token >= 0) app::SetCustomWeight(s, drag.token, drag.value);
  if (custom && ImGui::SmallButton(Label(tr::kBackToQuery, "uncustom"))) app::ClearCustomWeights(s);
  if (!custom) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + col);
    ImGui::TextWrapped("%s", L(tr::kDragHint));
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  ImGui::PushFont(ctx.fonts.mono);
  ImGui::TextWrapped("A  = %s", VectorText(info.collision.output.cast<float>(), 6).c_str());
  ImGui::PopFont();
  ImGui::EndGroup();
  if (!narrow) ImGui::SameLine();
  ImGui::BeginGroup();
  std::snprintf(buf, sizeof buf, L(set == attn::FeasibleSet::kAffine ? tr::kScenario2Affine : tr::kScenario2),
                r.tokens[r.target].text.c_str());
  ImGui::TextColored(ImVec4(0.47f, 0.82f, 0.47f, 1.0f), "%s", buf);
  DrawBars(ctx, "alpha2", info.collision.alpha2, custom ? s.attention.custom.contributions2 : r.contributions2, kAlpha2Col, col);
  ImGui::PushFont(ctx.fonts.mono);
  ImGui::TextWrapped("A′ = %s", VectorText(info.collision.output2.cast<float>(), 6).c_str());
  ImGui::PopFont();
  ImGui::EndGroup();
  char diff[32];
  std::snprintf(diff, sizeof diff, "%.1e", info.collision.max_output_diff);
  std::snprintf(buf, sizeof buf, L(tr::kSameA), diff);
  ImGui::TextWrapped("%s", buf);
  ImGui::EndGroup();
  {
    const ImVec2 after = ImGui::GetCursorScreenPos();
    const ImVec2 fig_min = ImGui::GetItemRectMin(), fig_max = ImGui::GetItemRectMax();
    AddFigure(ctx.ui, "contributions", fig_min, fig_max, true, false);
    const ImVec2 top_right(fig_max.x, fig_min.y);
    ExportMenu(ctx.ui, "contributions", true, false, &top_right);
    ImGui::SetCursorScreenPos(after);
  }

  // What A alone tells about each word, and the simplex picture beside it.
  ImGui::Separator();
  const float simplex = narrow ? std::min(260.0f, ImGui::GetContentRegionAvail().x * 0.8f)
                               : std::min(220.0f, ImGui::GetContentRegionAvail().x * 0.35f);
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - (narrow ? 0.0f : simplex + 16));
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.8f, 1.0f, 1.0f));
  ImGui::TextWrapped("%s", L(tr::kRanges));
  ImGui::PopStyleColor();
  for (int i = 0; i < n && i < info.ranges.rows(); ++i) {
    const float lo = static_cast<float>(info.ranges(i, 0)), hi = static_cast<float>(info.ranges(i, 1));
    const bool masked = i < static_cast<int>(r.visible.size()) && !r.visible[static_cast<std::size_t>(i)];
    if (masked)
      std::snprintf(buf, sizeof buf, L(tr::kRangeMasked), r.tokens[i].text.c_str());
    else if (std::isinf(lo) || std::isinf(hi))
      std::snprintf(buf, sizeof buf, L(tr::kRangeUnbounded), r.tokens[i].text.c_str(), Num(static_cast<float>(alpha(i)), 3));
    else if (hi - lo < 1e-9f)
      std::snprintf(buf, sizeof buf, L(tr::kRangePoint), r.tokens[i].text.c_str(), Num(lo, 3));
    else
      std::snprintf(buf, sizeof buf, L(tr::kRangeLine), r.tokens[i].text.c_str(), Num(lo, 3), Num(hi, 3),
                    Num(static_cast<float>(alpha(i)), 3));
    ImGui::TextWrapped("%s", buf);
  }
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  if (!narrow) ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + simplex);
  DrawSimplex(ctx, simplex);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();

  DrawContributions(ctx);     // which words mattered: weight against contribution
  information::DrawLayerInformation(ctx);  // model mode only (panel_information_model.cpp)
  information::DrawModelProbe(ctx);        // model mode only

  // The seed's answer, and the probe: measured, not only argued.
  ImGui::Separator();
  ImGui::TextWrapped("%s", L(tr::kSeedAnswer));
  const bool running = !s.attention.probe.queue.empty();
  ImGui::BeginDisabled(running);
  if (ImGui::Button(Label(tr::kProbeRun, "probe"))) app::StartProbeSweep(s);
  ImGui::EndDisabled();
  if (running) {
    ImGui::SameLine();
    const float done = static_cast<float>(s.attention.probe.points.size()) / static_cast<float>(std::max(1, s.attention.probe.total));
    ImGui::ProgressBar(done, ImVec2(160, 0));
  }
  if (!s.attention.probe.points.empty()) {
    std::snprintf(buf, sizeof buf, L(tr::kProbeExplain), Count(s.attention.probe.points.front().tokens, tr::kTokensOf).c_str());
    ImGui::TextWrapped("%s", buf);
    ImGui::PushFont(ctx.fonts.mono);
    for (const auto& p : s.attention.probe.points) {
      std::snprintf(buf, sizeof buf, L(tr::kProbeRow), p.d_v, Count(p.heads, tr::kHeadsCount).c_str(), Num(static_cast<float>(p.accuracy), 3),
                    Num(static_cast<float>(p.chance), 3));
      ImGui::TextUnformatted(buf);
      ImGui::SameLine();
      const ImVec2 q = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddRectFilled(
          ImVec2(q.x, q.y + 3), ImVec2(q.x + 160.0f * static_cast<float>(p.accuracy), q.y + ImGui::GetTextLineHeight() - 2),
          p.heads == 1 ? kAlphaCol : kAlpha2Col);
      ImGui::NewLine();
    }
    ImGui::PopFont();
  }
  EndPanel();
}

}  // namespace ui
