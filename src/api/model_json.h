// The trained model's numbers as JSON, one writer for the page's getTrace() (app/model) and
// `attnlab model run` (cli/model_inspect.cpp), so that the two print the same thing. Header-only
// and generic over the model's activations, so that attn_api needs no model code (the default
// page has none).
#pragma once

#include "api/state_json.h"

#include <Eigen/Core>

namespace attn::api {

// Every head's attention weights, [layer][head][t][0..t]: the causal rows, each as long as the
// keys it sees. `blocks` is model::Activations<T>::blocks (each block's attn.heads[h].weights
// (T, T)).
template <class Blocks>
Json AttentionWeightsJson(const Blocks& blocks) {
  Json layers = Json::array();
  for (const auto& block : blocks) {
    Json heads = Json::array();
    for (const auto& h : block.attn.heads) {
      Json rows = Json::array();
      for (Eigen::Index t = 0; t < h.weights.rows(); ++t) {
        Json row = Json::array();
        for (Eigen::Index u = 0; u <= t; ++u) row.push_back(static_cast<double>(h.weights(t, u)));
        rows.push_back(row);
      }
      heads.push_back(rows);
    }
    layers.push_back(heads);
  }
  return layers;
}

// The RoPE scene (model/inspect/offsets.h's OffsetScene, generic here as above) with the
// positions and texts of its two words: getTrace()'s model.offsets and `attnlab model offsets`.
template <class Scene>
Json OffsetSceneJson(const Scene& s, int query, int key, const std::string& query_text, const std::string& key_text) {
  return {{"layer", 0}, {"head", s.head}, {"query", query}, {"key", key}, {"queryToken", s.query_token},
          {"keyToken", s.key_token}, {"queryText", query_text}, {"keyText", key_text}, {"offset", s.offset},
          {"rotary", s.rotary}, {"starts", s.starts}, {"same", s.same}, {"moved", s.moved},
          {"sameSpread", s.same_spread}, {"movedSpread", s.moved_spread}, {"change", s.change}};
}

}  // namespace attn::api
