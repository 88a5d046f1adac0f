#include "api/state_json.h"
#include "api/whatif_json.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

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

// One JSON value into one table row; a refusal (naming the field as `shown`) otherwise.
template <class C>
std::optional<PatchResult> ApplyRow(const LabState& current, const Field<C>& f, C& target,
                                    const Json& v, const std::string& shown) {
  std::string message;
  const FieldStatus s = ApplyJsonField(f, target, v, shown, &message);
  if (s == FieldStatus::kOk) return std::nullopt;
  PatchResult r = Refuse(current, s == FieldStatus::kWrongType ? ApiError::kWrongType : ApiError::kBadValue,
                         shown, message);
  r.rule = f.rule;
  r.got = DescribeRefused(f.rule, v);
  return r;
}

// A row of an inner struct's table as a row of LabState, under another name (tuneLr for the
// tune table's lr): the rule, the help and the accessors are the inner row's.
template <class I>
Field<LabState> Rebased(const Field<I>& f, I LabState::*member, std::string name) {
  Field<LabState> g;
  g.name = std::move(name);
  g.rule = f.rule;
  g.help = f.help;
  g.linked_at_default = f.linked_at_default;
  if (f.get_number) g.get_number = [f, member](const LabState& s) { return f.get_number(s.*member); };
  if (f.set_number) g.set_number = [f, member](LabState& s, double x) { f.set_number(s.*member, x); };
  if (f.get_text) g.get_text = [f, member](const LabState& s) { return f.get_text(s.*member); };
  if (f.set_text) g.set_text = [f, member](LabState& s, const std::string& t) { f.set_text(s.*member, t); };
  if (f.set_null) g.set_null = [f, member](LabState& s) { f.set_null(s.*member); };
  if (f.is_null) g.is_null = [f, member](const LabState& s) { return f.is_null(s.*member); };
  return g;
}

// A refusal whose English line is "<field>: expected <what>, got <got>".
PatchResult Expected(const LabState& current, const char* field, const std::string& what, const std::string& got) {
  PatchResult r = Refuse(current, ApiError::kBadValue, field, std::string(field) + ": expected " + what + ", got " + got);
  r.got = got;
  return r;
}

PatchResult UnknownField(const LabState& current, const std::string& shown, const std::string& names) {
  return Refuse(current, ApiError::kUnknownField, shown, ShownName(shown) + ": unknown field (expected one of " + names + ")");
}

// Applies the `train` object of a patch to `next.train`.
PatchResult ApplyTrainPatch(const LabState& current, LabState& next, const Json& patch) {
  if (!patch.is_object()) {
    PatchResult r = Refuse(current, ApiError::kWrongType, "train",
                           "train: expected an object such as {\"lr\": 0.01}, got " + DescribeJson(patch));
    r.got = DescribeJson(patch);  // for the interface's translation
    return r;
  }
  TrainState& t = next.train;
  TrainConfig& c = t.config;
  bool example_given = false, query_given = false;
  for (const auto& [key, v] : patch.items()) {
    const std::string shown = "train." + key;
    std::optional<PatchResult> refused;
    if (const Field<TrainConfig>* f = FindField(TrainFields(), key)) {
      refused = ApplyRow(current, *f, c, v, shown);
    } else if (const Field<TrainState>* g = FindField(TrainStateFields(), key)) {
      refused = ApplyRow(current, *g, t, v, shown);
    } else {
      return UnknownField(current, shown, FieldNames(TrainFields()) + ", " + FieldNames(TrainStateFields()));
    }
    if (refused) return *refused;
    example_given = example_given || key == "example";
    query_given = query_given || key == "query";
  }
  const TrainConfig& before = current.train.config;
  // Another task (or length) without an example: back to that task's own default example.
  if (!example_given && (c.task != before.task || c.length != before.length)) c.example.clear();
  // Another example (or task, or length) without a query: the automatic query again.
  if (!query_given && (c.example != before.example || c.task != before.task || c.length != before.length))
    t.query = -1;
  const TrainError e = ValidateTrainConfig(c);
  if (!e.ok()) {
    PatchResult r = Refuse(current, ApiError::kBadValue, "train." + e.field, "train." + e.message);
    r.example = e.example;
    return r;
  }
  if (!t.compare.empty()) {
    TrainConfig b;
    CompareError error;
    if (!CompareConfig(t.compare, c, &b, &error)) {
      PatchResult r = Refuse(current, ApiError::kBadValue, "train.compare", error.message);
      r.compare = error;
      return r;
    }
  }
  // The query row must exist in the example (checked again by the app against the real tokens).
  if (t.query >= 0) {
    Example ex;
    std::string error;
    const Task task = MakeTask(c.task, c.length);
    const std::string text = c.example.empty() ? task.default_example : c.example;
    if (LabelExample(task, text, &ex, &error) && t.query >= static_cast<int>(ex.tokens.size())) {
      PatchResult r = Refuse(current, ApiError::kBadValue, "train.query",
                             "train.query: expected -1 (automatic) or a token index of the example from 0 to " +
                                 std::to_string(ex.tokens.size() - 1) + ", got " + std::to_string(t.query));
      // The range this example allows, as a rule: the interface says it in its language.
      FieldRule rule;
      rule.kind = FieldKind::kInteger;
      rule.min = -1;
      rule.max = static_cast<double>(ex.tokens.size() - 1);
      r.rule = rule;
      r.got = std::to_string(t.query);
      return r;
    }
  }
  PatchResult r;
  r.state = next;
  return r;
}

}  // namespace

