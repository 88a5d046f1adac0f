// The lab's state and trace as JSON: the one format shared by the page API (window.attentionLab),
// URL state and the `attnlab` command-line tool, so that the browser and the CLI agree.
#pragma once

#include "engine/lab/lab.h"
#include "engine/training/train.h"
#include "api/fields_json.h"
#include "model/training/finetune.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::api {

using Json = nlohmann::json;

// The training panel's settings (the state's nested `train` object).
constexpr int kMaxSpeed = 64;

struct TrainState {
  TrainConfig config;        // example "" = the default example (in the interface language)
  std::string compare;       // run B = run A with one change: "" (no run B), "scaled" (the
                             // other ÷√d_k), "normalizer:<name>", "optimizer:<name>",
                             // "lr:<number>", "dK:<integer>"
  bool play = false;         // training runs in the page's frames (a course page can open the
                             // lab playing)
  int speed = 1;             // steps per frame while playing, 0..kMaxSpeed; 0 = as many as fit
                             // the frame's time budget (a teacher slows it down to watch)
  int query = -1;            // the example's query row the panels explain; -1 = automatic
                             // (the first row with a right key: the verb for verb_object)
};

// The guided lesson (app/lesson.h, a document app/lesson/lesson_doc.h reads): 1..kMaxLessonSteps
// steps, each with at most one prediction of 2..kMaxLessonChoices choices. `predictions` holds one
// character per step of the loaded lesson: '-' not answered yet, 'a', 'b', ... the learner's
// choice. The built-in lesson (web/lessons/seed.json) has kLessonSteps steps of kLessonChoices
// choices; the state starts with it, before its document is even fetched.
constexpr int kMaxLessonSteps = 32;
constexpr int kMaxLessonChoices = 6;
constexpr int kLessonSteps = 9;
constexpr int kLessonChoices = 3;
constexpr const char* kNoPredictions = "---------";  // kLessonSteps times '-'
static_assert(std::char_traits<char>::length(kNoPredictions) == kLessonSteps);

// What a course page can hide (`hide`) or lock (`lock`): parts of the lab by name. Panels (as in
// `view`, plus the settings panel), the three tabs, the header and its share button, the
// lesson, the settings panel's groups and the Training tab's settings groups ("train.<group>").
// Hiding removes the part from the screen (the layout gives its space to the others); locking
// shows its controls disabled: the learner cannot change them, the page API and postMessage
// still can (the course author is the one in control).
//
// The parts form one tree, written here once: a part is hidden (locked) when it or a part that
// holds it is named (hiding "attention" hides its panels; locking "settings" locks its groups).
struct LabPart {
  const char* name;
  const char* parent;  // the part that holds it; nullptr at the top
};
inline const std::vector<LabPart>& LabPartTree() {
  static const std::vector<LabPart> tree = {
      {"header", nullptr}, {"share", "header"}, {"lesson", nullptr},  // the header and its buttons
      {"attention", nullptr}, {"training", nullptr}, {"normalization", nullptr},  // the tabs
      // the attention tab's panels
      {"sentence", "attention"}, {"settings", "attention"}, {"steps", "attention"},
      {"weights", "attention"}, {"vectors", "attention"}, {"information", "attention"},
      {"whatif", "attention"}, {"positions", "attention"},  // (positions: model mode's RoPE scene)
      {"prediction", nullptr},  // model mode's Prediction tab: lens, attribution, patching, generation
      // the settings panel's groups
      {"projection", "settings"}, {"scaling", "settings"}, {"positional", "settings"},
      {"normalizer", "settings"}, {"mask", "settings"}, {"heads", "settings"}, {"sizes", "settings"},
      {"seed", "settings"},
      // the Training tab's groups
      {"train.task", "training"}, {"train.optimizer", "training"}, {"train.layer", "training"},
      {"train.compare", "training"},
      {"tune", nullptr}};  // model mode's "Train it more" panel
  return tree;
}
// The parts' names, in the tree's order (the rows `hide` and `lock` accept these).
inline const std::vector<std::string>& LabParts() {
  static const std::vector<std::string> parts = [] {
    std::vector<std::string> names;
    for (const LabPart& p : LabPartTree()) names.push_back(p.name);
    return names;
  }();
  return parts;
}
// The one rule of the tree: `set` (a `hide` or `lock` value) names `part` or a part holding it.
inline bool PartInSet(const std::string& set, std::string_view part) {
  while (!part.empty()) {
    if (attn::NameSetHas(set, part)) return true;
    std::string_view parent;
    for (const LabPart& p : LabPartTree())
      if (part == p.name) parent = p.parent ? p.parent : "";
    part = parent;
  }
  return false;
}

