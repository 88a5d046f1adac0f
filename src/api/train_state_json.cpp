// The training panel's part of the state (state_json.h): its own rows (compare, play, speed,
// query), run B's configuration from `compare`, and the `train` object of a patch.
#include "api/patch_rows.h"

#include <cmath>
#include <cstdlib>

namespace attn::api {

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

PatchResult ApplyTrainPatch(const LabState& current, LabState& next, const Json& patch) {
  if (!patch.is_object()) {
    PatchResult r = RefusePatch(current, ApiError::kWrongType, "train",
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
    PatchResult r = RefusePatch(current, ApiError::kBadValue, "train." + e.field, "train." + e.message);
    r.example = e.example;
    return r;
  }
  if (!t.compare.empty()) {
    TrainConfig b;
    CompareError error;
    if (!CompareConfig(t.compare, c, &b, &error)) {
      PatchResult r = RefusePatch(current, ApiError::kBadValue, "train.compare", error.message);
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
      PatchResult r = RefusePatch(current, ApiError::kBadValue, "train.query",
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

}  // namespace attn::api
