// "Probe this head" in the app (model.h): model::ProbeHeadOnText on the chosen layer and head of
// the loaded model, on the built-in text of the interface language (web/tune/en.txt or ru.txt,
// which the model was not trained on), with the same JSON as `attnlab model probe`.
#include "app/model/model.h"

#include <chrono>

namespace app {

namespace {
// What a probe depends on: the layer, head, language and weights (Train it more's steps).
std::string ProbeKey(const attn::api::LabState& lab, const Tune& t) {
  const attn::LabConfig& c = lab.config;
  return std::to_string(c.layer) + " " + std::to_string(c.head) + " " + (lab.lang == "ru" ? "ru" : "en") + " " +
         (t.trained ? "trained " : "shipped ") +
         std::to_string(t.session.step());
}
}  // namespace

void Model::StartProbe() {
  // One frame in between: the frame that queued it (a click) or the next one draws "probing…"
  // before the probe holds the page for a second.
  probe.wait = 1;
}

// The default page's build (absent.cpp) never holds the model: ModelCodeInBuild() is a constant
// false there, so the optimizer (LTO) drops the rest of these functions and the panel's probe
// section from that build (issue 11's payload budget).
bool Model::RunProbe(const attn::api::LabState& lab) {
  ModelProbe& p = probe;
  p.wait = -1;
  p.has = true;
  if (!attn::model::ModelCodeInBuild()) {
    p.error = "probe: this build of the lab has no model code";
    return false;
  }
  p.error.clear();
  p.layer = lab.config.layer;
  p.head = lab.config.head;
  p.lang = lab.lang == "ru" ? "ru" : "en";
  p.key = ProbeKey(lab, tune);
  p.ms = 0;
  if (!loaded) {
    p.error = "probe: the model is not loaded (choose projection \"model\")";
    return false;
  }
  if (!tune.texts_loaded) {
    p.error = "probe: the built-in texts are not loaded yet";
    return false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = attn::model::ProbeHeadOnText(loaded->tokenizer(), loaded->params, loaded->config(),
                                               p.lang == "ru" ? tune.text_ru : tune.text_en, "probe text",
                                               p.layer, p.head, &p.result, &p.error);
  p.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return ok;
}

void Model::TickProbe(const attn::api::LabState& lab) {
  if (probe.wait > 0) {
    --probe.wait;
  } else if (probe.wait == 0) {
    RunProbe(lab);
  }
}

bool Model::ProbeCurrent(const attn::api::LabState& lab) const {
  const ModelProbe& p = probe;
  return p.has && loaded && p.key == ProbeKey(lab, tune);
}

Json Model::ProbeJson(const attn::api::LabState& lab) const {
  const ModelProbe& p = probe;
  if (!p.has || !attn::model::ModelCodeInBuild()) return nullptr;
  Json out = p.error.empty() && loaded ? attn::api::ParseJson(attn::model::TextProbeJson(p.result, loaded->config(), p.layer, p.head))
                                         : Json::object();
  if (!out.is_object()) out = Json::object();
  out["ok"] = p.error.empty();
  if (!p.error.empty()) out["error"] = p.error;
  out["lang"] = p.lang;
  out["current"] = ProbeCurrent(lab);
  out["ms"] = p.ms;
  return out;
}

std::string Model::ProbeHeadJson(const attn::api::LabState& lab) {
  if (!RunProbe(lab) && !attn::model::ModelCodeInBuild())
    return R"({"ok": false, "error": "probe: this build of the lab has no model code"})";
  return ProbeJson(lab).dump();
}

}  // namespace app