const FieldTable<LabState>& StateFields() {
  using S = LabState;
  static const FieldTable<S> table = {
      NameTextField<S>("lang", &S::lang, {"en", "ru"}, "the interface language"),
      NameTextField<S>("view", &S::view,
                       {"sentence", "steps", "weights", "vectors", "information", "whatif", "training",
                        "normalization"},
                       "the panel in front (a course page opens the lab on its topic)"),
      OnlyLinkedWhenChanged(IntegerField<S>(
          "lesson", &S::lesson, 0, kMaxLessonSteps,
          "the lesson's step (1 to its number of steps; the built-in lesson: 1-8, the seed's answer claim by "
          "claim); 0 = the free lab, no lesson")),
      OnlyLinkedWhenChanged(TextField<S>(
          "predictions", &S::predictions,
          "the learner's lesson predictions, one character per step: - = not yet, a, b, c... = the choice")),
      OnlyLinkedWhenChanged(TextField<S>(
          "lessonId", &S::lesson_id,
          "the loaded lesson's id (seed = the built-in one); read-only: load another with setLesson or "
          "#lessonUrl")),
      OnlyLinkedWhenChanged(NameSetField<S>(
          "hide", &S::hide, LabParts(),
          "parts a lesson does not need, comma-separated (panels, tabs, setting groups, the header): "
          "absent from the screen, their space given to the others")),
      OnlyLinkedWhenChanged(NameSetField<S>(
          "lock", &S::lock, LabParts(),
          "parts shown read-only, comma-separated: their controls are disabled for the learner "
          "(setState and postMessage still change them)")),
      OnlyLinkedWhenChanged(NameTextField<S>(
          "tuneText", &S::tune_text, {"auto", "en", "ru", "own"},
          "projection model, Train it more: the text trained on: the built-in one of the "
          "interface language (auto), English, Russian, or the learner's own (tuneOwn)")),
      OnlyLinkedWhenChanged(TextField<S>("tuneOwn", &S::tune_own,
                                         "Train it more: the learner's own text (tuneText own)")),
      OnlyLinkedWhenChanged(IntegerField<S>("tuneSteps", &S::tune_steps, 1, attn::model::kMaxTuneSteps,
                                            "Train it more: steps of one run")),
  };
  static const FieldTable<S> with_tune = [] {
    FieldTable<S> t = table;
    for (const Field<attn::model::TuneConfig>& f : attn::model::TuneFields()) {
      std::string name = "tune" + f.name;
      name[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[4])));
      t.push_back(OnlyLinkedWhenChanged(Rebased(f, &S::tune, name)));
      t.back().help = "Train it more: " + t.back().help;
    }
    return t;
  }();
  return with_tune;
}

