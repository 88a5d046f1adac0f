// "Train it more" in the app (model.h): the loaded model's training continued on
// a text, one unit of model::TuneSession at a time, as many as fit the frame's budget (Tick).
// The weights trained are the model room's loaded->params, so every panel shows the head as it changes;
// ResetTune copies the shipped ones back.
#include "app/model/model.h"

#include <chrono>

namespace app {

namespace {

double MsFrom(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The result of the lab at the model's current weights, without telling the page that the
// state changed (it did not: only the weights did).
void RecomputeAtWeights(const RoomContext& c, bool loaded) {
  if (c.lab.config.projection != attn::Projection::kModel || !loaded) return;
  c.requests.RecomputeResult();
}

std::string SessionKey(const attn::api::LabState& lab, const std::string& text) {
  Json settings = Json::object();
  attn::api::FieldsToJson(attn::model::TuneFields(), lab.tune, settings);
  return settings.dump() + "\n" + text;
}

}  // namespace

void Model::TuneTextsArrived(const std::string& en, const std::string& ru) {
  tune.texts_loaded = true;
  tune.text_en = en;
  tune.text_ru = ru;
}

std::string Model::TuneText(const attn::api::LabState& lab) const {
  const std::string& which = lab.tune_text;
  if (which == "own") return lab.tune_own;
  const bool ru = which == "ru" || (which == "auto" && lab.lang == "ru");
  return ru ? tune.text_ru : tune.text_en;
}

bool Model::StartTune(const attn::api::LabState& lab, int steps, std::string* error) {
  Tune& t = tune;
  t.error.clear();
  t.problem = {};
  auto refuse = [&](TuneRefusal code, const std::string& message) {
    t.refusal = code;
    t.error = message;
    if (error) *error = message;
    return false;
  };
  t.refusal = TuneRefusal::kNone;
  // ModelCodeInBuild() is a constant false in the default page's build (model/lab/absent.cpp): the
  // rest of the session's code is then left out of its wasm.
  if (!attn::model::ModelCodeInBuild() || !loaded)
    return refuse(TuneRefusal::kNoModel, "tune: the model is not loaded (choose projection \"model\")");
  // a Llama-family model is opened and looked into, not trained (model.h: Trainable)
  if (!attn::model::Trainable(loaded->config()))
    return refuse(TuneRefusal::kNotTrainable, std::string("tune: ") + attn::model::kNotTrainable);
  // a model too large for the page's memory: refused before anything is widened or allocated
  t.memory = attn::model::TuneMemoryOf(loaded->config());
  if (!t.memory.fits()) return refuse(TuneRefusal::kTooBig, "tune: " + attn::model::TuneMemoryRefusal(t.memory));
  const bool own = lab.tune_text == "own";
  if (!own && !t.texts_loaded) return refuse(TuneRefusal::kNoText, "tune: the built-in texts are not loaded yet");
  const std::string text = TuneText(lab);
  const std::string key = SessionKey(lab, text);
  if (!t.session.started() || key != t.key) {
    std::vector<int> ids;
    std::string why;
    if (!attn::model::TuneStream(loaded->tokenizer(), text, own ? "tuneOwn" : "tuneText", &ids, &why, &t.problem))
      return refuse(TuneRefusal::kText, why);
    if (!t.session.Start(loaded->config(), std::move(ids), lab.tune, &why)) return refuse(TuneRefusal::kText, why);
    // training needs every number in float: a checkpoint kept at its stored precision is widened
    if (loaded->params.stored) loaded->params = attn::model::Widened(loaded->params);
    t.key = key;
  }
  t.run_from = t.session.step();
  t.run_to = t.session.step() + steps;
  return true;
}

void Model::ResetTune(const RoomContext& c) {
  Tune& t = tune;
  t.run_to = 0;
  t.session.Clear();
  t.key.clear();
  t.trained = false;
  t.error.clear();
  t.refusal = TuneRefusal::kNone;
  if (!loaded) return;
  loaded->params = loaded->shipped.params;
  ++weights_version;
  RecomputeAtWeights(c, true);
}

int Model::TickTune(const RoomContext& c, double budget_ms, double* ms) {
  Tune& t = tune;
  int units = 0;
  *ms = 0;
  if (t.run_to <= 0) return 0;
  if (!attn::model::ModelCodeInBuild() || !loaded || !t.session.started()) {
    t.run_to = 0;
    return 0;
  }
  const auto t0 = std::chrono::steady_clock::now();
  bool stepped = false;
  // At least one unit per frame (a unit of the shipped model is ~0.1 s in the page), then as
  // many as fit the budget.
  do {
    bool done = false;
    std::string why;
    if (!t.session.Work(loaded->params, &done, nullptr, &why)) {
      t.run_to = 0;
      t.refusal = TuneRefusal::kDiverged;
      t.error = "tune: " + why;
      break;
    }
    ++units;
    if (done) {
      stepped = true;
      ++weights_version;
      t.trained = true;
      if (t.session.step() >= t.run_to) {
        t.run_to = 0;
        break;
      }
    }
  } while (MsFrom(t0) < budget_ms);
  *ms = MsFrom(t0);
  if (stepped) RecomputeAtWeights(c, true);
  return units;
}

Json Model::TuneStatusJson() const {
  const Tune& t = tune;
  Json losses = Json::array();
  for (const attn::model::StepMetrics& m : t.session.history()) losses.push_back(m.loss);
  Json out = {{"loaded", loaded != nullptr},
              {"running", t.run_to > 0},
              {"step", t.session.step()},
              {"runFrom", t.run_from},
              {"runTo", t.run_to},
              {"unit", t.session.unit()},
              {"unitsPerStep", t.session.units_per_step()},
              {"tokens", t.session.stream().size()},
              {"length", t.session.length()},
              {"trained", t.trained},
              {"losses", losses},
              {"error", t.error.empty() ? Json(nullptr) : Json(t.error)}};
  if (loaded) {
    out["checksum"] = attn::model::ParamsChecksum(loaded->params);
    out["shippedChecksum"] = attn::model::ParamsChecksum(loaded->shipped.params);
  }
  return out;
}

std::string Model::TuneModelJson(const attn::api::LabState& lab, const std::string& json_options) {
  // {steps?} overrides tuneSteps for this run only; the rest comes from the state.
  Json options = json_options.empty() ? Json::object() : attn::api::ParseJson(json_options);
  if (!options.is_object())
    return attn::api::Obj({{"ok", false}, {"field", ""}, {"error", "tuneModel: expected an object such as {\"steps\": 20}"}}).dump();
  int steps = lab.tune_steps;
  if (options.contains("steps")) {
    const Json& v = options["steps"];
    const double x = v.is_number() ? v.get<double>() : -1;
    if (!v.is_number() || x != static_cast<int>(x) || x < 1 || x > attn::model::kMaxTuneSteps)
      return attn::api::Obj({{"ok", false}, {"field", "steps"},
                  {"error", "steps: expected an integer from 1 to " + std::to_string(attn::model::kMaxTuneSteps) +
                                ", got " + attn::api::DescribeJson(v)}}).dump();
    steps = static_cast<int>(x);
  }
  std::string error;
  const bool ok = StartTune(lab, steps, &error);
  if (!ok) return attn::api::Obj({{"ok", false}, {"field", tune.refusal == TuneRefusal::kText ? (lab.tune_text == "own" ? "tuneOwn" : "tuneText") : ""}, {"error", error}}).dump();
  Json out = TuneStatusJson();
  out["ok"] = true;
  return out.dump();
}

}  // namespace app
