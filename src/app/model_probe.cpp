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

bool RunModelProbe(AppState& s) {
  AppState::ModelProbe& p = s.model_probe;
  p.wait = -1;
  p.has = true;
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
  if (!p.has) return nullptr;
  if (!p.error.empty()) return {{"ok", false}, {"error", p.error}, {"current", ModelProbeCurrent(s)}};
  const attn::model::TextProbe& t = p.result;
  const attn::model::HeadProbeResult& r = t.result;
  const int dh = s.model ? s.model->config().d_model / s.model->config().heads : 0;
  // The keys and their order are `attnlab model probe`'s (model_inspect.cpp).
  return {{"ok", true}, {"lang", p.lang}, {"current", ModelProbeCurrent(s)}, {"ms", p.ms},
          {"layer", p.layer}, {"head", p.head}, {"tokens", t.tokens}, {"split", t.split},
          {"window", t.window}, {"stride", t.stride}, {"trainWindows", t.train_windows},
          {"testWindows", t.test_windows}, {"steps", attn::model::kTextProbeSteps}, {"withinKeys", dh + 1},
          {"accuracy", r.accuracy}, {"trainAccuracy", r.train_accuracy},
          {"trainQueries", r.train_samples}, {"testQueries", r.test_samples},
          {"within", {{"queries", r.test_within}, {"accuracy", r.accuracy_within}, {"chance", r.chance_within}, {"position", r.position_within}}},
          {"beyond", {{"queries", r.test_beyond}, {"accuracy", r.accuracy_beyond}, {"chance", r.chance_beyond}, {"position", r.position_beyond}}}};
}

std::string ProbeHeadJson(AppState& s) {
  RunModelProbe(s);
  return ModelProbeJson(s).dump();
}

}  // namespace app