// What the page calls "state": the engine's configuration plus the interface language.
struct LabState {
  LabConfig config;
  TrainState train;
  std::string lang = "en";   // "en" or "ru"
  std::string view = "steps"; // the panel in front: "sentence", "steps", "weights", "vectors",
                              // "information", "whatif", "training", "normalization", "positions" (model
                              // mode's RoPE scene), "prediction" (model mode's tools of issue 40:
                              // app/inspect) (a course page can open the lab on its topic)
  int lesson = 0;             // the lesson's step 1..lesson_steps; 0 = the free lab (no lesson
                              // panel: a course page that wants only the lab sets 0)
  std::string predictions = kNoPredictions;  // the learner's predictions, one per step (above)
  std::string lesson_id = "seed";  // the loaded lesson's id (row lessonId: read-only, a patch
                                   // may repeat it; app/lesson loads another document)
  int lesson_steps = kLessonSteps;      // the loaded lesson's steps and most choices: not rows,
  int lesson_choices = kLessonChoices;  // set with lesson_id when a document is loaded
  std::string hide;  // the parts hidden (LabParts), canonical "sentence,steps"; "" = none
  std::string lock;  // the parts locked: shown, but their controls disabled for the learner
  // "Train it more" (projection "model"): the loaded model's training continued in the page.
  std::string tune_text = "auto";  // what it trains on: "auto" (the built-in text of the
                                   // interface language), "en", "ru" (web/tune/*.txt) or "own"
  std::string tune_own;            // the learner's own text (tune_text "own")
  int tune_steps = 20;             // steps of one run (the Train button, attentionLab.tuneModel)
  attn::model::TuneConfig tune;    // batch, length, lr, seed: model/training/finetune.h's rows, as
                                   // tuneBatch, tuneLength, tuneLr, tuneSeed
  // What moved the prediction (projection "model", the Prediction tab; app/inspect): a token is
  // named by its text (one token of the model's tokenizer, " Paris") or "#<id>".
  std::string answer;     // the token the lens, the attribution and patching read; "" = the
                          // model's own prediction (patching: the clean run's)
  std::string foil;       // a second token: the logit difference answer - foil; "" = none (the
                          // attribution) or the corrupted run's prediction (patching)
  std::string corrupted;  // activation patching's corrupted prompt (the clean one: the sentence)
  std::string patch = "resid";  // what patching swaps: resid, attn, mlp, head, pattern
  std::string model_url;  // model mode's model: "" the lab's own, else the URL prefix of a
                          // GPT-2-family checkpoint in the Hugging Face layout (docs/models.md)
};

// The state's own rows, beside the engine's LabFields() and TrainFields(): lang, view, lesson,
// predictions, hide and lock, and the training panel's compare, play, speed and query.
const FieldTable<LabState>& StateFields();
const FieldTable<TrainState>& TrainStateFields();

// Why `compare` was refused: a code with what the interface needs to say it in its own language,
// and the English line.
struct CompareError {
  enum class Code {
    kNone,
    kMalformed,  // not "", "scaled" or "<field>:<value>" for normalizer, optimizer, lr, dK
    kValue,      // the value after the colon is refused by the row of `field` (`rule`, `got`)
    kRunB        // run B's configuration is refused (`run_b`)
  };
  Code code = Code::kNone;
  std::string field;              // kValue: "lr", "dK", ...
  std::optional<FieldRule> rule;  // kValue
  std::string got;                // kMalformed, kValue: what came, described
  TrainError run_b;               // kRunB
  std::string message;            // English, one line: "train.compare: ..."
};

// Run B's configuration: `a` with the change `compare` names. False (and the reason) when
// `compare` is malformed or gives a configuration ValidateTrainConfig refuses; `compare` ""
// gives false with code kNone and an empty message (there is no run B).
bool CompareConfig(const std::string& compare, const TrainConfig& a, TrainConfig* b, CompareError* error);

// Why a state change was refused. `code` is the engine's when the engine refused it.
enum class ApiError { kNone, kMalformedJson, kNotAnObject, kUnknownField, kWrongType, kBadValue, kEngine };

struct PatchResult {
  bool ok = true;
  LabState state;           // the new state when ok, the unchanged one otherwise
  ApiError api_error = ApiError::kNone;
  LabError engine_error;    // set when api_error == kEngine
  std::string field;        // the field at fault as the user wrote it ("train.lr"; "" for
                            // malformed JSON)
  std::string message;      // English, one line: "<field>: expected <what>, got <what came>"
  std::optional<FieldRule> rule;  // when a table's rule refused the value (for translations)
  std::string got;                // that value, described
  ExampleError example;           // field "train.example": why the example was refused
  CompareError compare;           // field "train.compare": why run B cannot be made
};

Json StateToJson(const LabState& state);

// Applies the fields present in `patch` to `current`: each through its table row (LabFields,
// StateFields; `train` is a partial object over TrainFields and TrainStateFields, refusals name
// its fields "train.lr"), then the engine's ValidateConfig / ValidateTrainConfig for what
// depends on several fields. An unknown field, a wrong type (null counts as wrong: JSON has no
// NaN) or an invalid value refuses the whole patch. When the sentence changes and no query is given, the query is
// kept if it still exists and moved to the last token otherwise; likewise the chosen head when
// the number of heads shrinks. A new sentence without edit fields drops the edits that name its
// tokens (whatIf*, knockoutKeys, value*); choosing model mode without them drops every edit.
PatchResult ApplyStatePatch(const LabState& current, const Json& patch);
PatchResult ApplyStatePatchText(const LabState& current, std::string_view json_text);

// {"ok": true, "state": {...}} or {"ok": false, "field": ..., "error": ...}
Json PatchResultToJson(const PatchResult& r);

// Every intermediate of the engine's result, as plain nested arrays (rows = queries).
Json TraceToJson(const LabState& state, const LabResult& result);

// Serializes without ever throwing: bytes that are not UTF-8 become U+FFFD.
std::string Dump(const Json& j);
// Parses without ever throwing: text that is not JSON gives a discarded value (is_discarded()).
// Every parse of the page goes through here: each kind of input nlohmann::json is handed
// (std::string, string_view, const char*) is another copy of its parser in the page's code.
Json ParseJson(std::string_view text);

Json MatrixToJson(const MatF& m);  // (R, C) -> [[...], ...] row by row
Json VectorToJson(const VecF& v);

}  // namespace attn::api
