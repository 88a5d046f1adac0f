// Generation (panel_prediction.h): the sampling settings, Generate / Cancel, the tokens as chips
// as they come (one position's forward each: the key/value cache), and a chip opened: the
// attribution of the token at the step that chose it, over the text before it (its heads'
// weights on every word included: the attention at that step).
#include "ui/panel_prediction.h"

#include <algorithm>
#include <cstdio>

namespace ui {

namespace {

void DrawSettings(Context& ctx) {
  app::GenerateOptions& o = ctx.ui.generate;
  LockScope lock(ctx, "prediction");
  const float w = std::min(110.0f, ImGui::GetContentRegionAvail().x * 0.25f);
  ImGui::SetNextItemWidth(w);
  ImGui::SliderInt(Label(tr::kGenTokens, "g_n"), &o.n, 1, 64);
  ImGui::SameLine();
  float t = static_cast<float>(o.sampling.temperature);
  ImGui::SetNextItemWidth(w);
  if (ImGui::SliderFloat(Label(tr::kGenTemperature, "g_t"), &t, 0.0f, 2.0f, "%.2f")) o.sampling.temperature = t;
  ImGui::SetNextItemWidth(w);
  ImGui::SliderInt(Label(tr::kGenTopK, "g_k"), &o.sampling.top_k, 0, 100);
  ImGui::SameLine();
  float p = static_cast<float>(o.sampling.top_p);
  ImGui::SetNextItemWidth(w);
  if (ImGui::SliderFloat(Label(tr::kGenTopP, "g_p"), &p, 0.05f, 1.0f, "%.2f")) o.sampling.top_p = p;
  ImGui::SameLine();
  int seed = static_cast<int>(o.sampling.seed);
  ImGui::SetNextItemWidth(w);
  if (ImGui::InputInt(Label(tr::kGenSeed, "g_seed"), &seed) && seed >= 0) o.sampling.seed = static_cast<std::uint64_t>(seed);
  o.n = std::clamp(o.n, 1, app::kMaxGenerate);
}

}  // namespace

void DrawGeneratePanel(Context& ctx, float h) {
  app::AppState& s = ctx.state;
  const app::GenerateJob& g = s.inspect.Work().generation;
  if (!BeginPanel(ctx, L(tr::kGenTitle), "generate", ImVec2(0, h))) {
    EndPanel();
    return;
  }
  TextWrappedAtSpaces(L(tr::kGenIntro));
  DrawSettings(ctx);
  char buf[300];
  {
    LockScope lock(ctx, "prediction");
    if (g.running) {
      if (ImGui::Button(Label(tr::kPatchCancel, "g_cancel"))) app::CancelGeneration(s);
      ImGui::SameLine();
      const int done = static_cast<int>(g.run.result().tokens.size());
      std::snprintf(buf, sizeof buf, "%d / %d", done, g.options.n);
      ImGui::ProgressBar(done / static_cast<float>(std::max(1, g.options.n)), ImVec2(-1, 0), buf);
    } else if (ImGui::Button(Label(tr::kGenRun, "g_run"))) {
      app::StartGeneration(s, ctx.ui.generate);
      ctx.ui.step_head = -1;
    }
  }
  if (!g.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    ImGui::TextWrapped("%s", g.error.c_str());
    ImGui::PopStyleColor();
  }
  if (!g.has) {
    EndPanel();
    return;
  }
  // The chips: the prompt's end greyed, then each generated token (a click opens its step)
  const std::vector<int>& tokens = g.run.result().tokens;
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (std::size_t i = 0; i < tokens.size() && i < g.texts.size(); ++i) {
    const std::string chip = TokenLabel(g.texts[i]);
    const float cw = ImGui::CalcTextSize(chip.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
    if (i > 0) {
      ImGui::SameLine(0, 2.0f);
      if (ImGui::GetCursorScreenPos().x + cw > right) ImGui::NewLine();
    }
    const bool open = g.chosen == static_cast<int>(i);
    if (open) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.85f, 0.50f, 0.12f, 1.0f));
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Button(chip.c_str())) {
      app::ChooseGeneratedStep(s, open ? -1 : static_cast<int>(i));
      ctx.ui.step_head = -1;
    }
    ImGui::PopID();
    if (open) ImGui::PopStyleColor();
  }
  if (!g.running) {
    std::snprintf(buf, sizeof buf, L(tr::kGenDone), static_cast<int>(tokens.size()), g.ms / 1000.0);
    ImGui::TextDisabled("%s%s%s", buf, g.run.result().stopped ? "; " : g.run.result().full ? "; " : "",
                        g.run.result().stopped ? L(tr::kGenStopped) : g.run.result().full ? L(tr::kGenFull) : "");
  }
  if (g.chosen >= 0 && g.chosen < static_cast<int>(g.texts.size())) {
    ImGui::Separator();
    std::snprintf(buf, sizeof buf, L(tr::kGenStep), g.chosen + 1, TokenLabel(g.texts[static_cast<std::size_t>(g.chosen)]).c_str());
    ImGui::TextColored(ImVec4(0.95f, 0.60f, 0.15f, 1.0f), "%s", buf);
    if (!g.chosen_ok)
      ImGui::TextWrapped("%s", g.chosen_error.c_str());
    else
      DrawAttribution(ctx, g.chosen_value, g.chosen_texts, kStepPicture, &ctx.ui.step_head);
  }
  EndPanel();
}

}  // namespace ui
