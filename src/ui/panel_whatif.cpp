// What if (issue 23): the learner edits the run (a word replaced, deleted or inserted, the tokens
// reordered, keys or heads knocked out; a value is dragged in the Vectors view) and sees the
// edited run against the plain one: both heatmaps, their difference Δα on the diverging colour
// map (zero in the middle, a legend), Δα of every head, ΔA per dimension and the verdict before
// and after. Every number is the what-if room's comparison (app/whatif/, attn::CompareRuns).
//
// Sections, top to bottom:
//   DrawEditControls   the word, the order, the knocked-out keys and heads, "undo every edit"
//   DrawEditList       what the current run changed, in words
//   DrawBeforeAfter    the plain and the edited weights, small, side by side
//   DrawDelta          Δα of the chosen head, large, on the plain run's tokens, with its legend
//   DrawDeltaHeads     Δα of every head, small (several heads)
//   DrawDeltaOutput    ΔA per dimension, its norm, the change after W_O
//   DrawVerdict        the information verdict before and after; the shuffle's lesson
#include "text/i18n.h"
#include "ui/ui.h"

#include "engine/whatif/whatif.h"

#include <misc/cpp/imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace ui {

namespace {

constexpr float kDeltaFloor = 1e-3f;  // the colour scale's smallest half-width: rounding stays grey

const ImU32 kQueryCol = IM_COL32(245, 155, 40, 255);

std::string Sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", x);
  return buf;
}

// The typed sentence's tokens: the plain run's when the run is edited (the edits name them).
const std::vector<attn::Token>& Typed(const Context& ctx) { return app::TypedTokens(ctx.state); }

}  // namespace

