// "Probe this head" in the app (model.h): model::ProbeHeadOnText on the chosen layer and head of
// the loaded model, on the built-in text of the interface language (web/tune/en.txt or ru.txt,
// which the model was not trained on), with the same JSON as `attnlab model probe`.
#include "app/app.h"

#include <chrono>

namespace app {

namespace {
// What a probe depends on: the layer, head, language and weights (Train it more's steps).
std::string ProbeKey(const AppState& s) {
  const attn::LabConfig& c = s.lab.config;
  const Tune& t = s.model.tune;
  return std::to_string(c.layer) + " " + std::to_string(c.head) + " " + (s.lab.lang == "ru" ? "ru" : "en") + " " +
         (t.trained ? "trained " : "shipped ") +
         std::to_string(t.session.step());
}
}  // namespace

void StartModelProbe(AppState& s) {
  // One frame in between: the frame that queued it (a click) or the next one draws "probing…"
  // before the probe holds the page for a second.
  s.model.probe.wait = 1;
}

// The default page's build (absent.cpp) never holds the model: ModelCodeInBuild() is a constant
// false there, so the optimizer (LTO) drops the rest of these functions and the panel's probe
// section from that build (issue 11's payload budget).
bool RunModelProbe(AppState& s) {
  ModelProbe& p = s.model.probe;
  p.wait = -1;
  p.has = true;
  if (!attn::model::ModelCodeInBuild()) {
    p.error = "probe: this build of the lab has no model code";
    return false;
  }
  p.error.clear();
  p.layer = s.lab.config.layer;
  p.head = s.lab.config.head;
  p.lang = s.lab.lang == "ru" ? "ru" : "en";
  p.key = ProbeKey(s);
  p.ms = 0;
  if (!s.model.loaded) {
    p.error = "probe: the model is not loaded (choose projection \"model\")";
    return false;
  }
  if (!s.model.tune.texts_loaded) {
    p.error = "probe: the built-in texts are not loaded yet";
    return false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = attn::model::ProbeHeadOnText(s.model.loaded->shipped.bpe, s.model.loaded->params, s.model.loaded->config(),
                                               p.lang == "ru" ? s.model.tune.text_ru : s.model.tune.text_en, "probe text",
                                               p.layer, p.head, &p.result, &p.error);
  p.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return ok;
}

void TickModelProbe(AppState& s) {
  if (s.model.probe.wait > 0) {
    --s.model.probe.wait;
  } else if (s.model.probe.wait == 0) {
    RunModelProbe(s);
  }
}

bool ModelProbeCurrent(const AppState& s) {
  const ModelProbe& p = s.model.probe;
  return p.has && s.model.loaded && p.key == ProbeKey(s);
}

Json ModelProbeJson(const AppState& s) {
  const ModelProbe& p = s.model.probe;
  if (!p.has || !attn::model::ModelCodeInBuild()) return nullptr;
  Json out = p.error.empty() && s.model.loaded ? attn::api::ParseJson(attn::model::TextProbeJson(p.result, s.model.loaded->config(), p.layer, p.head))
                                         : Json::object();
  if (!out.is_object()) out = Json::object();
  out["ok"] = p.error.empty();
  if (!p.error.empty()) out["error"] = p.error;
  out["lang"] = p.lang;
  out["current"] = ModelProbeCurrent(s);
  out["ms"] = p.ms;
  return out;
}

std::string ProbeHeadJson(AppState& s) {
  if (!RunModelProbe(s) && !attn::model::ModelCodeInBuild())
    return R"({"ok": false, "error": "probe: this build of the lab has no model code"})";
  return ModelProbeJson(s).dump();
}

}  // namespace app
