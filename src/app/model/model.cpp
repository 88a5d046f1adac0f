// The model room's loading (model.h): the load status, the files handed over by the platform,
// and the result computed through model::ComputeModelLab.
#include "app/app.h"

#include "api/model_json.h"

namespace app {

namespace {

bool ModelMode(const attn::LabConfig& c) { return c.projection == attn::Projection::kModel; }

}  // namespace

bool WantsModel(const AppState& s) {
  return ModelMode(s.lab.config) && s.model.status.load == ModelLoad::kNotRequested;
}

void ModelRequested(AppState& s) {
  s.model.status = ModelStatus{};
  s.model.status.load = ModelLoad::kLoading;
}

void ModelProgress(AppState& s, double fraction) {
  if (s.model.status.load != ModelLoad::kLoading) return;
  s.model.status.fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
}

void ModelLoadFailed(AppState& s, const std::string& message) {
  s.model.status.load = ModelLoad::kFailed;
  s.model.status.message = message;
}

void RetryModel(AppState& s) {
  if (s.model.status.load == ModelLoad::kFailed) s.model.status = ModelStatus{};
}

bool ModelFilesArrived(AppState& s, const std::vector<std::pair<std::string, std::string>>& files,
                       const std::map<std::string, std::string>& digests, std::string* error) {
  auto m = std::make_unique<attn::model::LabModel>();
  std::string why;
  if (!attn::model::LoadLabModel(files, digests, m.get(), &why)) {
    ModelLoadFailed(s, why);
    if (error) *error = why;
    return false;
  }
  s.model.loaded = std::move(m);
  s.model.status = ModelStatus{};
  s.model.status.load = ModelLoad::kReady;
  s.model.status.fraction = 1;
  RefreshModelResult(s);
  return true;
}

bool ModelNeedsFrames(const AppState& s) {
  return s.model.status.load == ModelLoad::kLoading || s.model.probe.wait >= 0 || s.model.tune.run_to > 0 ||
         ModelKeyEffectsRunning(s);
}

attn::LabResult ComputeResult(const AppState& s, const attn::LabConfig& config,
                              attn::model::ModelLabResult* model_result) {
  if (!ModelMode(config) || !s.model.loaded) {
    *model_result = attn::model::ModelLabResult{};
    return attn::ComputeLab(config);
  }
  attn::LabResult r;
  attn::model::ComputeModelLab(*s.model.loaded, config, &r, model_result);
  return r;
}

void RefreshModelResult(AppState& s) {
  if (!ModelMode(s.lab.config)) return;
  AppRequests(s).RecomputeResult();
  UpdateWhatIf(s);
  // Settings accepted before the files came (a link's layer 7 of 4) are refused now: shown in
  // the header like any refusal; the panels say what the result's error says.
  const attn::LabError& error = View(s).attention.result->error;
  if (!error.ok() && error.code != attn::ConfigError::kModelNotLoaded) Refuse(s, EngineRefusal(error));
  Notify(s);
}

Json ModelTraceJson(const AppState& s) {
  const attn::model::ModelLabResult& m = s.model.result;
  Json out;
  out["ids"] = m.ids;
  out["tokens"] = m.texts;
  out["words"] = m.word;
  Json starts = Json::array();
  for (char c : m.word_start) starts.push_back(c != 0);
  out["wordStart"] = starts;
  out["layer"] = s.lab.config.layer;
  out["head"] = s.lab.config.head;
  out["weights"] = attn::api::AttentionWeightsJson(m.acts.blocks);  // as `attnlab model run`
  Json next = Json::array();
  for (const auto& n : m.next) next.push_back({{"id", n.id}, {"text", n.text}, {"p", static_cast<double>(n.p)}});
  out["next"] = next;
  if (s.model.loaded) {
    const auto& c = s.model.loaded->config();
    out["shape"] = {{"layers", c.layers}, {"heads", c.heads}, {"dModel", c.d_model},
                    {"context", c.context}, {"vocab", c.vocab}};
  }
  // each key's effect on the next token, as far as the Information panel has computed it
  out["keyEffects"] = ModelKeyEffectsJson(s);
  return out;
}

// ---- the room (room.h) ------------------------------------------------------------------------
void Model::Tick(AppState& s, double budget_ms, FrameWork* work) {
  work->tune_units = TickTune(s, budget_ms, &work->tune_ms);
  TickModelProbe(s);
  TickModelKeyEffects(s, budget_ms);
}
bool Model::NeedsFrames(const AppState& s) const { return ModelNeedsFrames(s); }
void Model::Publish(LabView* view) const {
  view->model.loaded = loaded.get();
  view->model.result = &result;
}

}  // namespace app
