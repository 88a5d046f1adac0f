// Information, on a real head (issue 13): the chosen head of the trained model seen through its
// layer (model/head_information.h), computed when the Information panel shows a model result.
#include "app/app.h"

namespace app {

namespace {

// What the analysis depends on: the layer, head, query, target and the numbers it reads (the
// head's output and the residual stream at the query change with the sentence and the weights).
std::vector<float> InformationKey(const AppState& s) {
  const attn::LabConfig& c = s.lab.config;
  std::vector<float> key = {static_cast<float>(c.layer), static_cast<float>(c.head),
                            static_cast<float>(c.query), static_cast<float>(c.target)};
  const auto& blocks = s.model_result.acts.blocks;
  if (c.layer < 0 || c.layer >= static_cast<int>(blocks.size())) return key;
  const auto& b = blocks[static_cast<std::size_t>(c.layer)];
  key.push_back(static_cast<float>(b.x.rows()));
  if (c.query < 0 || c.query >= b.x.rows()) return key;
  for (Eigen::Index k = 0; k < b.x.cols(); ++k) key.push_back(b.x(c.query, k));
  for (Eigen::Index k = 0; k < b.res1.cols(); ++k) key.push_back(b.res1(c.query, k));
  return key;
}

}  // namespace

void EnsureModelInformation(AppState& s) {
  if (s.lab.config.projection != attn::Projection::kModel || !s.model || !s.result.error.ok()) {
    s.model_info_ok = false;
    s.model_info_key.clear();
    return;
  }
  std::vector<float> key = InformationKey(s);
  if (key == s.model_info_key) return;
  s.model_info_key = std::move(key);
  std::string error;
  // The target the lab resolved (config -1 = automatic), so the panel's two analyses agree.
  s.model_info_ok = attn::model::AnalyzeHead(s.model->params, s.model_result.acts, s.lab.config.layer,
                                             s.lab.config.head, s.result.steps.query, s.result.target,
                                             &s.model_info, &error);
}

}  // namespace app
