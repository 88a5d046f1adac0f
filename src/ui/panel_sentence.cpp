// The sentence box and its tokens as chips; clicking a chip makes that token the query.
#include "app/lesson/lesson.h"
#include "text/i18n.h"
#include "ui/ui.h"

#include <misc/cpp/imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ui {

namespace {

// A token chip's colours: the query orange with dark text, the end of text greyed, a knocked-out
// key dark red. Returns how many were pushed (for PopStyleColor).
enum class Chip { kPlain, kQuery, kEndOfText, kKnockedOut };
int PushChipColours(Chip kind) {
  switch (kind) {
    case Chip::kQuery:
      ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.95f, 0.60f, 0.15f, 1.0f));
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.05f, 0.05f, 0.05f, 1.0f));
      return 2;
    case Chip::kEndOfText:
      ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.30f, 0.30f, 0.34f, 1.0f));
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.75f, 0.80f, 1.0f));
      return 2;
    case Chip::kKnockedOut:
      ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.55f, 0.18f, 0.20f, 1.0f));
      return 1;
    case Chip::kPlain: break;
  }
  return 0;
}

// A token's text with its control characters made visible: a line break or a tab would break
// the chips' row and the next-token line ("\n" is one of the model's likeliest next tokens).
std::string Visible(const std::string& piece) {
  std::string out;
  for (char c : piece) {
    if (c == '\n') out += "↵";
    else if (c == '\t') out += "⇥";
    else if (c == '\r') out += "↵";
    else if (static_cast<unsigned char>(c) < 0x20) out += "·";
    else out += c;
  }
  return out;
}

// The lesson's step points at token i (its "point"): the chip just drawn is outlined.
void MarkPointedToken(const app::AppState& s, int i) {
  const app::LessonStep* step = app::CurrentLessonStep(s);
  if (!step || step->point.token != i) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), IM_COL32(120, 200, 255, 255),
                                      3.0f, 0, 2.0f);
}

// A model token as a chip: its leading space dropped (the gap between word groups shows it),
// <|endoftext|> as a grey chip of its own.
std::string ChipText(const std::string& piece) {
  if (piece == "<|endoftext|>") return "⟨eot⟩";
  const std::size_t first = piece.find_first_not_of(' ');
  return first == std::string::npos ? "␣" : Visible(piece.substr(first));
}

