// Learning: a one-layer attention model trained live on a task whose right pattern is known.
// Play / pause / one step / reset and every training setting on the left; on the right the
// example's attention (one heatmap per head, per run), the backward pass through the query's
// weights (dL/d scale(i) and dL/d s_i), the loss / accuracy / attention-on-the-right-key curves
// and the gradient norms of W_Q, W_K, W_V. With "compare", run B (one setting changed, same
// seed) is trained in lockstep and drawn next to run A. Every number comes from the engine's
// Trainer (the app's training room). This file: the controls and the panel's layout;
// panel_training_pictures.cpp: the pictures.
#include "text/i18n.h"
#include "ui/choice.h"
#include "text/refusal_message.h"
#include "ui/plot.h"
#include "ui/panel_training.h"
#include "ui/ui.h"

#include <misc/cpp/imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ui {

namespace {

using app::Json;

constexpr Choice<attn::TaskKind> kTasks[] = {{attn::TaskKind::kVerbObject, &tr::kTaskVerbObject},
                                             {attn::TaskKind::kPreviousToken, &tr::kTaskPrevious},
                                             {attn::TaskKind::kReverse, &tr::kTaskReverse},
                                             {attn::TaskKind::kMax, &tr::kTaskMax}};
}  // namespace

namespace training {

void SetTrain(app::AppState& s, const char* key, const Json& value, app::Source source) {
  app::ApplyPatch(s, attn::api::Obj({{"train", attn::api::Obj({{key, value}})}}), source);
}

// What run B changes, in words ("B: no ÷√d_k", "B: sparsemax", ...), from the engine's config.
std::string CompareText(const app::AppState& s) {
  const auto& t = s.training;
  if (!t.compare) return "";
  const attn::TrainConfig& a = t.a.trainer.problem().config();
  const attn::TrainConfig& b = t.b.trainer.problem().config();
  char buf[160];
  if (a.scaled != b.scaled) return b.scaled ? L(tr::kBScaled) : L(tr::kBUnscaled);
  if (a.normalizer != b.normalizer) return std::string("B: ") + ChoiceLabel(kNormalizerChoices, b.normalizer);
  if (a.optimizer != b.optimizer) return std::string("B: ") + (b.optimizer == attn::Optimizer::kAdam ? "Adam" : "SGD");
  if (a.lr != b.lr) {
    std::snprintf(buf, sizeof buf, "B: lr = %g", b.lr);
    return buf;
  }
  if (a.d_k != b.d_k) {
    std::snprintf(buf, sizeof buf, "B: d_k = %d", b.d_k);
    return buf;
  }
  return L(tr::kBSame);
}

}  // namespace training

