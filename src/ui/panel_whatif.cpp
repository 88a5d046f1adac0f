// What if (issue 23): the learner edits the run (a word replaced, deleted or inserted, the tokens
// reordered, keys or heads knocked out; a value is dragged in the Vectors view) and sees the
// edited run against the plain one: both heatmaps, their difference Δα on the diverging colour
// map (zero in the middle, a legend), Δα of every head, ΔA per dimension and the verdict before
// and after. Every number is the what-if room's comparison (app/whatif/, attn::CompareRuns).
//
// Sections, top to bottom:
//   DrawEditControls   the word, the order, the knocked-out keys and heads, "undo every edit"
//   DrawEditList       what the current run changed, in words
//   DrawVerdict        the information verdict before and after; the shuffle's lesson
//   and the pictures of the difference (panel_whatif_delta.cpp): the plain and the edited weights
//   side by side, Δα of the chosen head and of every head, ΔA per dimension
#include "text/i18n.h"
#include "ui/panel_whatif.h"
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
      std::snprintf(label, sizeof label, L(tr::kHeadN), h);
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
      std::snprintf(buf, sizeof buf, L(tr::kShuffleSame), whatif::Sci(c.max_abs_d_weight).c_str(), whatif::Sci(c.shuffle_double_max_diff).c_str());
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.9f, 0.55f, 1.0f));
      TextWrappedAtSpaces(buf);
      ImGui::PopStyleColor();
    } else {
      const Text& why = cfg.positional && cfg.causal ? tr::kShuffleBoth : cfg.positional ? tr::kShufflePositional : tr::kShuffleCausal;
      std::snprintf(buf, sizeof buf, L(tr::kShuffleDiffers), L(why), whatif::Sci(c.max_abs_d_weight).c_str(), whatif::Sci(c.shuffle_double_max_diff).c_str());
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
    whatif::DrawDeltaOutput(ctx, *c);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("wi_right", ImVec2(0, 0), false);
  }
  whatif::DrawBeforeAfter(ctx, *c);
  whatif::DrawDelta(ctx, *c);
  whatif::DrawDeltaHeads(ctx, *c);
  if (!wide) {
    ImGui::Separator();
    whatif::DrawDeltaOutput(ctx, *c);
  }
  if (wide) ImGui::EndChild();
  EndPanel();
}

}  // namespace ui