// The word a what-if changes (ui.whatif_token over `words`) and the new word (ui.whatif_word):
// the lab's tokens here, the typed words in model mode (panel_whatif_model.cpp).
void DrawWordChoice(Context& ctx, const std::vector<attn::Token>& words, const char* id) {
  UiState& ui = ctx.ui;
  const int n = static_cast<int>(words.size());
  if (ui.whatif_token < 0 || ui.whatif_token >= n) return;
  const float w = ImGui::GetContentRegionAvail().x;
  char key[32];
  ImGui::SetNextItemWidth(std::min(150.0f, w * 0.35f));
  char current[200];
  std::snprintf(current, sizeof current, "%d «%s»", ui.whatif_token, words[static_cast<std::size_t>(ui.whatif_token)].text.c_str());
  std::snprintf(key, sizeof key, "%s_token", id);
  if (ImGui::BeginCombo(Label(tr::kWhatIfWord, key), current)) {
    for (int i = 0; i < n; ++i) {
      char item[200];
      std::snprintf(item, sizeof item, "%d «%s»", i, words[static_cast<std::size_t>(i)].text.c_str());
      ImGui::PushID(i);
      if (ImGui::Selectable(item, i == ui.whatif_token)) ui.whatif_token = i;
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (w >= 520.0f) ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(150.0f, w * 0.35f));
  std::snprintf(key, sizeof key, "%s_with", id);
  ImGui::InputTextWithHint(Label(tr::kWhatIfWith, key), L(tr::kWhatIfWithHint), &ui.whatif_word);
}

namespace {

void DrawEditControls(Context& ctx) {
  app::AppState& s = ctx.state;
  const attn::LabConfig& cfg = s.lab.config;
  const std::vector<attn::Token>& typed = Typed(ctx);
  const int n = static_cast<int>(typed.size());
  if (n == 0) return;
  UiState& ui = ctx.ui;
  if (ui.whatif_token < 0 || ui.whatif_token >= n) ui.whatif_token = cfg.what_if_token >= 0 && cfg.what_if_token < n ? cfg.what_if_token : std::min(cfg.query, n - 1);
  const float w = ImGui::GetContentRegionAvail().x;
  // 1. the word: replace, delete, insert before
  DrawWordChoice(ctx, typed, "wi");
  const bool has_word = !ui.whatif_word.empty();
  ImGui::BeginDisabled(!has_word);
  if (ImGui::Button(Label(tr::kWhatIfReplace, "wi_replace")))
    app::ApplyPatch(s, attn::api::Obj({{"whatIfToken", ui.whatif_token}, {"whatIfWith", ui.whatif_word}, {"whatIfMode", "replace"}}));
  ImGui::SameLine();
  if (ImGui::Button(Label(tr::kWhatIfInsert, "wi_insert")))
    app::ApplyPatch(s, attn::api::Obj({{"whatIfToken", ui.whatif_token}, {"whatIfWith", ui.whatif_word}, {"whatIfMode", "insert"}}));
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(Label(tr::kWhatIfDelete, "wi_delete")))
    app::ApplyPatch(s, attn::api::Obj({{"whatIfToken", ui.whatif_token}, {"whatIfWith", ""}, {"whatIfMode", "replace"}}));

  // 2. the order
  ImGui::TextUnformatted(L(tr::kShuffle));
  const struct { const Text* name; const char* id; attn::ShuffleMode mode; } kOrders[] = {
      {&tr::kShuffleOff, "off", attn::ShuffleMode::kOff},
      {&tr::kShuffleReverse, "reverse", attn::ShuffleMode::kReverse},
      {&tr::kShuffleSeeded, "seeded", attn::ShuffleMode::kSeeded}};
  const float row_right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (const auto& o : kOrders) {
    const float need = ImGui::CalcTextSize(L(*o.name)).x + ImGui::GetFrameHeight() + 3 * ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::GetItemRectMax().x + need < row_right) ImGui::SameLine();
    char id[32];
    std::snprintf(id, sizeof id, "wi_shuffle_%s", o.id);
    if (ImGui::RadioButton(Label(*o.name, id), cfg.shuffle == o.mode) && cfg.shuffle != o.mode)
      app::ApplyPatch(s, attn::api::Obj({{"shuffle", attn::ShuffleModeName(o.mode)}}));
  }
  if (cfg.shuffle == attn::ShuffleMode::kSeeded) {
    int seed = static_cast<int>(std::min<std::uint64_t>(cfg.shuffle_seed, 2147483647u));
    ImGui::SetNextItemWidth(std::min(140.0f, w * 0.4f));
    if (ImGui::InputInt(Label(tr::kShuffleSeed, "wi_seed"), &seed) && seed >= 0) app::ApplyPatch(s, attn::api::Obj({{"shuffleSeed", seed}}));
  }

  // 3. knock-out: keys (every query and head), heads (their A = 0)
  ImGui::TextUnformatted(L(tr::kKnockKeys));
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (int i = 0; i < n; ++i) {
    const bool off = cfg.knockout_keys.Has(i);
    const std::string label = (off ? "× " : "") + typed[static_cast<std::size_t>(i)].text;
    const float bw = ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
    if (i > 0 && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + bw < right) ImGui::SameLine();
    ImGui::PushID(1000 + i);
    if (off) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.55f, 0.18f, 0.20f, 1.0f));
    if (ImGui::SmallButton(label.c_str())) app::ApplyPatch(s, attn::api::Obj({{"knockoutKeys", cfg.knockout_keys.Toggled(i)}}));
    if (off) ImGui::PopStyleColor();
    ImGui::PopID();
  }
  if (cfg.heads > 1) {
    ImGui::TextUnformatted(L(tr::kKnockHeads));
    for (int h = 0; h < cfg.heads; ++h) {
      bool off = cfg.knockout_heads.Has(0, h);
      char label[64];
      std::snprintf(label, sizeof label, L(tr::kHeadN), h + 1);
      ImGui::PushID(2000 + h);
      if (h > 0 && ImGui::GetItemRectMax().x + 110.0f < right) ImGui::SameLine();
      if (ImGui::Checkbox(label, &off))
        app::ApplyPatch(s, attn::api::Obj({{"knockoutHeads", cfg.knockout_heads.Toggled(0, h)}}));
      ImGui::PopID();
    }
  }
  if (attn::HasEdits(cfg) && ImGui::Button(Label(tr::kWhatIfReset, "wi_reset"))) app::ApplyPatch(s, app::NoEditsPatch());
}

void DrawEditList(Context& ctx, const attn::LabComparison& c) {
  const attn::LabConfig& cfg = ctx.state.lab.config;
  const auto& typed = c.plain.tokens;
  const auto& run = c.edited.tokens;
  const attn::RunEdits& e = c.edited.edits;
  char buf[512];
  std::vector<std::string> lines;
  const int n = static_cast<int>(typed.size());
  if (cfg.what_if_token >= 0 && cfg.what_if_token < n) {
    const char* word = typed[static_cast<std::size_t>(cfg.what_if_token)].text.c_str();
    if (cfg.what_if_mode == attn::WhatIfMode::kInsert)
      std::snprintf(buf, sizeof buf, L(tr::kEditInserted), cfg.what_if_with.c_str(), word);
    else if (cfg.what_if_with.empty())
      std::snprintf(buf, sizeof buf, L(tr::kEditDeleted), word);
    else
      std::snprintf(buf, sizeof buf, L(tr::kEditReplaced), word, cfg.what_if_with.c_str());
    lines.push_back(buf);
  }
  if (e.shuffled) lines.push_back(L(tr::kEditShuffled));
  auto names = [&](const std::vector<int>& idx, bool heads) {
    std::string out;
    for (int k : idx) {
      if (!out.empty()) out += ", ";
      if (heads) out += std::to_string(k + 1);
      else if (k >= 0 && k < static_cast<int>(run.size())) out += "«" + run[static_cast<std::size_t>(k)].text + "»";
    }
    return out;
  };
  if (!e.knocked_keys.empty()) {
    std::snprintf(buf, sizeof buf, L(tr::kEditKnockedKeys), names(e.knocked_keys, false).c_str());
    lines.push_back(buf);
  }
  if (!e.knocked_heads.empty()) {
    std::snprintf(buf, sizeof buf, L(tr::kEditKnockedHeads), names(e.knocked_heads, true).c_str());
    lines.push_back(buf);
  }
  if (e.value_token >= 0 && e.value_token < static_cast<int>(run.size())) {
    std::snprintf(buf, sizeof buf, L(tr::kEditValue), run[static_cast<std::size_t>(e.value_token)].text.c_str(),
                  Num(static_cast<float>(cfg.value_a), 2), Num(static_cast<float>(cfg.value_b), 2));
    lines.push_back(buf);
  }
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", L(tr::kEdits));
  for (const std::string& l : lines) {
    ImGui::Bullet();
    ImGui::SameLine();
    ImGui::TextWrapped("%s", l.c_str());
  }
}

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

