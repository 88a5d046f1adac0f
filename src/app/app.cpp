#include "app/app.h"

namespace app {

namespace {

void Notify(const AppState& s) {
  if (s.on_state_changed) s.on_state_changed(StateJson(s));
}

}  // namespace

void InitApp(AppState& s) {
  s.lab = attn::api::LabState{};
  s.sentence_edit = s.lab.config.sentence;
  s.result = attn::ComputeLab(s.lab.config);
}

attn::api::PatchResult ApplyPatch(AppState& s, const Json& patch, Source source) {
  attn::api::PatchResult r = attn::api::ApplyStatePatch(s.lab, patch);
  if (!r.ok) {
    s.has_refusal = true;
    s.refusal = r;
    return r;
  }
  // Validated input that the maths still refuses (e.g. overflowing scores) is refused too:
  // the panels always draw a finished, valid result.
  attn::LabResult result = attn::ComputeLab(r.state.config);
  if (!result.error.ok()) {
    r.ok = false;
    r.state = s.lab;
    r.api_error = attn::api::ApiError::kEngine;
    r.engine_error = result.error;
    r.field = result.error.field;
    r.message = result.error.message;
    s.has_refusal = true;
    s.refusal = r;
    return r;
  }
  s.lab = r.state;
  s.result = std::move(result);
  s.has_refusal = false;
  // The box shows what the learner types; anything else that sets the sentence replaces it.
  if (source != Source::kSentenceBox) s.sentence_edit = s.lab.config.sentence;
  Notify(s);
  return r;
}

attn::api::PatchResult ApplyPatchText(AppState& s, const std::string& json_text) {
  Json patch = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (patch.is_discarded()) {
    attn::api::PatchResult r = attn::api::ApplyStatePatchText(s.lab, json_text);
    s.has_refusal = true;
    s.refusal = r;
    return r;
  }
  return ApplyPatch(s, patch, Source::kApi);
}

std::string StateJson(const AppState& s) { return attn::api::Dump(attn::api::StateToJson(s.lab)); }

std::string TraceJson(const AppState& s) { return attn::api::Dump(attn::api::TraceToJson(s.lab, s.result)); }

}  // namespace app
