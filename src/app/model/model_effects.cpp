// The keys' effect on the next token (model.h; issue 23, "what mattered" in the trained model):
// model::NextKeyNextTokenEffect one key at a time in the page's frames, so that a sentence of 30
// tokens (30 forward passes) never holds the page; the same numbers as `attnlab model contributions`.
#include "app/model/model.h"

#include <chrono>

namespace app {

namespace {

// What the effects depend on: the tokens, the chosen head and the weights (Train it more's steps).
std::string EffectsKey(const attn::LabConfig& c, const Tune& t, const attn::model::ModelLabResult& m) {
  std::string key = std::to_string(c.layer) + " " + std::to_string(c.head) + (t.trained ? " trained " : " shipped ") +
                    std::to_string(t.session.step()) + " :";
  for (int id : m.ids) key += " " + std::to_string(id);
  return key;
}

bool Shown(const attn::api::LabState& lab, const LabView& view, bool loaded) {
  const attn::model::ModelLabResult& m = *view.attention.model_result;
  return attn::model::ModelCodeInBuild() && lab.config.projection == attn::Projection::kModel && loaded &&
         view.attention.result->error.ok() && !m.ids.empty() && !m.next.empty();
}

bool Current(const attn::api::LabState& lab, const LabView& view, const Model& model) {
  return Shown(lab, view, model.loaded != nullptr) && !model.effects.key.empty() &&
         model.effects.key == EffectsKey(lab.config, model.tune, *view.attention.model_result);
}

// One key more; false when it was refused (the error is kept and no more keys are tried).
bool StepOne(const attn::api::LabState& lab, const LabView& view, Model& model) {
  ModelKeyEffects& e = model.effects;
  std::string error;
  if (attn::model::NextKeyNextTokenEffect(*model.loaded, lab.config, *view.attention.model_result, &e.value, &error))
    return true;
  e.error = error.empty() ? "the key's run was refused" : error;
  return false;
}

}  // namespace

void Model::WantKeyEffects(const attn::api::LabState& lab, const LabView& view) {
  if (!Shown(lab, view, loaded != nullptr)) return;
  std::string key = EffectsKey(lab.config, tune, *view.attention.model_result);
  if (key == effects.key) return;
  effects = ModelKeyEffects{};
  effects.key = std::move(key);
  effects.total = static_cast<int>(view.attention.model_result->ids.size());
}

bool Model::KeyEffectsRunning(const attn::api::LabState& lab, const LabView& view) const {
  const ModelKeyEffects& e = effects;
  return Current(lab, view, *this) && e.error.empty() && static_cast<int>(e.value.delta.size()) < e.total;
}

void Model::TickKeyEffects(const attn::api::LabState& lab, const LabView& view, double budget_ms) {
  if (!KeyEffectsRunning(lab, view)) return;
  const auto t0 = std::chrono::steady_clock::now();
  do {
    if (!StepOne(lab, view, *this)) return;
  } while (KeyEffectsRunning(lab, view) &&
           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < budget_ms);
}

void Model::FinishKeyEffects(const attn::api::LabState& lab, const LabView& view) {
  WantKeyEffects(lab, view);
  while (KeyEffectsRunning(lab, view))
    if (!StepOne(lab, view, *this)) return;
}

Json Model::KeyEffectsJson(const attn::api::LabState& lab, const LabView& view) const {
  if (!Current(lab, view, *this)) return Json(nullptr);
  const ModelKeyEffects& e = effects;
  Json out = Json::object();
  out["layer"] = lab.config.layer;
  out["head"] = lab.config.head;
  if (!e.error.empty()) {
    out["error"] = e.error;
    return out;
  }
  const attn::model::NextToken& next = view.attention.model_result->next.front();
  out["nextId"] = next.id;
  out["next"] = next.text;
  out["logp"] = e.value.logp;
  out["done"] = static_cast<int>(e.value.delta.size());
  out["of"] = e.total;
  out["delta"] = e.value.delta;
  out["logpWithout"] = e.value.logp_without;
  return out;
}

}  // namespace app
