// Settings of the attention layer. Every control writes through app::ApplyPatch, like setState.
#include "text/i18n.h"
#include "ui/choice.h"
#include "ui/ui.h"

#include <cstdio>

namespace ui {

namespace {
// The width of a checkbox or radio button with this label.
float FitWidth(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}
}  // namespace

void DrawSettingsPanel(Context& ctx) {
  app::AppState& s = ctx.state;
  const attn::LabConfig& c = s.lab.config;
  // Model mode: as tall as its few controls, so that the head gallery fits below (layout.cpp).
  // (Measured at the end of the last frame; a first guess before that.)
  const float model_h = ctx.ui.model_settings_h > 0 ? ctx.ui.model_settings_h
                                                    : 6 * ImGui::GetFrameHeightWithSpacing() + 6 * ImGui::GetTextLineHeightWithSpacing();
  if (BeginPanel(ctx, L(tr::kSettings), "settings", ImVec2(0, ModelMode(ctx) ? model_h : 0.0f))) {
    // The groups a course page can hide or lock one by one (hide=mask, lock=scaling,heads...).
    const bool identity = c.projection == attn::Projection::kIdentity;
    const bool model = c.projection == attn::Projection::kModel;
    if (!Hidden(ctx, "projection")) {
      LockScope lock(ctx, "projection");
      ImGui::TextUnformatted(L(tr::kProjection));
      if (ImGui::RadioButton(Label(tr::kIdentity, "proj_id"), identity)) app::ApplyPatch(s, attn::api::Obj({{"projection", "identity"}}));
      if (ImGui::RadioButton(Label(tr::kRandom, "proj_rand"), c.projection == attn::Projection::kRandom))
        app::ApplyPatch(s, attn::api::Obj({{"projection", "random"}}));
      // The trained model: its files are fetched the first time this is chosen.
      // the model's sizes: the one loaded (the desktop opens any), else the shipped model's,
      // which choosing this loads (the default page's build: always this)
      char model_label[128];
      const attn::model::LabModel* held = attn::model::ModelCodeInBuild() ? s.model.loaded.get() : nullptr;
      if (held) {
        const int n = std::snprintf(model_label, sizeof model_label, L(tr::kModelProjectionSized), held->config().layers,
                                    held->config().heads);
        if (n > 0 && n < static_cast<int>(sizeof model_label))
          std::snprintf(model_label + n, sizeof model_label - static_cast<std::size_t>(n), "###proj_model");
      }
      if (ImGui::RadioButton(held ? model_label : Label(tr::kModelProjection, "proj_model"), model))
        app::ApplyPatch(s, attn::api::Obj({{"projection", "model"}, {"query", 1}, {"head", 0}, {"layer", 0}, {"target", -1}}));
    }
    if (model) {  // the layer and head to follow; everything else is the model's
      const int layers = s.model.loaded ? s.model.loaded->config().layers : 1, heads = s.model.loaded ? s.model.loaded->config().heads : 1;
      LockScope lock(ctx, "heads");
      ImGui::BeginDisabled(!s.model.loaded);
      const float w = ImGui::GetContentRegionAvail().x * 0.55f;
      int layer = c.layer, head = c.head;
      ImGui::SetNextItemWidth(w);
      if (ImGui::SliderInt(Label(tr::kModelLayer, "layer"), &layer, 0, layers - 1, "%d", ImGuiSliderFlags_AlwaysClamp))
        app::ApplyPatch(s, attn::api::Obj({{"layer", layer}}));
      ImGui::SetNextItemWidth(w);
      if (ImGui::SliderInt(Label(tr::kModelHead, "model_head"), &head, 0, heads - 1, "%d", ImGuiSliderFlags_AlwaysClamp))
        app::ApplyPatch(s, attn::api::Obj({{"head", head}}));
      ImGui::EndDisabled();
      if (attn::model::ModelCodeInBuild() && s.model.loaded) {
        const attn::model::ModelConfig& mc = s.model.loaded->config();
        char buf[512];
        if (mc.rotary)
          std::snprintf(buf, sizeof buf, L(tr::kModelFixedRotary), mc.d_model, attn::model::HeadDim(mc), mc.heads,
                        attn::model::KvHeads(mc), mc.rope_theta);
        else
          std::snprintf(buf, sizeof buf, L(tr::kModelFixed), mc.d_model, mc.d_model / mc.heads, mc.heads);
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", buf);
        ImGui::PopStyleColor();
      }
      // Another model: the lab's own or a GPT-2 checkpoint (the desktop's dialog, the page's picker)
      // (ModelCodeInBuild first: the default page's build has no model to open, nor this code)
      if (attn::model::ModelCodeInBuild() && ctx.ui.can_open_model) {
        if (s.model.loaded) DrawModelLoadStatus(ctx);  // (without one, the pending panel shows it)
        if (ImGui::Button(L(tr::kOpenModel))) ctx.ui.open_model_wanted = true;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", L(tr::kOpenModelHelp));
        DrawForgetModels(ctx);
      }
      ImGui::Spacing();
    }
    if (!model) {
    const bool scaling = !Hidden(ctx, "scaling"), positional_shown = !Hidden(ctx, "positional");
    if (scaling) {
      LockScope lock(ctx, "scaling");
      bool scaled = c.scaled;
      if (ImGui::Checkbox(Label(tr::kScaled, "scaled"), &scaled)) app::ApplyPatch(s, attn::api::Obj({{"scaled", scaled}}));
    }
    if (scaling && positional_shown) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < FitWidth(L(tr::kPositional))) ImGui::NewLine();  // a narrow panel
    }
    if (positional_shown) {
      LockScope lock(ctx, "positional");
      bool positional = c.positional;
      if (ImGui::Checkbox(Label(tr::kPositional, "positional"), &positional))
        app::ApplyPatch(s, attn::api::Obj({{"positional", positional}}));
    }

    const float w = ImGui::GetContentRegionAvail().x * 0.55f;
    if (!Hidden(ctx, "normalizer")) {  // how scores become weights
      LockScope lock(ctx, "normalizer");
      ImGui::SetNextItemWidth(w);
      attn::Normalizer picked;
      if (ChoiceCombo(Label(tr::kNormalizer, "normalizer"), kNormalizerChoices, c.normalizer, &picked))
        app::ApplyPatch(s, attn::api::Obj({{"normalizer", attn::NormalizerName(picked)}}));
    }
    if (!attn::NormalizerHasGradient(c.normalizer)) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.4f, 1.0f));
      ImGui::TextWrapped("%s", L(tr::kHardmaxNote));
      ImGui::PopStyleColor();
    }
    if (!Hidden(ctx, "mask")) {
      LockScope lock(ctx, "mask");
      ImGui::TextUnformatted(L(tr::kMask));
      ImGui::SameLine();
      if (ImGui::RadioButton(Label(tr::kMaskNone, "mask_none"), !c.causal)) app::ApplyPatch(s, attn::api::Obj({{"causal", false}}));
      // The causal choice goes on its own line where its label does not fit («каузальная (текущий
      // и предыдущие)» is wider than the English).
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < FitWidth(L(tr::kMaskCausal))) ImGui::NewLine();
      if (ImGui::RadioButton(Label(tr::kMaskCausal, "mask_causal"), c.causal)) app::ApplyPatch(s, attn::api::Obj({{"causal", true}}));
    }

    if (!Hidden(ctx, "heads")) {
      LockScope lock(ctx, "heads");
      int heads = c.heads;
      ImGui::SetNextItemWidth(w);
      if (ImGui::SliderInt(Label(tr::kHeads, "heads"), &heads, attn::kMinHeads, attn::kMaxHeads, "%d",
                           ImGuiSliderFlags_AlwaysClamp))
        app::ApplyPatch(s, attn::api::Obj({{"heads", heads}}));
    }

    if (scaling) {
      LockScope lock(ctx, "scaling");
      float temperature = static_cast<float>(c.temperature);
      ImGui::SetNextItemWidth(w);
      if (ImGui::SliderFloat(Label(tr::kTemperature, "temperature"), &temperature, 0.05f, 20.0f, "%.3g",
                             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        app::ApplyPatch(s, attn::api::Obj({{"temperature", temperature}}));
    }

    if (!Hidden(ctx, "sizes")) {
      LockScope lock(ctx, "sizes");
      int d_model = c.d_model;
      ImGui::SetNextItemWidth(w);
      if (ImGui::SliderInt(Label(tr::kDModel, "dModel"), &d_model, attn::kMinDim, attn::kMaxDim, "%d",
                           ImGuiSliderFlags_AlwaysClamp))
        app::ApplyPatch(s, attn::api::Obj({{"dModel", d_model}}));

      int d_k = c.d_k;
      ImGui::BeginDisabled(identity);
      ImGui::SetNextItemWidth(w);
      if (ImGui::SliderInt(Label(tr::kDK, "dK"), &d_k, attn::kMinDim, attn::kMaxDim, "%d", ImGuiSliderFlags_AlwaysClamp))
        app::ApplyPatch(s, attn::api::Obj({{"dK", d_k}}));
      ImGui::EndDisabled();
      if (identity) ImGui::TextDisabled("%s", L(tr::kIdentityDk));
    }

    if (!Hidden(ctx, "seed")) {
      {
        LockScope lock(ctx, "seed");
        ImU32 seed = static_cast<ImU32>(c.seed);  // seeds are 0 .. 2^32 - 1
        const ImU32 step = 1;
        ImGui::SetNextItemWidth(w);
        if (ImGui::InputScalar(Label(tr::kSeed, "seed"), ImGuiDataType_U32, &seed, &step))
          app::ApplyPatch(s, attn::api::Obj({{"seed", seed}}));
      }
      // The seed's example resets every setting and the sentence: not while any of them is locked.
      bool any_locked = Locked(ctx, "sentence");
      for (const char* g : {"projection", "scaling", "positional", "normalizer", "mask", "heads", "sizes", "seed"})
        any_locked = any_locked || Locked(ctx, g);
      ImGui::BeginDisabled(any_locked);
      if (ImGui::Button(Label(tr::kResetSeed, "reset"))) {
        const attn::LabConfig d;
        app::ApplyPatch(s, attn::api::Obj({{"sentence", d.sentence}, {"query", d.query}, {"projection", "identity"},
                            {"temperature", d.temperature}, {"scaled", d.scaled}, {"dModel", d.d_model},
                            {"dK", d.d_k}, {"seed", d.seed}, {"positional", d.positional},
                            {"heads", d.heads}, {"head", d.head}, {"normalizer", "softmax"},
                            {"causal", d.causal}}));
      }
      ImGui::EndDisabled();
    }
    }  // !model
    if (model) ctx.ui.model_settings_h = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    if (!model) {
      ImGui::Spacing();
      ImGui::Separator();
      ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", L(tr::kTryTitle));
      ImGui::TextWrapped("%s", L(tr::kTry));
    }
  }
  EndPanel();
}

}  // namespace ui
