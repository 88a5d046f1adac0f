// What if in model mode (issue 23): a word edit of the sentence, or knock-outs of the chosen
// head's keys and of whole heads, in the trained model; the next token before and after, and Δα of
// every head. The numbers are the what-if room's (app/whatif/, model::CompareModelRuns); the
// model's own panels keep showing the plain run.
#include "text/i18n.h"
#include "ui/panel_whatif.h"
#include "ui/ui.h"

#include "engine/text/tokenizer.h"
#include "engine/whatif/whatif.h"

#include <misc/cpp/imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace ui {

namespace {

constexpr float kDeltaFloor = 1e-3f;  // the colour scale's smallest half-width (as the lab's Δ)

// The word edit: the sentence's words as typed (the engine's tokens: whatIfToken names them).
void DrawWordEdit(Context& ctx) {
  app::AppState& s = ctx.state;
  const attn::TokenizeResult words = attn::Tokenize(s.lab.config.sentence);
  const int n = static_cast<int>(words.tokens.size());
  if (!words.ok() || n == 0) return;
  UiState& ui = ctx.ui;
  if (ui.whatif_token < 0 || ui.whatif_token >= n) ui.whatif_token = 0;
  DrawWordChoice(ctx, words.tokens, "wim");
  // a word edit replaces any knock-out (one kind at a time)
  auto edit = [&](const std::string& with, const char* mode) {
    app::ApplyPatch(s, attn::api::Obj({{"whatIfToken", ui.whatif_token}, {"whatIfWith", with}, {"whatIfMode", mode},
                                       {"knockoutKeys", ""}, {"knockoutHeads", ""}}));
  };
  ImGui::BeginDisabled(ui.whatif_word.empty());
  if (ImGui::Button(Label(tr::kWhatIfReplace, "wim_replace"))) edit(ui.whatif_word, "replace");
  ImGui::SameLine();
  if (ImGui::Button(Label(tr::kWhatIfInsert, "wim_insert"))) edit(ui.whatif_word, "insert");
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(Label(tr::kWhatIfDelete, "wim_delete"))) edit("", "replace");
}

// Knock-outs: the chosen head's keys (the model's tokens) and whole heads (layer:head).
void DrawKnockouts(Context& ctx) {
  app::AppState& s = ctx.state;
  const attn::LabConfig& cfg = s.lab.config;
  const attn::LabResult& r = s.attention.result;
  const int n = static_cast<int>(r.tokens.size());
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const attn::api::Json no_word = attn::api::Obj({{"whatIfToken", -1}, {"whatIfWith", ""}});
  char buf[160];
  std::snprintf(buf, sizeof buf, L(tr::kKnockModelKeys), cfg.layer, cfg.head);
  ImGui::TextUnformatted(buf);
  for (int i = 0; i < n; ++i) {
    const bool off = cfg.knockout_keys.Has(i);
    const std::string label = (off ? "× " : "") + (i == 0 ? std::string("⟨eot⟩") : r.tokens[static_cast<std::size_t>(i)].text);
    const float bw = ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
    if (i > 0 && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + bw < right) ImGui::SameLine();
    ImGui::PushID(4000 + i);
    if (off) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.55f, 0.18f, 0.20f, 1.0f));
    if (ImGui::SmallButton(label.c_str())) {
      attn::api::Json patch = no_word;
      patch["knockoutKeys"] = cfg.knockout_keys.Toggled(i);
      app::ApplyPatch(s, patch);
    }
    if (off) ImGui::PopStyleColor();
    ImGui::PopID();
  }
  const attn::LabConfig& shown = s.attention.model_result.config;  // the model's heads
  const int layers = s.model.loaded ? s.model.loaded->config().layers : 0, heads = shown.heads;
  ImGui::TextUnformatted(L(tr::kKnockHeads));
  for (int l = 0; l < layers; ++l) {
    for (int h = 0; h < heads; ++h) {
      bool off = cfg.knockout_heads.Has(l, h);
      char label[32];
      std::snprintf(label, sizeof label, "%d.%d", l, h);
      ImGui::PushID(5000 + l * 64 + h);
      if (h > 0) ImGui::SameLine();
      if (ImGui::Checkbox(label, &off)) {
        attn::api::Json patch = no_word;
        patch["knockoutHeads"] = cfg.knockout_heads.Toggled(l, h);
        app::ApplyPatch(s, patch);
      }
      ImGui::PopID();
    }
  }
}

std::string Piece(const std::string& text) { return text == "<|endoftext|>" ? "⟨eot⟩" : "«" + text + "»"; }

