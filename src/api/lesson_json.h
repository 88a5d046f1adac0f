// A lesson as data (docs/lessons.md): a JSON document, "format": "attentionlab-lesson-1", with an
// id, a title and 1..kMaxLessonSteps steps, each with its texts in English and Russian, the state
// it sets (any setState patch), an optional question, the numbers shown under the answer, a second
// demonstration, what to try and what it points at. The built-in lesson is web/lessons/seed.json.
//
// (The app's lesson room, app/lesson/, holds the loaded one; `attnlab lesson check` reads one.)
// ParseLesson checks a whole document before anything changes: every key known, every text an
// {en, ru} object within its limit, every state patch accepted by the state's own validation
// (api::ApplyStatePatch over the lab's defaults, the question's over the step's, the extra's over
// the answer's). A refusal names the path, "steps[3].question.choices: expected ...", in the one
// wording. Steps are 0-based in paths (steps[0] is lesson step 1, as in the JSON array).
#pragma once

#include "api/state_json.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attn::api {

constexpr const char* kLessonFormat = "attentionlab-lesson-1";
constexpr int kMinChoices = 2, kMaxChoices = kMaxLessonChoices;
constexpr std::size_t kMaxLessonTextBytes = 4000, kMaxLessonTitleBytes = 200, kMaxLessonIdBytes = 64;
constexpr std::size_t kMaxLessonBytes = 256 * 1024;

// A text in both languages; a document may give one, the other falls back to it.
struct LessonText {
  std::string en, ru;
  bool empty() const { return en.empty() && ru.empty(); }
  const std::string& In(bool russian) const { return russian ? ru : en; }
};

enum class Verdict { kNone, kRight, kPartlyRight, kImprecise };

// What a step does besides its patch (work the app runs, not a setting): "run" in the document.
enum class LessonAction {
  kNone,
  kResetTraining,  // "resetTraining": training runs A (and B) from step 0
  kTrain,          // "train": run A up to kLessonTrainSteps steps (the verb -> object model)
  kNormalization,  // "normalization": the normalization experiments 1-3
  kProbe,          // "probe": the probe sweep over d_v and heads (runs in the coming frames)
};
constexpr int kLessonTrainSteps = 200;

// What a step points at: a part of the lab (api::LabPartTree), a token, a head (-1: none).
struct LessonPoint {
  std::string panel;
  int token = -1, head = -1;
};

struct LessonStep {
  LessonText title;
  LessonText quote;         // a sentence quoted (the seed's), optional
  Verdict verdict = Verdict::kNone;
  LessonText verdict_text;  // "text": the step's explanation before the question
  Json setup = Json::object();  // "state": the question's state (over the lab's defaults)
  LessonAction setup_action = LessonAction::kNone;
  bool has_question = false;
  LessonText question;
  std::vector<LessonText> choices;
  int right = -1;           // index of the right choice
  LessonText explanation;   // shown with the answer
  Json reveal = Json::object();  // "question.state": the answer's state (over the setup)
  LessonAction reveal_action = LessonAction::kNone;
  int numbers = 0;          // the readout shown under the answer: 1 + its index in kLessonReadouts;
                            // 0: none
  bool has_extra = false;   // a second demonstration (a button)
  LessonText extra_label;
  Json extra = Json::object();  // over the answer's state
  LessonAction extra_action = LessonAction::kNone;
  LessonText try_this;      // "try": what to change freely next
  LessonPoint point;
};

struct LessonDoc {
  std::string id;
  LessonText title;
  std::vector<LessonStep> steps;
  Json source;  // the document as given (getLesson(), the model build's switch)
};

struct LessonParse {
  bool ok = false;
  std::string field;    // the path at fault, "steps[3].question.choices" ("" for the whole text)
  std::string message;  // "<path>: expected <what>, got <what came>"
  std::shared_ptr<const LessonDoc> doc;
};
LessonParse ParseLesson(std::string_view text);
LessonParse ParseLessonJson(const Json& document);

// The readouts a step may name as "numbers" (app/lesson/lesson_readout.cpp shows them, in this
// order).
constexpr const char* kLessonReadouts[] = {"queryRows",         "sameOutput",    "headsAndProbe", "shiftedScores",
                                           "trainingGradients", "normalization", "modelSelf",     "weightSums",
                                           "attribution"};
constexpr int kLessonReadoutCount = 9;
// The lab's defaults a step's state applies over: every row of the lab's settings table at its
// initial value, and the view "steps".
Json LessonDefaults();

}  // namespace attn::api
