// Share / embed: the header's Share button opens a popup with a link to the current state and an
// iframe snippet for a course page (with the hide and lock flags in use and the auto-height
// script), each with a Copy button. Both texts come from the app (app::ShareLink, EmbedSnippet),
// the same functions as the page API's getLink() and getEmbedSnippet(). Copying goes through
// ImGui's clipboard, which the platform layer hands to the page (navigator.clipboard; when the
// browser does not allow it, the page selects the text for the learner to copy by hand).
#include "text/i18n.h"
#include "ui/ui.h"

#include <misc/cpp/imgui_stdlib.h>

#include <algorithm>
#include <string>

namespace ui {

namespace {

void CopyButton(Context& ctx, const std::string& text, int what, const char* id) {
  if (ImGui::Button(Label(tr::kCopy, id))) {
    ctx.ui.copy_status = 0;
    ctx.ui.copied_what = what;
    ImGui::SetClipboardText(text.c_str());
  }
  if (ctx.ui.copied_what == what && ctx.ui.copy_status != 0) {
    ImGui::SameLine();
    if (ctx.ui.copy_status > 0) {
      ImGui::TextColored(ImVec4(0.5f, 0.85f, 0.5f, 1.0f), "%s", L(tr::kCopied));
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.4f, 1.0f));
      ImGui::TextWrapped("%s", L(tr::kCopyByHand));
      ImGui::PopStyleColor();
    }
  }
}

}  // namespace

void DrawShareButton(Context& ctx) {
  if (ImGui::SmallButton(Label(tr::kShare, "share"))) {
    ctx.ui.share_open = true;
    ctx.ui.copy_status = 0;
    ctx.ui.copied_what = 0;
    ImGui::OpenPopup("share_popup");
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float w = std::min(640.0f, vp->WorkSize.x - 16.0f);
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + 48.0f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(w, 0));
  ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);
  bg.w = 1.0f;  // opaque: the panels under it would show through the texts
  ImGui::PushStyleColor(ImGuiCol_PopupBg, bg);
  const bool open = ImGui::BeginPopup("share_popup");
  ImGui::PopStyleColor();
  if (!open) {
    ctx.ui.share_open = false;
    return;
  }
  ctx.ui.panels_drawn.push_back("share");
  const app::AppState& s = ctx.state;
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", L(tr::kShareTitle));
  ImGui::Separator();
  ImGui::TextUnformatted(L(tr::kShareLink));
  std::string link = app::ShareLink(s, ctx.ui.page_url);
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##share_link", &link, ImGuiInputTextFlags_ReadOnly | ImGuiInputTextFlags_AutoSelectAll);
  CopyButton(ctx, link, 1, "copy_link");
  ImGui::Spacing();
  ImGui::TextWrapped("%s", L(tr::kShareSnippet));
  std::string snippet = app::EmbedSnippet(s, ctx.ui.page_url);
  ImGui::InputTextMultiline("##share_snippet", &snippet, ImVec2(-1, ImGui::GetTextLineHeight() * 6),
                            ImGuiInputTextFlags_ReadOnly | ImGuiInputTextFlags_AutoSelectAll);
  CopyButton(ctx, snippet, 2, "copy_snippet");
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", L(tr::kShareHint));
  ImGui::PopStyleColor();
  if (ImGui::Button(Label(tr::kShareClose, "share_close"))) {
    ctx.ui.share_open = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace ui
