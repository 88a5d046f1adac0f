// The lesson's steps as data (lesson_steps.cpp): per step its texts in English and Russian, the
// prediction asked, the patches that set the question's and the answer's state, and the work a
// step runs. Data only: the controller is lesson.h.
#pragma once

#include "api/state_json.h"

#include <vector>

namespace app {

using attn::api::kLessonChoices;
using attn::api::kLessonSteps;

struct LessonText {
  const char* en = nullptr;
  const char* ru = nullptr;
};

enum class Verdict { kRight, kPartlyRight, kImprecise };

// What a step does besides its patch (work the app runs, not a setting).
enum class LessonAction {
  kNone,
  kResetTraining,  // training runs A (and B) from step 0
  kTrain,          // train run A up to kLessonTrainSteps steps (the verb -> object model)
  kNormalization,  // the normalization experiments 1-3
  kProbe,          // the probe sweep over d_v and heads (runs in the coming frames)
};
constexpr int kLessonTrainSteps = 200;

struct LessonStep {
  LessonText title;
  LessonText quote;         // the seed's sentence, short
  Verdict verdict;
  LessonText verdict_text;  // why, with a gentle correction where needed
  LessonText question;      // the prediction asked before revealing
  LessonText choices[kLessonChoices];
  int right;                // index of the right choice
  const char* setup;        // JSON patch: the question's state (over the lab's defaults)
  LessonAction setup_action;
  const char* reveal;       // JSON patch: the answer's state (over the setup)
  LessonAction reveal_action;
  LessonText explanation;   // shown with the answer, above the engine's numbers
  LessonText extra_label;   // a second demonstration (a button), or {nullptr, nullptr}
  const char* extra;        // its JSON patch (over the answer's state)
  LessonAction extra_action;
  LessonText try_this;      // what to change freely next
};

// The steps, 1-based in the state: LessonSteps()[lesson - 1].
const std::vector<LessonStep>& LessonSteps();

}  // namespace app
