// The lab's state as JSON (state_json.h): the state's own rows, the state written out, and a
// patch applied row by row, each room's part in turn (patch_rows.h).
#include "api/patch_rows.h"
#include "engine/lab/validate.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace attn::api {

namespace {

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

}  // namespace

const FieldTable<LabState>& StateFields() {
  using S = LabState;
  static const FieldTable<S> table = {
      NameTextField<S>("lang", &S::lang, {"en", "ru"}, "the interface language"),
      NameTextField<S>("view", &S::view,
                       {"sentence", "steps", "weights", "vectors", "information", "whatif", "training",
                        "normalization", "positions", "prediction"},
                       "the panel in front (a course page opens the lab on its topic)"),
      OnlyLinkedWhenChanged(IntegerField<S>(
          "lesson", &S::lesson, 0, kMaxLessonSteps,
          "the lesson's step (1 to its number of steps; the built-in lesson: 1-9, the seed's answer claim by "
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
      OnlyLinkedWhenChanged(TextField<S>(
          "answer", &S::answer,
          "projection model, Prediction tab: the token the logit lens, the attribution and patching read, by its "
          "text (one token) or #id; empty = the model's own prediction")),
      OnlyLinkedWhenChanged(TextField<S>(
          "foil", &S::foil,
          "Prediction tab: a second token, to read the logit difference answer - foil; empty = none (patching: "
          "the corrupted prompt's prediction)")),
      OnlyLinkedWhenChanged(TextField<S>(
          "corrupted", &S::corrupted,
          "Prediction tab, activation patching: the corrupted prompt, as many tokens as the sentence (the clean one)")),
      OnlyLinkedWhenChanged(NameTextField<S>(
          "patch", &S::patch, {"resid", "attn", "mlp", "head", "pattern"},
          "Prediction tab, activation patching: what is swapped, the residual stream, an attention or MLP output "
          "(per layer and position) or a head's output or pattern (per layer and head)")),
      OnlyLinkedWhenChanged(TextField<S>(
          "modelUrl", &S::model_url,
          "projection model: the model to open, a GPT-2-family checkpoint in the Hugging Face layout by its URL "
          "prefix (config.json, the tokenizer and the weights under it); empty = the lab's own model")),
  };
  static const FieldTable<S> with_tune = [] {
    FieldTable<S> t = table;
    for (const Field<attn::model::TuneConfig>& f : attn::model::TuneFields()) {
      std::string name = "tune" + f.name;
      name[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[4])));
      t.push_back(OnlyLinkedWhenChanged(Rebased(f, &S::tune, name)));
      if (ATTNLAB_FIELD_HELP && !t.back().help.empty()) t.back().help = "Train it more: " + t.back().help;
    }
    return t;
  }();
  return with_tune;
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

PatchResult ApplyStatePatch(const LabState& current, const Json& patch) {
  if (!patch.is_object())
    return RefusePatch(current, ApiError::kNotAnObject, "", "the state must be a JSON object");
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
  if (!edits_given) DropStaleEdits(current.config, c);
  // A new sentence without a query: keep the query word's position when it still exists.
  if (!query_given && c.sentence != current.config.sentence) {
    const TokenizeResult t = Tokenize(c.sentence);
    if (t.ok() && c.query >= static_cast<int>(t.tokens.size()))
      c.query = static_cast<int>(t.tokens.size()) - 1;
    if (t.ok() && !target_given && c.target >= static_cast<int>(t.tokens.size())) c.target = -1;
  }
  if (std::optional<PatchResult> refused = CheckLessonPatch(current, next)) return *refused;
  // Fewer heads without a head: the chosen head moves to the last one that still exists.
  // (Not in model mode: there `heads` is not the model's; the model checks the head itself.)
  if (!head_given && c.projection != Projection::kModel && c.head >= c.heads && c.heads >= kMinHeads) c.head = c.heads - 1;
  const LabError e = ValidateConfig(c);
  if (!e.ok()) {
    PatchResult r = RefusePatch(current, ApiError::kEngine, e.field, e.message);
    r.engine_error = e;
    return r;
  }
  PatchResult r;
  r.state = next;
  return r;
}

PatchResult ApplyStatePatchText(const LabState& current, std::string_view json_text) {
  Json patch = ParseJson(json_text);
  if (patch.is_discarded())
    return RefusePatch(current, ApiError::kMalformedJson, "", "the state is not valid JSON");
  return ApplyStatePatch(current, patch);
}

Json PatchResultToJson(const PatchResult& r) {
  if (r.ok) return Obj({{"ok", true}, {"state", StateToJson(r.state)}});
  return Obj({{"ok", false}, {"field", r.field}, {"error", r.message}});
}

}  // namespace attn::api
