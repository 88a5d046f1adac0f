#include "api/state_json.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace attn::api {

namespace {

PatchResult Refuse(const LabState& current, ApiError code, std::string field, std::string message) {
  PatchResult r;
  r.ok = false;
  r.state = current;
  r.api_error = code;
  r.field = std::move(field);
  r.message = std::move(message);
  return r;
}

std::string Describe(const Json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

// Reads an integer-valued JSON number in [lo, hi]; false (and a message) otherwise.
bool ReadInteger(const Json& v, const char* field, double lo, double hi, double* out,
                 std::string* message) {
  std::ostringstream m;
  m << field << " must be an integer between " << static_cast<long long>(lo) << " and "
    << static_cast<long long>(hi) << " (got " << Describe(v) << ")";
  if (!v.is_number()) { *message = m.str(); return false; }
  const double x = v.get<double>();
  if (!std::isfinite(x) || x != std::floor(x) || x < lo || x > hi) { *message = m.str(); return false; }
  *out = x;
  return true;
}

}  // namespace

Json StateToJson(const LabState& s) {
  const LabConfig& c = s.config;
  return Json{{"sentence", c.sentence},     {"query", c.query},
              {"projection", ProjectionName(c.projection)},
              {"temperature", c.temperature}, {"scaled", c.scaled},
              {"dModel", c.d_model},        {"dK", c.d_k},
              {"seed", c.seed},             {"positional", c.positional},
              {"lang", s.lang}};
}

PatchResult ApplyStatePatch(const LabState& current, const Json& patch) {
  if (!patch.is_object())
    return Refuse(current, ApiError::kNotAnObject, "", "the state must be a JSON object");
  LabState next = current;
  LabConfig& c = next.config;
  bool query_given = false;
  std::string msg;
  for (const auto& [key, v] : patch.items()) {
    double x = 0;
    if (key == "sentence") {
      if (!v.is_string()) return Refuse(current, ApiError::kWrongType, key, "sentence must be a string (got " + Describe(v) + ")");
      c.sentence = v.get<std::string>();
    } else if (key == "query") {
      if (!ReadInteger(v, "query", 0, kMaxTokens - 1, &x, &msg)) return Refuse(current, ApiError::kWrongType, key, msg);
      c.query = static_cast<int>(x);
      query_given = true;
    } else if (key == "projection") {
      if (!v.is_string() || !ParseProjection(v.get<std::string>(), &c.projection))
        return Refuse(current, ApiError::kBadValue, key, "projection must be \"identity\" or \"random\" (got " + Describe(v) + ")");
    } else if (key == "temperature") {
      if (!v.is_number())
        return Refuse(current, ApiError::kWrongType, key, "temperature must be a number (got " + Describe(v) + ")");
      c.temperature = v.get<double>();
    } else if (key == "scaled" || key == "positional") {
      if (!v.is_boolean()) return Refuse(current, ApiError::kWrongType, key, key + " must be true or false (got " + Describe(v) + ")");
      (key == "scaled" ? c.scaled : c.positional) = v.get<bool>();
    } else if (key == "dModel" || key == "dK") {
      if (!ReadInteger(v, key.c_str(), kMinDim, kMaxDim, &x, &msg)) return Refuse(current, ApiError::kBadValue, key, msg);
      (key == "dModel" ? c.d_model : c.d_k) = static_cast<int>(x);
    } else if (key == "seed") {
      if (!ReadInteger(v, "seed", 0, static_cast<double>(kMaxSeed), &x, &msg)) return Refuse(current, ApiError::kBadValue, key, msg);
      c.seed = static_cast<std::uint64_t>(x);
    } else if (key == "lang") {
      if (!v.is_string() || (v != "en" && v != "ru"))
        return Refuse(current, ApiError::kBadValue, key, "lang must be \"en\" or \"ru\" (got " + Describe(v) + ")");
      next.lang = v.get<std::string>();
    } else {
      return Refuse(current, ApiError::kUnknownField, key, "unknown field \"" + key + "\"");
    }
  }
  // A new sentence without a query: keep the query word's position when it still exists.
  if (!query_given && c.sentence != current.config.sentence) {
    const TokenizeResult t = Tokenize(c.sentence);
    if (t.ok() && c.query >= static_cast<int>(t.tokens.size()))
      c.query = static_cast<int>(t.tokens.size()) - 1;
  }
  const LabError e = ValidateConfig(c);
  if (!e.ok()) {
    PatchResult r = Refuse(current, ApiError::kEngine, e.field, e.message);
    r.engine_error = e;
    return r;
  }
  PatchResult r;
  r.state = next;
  return r;
}

PatchResult ApplyStatePatchText(const LabState& current, std::string_view json_text) {
  Json patch = Json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
  if (patch.is_discarded())
    return Refuse(current, ApiError::kMalformedJson, "", "the state is not valid JSON");
  return ApplyStatePatch(current, patch);
}

Json PatchResultToJson(const PatchResult& r) {
  if (r.ok) return Json{{"ok", true}, {"state", StateToJson(r.state)}};
  return Json{{"ok", false}, {"field", r.field}, {"error", r.message}};
}

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

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
    out["error"] = Json{{"field", res.error.field}, {"message", res.error.message}};
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
  out["config"] = Json{{"projection", ProjectionName(state.config.projection)},
                       {"temperature", t.temperature}, {"scaled", state.config.scaled},
                       {"scale", t.scale}, {"dModel", state.config.d_model},
                       {"dK", t.d_k}, {"dV", t.d_v}, {"seed", state.config.seed},
                       {"positional", state.config.positional}};
  const StepTable& st = res.steps;
  Json rows = Json::array();
  for (const StepRow& r : st.rows)
    rows.push_back(Json{{"token", r.token}, {"score", r.score}, {"scaled", r.scaled},
                        {"exp", r.exp}, {"weight", r.weight}, {"weighted", VectorToJson(r.weighted)}});
  out["steps"] = Json{{"query", st.query}, {"token", res.tokens[st.query].text},
                      {"rowMax", st.row_max}, {"expSum", st.exp_sum},
                      {"rows", rows}, {"output", VectorToJson(st.output)}};
  out["vectors"] = Json{{"points", MatrixToJson(res.vectors.points)},
                        {"explained", res.vectors.explained},
                        {"valueHull", res.value_hull}};
  return out;
}

}  // namespace attn::api