namespace {

using namespace training;

// ---- controls ------------------------------------------------------------------------------

void DrawTransport(Context& ctx) {
  app::AppState& s = ctx.state;
  auto& t = s.training;
  const attn::Trainer& a = t.a.trainer;
  const bool playing = s.lab.train.play;
  ImGui::BeginDisabled(a.diverged() || !a.ready());
  ImGui::PushStyleColor(ImGuiCol_Button, playing ? ImVec4(0.35f, 0.38f, 0.45f, 1.0f) : ImVec4(0.16f, 0.50f, 0.28f, 1.0f));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, playing ? ImVec4(0.45f, 0.48f, 0.55f, 1.0f) : ImVec4(0.20f, 0.62f, 0.34f, 1.0f));
  if (ImGui::Button(Label(playing ? tr::kPause : tr::kPlay, "play"), ImVec2(ImGui::GetFontSize() * 6.0f, 0)))
    SetTrain(s, "play", !playing);
  ImGui::PopStyleColor(2);
  ImGui::SameLine();
  if (ImGui::Button(Label(tr::kOneStep, "one_step"))) app::TrainSteps(s, 1);
  ImGui::SameLine();
  const bool long_run = t.run_to > 0;
  if (ImGui::Button(Label(long_run ? tr::kStopRun : tr::kRunSteps, "run_steps"))) {
    if (long_run) app::StopRun(s);
    else app::StartRun(s, app::kRunSteps);
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  // On a phone the row may be full: Reset then starts the next line.
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(L(tr::kReset)).x + ImGui::GetStyle().FramePadding.x * 2)
    ImGui::NewLine();
  if (ImGui::Button(Label(tr::kReset, "reset_train"))) app::ResetTraining(s);
  if (t.run_to > 0) {  // the long run's progress
    const int total = t.run_to - t.run_from, done = a.step() - t.run_from;
    char progress[48];
    std::snprintf(progress, sizeof progress, "%d / %d", done, total);
    ImGui::ProgressBar(total > 0 ? static_cast<float>(done) / static_cast<float>(total) : 1.0f, ImVec2(-1, 0), progress);
  }
  // Speed: steps per frame (at most what fits in the frame's time budget).
  static const int kSpeeds[] = {1, 4, 16, 0};
  static const Text* kSpeedNames[] = {&tr::kSpeed1, &tr::kSpeed4, &tr::kSpeed16, &tr::kSpeedMax};
  int current = -1;
  for (int i = 0; i < 4; ++i)
    if (kSpeeds[i] == s.lab.train.speed) current = i;
  char speed_text[64];  // a speed set through the API that the menu does not list: "8 steps / frame"
  std::snprintf(speed_text, sizeof speed_text, L(tr::kSpeedOther), Count(s.lab.train.speed, tr::kStepsCount).c_str());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  if (ImGui::BeginCombo(Label(tr::kSpeed, "speed"), current >= 0 ? L(*kSpeedNames[current]) : speed_text)) {
    for (int i = 0; i < 4; ++i)
      if (ImGui::Selectable(L(*kSpeedNames[i]), i == current)) SetTrain(s, "speed", kSpeeds[i]);
    ImGui::EndCombo();
  }
  // The step counter, and what a frame costs.
  char buf[200];
  std::snprintf(buf, sizeof buf, L(tr::kStepCounter), a.step());
  ImGui::TextUnformatted(buf);
  const app::FrameWork& w = ctx.ui.frame_work;
  if (playing && w.train_steps > 0) {
    ImGui::SameLine();
    std::snprintf(buf, sizeof buf, L(tr::kFrameCost), Count(w.train_steps, tr::kStepsCount).c_str(), w.train_ms);
    ImGui::TextDisabled("%s", buf);
  }
  if (t.stopped_at_cap) {
    std::snprintf(buf, sizeof buf, L(tr::kStoppedAtCap), app::kMaxPlaySteps);
    ImGui::TextDisabled("%s", buf);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.42f, 0.38f, 1.0f));
  // Where and why, from the engine's code ("Training diverged at step 4: ..."); run B's is marked B.
  if (a.diverged()) ImGui::TextWrapped("%s%s", t.compare ? "A: " : "", DivergenceMessage(a.divergence()).c_str());
  if (t.compare && t.b.trainer.diverged())
    ImGui::TextWrapped("B: %s", DivergenceMessage(t.b.trainer.divergence()).c_str());
  if (a.diverged()) ImGui::TextWrapped("%s", L(tr::kDivergedHint));
  ImGui::PopStyleColor();
}

void DrawExampleBox(Context& ctx) {
  app::AppState& s = ctx.state;
  auto& t = s.training;
  ImGui::TextUnformatted(L(tr::kExample));
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputTextWithHint("##example", L(tr::kExampleHint), &t.example_edit))
    SetTrain(s, "example", t.example_edit, app::Source::kExampleBox);
  if (!t.example_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    const attn::api::PatchResult& r = t.example_refusal;
    const std::string why = r.example.ok() ? RefusalMessage(r) : ExampleMessage(r.example);
    ImGui::TextWrapped("%s: %s", L(tr::kRefused), why.c_str());
    ImGui::PopStyleColor();
  }
  // The tokens as chips: click one to explain its row.
  const attn::ExampleView& v = t.a.view;
  if (!t.a.has_view) return;
  ImGui::TextDisabled("%s", L(tr::kTrainQueryHint));
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (int i = 0; i < static_cast<int>(v.tokens.size()); ++i) {
    const bool is_query = i == t.query;
    ImGui::PushID(i);
    if (is_query) {
      ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.95f, 0.60f, 0.15f, 1.0f));
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.05f, 0.05f, 0.05f, 1.0f));
    }
    if (ImGui::SmallButton(v.tokens[i].c_str())) SetTrain(s, "query", i);
    if (ImGui::IsItemHovered()) {
      const int target = i < static_cast<int>(v.example.targets.size()) ? v.example.targets[i] : -1;
      const int source = i < static_cast<int>(v.example.sources.size()) ? v.example.sources[i] : -1;
      const auto& vocab = t.a.trainer.problem().task().vocab;
      if (target >= 0 && target < static_cast<int>(vocab.size()) && source >= 0)
        ImGui::SetTooltip(L(tr::kTokenTask), v.tokens[i].c_str(), vocab[target].c_str(), v.tokens[source].c_str());
      else
        ImGui::SetTooltip(L(tr::kTokenNoTask), v.tokens[i].c_str());
    }
    if (is_query) ImGui::PopStyleColor(2);
    ImGui::PopID();
    if (i + 1 < static_cast<int>(v.tokens.size())) {
      const float next_w = ImGui::CalcTextSize(v.tokens[i + 1].c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
      if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + next_w < right) ImGui::SameLine();
    }
  }
}

