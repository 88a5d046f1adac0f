// The model room's loading (model.h): the load status, the files handed over by the platform,
// and the model's part of the trace.
#include "app/model/model.h"

#include "api/model_json.h"

namespace app {

namespace {

bool ModelMode(const attn::LabConfig& c) { return c.projection == attn::Projection::kModel; }

}  // namespace

bool Model::Wants(const attn::api::LabState& lab) const {
  return ModelMode(lab.config) && (status.load == ModelLoad::kNotRequested || lab.model_url != requested_url);
}

void Model::Requested(const std::string& url) {
  requested_url = url;
  Loading(url);
}

void Model::Loading(const std::string& name) {
  status = ModelStatus{};
  status.load = ModelLoad::kLoading;
  status.name = name;
}

void Model::Progress(double fraction) {
  if (status.load != ModelLoad::kLoading) return;
  status.fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
}

void Model::Bytes(double bytes, double total) {
  if (status.load != ModelLoad::kLoading || !(total > 0)) return;
  status.bytes = bytes < 0 ? 0 : bytes > total ? total : bytes;
  status.total_bytes = total;
  status.fraction = status.bytes / total;
}

void Model::LoadFailed(const std::string& message) {
  status.load = ModelLoad::kFailed;
  status.message = message;
}

void Model::Cancelled() {
  if (!loaded) return LoadFailed("the download was cancelled");
  status = ModelStatus{};
  status.load = ModelLoad::kReady;
  status.fraction = 1;
  status.name = loaded->name;
  status.message = "the download was cancelled";
}

void Model::Retry() {
  if (status.load == ModelLoad::kFailed) status = ModelStatus{};
}

bool Model::FilesArrived(const RoomContext& c, const std::vector<std::pair<std::string, std::string>>& files,
                         const std::map<std::string, std::string>& digests, std::string* error) {
  auto m = std::make_unique<attn::model::LabModel>();
  std::string why;
  if (!attn::model::LoadLabModel(files, digests, m.get(), &why)) {
    LoadFailed(why);
    if (error) *error = why;
    return false;
  }
  Arrived(c, std::move(m));
  return true;
}

void Model::Arrived(const RoomContext& c, std::unique_ptr<attn::model::LabModel> m) {
  // A constant false in the default page's build (model/lab/absent.cpp), where no model ever
  // arrives: the rest is left out of its wasm.
  if (!attn::model::ModelCodeInBuild()) return;
  loaded = std::move(m);
  ++weights_version;
  status = ModelStatus{};
  status.load = ModelLoad::kReady;
  status.fraction = 1;
  status.name = loaded->name;
  Tune fresh;      // a session of another model's weights; the built-in texts stay
  fresh.texts_loaded = tune.texts_loaded;
  fresh.text_en = std::move(tune.text_en);
  fresh.text_ru = std::move(tune.text_ru);
  tune = std::move(fresh);
  probe = ModelProbe{};
  info = ModelInformation{};
  effects = ModelKeyEffects{};
  Refresh(c);
}

void Model::Refresh(const RoomContext& c) {
  if (!ModelMode(c.lab.config)) return;
  c.requests.RecomputeResult();
  c.requests.UpdateWhatIf();
  // Settings accepted before the files came (a link's layer 7 of 4) are refused now: shown in
  // the header like any refusal; the panels say what the result's error says.
  const attn::LabError& error = c.requests.View().attention.result->error;
  if (!error.ok() && error.code != attn::ConfigError::kModelNotLoaded) c.requests.Refuse(EngineRefusal(error));
  c.requests.Notify();
}

Json Model::TraceJson(const attn::api::LabState& lab, const LabView& view) const {
  const attn::model::ModelLabResult& m = *view.attention.model_result;
  Json out;
  out["ids"] = m.ids;
  out["tokens"] = m.texts;
  out["words"] = m.word;
  Json starts = Json::array();
  for (char c : m.word_start) starts.push_back(c != 0);
  out["wordStart"] = starts;
  out["layer"] = lab.config.layer;
  out["head"] = lab.config.head;
  out["weights"] = attn::api::AttentionWeightsJson(m.acts.blocks);  // as `attnlab model run`
  Json next = Json::array();
  for (const auto& n : m.next) next.push_back({{"id", n.id}, {"text", n.text}, {"p", static_cast<double>(n.p)}});
  out["next"] = next;
  if (loaded) {
    const auto& c = loaded->config();
    out["shape"] = {{"layers", c.layers}, {"heads", c.heads}, {"dModel", c.d_model},
                    {"context", c.context}, {"vocab", c.vocab}};
  }
  // each key's effect on the next token, as far as the Information panel has computed it
  out["keyEffects"] = KeyEffectsJson(lab, view);
  out["offsets"] = OffsetsJson(lab, view);  // the RoPE scene, as far as the Positions panel asked for it
  return out;
}

// ---- the room (room.h) ------------------------------------------------------------------------
void Model::Tick(const RoomContext& c, double budget_ms, FrameWork* work) {
  work->tune_units = TickTune(c, budget_ms, &work->tune_ms);
  TickProbe(c.lab);
  TickKeyEffects(c.lab, c.view, budget_ms);  // (the view points at the result as it is now)
}
bool Model::NeedsFrames(const attn::api::LabState& lab, const LabView& view) const {
  return status.load == ModelLoad::kLoading || probe.wait >= 0 || tune.run_to > 0 || KeyEffectsRunning(lab, view);
}
void Model::Publish(LabView* view) const {
  view->model.loaded = loaded.get();
  view->model.weights_version = weights_version;
}

}  // namespace app