// Model mode: the BPE pieces as chips, one word's pieces touching, a gap between words; then
// the model's top 5 next tokens.
void DrawModelChips(Context& ctx) {
  app::AppState& s = ctx.state;
  const attn::model::ModelLabResult& m = s.attention.model_result;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", L(tr::kModelTokensHint));
  ImGui::PopStyleColor();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float word_gap = ImGui::GetStyle().ItemSpacing.x * 2.0f;
  const int n = static_cast<int>(m.texts.size());
  for (int i = 0; i < n; ++i) {
    const bool is_query = i == s.lab.config.query;
    const bool eot = m.ids[static_cast<std::size_t>(i)] == m.eot;
    const std::string text = ChipText(m.texts[static_cast<std::size_t>(i)]);
    if (i > 0) {  // the same word: touching; a new word: a gap; wrap where it does not fit
      const float gap = m.word_start[static_cast<std::size_t>(i)] || eot || m.ids[static_cast<std::size_t>(i - 1)] == m.eot ? word_gap : 1.0f;
      const float w = ImGui::CalcTextSize(text.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
      if (ImGui::GetItemRectMax().x + gap + w < right) ImGui::SameLine(0, gap);
    }
    ImGui::PushID(i);
    const int colours = PushChipColours(is_query ? Chip::kQuery : eot ? Chip::kEndOfText : Chip::kPlain);
    if (ImGui::Button(text.c_str())) app::ApplyPatch(s, attn::api::Obj({{"query", i}}));
    MarkPointedToken(s, i);
    if (ImGui::IsItemHovered()) {
      ctx.ui.hovered_key = i;
      if (eot) ImGui::SetTooltip("%d: <|endoftext|> (%s), id %d", i, L(tr::kModelEot), m.eot);
      else ImGui::SetTooltip("%d: «%s», id %d", i, m.texts[static_cast<std::size_t>(i)].c_str(), m.ids[static_cast<std::size_t>(i)]);
    }
    ImGui::PopStyleColor(colours);
    ImGui::PopID();
  }
  ImGui::TextDisabled("%s", L(tr::kModelNext));
  // One piece per entry ("  «на» 0.077,": the comma ends an entry, the spaces start the next), so
  // a line breaks only between entries.
  std::vector<std::string> next;
  for (std::size_t k = 0; k < m.next.size(); ++k) {
    const attn::model::NextToken& t = m.next[k];
    char p[32];
    std::snprintf(p, sizeof p, " %.3f%s", static_cast<double>(t.p), k + 1 < m.next.size() ? "," : "");
    next.push_back((k == 0 ? "«" : "  «") + (t.id == m.eot ? std::string("⟨eot⟩") : Visible(t.text)) + "»" + p);
  }
  TextWrappedPieces(next);
}

// A chip's menu (right-click): make it the query, or what if (issue 23): replace it, delete it,
// insert a word before it, knock it out (mask this key), drag its value in the Vectors view.
void DrawChipMenu(Context& ctx, int i) {
  app::AppState& s = ctx.state;
  if (!ImGui::BeginPopupContextItem("chip_menu")) return;
  if (ImGui::MenuItem(L(tr::kChipQuery))) app::ApplyPatch(s, attn::api::Obj({{"query", i}}));
  ImGui::Separator();
  if (!app::WhatIfToolsInBuild()) {  // the default page's build: the tools load first
    if (ImGui::MenuItem(L(tr::kChipTools))) app::ApplyPatch(s, attn::api::Obj({{"view", "whatif"}}));
    ImGui::EndPopup();
    return;
  }
  ImGui::SetNextItemWidth(180.0f);
  ImGui::InputTextWithHint("##chip_word", L(tr::kWhatIfWithHint), &ctx.ui.chip_word);
  const bool word = !ctx.ui.chip_word.empty();
  ImGui::BeginDisabled(!word);
  if (ImGui::Button(Label(tr::kChipReplace, "chip_replace"))) {
    app::ApplyPatch(s, attn::api::Obj({{"whatIfToken", i}, {"whatIfWith", ctx.ui.chip_word}, {"whatIfMode", "replace"}, {"view", "whatif"}}));
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button(Label(tr::kChipInsert, "chip_insert"))) {
    app::ApplyPatch(s, attn::api::Obj({{"whatIfToken", i}, {"whatIfWith", ctx.ui.chip_word}, {"whatIfMode", "insert"}, {"view", "whatif"}}));
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndDisabled();
  if (ImGui::MenuItem(L(tr::kChipDelete)))
    app::ApplyPatch(s, attn::api::Obj({{"whatIfToken", i}, {"whatIfWith", ""}, {"whatIfMode", "replace"}, {"view", "whatif"}}));
  const bool off = s.lab.config.knockout_keys.Has(i);
  if (ImGui::MenuItem(L(off ? tr::kChipUnknock : tr::kChipKnock)))
    app::ApplyPatch(s, attn::api::Obj({{"knockoutKeys", s.lab.config.knockout_keys.Toggled(i)}, {"view", "whatif"}}));
  if (ImGui::MenuItem(L(tr::kChipValue))) app::ApplyPatch(s, attn::api::Obj({{"valueToken", i}, {"view", "vectors"}}));
  ImGui::EndPopup();
}

// The lab's own words as chips, wrapped like words in a paragraph: the sentence as typed (the
// edits name its tokens); a knocked-out key is red with ×, the what-if's word is outlined.
void DrawWordChips(Context& ctx) {
  app::AppState& s = ctx.state;
  const attn::LabConfig& cfg = s.lab.config;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", L(tr::kTokensHintMenu));
  ImGui::PopStyleColor();
  const auto& tokens = app::TypedTokens(s);
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    const bool is_query = i == cfg.query;
    const bool off = cfg.knockout_keys.Has(i);
    const std::string text = (off ? "× " : "") + tokens[i].text;
    ImGui::PushID(i);
    const int colours = PushChipColours(is_query ? Chip::kQuery : off ? Chip::kKnockedOut : Chip::kPlain);
    if (ImGui::Button(text.c_str())) app::ApplyPatch(s, attn::api::Obj({{"query", i}}));
    const float chip_right = ImGui::GetItemRectMax().x;
    if (i == cfg.what_if_token)  // the word a what-if changes
      ImGui::GetWindowDrawList()->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), IM_COL32(214, 96, 77, 255), 3.0f, 0, 2.0f);
    if (ImGui::IsItemHovered()) {
      ctx.ui.hovered_key = i;
      ImGui::SetTooltip("%d: «%s»%s", i, tokens[i].text.c_str(), is_query ? "  (q)" : "");
    }
    ImGui::PopStyleColor(colours);
    DrawChipMenu(ctx, i);
    ImGui::PopID();
    // Wrap the chips like words in a paragraph.
    if (i + 1 < static_cast<int>(tokens.size())) {
      const float next_w = ImGui::CalcTextSize(tokens[i + 1].text.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x +
                           ImGui::CalcTextSize("× ").x;
      if (chip_right + ImGui::GetStyle().ItemSpacing.x + next_w < right) ImGui::SameLine();
    }
  }
  if (!tokens.empty() && cfg.query >= 0 && cfg.query < static_cast<int>(tokens.size()))
    ImGui::Text("%s: «%s»", L(tr::kQuery), tokens[cfg.query].text.c_str());
}

}  // namespace