void DrawCompareControls(Context& ctx, float w) {
  app::AppState& s = ctx.state;
  const attn::api::TrainState& ts = s.lab.train;
  const attn::TrainConfig& c = ts.config;
  const std::string& cmp = ts.compare;
  const std::string kind = cmp.substr(0, cmp.find(':'));
  bool on = !cmp.empty();
  if (ImGui::Checkbox(Label(tr::kCompare, "compare"), &on)) SetTrain(s, "compare", on ? "scaled" : "");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", L(tr::kCompareTip));
  if (!on) return;
  // Which setting run B changes, and to what. The default value for each is the instructive one.
  static constexpr Choice<const char*> kKinds[] = {{"scaled", &tr::kCmpScaled}, {"normalizer", &tr::kCmpNormalizer},
                                                   {"lr", &tr::kCmpLr},         {"optimizer", &tr::kCmpOptimizer},
                                                   {"dK", &tr::kCmpDk}};
  ImGui::SetNextItemWidth(w);
  if (const char* picked = nullptr; ChoiceCombo(Label(tr::kCmpWhat, "cmp_kind"), kKinds, kind, &picked)) {
    const std::string id = picked;
    char buf[64];
    if (id == "scaled") SetTrain(s, "compare", "scaled");
    else if (id == "normalizer") SetTrain(s, "compare", c.normalizer == attn::Normalizer::kSoftmax ? "normalizer:sparsemax" : "normalizer:softmax");
    else if (id == "optimizer") SetTrain(s, "compare", c.optimizer == attn::Optimizer::kAdam ? "optimizer:sgd" : "optimizer:adam");
    else if (id == "lr") { std::snprintf(buf, sizeof buf, "lr:%g", std::min(attn::kMaxLearningRate, c.lr * 3)); SetTrain(s, "compare", buf); }
    else if (id == "dK") SetTrain(s, "compare", c.d_k == 64 ? "dK:4" : "dK:64");
  }
  const attn::TrainConfig& b = s.training.b.trainer.problem().config();
  if (kind == "normalizer") {
    ImGui::SetNextItemWidth(w);
    if (attn::Normalizer picked; ChoiceCombo(Label(tr::kCmpBNormalizer, "cmp_norm"), kNormalizerChoices, b.normalizer, &picked))
      SetTrain(s, "compare", std::string("normalizer:") + attn::NormalizerName(picked));
  } else if (kind == "lr") {
    float lr = static_cast<float>(b.lr);
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderFloat(Label(tr::kCmpBLr, "cmp_lr"), &lr, 1e-4f, 1.0f, "%.4g", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "lr:%.4g", static_cast<double>(lr));
      SetTrain(s, "compare", buf);
    }
  } else if (kind == "dK") {
    int dk = b.d_k;
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderInt(Label(tr::kCmpBDk, "cmp_dk"), &dk, 1, attn::kMaxTrainDk, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      SetTrain(s, "compare", "dK:" + std::to_string(dk));
  }
  ImGui::TextDisabled("%s", CompareText(s).c_str());
}