void DrawNext(const attn::model::ModelComparison& c) {
  ImGui::TextDisabled("%s", L(tr::kModelNextDelta));
  const std::size_t rows = std::max(c.next_plain.size(), c.next_edited.size());
  if (!ImGui::BeginTable("wim_next", 2, ImGuiTableFlags_SizingStretchSame)) return;
  ImGui::TableSetupColumn(L(tr::kBefore));
  ImGui::TableSetupColumn(L(tr::kAfter));
  ImGui::TableHeadersRow();
  for (std::size_t k = 0; k < rows; ++k) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (k < c.next_plain.size()) ImGui::Text("%s %.3f", Piece(c.next_plain[k].text).c_str(), static_cast<double>(c.next_plain[k].p));
    ImGui::TableNextColumn();
    if (k < c.next_edited.size()) ImGui::Text("%s %.3f", Piece(c.next_edited[k].text).c_str(), static_cast<double>(c.next_edited[k].p));
  }
  ImGui::EndTable();
}

void DrawDeltaGallery(Context& ctx, const attn::model::ModelComparison& c) {
  app::AppState& s = ctx.state;
  const int heads = s.attention.model_result.config.heads;
  if (heads < 1 || c.d_weights.empty()) return;
  const int layers = static_cast<int>(c.d_weights.size()) / heads;
  const float m = std::max(kDeltaFloor, static_cast<float>(c.max_abs_d_weight));
  char buf[256], num[32];
  std::snprintf(num, sizeof num, "%.1e", c.max_abs_d_weight);
  std::snprintf(buf, sizeof buf, L(tr::kModelDeltaHeads), num);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", buf);
  ImGui::PopTextWrapPos();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float side = std::clamp((ImGui::GetContentRegionAvail().x - gap * (heads - 1)) / heads, 24.0f, 64.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (int l = 0; l < layers; ++l)
    for (int h = 0; h < heads; ++h) {
      const int k = l * heads + h;
      if (h) ImGui::SameLine();
      char label[32];
      std::snprintf(label, sizeof label, "%d.%d", l, h);
      const bool chosen = l == s.lab.config.layer && h == s.lab.config.head;
      if (whatif::DeltaThumbnail(ctx, c.d_weights[static_cast<std::size_t>(k)], 3 + k, side, m, chosen, label) &&
          !Locked(ctx, "whatif"))
        app::ApplyPatch(s, attn::api::Obj({{"layer", l}, {"head", h}}));
    }
  // the PNG is this gallery; the SVG and CSV are the chosen head's Δα (app/exports/whatif_svg.cpp)
  const ImVec2 fig_min(origin.x - 3, origin.y - 3);
  const ImVec2 fig_max(origin.x + heads * side + (heads - 1) * gap + 3, ImGui::GetCursorScreenPos().y);
  AddFigure(ctx.ui, "whatif", fig_min, fig_max, true, true);
  const ImVec2 top_right(std::min(fig_max.x + ImGui::CalcTextSize("↓").x + 3 * ImGui::GetStyle().FramePadding.x,
                                  ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x),
                         fig_max.y + 2);
  const ImVec2 after = ImGui::GetCursorScreenPos();
  ExportMenu(ctx.ui, "whatif", true, true, &top_right);
  ImGui::SetCursorScreenPos(after);
  ImGui::Dummy(ImVec2(1, ImGui::GetFrameHeight()));
}

}  // namespace

void DrawModelWhatIf(Context& ctx) {
  app::AppState& s = ctx.state;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", L(tr::kEditsModel));
  ImGui::PopTextWrapPos();
  if (!s.model.loaded || !s.attention.result.error.ok()) return;
  {
    LockScope lock(ctx, "whatif");
    DrawWordEdit(ctx);
    DrawKnockouts(ctx);
    if (attn::HasEdits(s.lab.config) && ImGui::Button(Label(tr::kWhatIfReset, "wim_reset"))) app::ApplyPatch(s, app::NoEditsPatch());
  }
  ImGui::Separator();
  if (!s.whatif.model_key.empty() && !s.whatif.model_error.ok()) {
    char buf[512];
    std::snprintf(buf, sizeof buf, L(tr::kModelEditRefused), s.whatif.model_error.message.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    ImGui::TextWrapped("%s", buf);
    ImGui::PopStyleColor();
    return;
  }
  const attn::model::ModelComparison* c = app::CurrentModelComparison(s);
  if (!c) {
    ImGui::TextDisabled("%s", L(tr::kNoEdit));
    return;
  }
  if (s.lab.config.what_if_token >= 0) {
    char buf[600];
    std::snprintf(buf, sizeof buf, L(tr::kModelEditedSentence), c->sentence.c_str());
    ImGui::TextWrapped("%s", buf);
  }
  DrawNext(*c);
  DrawDeltaGallery(ctx, *c);
}

}  // namespace ui
