// The keys' effect on the next token (model.h; issue 23, "what mattered" in the trained model):
// model::NextKeyNextTokenEffect one key at a time in the page's frames, so that a sentence of 30
// tokens (30 forward passes) never holds the page; the same numbers as `attnlab model contributions`.
#include "app/app.h"

#include <chrono>

namespace app {

namespace {

// What the effects depend on: the tokens, the chosen head and the weights (Train it more's steps).
std::string EffectsKey(const AppState& s) {
  const attn::LabConfig& c = s.lab.config;
  const Tune& t = s.model.tune;
  std::string key = std::to_string(c.layer) + " " + std::to_string(c.head) + (t.trained ? " trained " : " shipped ") +
                    std::to_string(t.session.step()) + " :";
  for (int id : s.model.result.ids) key += " " + std::to_string(id);
  return key;
}

bool Shown(const AppState& s) {
  return attn::model::ModelCodeInBuild() && s.lab.config.projection == attn::Projection::kModel && s.model.loaded &&
         View(s).attention.result->error.ok() && !s.model.result.ids.empty() && !s.model.result.next.empty();
}

bool Current(const AppState& s) { return Shown(s) && !s.model.effects.key.empty() && s.model.effects.key == EffectsKey(s); }

// One key more; false when it was refused (the error is kept and no more keys are tried).
bool StepOne(AppState& s) {
  ModelKeyEffects& e = s.model.effects;
  std::string error;
  if (attn::model::NextKeyNextTokenEffect(*s.model.loaded, s.lab.config, s.model.result, &e.value, &error)) return true;
  e.error = error.empty() ? "the key's run was refused" : error;
  return false;
}

}  // namespace

void WantModelKeyEffects(AppState& s) {
  if (!Shown(s)) return;
  std::string key = EffectsKey(s);
  if (key == s.model.effects.key) return;
  s.model.effects = ModelKeyEffects{};
  s.model.effects.key = std::move(key);
  s.model.effects.total = static_cast<int>(s.model.result.ids.size());
}

bool ModelKeyEffectsRunning(const AppState& s) {
  const ModelKeyEffects& e = s.model.effects;
  return Current(s) && e.error.empty() && static_cast<int>(e.value.delta.size()) < e.total;
}

void TickModelKeyEffects(AppState& s, double budget_ms) {
  if (!ModelKeyEffectsRunning(s)) return;
  const auto t0 = std::chrono::steady_clock::now();
  do {
    if (!StepOne(s)) return;
  } while (ModelKeyEffectsRunning(s) &&
           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < budget_ms);
}

void FinishModelKeyEffects(AppState& s) {
  WantModelKeyEffects(s);
  while (ModelKeyEffectsRunning(s))
    if (!StepOne(s)) return;
}

Json ModelKeyEffectsJson(const AppState& s) {
  if (!Current(s)) return Json(nullptr);
  const ModelKeyEffects& e = s.model.effects;
  Json out = Json::object();
  out["layer"] = s.lab.config.layer;
  out["head"] = s.lab.config.head;
  if (!e.error.empty()) {
    out["error"] = e.error;
    return out;
  }
  const attn::model::NextToken& next = s.model.result.next.front();
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