void DrawSettings(Context& ctx) {
  app::AppState& s = ctx.state;
  const attn::TrainConfig& c = s.lab.train.config;
  const float w = std::max(80.0f, ImGui::GetContentRegionAvail().x * 0.55f);
  // The task and its example. Each group can be hidden or locked by a course page (train.task,
  // train.optimizer, train.layer, train.compare).
  if (!Hidden(ctx, "train.task")) {
    LockScope lock(ctx, "train.task");
    ImGui::SetNextItemWidth(w);
    if (attn::TaskKind picked; ChoiceCombo(Label(tr::kTask, "task"), kTasks, c.task, &picked))
      SetTrain(s, "task", attn::TaskName(picked));
    if (c.task != attn::TaskKind::kVerbObject) {
      int length = c.length;
      ImGui::SetNextItemWidth(w);
      if (ImGui::SliderInt(Label(tr::kLength, "length"), &length, attn::kMinLength, attn::kMaxLength, "%d", ImGuiSliderFlags_AlwaysClamp))
        SetTrain(s, "length", length);
    }
    DrawExampleBox(ctx);
    ImGui::Separator();
  }

  // The optimizer.
  if (!Hidden(ctx, "train.optimizer")) {
    LockScope lock(ctx, "train.optimizer");
    ImGui::TextUnformatted(L(tr::kOptimizer));
    ImGui::SameLine();
    if (ImGui::RadioButton("Adam###opt_adam", c.optimizer == attn::Optimizer::kAdam)) SetTrain(s, "optimizer", "adam");
    ImGui::SameLine();
    if (ImGui::RadioButton("SGD###opt_sgd", c.optimizer == attn::Optimizer::kSgd)) SetTrain(s, "optimizer", "sgd");
    float lr = static_cast<float>(c.lr);
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderFloat(Label(tr::kLearningRate, "lr"), &lr, 1e-4f, 1.0f, "%.4g", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    {
      char text[32];  // four significant digits: the slider's float, as the number it shows
      std::snprintf(text, sizeof text, "%.4g", static_cast<double>(lr));
      SetTrain(s, "lr", std::strtod(text, nullptr));
    }
    int batch = c.batch;
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderInt(Label(tr::kBatch, "batch"), &batch, 1, attn::kMaxBatch, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      SetTrain(s, "batch", batch);
    ImU32 seed = static_cast<ImU32>(c.seed);
    const ImU32 one = 1;
    ImGui::SetNextItemWidth(w);
    if (ImGui::InputScalar(Label(tr::kSeed, "train_seed"), ImGuiDataType_U32, &seed, &one)) SetTrain(s, "seed", seed);
    ImGui::Separator();
  }

  // The attention layer.
  if (!Hidden(ctx, "train.layer")) {
    LockScope lock(ctx, "train.layer");
    ImGui::SetNextItemWidth(w);
    if (attn::Normalizer picked; ChoiceCombo(Label(tr::kNormalizer, "train_norm"), kNormalizerChoices, c.normalizer, &picked))
      SetTrain(s, "normalizer", attn::NormalizerName(picked));
    if (!attn::NormalizerHasGradient(c.normalizer)) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.4f, 1.0f));
      ImGui::TextWrapped("%s", L(tr::kHardmaxNote));
      ImGui::PopStyleColor();
    }
    bool scaled = c.scaled;
    if (ImGui::Checkbox(Label(tr::kScaled, "train_scaled"), &scaled)) SetTrain(s, "scaled", scaled);
    ImGui::SameLine();
    bool causal = c.causal;
    if (ImGui::Checkbox(Label(tr::kCausalShort, "train_causal"), &causal)) SetTrain(s, "causal", causal);
    int d_k = c.d_k, heads = c.heads, d_model = c.d_model, d_v = c.d_v;
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderInt(Label(tr::kDK, "train_dk"), &d_k, 1, attn::kMaxTrainDk, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      SetTrain(s, "dK", d_k);
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderInt(Label(tr::kHeads, "train_heads"), &heads, attn::kMinHeads, attn::kMaxHeads, "%d", ImGuiSliderFlags_AlwaysClamp))
      SetTrain(s, "heads", heads);
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderInt(Label(tr::kDModel, "train_dmodel"), &d_model, 2, attn::kMaxTrainDModel, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      SetTrain(s, "dModel", d_model);
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderInt(Label(tr::kDVShort, "train_dv"), &d_v, 1, attn::kMaxTrainDv, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      SetTrain(s, "dV", d_v);
    ImGui::Separator();
  }

  // Run B.
  if (!Hidden(ctx, "train.compare")) {
    LockScope lock(ctx, "train.compare");
    DrawCompareControls(ctx, w);
    ImGui::Separator();
  }
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", L(tr::kTryTitle));
  ImGui::TextWrapped("%s", L(tr::kTrainTry));
}

}  // namespace

void DrawTrainingPanel(Context& ctx) {
  if (BeginPanel(ctx, L(tr::kTraining), "training", ImVec2(0, 0))) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const bool narrow = avail < 760.0f;
    if (!narrow) {
      // As wide as at 1280 px with no lesson open: with the lesson column the pictures shrink,
      // not the settings (their Russian labels were cut at 280 px).
      const float left = std::min(340.0f, avail * 0.45f);
      ImGui::BeginChild("train_controls", ImVec2(left, 0), false);
      DrawTransport(ctx);
      ImGui::Separator();
      DrawSettings(ctx);
      ImGui::EndChild();
      ImGui::SameLine();
      ImGui::BeginChild("train_pictures", ImVec2(0, 0), false);
      // Beside the lesson column the pictures are stacked, as on a phone (the backprop table
      // next to the heatmap would be cut).
      training::DrawPictures(ctx, avail - left < 640.0f);
      ImGui::EndChild();
    } else {
      // A phone: the buttons, then what they change, then the settings.
      DrawTransport(ctx);
      ImGui::Separator();
      training::DrawPictures(ctx, true);
      ImGui::Separator();
      DrawSettings(ctx);
    }
  }
  EndPanel();
}

}  // namespace ui
