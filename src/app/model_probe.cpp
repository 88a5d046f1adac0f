// "Probe this head" in the app (app.h): model::ProbeHeadOnText on the chosen layer and head of
// the loaded model, on the built-in text of the interface language (web/tune/en.txt or ru.txt,
// which the model was not trained on), with the same JSON as `attnlab model probe`.
#include "app/app.h"

#include <chrono>

namespace app {

void StartModelProbe(AppState& s) {
  // One frame in between: the frame that queued it (a click) or the next one draws "probing…"
  // before the probe holds the page for a second.
  s.model_probe.wait = 1;
}

// The default page's build (absent.cpp) never holds the model: ModelCodeInBuild() is a constant
// false there, so the optimizer (LTO) drops the rest of these functions and the panel's probe
// section from that build (issue 11's payload budget).
bool RunModelProbe(AppState& s) {
  AppState::ModelProbe& p = s.model_probe;
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
  p.trained = s.tune.trained;
  p.tune_step = s.tune.session.step();
  p.ms = 0;
  if (!s.model) {
    p.error = "probe: the model is not loaded (choose projection \"model\")";
    return false;
  }
  if (!s.tune.texts_loaded) {
    p.error = "probe: the built-in texts are not loaded yet";
    return false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = attn::model::ProbeHeadOnText(s.model->shipped.bpe, s.model->params, s.model->config(),
                                               p.lang == "ru" ? s.tune.text_ru : s.tune.text_en, "probe text",
                                               p.layer, p.head, &p.result, &p.error);
  p.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return ok;
}

bool ModelProbeCurrent(const AppState& s) {
  const AppState::ModelProbe& p = s.model_probe;
  return p.has && s.model && p.layer == s.lab.config.layer && p.head == s.lab.config.head &&
         p.lang == (s.lab.lang == "ru" ? "ru" : "en") && p.trained == s.tune.trained &&
         p.tune_step == s.tune.session.step();
}

Json ModelProbeJson(const AppState& s) {
  const AppState::ModelProbe& p = s.model_probe;
  if (!p.has || !attn::model::ModelCodeInBuild()) return nullptr;
  Json out = p.error.empty() && s.model ? Json::parse(attn::model::TextProbeJson(p.result, s.model->config(), p.layer, p.head))
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
