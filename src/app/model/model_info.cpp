// Information, on a real head (model.h; issue 13): the chosen head of the trained model seen
// through its layer (model/inspect/head_information.h), computed when the Information panel shows a
// model result.
#include "app/model/model.h"

namespace app {

namespace {

// What the analysis depends on: the layer, head, query, target and the numbers it reads (the
// head's output and the residual stream at the query change with the sentence and the weights),
// their bytes as the key.
std::string InformationKey(const attn::LabConfig& c, const attn::model::ModelLabResult& m) {
  std::vector<float> key = {static_cast<float>(c.layer), static_cast<float>(c.head),
                            static_cast<float>(c.query), static_cast<float>(c.target)};
  const auto done = [&] { return std::string(reinterpret_cast<const char*>(key.data()), key.size() * sizeof(float)); };
  const attn::model::BlockActs<float>* b = attn::model::ChosenBlock(m.acts, c.layer);
  if (!b) return done();
  key.push_back(static_cast<float>(b->x.rows()));
  if (c.query < 0 || c.query >= b->x.rows()) return done();
  for (Eigen::Index k = 0; k < b->x.cols(); ++k) key.push_back(b->x(c.query, k));
  for (Eigen::Index k = 0; k < b->res1.cols(); ++k) key.push_back(b->res1(c.query, k));
  return done();
}

}  // namespace

void Model::EnsureInformation(const attn::api::LabState& lab, const LabView& view) {
  if (lab.config.projection != attn::Projection::kModel || !loaded || !view.attention.result->error.ok()) {
    info.ok = false;
    info.key.clear();
    return;
  }
  const attn::model::ModelLabResult& m = *view.attention.model_result;  // the attention room's
  std::string key = InformationKey(lab.config, m);
  if (key == info.key) return;
  info.key = std::move(key);
  std::string error;
  // The target the lab resolved (config -1 = automatic), so the panel's two analyses agree.
  const attn::LabResult& shown = *view.attention.result;
  info.ok = attn::model::AnalyzeHead(loaded->params, loaded->config(), m.acts, lab.config.layer, lab.config.head, shown.steps.query,
                                     shown.target, &info.value, &error);
}

}  // namespace app
