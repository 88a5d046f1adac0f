// The RoPE scene in the app (model.h; model/inspect/offsets.h): measured for the result shown
// when the Positions panel asks, kept while its key is the current one.
#include "api/model_json.h"
#include "app/model/model.h"

namespace app {

namespace {

// What the scene depends on: the query's and its key's tokens, the head, the offset, and the
// model's layer-0 input at the query (it moves with the weights: Train it more).
std::string OffsetsKey(const attn::LabConfig& c, const attn::model::ModelLabResult& m) {
  std::vector<float> key = {static_cast<float>(c.layer), static_cast<float>(c.head), static_cast<float>(c.query),
                            static_cast<float>(m.ids.size())};
  for (int id : m.ids) key.push_back(static_cast<float>(id));
  if (!m.acts.blocks.empty() && c.query >= 0 && c.query < m.acts.blocks[0].x.rows())
    for (Eigen::Index k = 0; k < m.acts.blocks[0].x.cols(); ++k) key.push_back(m.acts.blocks[0].x(c.query, k));
  return std::string(reinterpret_cast<const char*>(key.data()), key.size() * sizeof(float));
}

}  // namespace

void Model::EnsureOffsets(const attn::api::LabState& lab, const LabView& view) {
  if (lab.config.projection != attn::Projection::kModel || !loaded || !view.attention.result->error.ok()) {
    offsets.ok = false;
    offsets.key.clear();
    return;
  }
  const attn::model::ModelLabResult& m = *view.attention.model_result;
  std::string key = OffsetsKey(lab.config, m);
  if (key == offsets.key) return;
  offsets.key = std::move(key);
  offsets.error.clear();
  const int query = view.attention.result->steps.query;  // the run's index
  offsets.ok = attn::model::SceneForQuery(loaded->params, loaded->config(), m.ids, m.acts, lab.config.layer,
                                          lab.config.head, query, loaded->tokenizer().Begin() >= 0 ? 1 : 0, &offsets.value, &offsets.key_position, &offsets.error);
  offsets.query = query;
}

Json Model::OffsetsJson(const attn::api::LabState& lab, const LabView& view) const {
  if (!offsets.ok || lab.config.projection != attn::Projection::kModel || !view.attention.model_result ||
      offsets.key != OffsetsKey(lab.config, *view.attention.model_result))
    return nullptr;  // not asked for (the panel not shown), or not of this result
  const auto& texts = view.attention.model_result->texts;
  return attn::api::OffsetSceneJson(offsets.value, offsets.query, offsets.key_position,
                                    texts[static_cast<std::size_t>(offsets.query)],
                                    texts[static_cast<std::size_t>(offsets.key_position)]);
}

}  // namespace app
