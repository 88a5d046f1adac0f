// Model mode's loading line (the page's checkpoints: docs/models.md): what is on its way, its bytes
// and Cancel; why the last model was not opened while the one held stays in use; "Forget
// downloaded models" with the space the downloads take. Drawn inside the settings panel (a model
// held) or the pending panel (none yet). The page's build with the model's code only.
#include "text/i18n.h"
#include "ui/ui.h"

#include <algorithm>
#include <cstdio>

namespace ui {

void DrawModelLoadStatus(Context& ctx) {
  if (!attn::model::ModelCodeInBuild()) return;  // the default page's build: never a checkpoint
  const app::ModelStatus& st = ctx.state.model.status;
  char buf[640];
  if (ctx.state.model.loaded && !ctx.state.model.loaded->name.empty()) {  // which model this is
    std::snprintf(buf, sizeof buf, L(tr::kModelOpened), ctx.state.model.loaded->name.c_str());
    ImGui::TextDisabled("%s", buf);
  }
  if (st.load == app::ModelLoad::kLoading) {
    const char* name = st.name.empty() ? L(tr::kModelOwn) : st.name.c_str();
    if (st.total_bytes > 0)
      std::snprintf(buf, sizeof buf, L(tr::kModelDownloading), name, st.bytes / 1e6, st.total_bytes / 1e6);
    else
      std::snprintf(buf, sizeof buf, L(tr::kModelOpening), name);
    ImGui::TextWrapped("%s", buf);
    ImGui::ProgressBar(static_cast<float>(st.fraction), ImVec2(-1, 0));
    // a checkpoint's download (it reports bytes) can be cancelled: the model held stays
    if (st.total_bytes > 0 && ImGui::Button(Label(tr::kCancel, "model_cancel"))) ctx.ui.cancel_model_wanted = true;
  } else if (!st.message.empty() && ctx.state.model.loaded) {  // failed or cancelled: the model held stays
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    std::snprintf(buf, sizeof buf, L(tr::kModelNotOpened), st.message.c_str());
    ImGui::TextWrapped("%s", buf);
    ImGui::PopStyleColor();
  }
}

void DrawForgetModels(Context& ctx) {
  if (!attn::model::ModelCodeInBuild()) return;
  char buf[160];
  if (ctx.ui.model_cache_bytes > 0) {
    const int n = std::snprintf(buf, sizeof buf - 32, L(tr::kForgetModels), ctx.ui.model_cache_bytes / 1e6);
    if (n > 0) std::snprintf(buf + std::min(n, static_cast<int>(sizeof buf) - 33), 32, "###forget_models");
    if (ImGui::Button(buf)) ctx.ui.forget_models_wanted = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", L(tr::kForgetModelsHelp));
  }
}

}  // namespace ui
