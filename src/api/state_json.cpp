#include "api/state_json.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
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

// ---- the nested `train` object ----------------------------------------------------------

std::string FormatNumber(double x) {
  std::ostringstream o;
  o.precision(17);
  o << x;
  // The shortest text that reads back as the same double.
  for (int p = 1; p <= 17; ++p) {
    std::ostringstream t;
    t.precision(p);
    t << x;
    if (std::stod(t.str()) == x) return t.str();
  }
  return o.str();
}

Json TrainStateToJson(const TrainState& t) {
  const TrainConfig& c = t.config;
  return Json{{"task", TaskName(c.task)},        {"length", c.length},
              {"optimizer", OptimizerName(c.optimizer)}, {"lr", c.lr},
              {"batch", c.batch},                {"seed", c.seed},
              {"normalizer", NormalizerName(c.normalizer)}, {"scaled", c.scaled},
              {"dModel", c.d_model},             {"dK", c.d_k},
              {"dV", c.d_v},                     {"heads", c.heads},
              {"causal", c.causal},              {"example", c.example},
              {"compare", t.compare},            {"play", t.play},
              {"speed", t.speed},                {"query", t.query}};
}

// Applies the `train` object of a patch to `next.train`. "" on success, else the refusal.
PatchResult ApplyTrainPatch(const LabState& current, LabState& next, const Json& patch) {
  auto refuse = [&](ApiError code, const std::string& key, const std::string& message) {
    return Refuse(current, code, "train." + key, "train." + message);
  };
  if (!patch.is_object())
    return Refuse(current, ApiError::kWrongType, "train", "train must be an object, e.g. {\"lr\": 0.01} (got " + Describe(patch) + ")");
  TrainState& t = next.train;
  TrainConfig& c = t.config;
  bool example_given = false, query_given = false;
  std::string msg;
  for (const auto& [key, v] : patch.items()) {
    double x = 0;
    const std::string name = "train." + key;
    if (key == "task") {
      if (!v.is_string() || !ParseTask(v.get<std::string>(), &c.task))
        return refuse(ApiError::kBadValue, key, "task must be one of previous, reverse, verb_object, max (got " + Describe(v) + ")");
    } else if (key == "length") {
      if (!ReadInteger(v, name.c_str(), kMinLength, kMaxLength, &x, &msg)) return Refuse(current, ApiError::kBadValue, name, msg);
      c.length = static_cast<int>(x);
    } else if (key == "optimizer") {
      if (!v.is_string() || !ParseOptimizer(v.get<std::string>(), &c.optimizer))
        return refuse(ApiError::kBadValue, key, "optimizer must be \"adam\" or \"sgd\" (got " + Describe(v) + ")");
    } else if (key == "lr") {
      if (!v.is_number()) return refuse(ApiError::kWrongType, key, "lr must be a number (got " + Describe(v) + ")");
      const double lr = v.get<double>();
      if (!std::isfinite(lr) || lr <= 0 || lr > kMaxLearningRate)
        return refuse(ApiError::kBadValue, key, "lr must be a number > 0 and <= " + FormatNumber(kMaxLearningRate) + " (got " + Describe(v) + ")");
      c.lr = lr;
    } else if (key == "batch") {
      if (!ReadInteger(v, name.c_str(), 1, kMaxBatch, &x, &msg)) return Refuse(current, ApiError::kBadValue, name, msg);
      c.batch = static_cast<int>(x);
    } else if (key == "seed") {
      if (!ReadInteger(v, name.c_str(), 0, static_cast<double>(kMaxSeed), &x, &msg)) return Refuse(current, ApiError::kBadValue, name, msg);
      c.seed = static_cast<std::uint64_t>(x);
    } else if (key == "normalizer") {
      if (!v.is_string() || !ParseNormalizer(v.get<std::string>(), &c.normalizer))
        return refuse(ApiError::kBadValue, key,
                      "normalizer must be one of softmax, sparsemax, relunorm, sigmoid, none, hardmax (got " + Describe(v) + ")");
    } else if (key == "scaled" || key == "causal" || key == "play") {
      if (!v.is_boolean()) return refuse(ApiError::kWrongType, key, key + " must be true or false (got " + Describe(v) + ")");
      (key == "scaled" ? c.scaled : key == "causal" ? c.causal : t.play) = v.get<bool>();
    } else if (key == "dModel") {
      if (!ReadInteger(v, name.c_str(), 2, kMaxTrainDModel, &x, &msg)) return Refuse(current, ApiError::kBadValue, name, msg);
      c.d_model = static_cast<int>(x);
    } else if (key == "dK") {
      if (!ReadInteger(v, name.c_str(), 1, kMaxTrainDk, &x, &msg)) return Refuse(current, ApiError::kBadValue, name, msg);
      c.d_k = static_cast<int>(x);
    } else if (key == "dV") {
      if (!ReadInteger(v, name.c_str(), 1, kMaxTrainDv, &x, &msg)) return Refuse(current, ApiError::kBadValue, name, msg);
      c.d_v = static_cast<int>(x);
    } else if (key == "heads") {
      if (!ReadInteger(v, name.c_str(), kMinHeads, kMaxHeads, &x, &msg)) return Refuse(current, ApiError::kBadValue, name, msg);
      c.heads = static_cast<int>(x);
    } else if (key == "example") {
      if (!v.is_string()) return refuse(ApiError::kWrongType, key, "example must be a string (got " + Describe(v) + ")");
      c.example = v.get<std::string>();
      example_given = true;
    } else if (key == "compare") {
      if (!v.is_string()) return refuse(ApiError::kWrongType, key, "compare must be a string (got " + Describe(v) + ")");
      t.compare = v.get<std::string>();
    } else if (key == "speed") {
      if (!ReadInteger(v, name.c_str(), 0, kMaxSpeed, &x, &msg)) return Refuse(current, ApiError::kBadValue, name, msg);
      t.speed = static_cast<int>(x);
    } else if (key == "query") {
      if (!ReadInteger(v, name.c_str(), -1, kMaxTokens - 1, &x, &msg)) return Refuse(current, ApiError::kBadValue, name, msg);
      t.query = static_cast<int>(x);
      query_given = true;
    } else {
      return Refuse(current, ApiError::kUnknownField, name, "unknown field \"train." + key + "\"");
    }
  }
  const TrainConfig& before = current.train.config;
  // Another task (or length) without an example: back to that task's own default example.
  if (!example_given && (c.task != before.task || c.length != before.length)) c.example.clear();
  // Another example without a query: the automatic query again.
  if (!query_given && c.example != before.example) t.query = -1;
  const TrainError e = ValidateTrainConfig(c);
  if (!e.ok()) return Refuse(current, ApiError::kBadValue, "train." + e.field, "train." + e.message);
  if (!t.compare.empty()) {
    TrainConfig b;
    std::string error;
    if (!CompareConfig(t.compare, c, &b, &error)) return Refuse(current, ApiError::kBadValue, "train.compare", error);
  }
  // The query row must exist in the example (checked again by the app against the real tokens).
  if (t.query >= 0) {
    Example ex;
    std::string error;
    const Task task = MakeTask(c.task, c.length);
    const std::string text = c.example.empty() ? task.default_example : c.example;
    if (LabelExample(task, text, &ex, &error) && t.query >= static_cast<int>(ex.tokens.size()))
      return Refuse(current, ApiError::kBadValue, "train.query",
                    "train.query must be -1 (automatic) or a token index of the example (it has " +
                        std::to_string(ex.tokens.size()) + " tokens)");
  }
  PatchResult r;
  r.state = next;
  return r;
}

}  // namespace