void DrawSentencePanel(Context& ctx) {
  app::AppState& s = ctx.state;
  // As tall as its content: the chips wrap like words, so count their rows first.
  const ImGuiStyle& st = ImGui::GetStyle();
  const float inner_w = ImGui::GetContentRegionAvail().x - 2 * st.WindowPadding.x;
  int chip_rows = 1;
  float x = 0;
  for (const auto& tok : app::TypedTokens(s)) {
    const float w = ImGui::CalcTextSize(tok.text.c_str()).x + 2 * st.FramePadding.x + st.ItemSpacing.x;
    if (x > 0 && x + w > inner_w) { ++chip_rows; x = 0; }
    x += w;
  }
  const float frame = ImGui::GetFrameHeightWithSpacing(), line = ImGui::GetTextLineHeightWithSpacing();
  const float wanted = 2 * st.WindowPadding.y + 3 * line + frame * (1 + chip_rows) + st.ItemSpacing.y * 2 +
                       (ModelMode(ctx) ? 4 * line : 0.0f) +  // the next tokens
                       (!ModelMode(ctx) && ImGui::CalcTextSize(L(tr::kTokensHintMenu)).x > inner_w ? line : 0.0f);  // the hint wraps
  const float h = std::min(wanted, std::max(120.0f, ImGui::GetContentRegionAvail().y * 0.6f));
  if (BeginPanel(ctx, L(tr::kSentence), "sentence", ImVec2(0, h))) {
    LockScope lock(ctx, "sentence");  // shown read-only: the box and the chips are disabled
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputTextWithHint("##sentence", L(tr::kSentenceHint), &s.sentence_edit))
      app::ApplyPatch(s, attn::api::Obj({{"sentence", s.sentence_edit}}), app::Source::kSentenceBox);

    if (ModelMode(ctx)) DrawModelChips(ctx);
    else DrawWordChips(ctx);
  }
  EndPanel();
  SetNatural(ctx.ui, "sentence", wanted);  // auto-height: the chips' rows counted above
}

}  // namespace ui
