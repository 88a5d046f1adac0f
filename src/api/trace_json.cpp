// A run as JSON (state_json.h): getTrace() and `attnlab trace`, matrices row by row.
#include "api/state_json.h"
#include "api/whatif_json.h"

namespace attn::api {

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }
Json ParseJson(std::string_view text) {
  return Json::parse(text.data(), text.data() + text.size(), nullptr, /*allow_exceptions=*/false);
}

Json MatrixToJson(const MatF& m) {
  Json rows = Json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    Json row = Json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

Json VectorToJson(const VecF& v) {
  Json out = Json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v(i));
  return out;
}

Json TraceToJson(const LabState& state, const LabResult& res) {
  Json out;
  out["state"] = StateToJson(state);
  if (!res.error.ok()) {
    out["error"] = Obj({{"field", res.error.field}, {"message", res.error.message}});
    return out;
  }
  out["error"] = nullptr;
  const AttentionTrace<float>& t = res.trace;
  Json tokens = Json::array();
  for (const Token& tok : res.tokens) tokens.push_back(tok.text);
  out["tokens"] = tokens;
  out["X"] = MatrixToJson(t.X);
  out["W_Q"] = MatrixToJson(t.W_Q);
  out["W_K"] = MatrixToJson(t.W_K);
  out["W_V"] = MatrixToJson(t.W_V);
  out["Q"] = MatrixToJson(t.Q);
  out["K"] = MatrixToJson(t.K);
  out["V"] = MatrixToJson(t.V);
  out["scores"] = MatrixToJson(t.scores);
  out["scaled"] = MatrixToJson(t.scaled);
  out["rowMax"] = VectorToJson(t.row_max);
  out["exps"] = MatrixToJson(t.exps);
  out["rowSum"] = VectorToJson(t.row_sum);
  out["weights"] = MatrixToJson(t.weights);
  out["output"] = MatrixToJson(t.output);
  // (Assignments rather than one initializer list: the same object, far less code in the page.)
  Json& config = out["config"];
  config["projection"] = ProjectionName(state.config.projection);
  config["temperature"] = t.temperature;
  config["scaled"] = state.config.scaled;
  config["scale"] = t.scale;
  config["dModel"] = state.config.d_model;
  config["dK"] = t.d_k;
  config["dV"] = t.d_v;
  config["seed"] = state.config.seed;
  config["positional"] = state.config.positional;
  config["heads"] = state.config.heads;
  config["head"] = state.config.head;
  config["normalizer"] = NormalizerName(state.config.normalizer);
  config["causal"] = state.config.causal;
  config["target"] = res.target;
  // Every head, as h x n x d arrays; then their concatenation and the projected output.
  Json& heads = out["heads"];
  for (const char* key : {"Q", "K", "V", "weights", "output", "entropy", "W_Q", "W_K", "W_V"}) heads[key] = Json::array();
  for (std::size_t h = 0; h < res.mha.heads.size(); ++h) {
    const HeadTrace<float>& ht = res.mha.heads[h];
    heads["Q"].push_back(MatrixToJson(ht.Q));
    heads["K"].push_back(MatrixToJson(ht.K));
    heads["V"].push_back(MatrixToJson(ht.V));
    heads["weights"].push_back(MatrixToJson(ht.weights));
    heads["output"].push_back(MatrixToJson(ht.output));
    heads["entropy"].push_back(VectorToJson(ht.entropy));
    heads["W_Q"].push_back(MatrixToJson(res.projections.W_Q[h]));
    heads["W_K"].push_back(MatrixToJson(res.projections.W_K[h]));
    heads["W_V"].push_back(MatrixToJson(res.projections.W_V[h]));
  }
  out["W_O"] = MatrixToJson(res.projections.W_O);
  out["concat"] = MatrixToJson(res.mha.concat);
  out["finalOutput"] = MatrixToJson(res.mha.output);
  Json mask = Json::array();
  for (Eigen::Index i = 0; i < res.mha.mask.rows(); ++i) {
    Json row = Json::array();
    for (Eigen::Index j = 0; j < res.mha.mask.cols(); ++j) row.push_back(static_cast<bool>(res.mha.mask(i, j)));
    mask.push_back(std::move(row));
  }
  out["mask"] = mask;
  // Is the pattern recoverable from A? (chosen head, the query's row)
  const InformationReport& info = res.information;
  Json ranges = Json::array();
  for (Eigen::Index i = 0; i < info.ranges.rows(); ++i) ranges.push_back({info.ranges(i, 0), info.ranges(i, 1)});
  auto vec = [](const VecD& v) {
    Json a = Json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v(i));
    return a;
  };
  Json& information = out["information"];
  information["target"] = res.target;
  information["alternative"] = vec(info.collision.alpha2);
  information["output"] = vec(info.collision.output);
  information["output2"] = vec(info.collision.output2);
  information["maxOutputDiff"] = info.collision.max_output_diff;
  information["unique"] = info.collision.unique;
  information["ranges"] = ranges;
  information["affineRank"] = info.info.affine_rank;
  information["sameOutputDim"] = info.info.same_output_dim;
  information["recoverable"] = info.info.recoverable;
  // the set the weights live in (simplex, box or affine: information.h) and the keys the query
  // can see, which the analysis ran over; unbounded range ends (affine) are written as null
  information["feasibleSet"] = FeasibleSetName(info.set);
  information["visible"] = info.visible;
  information["linearRank"] = info.info.linear_rank;
  information["targetMoved"] = res.target_moved;
  const StepTable& st = res.steps;
  Json rows = Json::array();
  for (const StepRow& r : st.rows) {
    Json& row = rows.emplace_back(Json::object());
    row["token"] = r.token;
    row["score"] = r.score;
    row["scaled"] = r.scaled;
    row["exp"] = r.exp;
    row["weight"] = r.weight;
    row["masked"] = r.masked;
    row["weighted"] = VectorToJson(r.weighted);
  }
  Json& steps = out["steps"];
  steps["query"] = st.query;
  steps["token"] = res.tokens[st.query].text;
  steps["rowMax"] = st.row_max;
  steps["expSum"] = st.exp_sum;
  steps["entropy"] = st.entropy;
  steps["weightSum"] = st.weight_sum;
  steps["rows"] = std::move(rows);
  steps["output"] = VectorToJson(st.output);
  Json& vectors = out["vectors"];
  vectors["points"] = MatrixToJson(res.vectors.points);
  vectors["explained"] = res.vectors.explained;
  vectors["valueHull"] = res.value_hull;
  // Weight against contribution (the query's keys) and the edits this run carries (whatif.h)
  out["contribution"] = ContributionToJson(res.contribution);
  out["edits"] = EditsToJson(res.edits);
  return out;
}

}  // namespace attn::api