const FieldTable<TrainState>& TrainStateFields() {
  using T = TrainState;
  static const FieldTable<T> table = {
      TextField<T>("compare", &T::compare,
                   "run B = run A with one change: \"\", \"scaled\", \"normalizer:<name>\", "
                   "\"optimizer:<name>\", \"lr:<number>\" or \"dK:<integer>\""),
      BooleanField<T>("play", &T::play, "training runs in the page's frames"),
      IntegerField<T>("speed", &T::speed, 0, kMaxSpeed,
                      "steps per frame while playing; 0 = as many as fit the frame's time budget"),
      IntegerField<T>("query", &T::query, -1, kMaxTokens - 1,
                      "the example's query row the panels explain; -1 = automatic"),
  };
  return table;
}

bool CompareConfig(const std::string& compare, const TrainConfig& a, TrainConfig* b, CompareError* error) {
  *error = CompareError{};
  if (compare.empty()) return false;
  *b = a;
  if (compare == "scaled") {
    b->scaled = !a.scaled;
  } else {
    // "<field>:<value>" for one of the fields run B may change; the value is read by that
    // field's row of TrainFields(), as if it came in JSON.
    const std::size_t colon = compare.find(':');
    const std::string what = compare.substr(0, colon);
    const std::string text = colon == std::string::npos ? std::string() : compare.substr(colon + 1);
    const Field<TrainConfig>* f = FindField(TrainFields(), what);
    const bool allowed = colon != std::string::npos &&
                         (what == "normalizer" || what == "optimizer" || what == "lr" || what == "dK");
    if (!f || !allowed) {
      error->code = CompareError::Code::kMalformed;
      error->got = DescribeJson(compare);
      error->message = "train.compare: expected \"\", \"scaled\", \"normalizer:<name>\", \"optimizer:<name>\", "
                       "\"lr:<number>\" or \"dK:<integer>\", got " + error->got;
      return false;
    }
    Json value = text;
    if (f->rule.kind != FieldKind::kName) {  // a number: strictly the whole text, finite
      char* end = nullptr;
      const double x = text.empty() ? 0 : std::strtod(text.c_str(), &end);
      if (!text.empty() && end && *end == '\0' && std::isfinite(x)) value = x;
    }
    std::string why;
    if (ApplyJsonField(*f, *b, value, what, &why) != FieldStatus::kOk) {
      error->code = CompareError::Code::kValue;
      error->field = what;
      error->rule = f->rule;
      error->got = DescribeJson(value);
      error->message = "train.compare: " + why;
      return false;
    }
  }
  const TrainError e = ValidateTrainConfig(*b);
  if (!e.ok()) {
    error->code = CompareError::Code::kRunB;
    error->run_b = e;
    error->message = "train.compare: run B would be refused: " + e.message;
    return false;
  }
  return true;
}

Json StateToJson(const LabState& s) {
  Json out = Json::object();
  FieldsToJson(LabFields(), s.config, out);
  FieldsToJson(StateFields(), s, out);
  Json train = Json::object();
  FieldsToJson(TrainFields(), s.train.config, train);
  FieldsToJson(TrainStateFields(), s.train, train);
  out["train"] = std::move(train);
  return out;
}

namespace {
bool IsEditField(const std::string& key) {
  return key == "whatIfToken" || key == "whatIfWith" || key == "whatIfMode" || key == "shuffle" ||
         key == "shuffleSeed" || key == "knockoutKeys" || key == "knockoutHeads" || key == "valueToken" ||
         key == "valueA" || key == "valueB";
}
}  // namespace