float DeltaRange(const attn::LabComparison& c) {
  return std::max(kDeltaFloor, static_cast<float>(c.max_abs_d_weight));
}

void DrawDelta(Context& ctx, const attn::LabComparison& c) {
  app::AppState& s = ctx.state;
  const int heads = static_cast<int>(c.d_weights.size());
  const int head = std::clamp(s.lab.config.head, 0, heads - 1);
  const attn::MatD& d = c.d_weights[static_cast<std::size_t>(head)];
  const auto& tokens = c.plain.tokens;
  const int n = static_cast<int>(d.rows());
  char buf[512];
  std::snprintf(buf, sizeof buf, L(tr::kDeltaCaption), head + 1, Sci(c.max_abs_d_weight).c_str());
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
  if (c.query >= 0 && c.query < n)
    dl->AddRect(ImVec2(p0.x - 1, p0.y + cell * c.query - 1), ImVec2(p1.x + 1, p0.y + cell * (c.query + 1) + 1), kQueryCol, 0, 0, 2.5f);

  ImGui::SetCursorScreenPos(p0);
  ImGui::InvisibleButton("delta_cells", ImVec2(side, side));
  if (ImGui::IsItemHovered() && n > 0) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int i = std::clamp(static_cast<int>((mp.y - p0.y) / cell), 0, n - 1);
    const int j = std::clamp(static_cast<int>((mp.x - p0.x) / cell), 0, n - 1);
    dl->AddRect(ImVec2(p0.x + cell * j, p0.y + cell * i), ImVec2(p0.x + cell * (j + 1), p0.y + cell * (i + 1)), IM_COL32(0, 0, 0, 255), 0, 0, 2.0f);
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
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int h = 0; h < heads; ++h) {
    const attn::MatD& d = c.d_weights[static_cast<std::size_t>(h)];
    const int n = static_cast<int>(d.rows());
    ctx.heatmap.Upload(gfx::HeatmapSlot::kWhatIf, 3 + h, attn::ToRowMajor(attn::MatF(d.cast<float>())), n, n);
    if (h) ImGui::SameLine();
    const ImVec2 a = ImGui::GetCursorScreenPos(), b(a.x + small, a.y + small);
    ImGui::PushID(3000 + h);
    if (ImGui::InvisibleButton("dhead", ImVec2(small, small)) && !Locked(ctx, "whatif")) app::ApplyPatch(s, attn::api::Obj({{"head", h}}));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(L(tr::kHeadOf), h + 1, heads);
    ImGui::PopID();
    ctx.heatmap.Draw(dl, gfx::HeatmapSlot::kWhatIf, 3 + h, a, b, -m, m, gfx::Colormap::kDiverging);
    const bool chosen = h == s.lab.config.head;
    dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), chosen ? kQueryCol : IM_COL32(90, 90, 100, 255), 0, 0,
                chosen ? 2.5f : 1.0f);
    char num[16];
    std::snprintf(num, sizeof num, "%d", h + 1);
    dl->AddText(ImVec2(a.x + 2, a.y + 1), IM_COL32(20, 20, 20, 230), num);
  }
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

std::string VerdictText(const attn::Verdict& v) {
  char buf[256];
  if (v.recoverable) return L(tr::kVerdictRecoverable);
  std::snprintf(buf, sizeof buf, L(tr::kVerdictNotRecoverable), v.same_output_dim);
  return buf;
}