bool SameTrainConfig(const TrainConfig& a, const TrainConfig& b) {
  return a.task == b.task && a.length == b.length && a.optimizer == b.optimizer && a.lr == b.lr &&
         a.batch == b.batch && a.seed == b.seed && a.normalizer == b.normalizer && a.scaled == b.scaled &&
         a.d_model == b.d_model && a.d_k == b.d_k && a.d_v == b.d_v && a.heads == b.heads &&
         a.causal == b.causal && a.example == b.example;
}

bool CompareConfig(const std::string& compare, const TrainConfig& a, TrainConfig* b, std::string* error) {
  error->clear();
  if (compare.empty()) return false;
  *b = a;
  const std::size_t colon = compare.find(':');
  const std::string what = compare.substr(0, colon);
  const std::string value = colon == std::string::npos ? std::string() : compare.substr(colon + 1);
  const std::string usage =
      "compare must be \"\", \"scaled\", \"normalizer:<name>\", \"optimizer:<name>\", \"lr:<number>\" or "
      "\"dK:<integer>\" (got \"" + (compare.size() > 40 ? compare.substr(0, 37) + "..." : compare) + "\")";
  auto number = [&](double* out) {
    if (value.empty() || value.size() > 32) return false;
    for (char ch : value)
      if (!(std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == 'e' || ch == 'E' || ch == '-' || ch == '+'))
        return false;
    char* end = nullptr;
    *out = std::strtod(value.c_str(), &end);
    return end && *end == '\0' && std::isfinite(*out);
  };
  double x = 0;
  if (compare == "scaled") {
    b->scaled = !a.scaled;
  } else if (what == "normalizer" && colon != std::string::npos) {
    if (!ParseNormalizer(value, &b->normalizer)) { *error = "train.compare: unknown normalizer \"" + value + "\""; return false; }
  } else if (what == "optimizer" && colon != std::string::npos) {
    if (!ParseOptimizer(value, &b->optimizer)) { *error = "train.compare: unknown optimizer \"" + value + "\""; return false; }
  } else if (what == "lr" && colon != std::string::npos) {
    if (!number(&x) || x <= 0 || x > kMaxLearningRate) {
      *error = "train.compare: the learning rate must be a number > 0 and <= " + FormatNumber(kMaxLearningRate);
      return false;
    }
    b->lr = x;
  } else if (what == "dK" && colon != std::string::npos) {
    if (!number(&x) || x != std::floor(x) || x < 1 || x > kMaxTrainDk) {
      *error = "train.compare: d_k must be an integer between 1 and " + std::to_string(kMaxTrainDk);
      return false;
    }
    b->d_k = static_cast<int>(x);
  } else {
    *error = "train." + usage;
    return false;
  }
  const TrainError e = ValidateTrainConfig(*b);
  if (!e.ok()) { *error = "train.compare: run B would be refused: " + e.message; return false; }
  return true;
}

