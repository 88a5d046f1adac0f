// "Train it more" (projection model): the loaded model's training continued on a built-in text
// or the learner's own, for a chosen number of steps, with a progress bar, Stop, and Reset to
// the shipped weights. It sits under the settings (the sentence tab on a phone), so on a laptop
// the chosen head's weights change on the right while it trains. Every number comes from the
// app's TuneSession (the model room's app::Tune).
#include "text/i18n.h"
#include "ui/choice.h"
#include "ui/ui.h"

#include <misc/cpp/imgui_stdlib.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace ui {

namespace {

using app::Json;

void Set(app::AppState& s, const char* key, const Json& value) { app::ApplyPatch(s, attn::api::Obj({{key, value}})); }

void DrawTextChoice(Context& ctx) {
  app::AppState& s = ctx.state;
  static constexpr Choice<const char*> kChoices[] = {
      {"auto", &tr::kTuneAuto}, {"en", &tr::kTuneEn}, {"ru", &tr::kTuneRu}, {"own", &tr::kTuneOwn}};
  ImGui::SetNextItemWidth(-ImGui::CalcTextSize(L(tr::kTuneText)).x - ImGui::GetStyle().ItemInnerSpacing.x - 2.0f);
  if (const char* picked = nullptr; ChoiceCombo(Label(tr::kTuneText, "tune_text"), kChoices, s.lab.tune_text, &picked))
    Set(s, "tuneText", picked);
  if (s.lab.tune_text == "own") {
    std::string text = s.lab.tune_own;
    if (ImGui::InputTextMultiline("##tune_own", &text, ImVec2(-1, ImGui::GetTextLineHeight() * 4.5f)))
      Set(s, "tuneOwn", text);
    if (text.empty()) ImGui::TextDisabled("%s", L(tr::kTuneOwnHint));
  }
}

void DrawRunSettings(Context& ctx) {
  app::AppState& s = ctx.state;
  char buf[64];
  // Steps: a few counts, and the state's own when the page set another.
  static const int kSteps[] = {5, 20, 50, 100, 200};
  std::snprintf(buf, sizeof buf, "%d", s.lab.tune_steps);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
  if (ImGui::BeginCombo(Label(tr::kTuneSteps, "tune_steps"), buf)) {
    for (int n : kSteps) {
      std::snprintf(buf, sizeof buf, "%d", n);
      if (ImGui::Selectable(buf, n == s.lab.tune_steps)) Set(s, "tuneSteps", n);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  static const double kRates[] = {1e-4, 3e-4, 1e-3, 3e-3, 1e-2};
  std::snprintf(buf, sizeof buf, "%g", s.lab.tune.lr);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
  if (ImGui::BeginCombo(Label(tr::kTuneLr, "tune_lr"), buf)) {
    for (double r : kRates) {
      std::snprintf(buf, sizeof buf, "%g", r);
      if (ImGui::Selectable(buf, r == s.lab.tune.lr)) Set(s, "tuneLr", r);
    }
    ImGui::EndCombo();
  }
}

std::string RefusalText(const app::Tune& t) {
  char buf[512];
  using Code = attn::model::TuneTextProblem::Code;
  switch (t.refusal) {
    case app::TuneRefusal::kNone: return "";
    case app::TuneRefusal::kNoModel: return L(tr::kTuneNoModel);
    case app::TuneRefusal::kNotTrainable: return L(tr::kTuneNotTrainable);
    case app::TuneRefusal::kTooBig:
      // never in the default page's build (no model there): the linker leaves its text out
      if (!attn::model::ModelCodeInBuild()) return t.error;
      std::snprintf(buf, sizeof buf, L(tr::kTuneTooBig), t.memory.millions(), static_cast<long long>(t.memory.mib()),
                    static_cast<long long>(t.memory.limit_mib()));
      return buf;
    case app::TuneRefusal::kNoText: return L(tr::kTuneLoading);
    case app::TuneRefusal::kDiverged:
      std::snprintf(buf, sizeof buf, L(tr::kTuneFailed), t.error.c_str());
      return buf;
    case app::TuneRefusal::kText:
      switch (t.problem.code) {
        case Code::kEmpty: return L(tr::kTuneEmpty);
        case Code::kInvalidUtf8: return L(tr::kTuneBadUtf8);
        case Code::kTooShort:
          std::snprintf(buf, sizeof buf, L(tr::kTuneTooShort), Count(t.problem.got, tr::kTokens).c_str(), attn::model::kMinTuneTokens);
          return buf;
        case Code::kTooLong:
          std::snprintf(buf, sizeof buf, L(tr::kTuneTooLong), Count(t.problem.got, tr::kBytes).c_str(), attn::model::kMaxTuneTextBytes);
          return buf;
        case Code::kNone: return t.error;
      }
  }
  return t.error;
}

void DrawTransport(Context& ctx) {
  app::AppState& s = ctx.state;
  app::Tune& t = s.model.tune;
  const bool running = app::TuneRunning(s);
  char buf[160];
  if (running) {
    if (ImGui::Button(Label(tr::kStopRun, "tune_stop"))) app::StopTune(s);
  } else {
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.16f, 0.50f, 0.28f, 1.0f));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.20f, 0.62f, 0.34f, 1.0f));
    std::snprintf(buf, sizeof buf, L(tr::kTuneTrain), Count(s.lab.tune_steps, tr::kStepsCount).c_str());
    const std::string label = std::string(buf) + "###tune_train";
    if (ImGui::Button(label.c_str())) app::StartTune(s);
    ImGui::PopStyleColor(2);
  }
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(L(tr::kTuneReset)).x + ImGui::GetStyle().FramePadding.x * 2)
    ImGui::NewLine();
  ImGui::BeginDisabled(!t.trained && !t.session.started());
  if (ImGui::Button(Label(tr::kTuneReset, "tune_reset"))) app::ResetTune(s);
  ImGui::EndDisabled();

  const std::vector<attn::model::StepMetrics>& h = t.session.history();
  if (running) {  // the run's progress: whole steps, and the units of the step under way
    const int total = t.run_to - t.run_from;
    const float done = static_cast<float>(t.session.step() - t.run_from) +
                       static_cast<float>(t.session.unit()) / static_cast<float>(t.session.units_per_step());
    if (!h.empty()) std::snprintf(buf, sizeof buf, L(tr::kTuneProgress), t.session.step() - t.run_from, total, h.back().loss);
    else std::snprintf(buf, sizeof buf, L(tr::kTuneProgressFirst), t.session.step() - t.run_from, total);
    ImGui::ProgressBar(total > 0 ? done / static_cast<float>(total) : 1.0f, ImVec2(-1, 0), buf);
    const app::FrameWork& w = ctx.ui.frame_work;
    if (w.tune_units > 0) {
      std::snprintf(buf, sizeof buf, L(tr::kTuneFrame), w.tune_units, t.session.length(), w.tune_ms);
      ImGui::TextDisabled("%s", buf);
    }
  }
  if (!t.trained) {
    ImGui::TextDisabled("%s", L(tr::kTuneShipped));
  } else if (!h.empty()) {
    std::snprintf(buf, sizeof buf, L(tr::kTuneTrained), Count(t.session.step(), tr::kStepsCount).c_str(), h.front().loss,
                  h.back().loss);
    ImGui::TextWrapped("%s", buf);
  }
  if (h.size() >= 2) {  // the loss of every step, as a line
    std::vector<float> losses;
    losses.reserve(h.size());
    for (const auto& m : h) losses.push_back(static_cast<float>(m.loss));
    ImGui::PlotLines("##tune_loss", losses.data(), static_cast<int>(losses.size()), 0, nullptr, 0.0f, FLT_MAX,
                     ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetTextLineHeight() * 3.0f));
  }
  const std::string refusal = RefusalText(t);
  if (!refusal.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.42f, 0.38f, 1.0f));
    ImGui::TextWrapped("%s", refusal.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace

void DrawModelTrainPanel(Context& ctx) {
  app::AppState& s = ctx.state;
  if (s.lab.config.projection != attn::Projection::kModel || !s.model.loaded) return;
  // The rest of the column, but at least room for its controls (the column scrolls then).
  const float h = std::fmax(ImGui::GetContentRegionAvail().y, ImGui::GetTextLineHeightWithSpacing() * 12.0f);
  if (!BeginPanel(ctx, L(tr::kTuneTitle), "tune", ImVec2(0, h))) {
    EndPanel();
    return;
  }
  LockScope lock(ctx, "tune");
  ImGui::TextWrapped("%s", L(tr::kTuneIntro));
  DrawTextChoice(ctx);
  DrawRunSettings(ctx);
  DrawTransport(ctx);
  EndPanel();
}

}  // namespace ui