PatchResult ApplyStatePatch(const LabState& current, const Json& patch) {
  if (!patch.is_object())
    return Refuse(current, ApiError::kNotAnObject, "", "the state must be a JSON object");
  LabState next = current;
  LabConfig& c = next.config;
  bool query_given = false, head_given = false, target_given = false, edits_given = false;
  for (const auto& [key, v] : patch.items()) {
    std::optional<PatchResult> refused;
    if (key == "train") {
      PatchResult r = ApplyTrainPatch(current, next, v);
      if (!r.ok) return r;
    } else if (const Field<LabConfig>* f = FindField(LabFields(), key)) {
      refused = ApplyRow(current, *f, c, v, key);
    } else if (const Field<LabState>* g = FindField(StateFields(), key)) {
      refused = ApplyRow(current, *g, next, v, key);
    } else {
      return UnknownField(current, key, FieldNames(LabFields()) + ", " + FieldNames(StateFields()) + ", train");
    }
    if (refused) return *refused;
    query_given = query_given || key == "query";
    head_given = head_given || key == "head";
    target_given = target_given || key == "target";
    edits_given = edits_given || IsEditField(key);
  }
  // The edits (engine/whatif/whatif.h) name tokens of the sentence: a new sentence without edits drops
  // them (the shuffle and the knocked-out heads name no token and stay); model mode takes none
  // yet, so choosing it without edits drops them all.
  if (!edits_given && c.sentence != current.config.sentence) {
    const LabConfig none;
    c.what_if_token = none.what_if_token;
    c.what_if_with = none.what_if_with;
    c.what_if_mode = none.what_if_mode;
    c.knockout_keys = none.knockout_keys;
    c.value_token = none.value_token;
    c.value_a = none.value_a;
    c.value_b = none.value_b;
  }
  if (!edits_given && c.projection == Projection::kModel && current.config.projection != Projection::kModel)
    c = WithoutEdits(c);
  // A new sentence without a query: keep the query word's position when it still exists.
  if (!query_given && c.sentence != current.config.sentence) {
    const TokenizeResult t = Tokenize(c.sentence);
    if (t.ok() && c.query >= static_cast<int>(t.tokens.size()))
      c.query = static_cast<int>(t.tokens.size()) - 1;
    if (t.ok() && !target_given && c.target >= static_cast<int>(t.tokens.size())) c.target = -1;
  }
  // The lesson loaded (lesson_steps, lesson_id; app/lesson): its steps, one prediction character
  // per step, '-' or one of its choices; its id is not changed by a patch.
  if (next.lesson_id != current.lesson_id)
    return Expected(current, "lessonId", DescribeJson(current.lesson_id) + " (the lesson loaded; setLesson loads another)",
                    DescribeJson(next.lesson_id));
  if (next.lesson > current.lesson_steps) {
    PatchResult r = Expected(current, "lesson", "an integer from 0 to " + std::to_string(current.lesson_steps),
                             std::to_string(next.lesson));
    r.rule = FieldRule{};
    r.rule->kind = FieldKind::kInteger;
    r.rule->max = current.lesson_steps;
    return r;
  }
  if (next.predictions != current.predictions) {
    bool ok = next.predictions.size() == static_cast<std::size_t>(current.lesson_steps);
    std::string letters;
    for (int i = 0; i < current.lesson_choices; ++i) letters += std::string(i ? ", " : "") + static_cast<char>('a' + i);
    for (char ch : next.predictions) ok = ok && (ch == '-' || (ch >= 'a' && ch < 'a' + current.lesson_choices));
    if (!ok)
      return Expected(current, "predictions",
                      std::to_string(current.lesson_steps) + " characters, each - (not yet) or " + letters + " (the choice)",
                      DescribeJson(next.predictions));
  }
  // Fewer heads without a head: the chosen head moves to the last one that still exists.
  // (Not in model mode: there `heads` is not the model's; the model checks the head itself.)
  if (!head_given && c.projection != Projection::kModel && c.head >= c.heads && c.heads >= kMinHeads) c.head = c.heads - 1;
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
  if (r.ok) return Obj({{"ok", true}, {"state", StateToJson(r.state)}});
  return Obj({{"ok", false}, {"field", r.field}, {"error", r.message}});
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
