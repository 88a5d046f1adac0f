// The desktop's "Open a model folder…" dialog (platform.h): a folder's path, typed or walked to
// through its sub-folders, opened at once with every check of the model's reader
// (model/format/model_folder.h). A folder it refuses leaves the model held as it was and says
// why, here. SDL2 has no file dialog, so this one is drawn with ImGui; the page's equivalent is
// its file picker (web/checkpoint/checkpoint.js, asked through web_checkpoint.cpp).
#include "platform/platform.h"

#include "text/i18n.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

#ifdef __EMSCRIPTEN__
// the page's file picker, Cancel and Forget (web_checkpoint.cpp)
void platform::DrawOpenModelDialog(app::AppState& state, ui::UiState& ui) { CheckpointRequests(state, ui); }
#else
namespace {
struct Dialog {
  char path[1024] = {};
  std::string error;
  bool open = false;
};
Dialog g_dialog;
}  // namespace

void platform::DrawOpenModelDialog(app::AppState& state, ui::UiState& ui) {
  Dialog& d = g_dialog;
  const char* title = text::Label(text::tr::kOpenModel, "open_model");  // one ID in both languages
  if (ui.open_model_wanted) {  // the settings' button: start at the folder model mode opened
    ui.open_model_wanted = false;
    const std::string from = std::filesystem::absolute(ModelFolder()).lexically_normal().string();
    std::strncpy(d.path, from.c_str(), sizeof d.path - 1);
    d.error.clear();
    d.open = true;
    ImGui::OpenPopup(title);
  }
  if (!d.open) return;
  const ImGuiViewport* view = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(view->WorkPos.x + view->WorkSize.x * 0.5f, view->WorkPos.y + view->WorkSize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(640.0f, view->WorkSize.x - 40), std::min(480.0f, view->WorkSize.y - 40)),
                           ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(title, &d.open)) return;
  ImGui::TextWrapped("%s", text::L(text::tr::kOpenModelHelp));
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##path", d.path, sizeof d.path);
  // the sub-folders of the path: one click walks into one, ".." out
  const std::string here = d.path;
  if (ImGui::BeginChild("folders", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 2.5f), true)) {
    if (ImGui::Selectable("..")) {
      const std::string up = std::filesystem::path(here).lexically_normal().parent_path().string();
      std::strncpy(d.path, up.c_str(), sizeof d.path - 1);
    }
    for (const std::string& name : SubFolders(here))
      if (ImGui::Selectable((name + "/").c_str())) {
        const std::string into = (std::filesystem::path(here) / name).string();
        std::strncpy(d.path, into.c_str(), sizeof d.path - 1);
      }
  }
  ImGui::EndChild();
  if (!d.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.85f, 0.25f, 0.2f, 1));
    ImGui::TextWrapped("%s", d.error.c_str());
    ImGui::PopStyleColor();
  }
  if (ImGui::Button(text::L(text::tr::kOpen))) {
    if (OpenModelFolderNow(state, d.path, &d.error)) {
      d.open = false;
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button(text::L(text::tr::kCancel))) {
    d.open = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}
#endif