Json StateToJson(const LabState& s) {
  const LabConfig& c = s.config;
  return Json{{"sentence", c.sentence},     {"query", c.query},
              {"projection", ProjectionName(c.projection)},
              {"temperature", c.temperature}, {"scaled", c.scaled},
              {"dModel", c.d_model},        {"dK", c.d_k},
              {"seed", c.seed},             {"positional", c.positional},
              {"heads", c.heads},           {"head", c.head},
              {"normalizer", NormalizerName(c.normalizer)},
              {"causal", c.causal},         {"dV", c.d_v},
              {"target", c.target},         {"lang", s.lang},
              {"view", s.view},             {"train", TrainStateToJson(s.train)}};
}

PatchResult ApplyStatePatch(const LabState& current, const Json& patch) {
  if (!patch.is_object())
    return Refuse(current, ApiError::kNotAnObject, "", "the state must be a JSON object");
  LabState next = current;
  LabConfig& c = next.config;
  bool query_given = false, head_given = false, target_given = false;
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
    } else if (key == "scaled" || key == "positional" || key == "causal") {
      if (!v.is_boolean()) return Refuse(current, ApiError::kWrongType, key, key + " must be true or false (got " + Describe(v) + ")");
      (key == "scaled" ? c.scaled : key == "positional" ? c.positional : c.causal) = v.get<bool>();
    } else if (key == "heads") {
      if (!ReadInteger(v, "heads", kMinHeads, kMaxHeads, &x, &msg)) return Refuse(current, ApiError::kBadValue, key, msg);
      c.heads = static_cast<int>(x);
    } else if (key == "head") {
      if (!ReadInteger(v, "head", 0, kMaxHeads - 1, &x, &msg)) return Refuse(current, ApiError::kBadValue, key, msg);
      c.head = static_cast<int>(x);
      head_given = true;
    } else if (key == "normalizer") {
      if (!v.is_string() || !ParseNormalizer(v.get<std::string>(), &c.normalizer))
        return Refuse(current, ApiError::kBadValue, key,
                      "normalizer must be one of softmax, sparsemax, relunorm, sigmoid, none, hardmax (got " +
                          Describe(v) + ")");
    } else if (key == "dModel" || key == "dK" || key == "dV") {
      if (!ReadInteger(v, key.c_str(), kMinDim, kMaxDim, &x, &msg)) return Refuse(current, ApiError::kBadValue, key, msg);
      (key == "dModel" ? c.d_model : key == "dK" ? c.d_k : c.d_v) = static_cast<int>(x);
    } else if (key == "target") {
      if (!ReadInteger(v, "target", -1, kMaxTokens - 1, &x, &msg)) return Refuse(current, ApiError::kBadValue, key, msg);
      c.target = static_cast<int>(x);
      target_given = true;
    } else if (key == "seed") {
      if (!ReadInteger(v, "seed", 0, static_cast<double>(kMaxSeed), &x, &msg)) return Refuse(current, ApiError::kBadValue, key, msg);
      c.seed = static_cast<std::uint64_t>(x);
    } else if (key == "lang") {
      if (!v.is_string() || (v != "en" && v != "ru"))
        return Refuse(current, ApiError::kBadValue, key, "lang must be \"en\" or \"ru\" (got " + Describe(v) + ")");
      next.lang = v.get<std::string>();
    } else if (key == "view") {
      static const char* kViews[] = {"sentence", "steps", "weights", "vectors", "information", "training", "normalization"};
      bool known = false;
      for (const char* name : kViews) known = known || (v.is_string() && v == name);
      if (!known)
        return Refuse(current, ApiError::kBadValue, key,
                      "view must be one of sentence, steps, weights, vectors, information, training, normalization (got " +
                          Describe(v) + ")");
      next.view = v.get<std::string>();
    } else if (key == "train") {
      PatchResult r = ApplyTrainPatch(current, next, v);
      if (!r.ok) return r;
    } else {
      return Refuse(current, ApiError::kUnknownField, key, "unknown field \"" + key + "\"");
    }
  }
  // A new sentence without a query: keep the query word's position when it still exists.
  if (!query_given && c.sentence != current.config.sentence) {
    const TokenizeResult t = Tokenize(c.sentence);
    if (t.ok() && c.query >= static_cast<int>(t.tokens.size()))
      c.query = static_cast<int>(t.tokens.size()) - 1;
    if (t.ok() && !target_given && c.target >= static_cast<int>(t.tokens.size())) c.target = -1;
  }
  // Fewer heads without a head: the chosen head moves to the last one that still exists.
  if (!head_given && c.head >= c.heads && c.heads >= kMinHeads) c.head = c.heads - 1;
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
                       {"positional", state.config.positional}, {"heads", state.config.heads},
                       {"head", state.config.head},
                       {"normalizer", NormalizerName(state.config.normalizer)},
                       {"causal", state.config.causal}, {"target", res.target}};
  // Every head, as h x n x d arrays; then their concatenation and the projected output.
  Json hq = Json::array(), hk = Json::array(), hv = Json::array(), hw = Json::array(),
       ho = Json::array(), he = Json::array(), wq = Json::array(), wk = Json::array(),
       wv = Json::array();
  for (std::size_t h = 0; h < res.mha.heads.size(); ++h) {
    const HeadTrace<float>& ht = res.mha.heads[h];
    hq.push_back(MatrixToJson(ht.Q));
    hk.push_back(MatrixToJson(ht.K));
    hv.push_back(MatrixToJson(ht.V));
    hw.push_back(MatrixToJson(ht.weights));
    ho.push_back(MatrixToJson(ht.output));
    he.push_back(VectorToJson(ht.entropy));
    wq.push_back(MatrixToJson(res.projections.W_Q[h]));
    wk.push_back(MatrixToJson(res.projections.W_K[h]));
    wv.push_back(MatrixToJson(res.projections.W_V[h]));
  }
  out["heads"] = Json{{"Q", hq}, {"K", hk}, {"V", hv}, {"weights", hw}, {"output", ho},
                      {"entropy", he}, {"W_Q", wq}, {"W_K", wk}, {"W_V", wv}};
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
  out["information"] = Json{{"target", res.target},
                            {"alternative", vec(info.collision.alpha2)},
                            {"output", vec(info.collision.output)},
                            {"output2", vec(info.collision.output2)},
                            {"maxOutputDiff", info.collision.max_output_diff},
                            {"unique", info.collision.unique},
                            {"ranges", ranges},
                            {"affineRank", info.info.affine_rank},
                            {"sameOutputDim", info.info.same_output_dim},
                            {"recoverable", info.info.recoverable}};
  const StepTable& st = res.steps;
  Json rows = Json::array();
  for (const StepRow& r : st.rows)
    rows.push_back(Json{{"token", r.token}, {"score", r.score}, {"scaled", r.scaled},
                        {"exp", r.exp}, {"weight", r.weight}, {"masked", r.masked},
                        {"weighted", VectorToJson(r.weighted)}});
  out["steps"] = Json{{"query", st.query}, {"token", res.tokens[st.query].text},
                      {"rowMax", st.row_max}, {"expSum", st.exp_sum},
                      {"entropy", st.entropy}, {"weightSum", st.weight_sum},
                      {"rows", rows}, {"output", VectorToJson(st.output)}};
  out["vectors"] = Json{{"points", MatrixToJson(res.vectors.points)},
                        {"explained", res.vectors.explained},
                        {"valueHull", res.value_hull}};
  return out;
}

}  // namespace attn::api