void DrawVerdict(Context& ctx, const attn::LabComparison& c) {
  const attn::LabConfig& cfg = ctx.state.lab.config;
  char buf[900];
  ImGui::PushTextWrapPos(0.0f);
  if (c.verdict_changed) {
    std::snprintf(buf, sizeof buf, L(tr::kVerdictChange), VerdictText(c.verdict_plain).c_str(), VerdictText(c.verdict_edited).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.72f, 0.4f, 1.0f));
    TextWrappedAtSpaces(buf);
    ImGui::PopStyleColor();
  } else {
    std::snprintf(buf, sizeof buf, L(tr::kVerdictSame), VerdictText(c.verdict_plain).c_str());
    ImGui::TextWrapped("%s", buf);
  }
  // The shuffle alone: what positional encoding (and the mask) are for.
  const attn::RunEdits& e = c.edited.edits;
  const bool only_shuffle = e.shuffled && cfg.what_if_token < 0 && e.knocked_keys.empty() && e.knocked_heads.empty() &&
                            e.value_token < 0;
  if (only_shuffle) {
    if (!cfg.positional && !cfg.causal) {
      std::snprintf(buf, sizeof buf, L(tr::kShuffleSame), Sci(c.max_abs_d_weight).c_str(), Sci(c.shuffle_double_max_diff).c_str());
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.9f, 0.55f, 1.0f));
      TextWrappedAtSpaces(buf);
      ImGui::PopStyleColor();
    } else {
      const Text& why = cfg.positional && cfg.causal ? tr::kShuffleBoth : cfg.positional ? tr::kShufflePositional : tr::kShuffleCausal;
      std::snprintf(buf, sizeof buf, L(tr::kShuffleDiffers), L(why), Sci(c.max_abs_d_weight).c_str(), Sci(c.shuffle_double_max_diff).c_str());
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.72f, 0.4f, 1.0f));
      TextWrappedAtSpaces(buf);
      ImGui::PopStyleColor();
    }
  }
  ImGui::PopTextWrapPos();
}

// The default page's build (app/whatif/whatif.h): the tab asks for the full build and shows its
// download; the rest of this file is not in that build.
void DrawToolsComing(Context& ctx) {
  app::AppState& s = ctx.state;
  app::ShowWhatIfTools(s);
  if (BeginPanel(ctx, L(tr::kWhatIfTitle), "whatif", ImVec2(0, 0))) {
    const app::ToolsSwitch& t = s.whatif.tools;
    char buf[512];
    if (!t.failed.empty()) {
      std::snprintf(buf, sizeof buf, L(tr::kToolsFailed), t.failed.c_str());
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
      ImGui::TextWrapped("%s", buf);
      ImGui::PopStyleColor();
      if (ImGui::Button(Label(tr::kModelRetry, "tools_retry"))) app::RetryWhatIfTools(s);
    } else {
      std::snprintf(buf, sizeof buf, L(tr::kToolsLoading), t.fraction * 100.0);
      ImGui::TextWrapped("%s", buf);
      ImGui::ProgressBar(static_cast<float>(t.fraction), ImVec2(-1, 0));
    }
  }
  EndPanel();
}

}  // namespace

void DrawWhatIfPanel(Context& ctx) {
  if (!app::WhatIfToolsInBuild()) return DrawToolsComing(ctx);
  if (ModelPendingPanel(ctx, L(tr::kWhatIf), "whatif")) return;
  app::AppState& s = ctx.state;
  if (!BeginPanel(ctx, L(tr::kWhatIfTitle), "whatif", ImVec2(0, 0))) {
    EndPanel();
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextWrapped("%s", L(tr::kWhatIfIntro));
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  if (s.lab.config.projection == attn::Projection::kModel) {
    DrawModelWhatIf(ctx);
    EndPanel();
    return;
  }
  // Wide (a laptop's bottom row): the controls and the numbers on the left, the pictures on the
  // right, each scrolling on its own; narrow (a phone): one column.
  const bool wide = ImGui::GetContentRegionAvail().x >= 700.0f;
  if (wide) ImGui::BeginChild("wi_left", ImVec2(std::floor(ImGui::GetContentRegionAvail().x * 0.45f), 0), false);
  {
    LockScope lock(ctx, "whatif");
    DrawEditControls(ctx);
  }
  ImGui::Separator();
  const attn::LabComparison* c = app::CurrentComparison(s);
  if (!c) {
    ImGui::TextDisabled("%s", L(tr::kNoEdit));
    if (wide) ImGui::EndChild();
    EndPanel();
    return;
  }
  DrawEditList(ctx, *c);
  DrawVerdict(ctx, *c);
  if (wide) {
    ImGui::Separator();
    DrawDeltaOutput(ctx, *c);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("wi_right", ImVec2(0, 0), false);
  }
  DrawBeforeAfter(ctx, *c);
  DrawDelta(ctx, *c);
  DrawDeltaHeads(ctx, *c);
  if (!wide) {
    ImGui::Separator();
    DrawDeltaOutput(ctx, *c);
  }
  if (wide) ImGui::EndChild();
  EndPanel();
}

}  // namespace ui
