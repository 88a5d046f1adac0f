// The guided lesson: the seed's answer (../shared/seed/) claim by claim, in its own order, inside
// the lab. Each step quotes the seed, gives a verdict, asks the learner to predict, then sets the
// lab to the state that answers the question through ApplyPatch (the same path as every other
// change) and reads the answer's numbers from the engine's results (LessonReadout).
//
// State: `lesson` (0 = the free lab, 1..kLessonSteps = the step) and `predictions` (one character
// per step: '-' not yet, 'a'/'b'/'c' the choice) are rows of api::StateFields(), so a course page
// opens step 3 with #lesson=3 or setState({lesson: 3}) and getState() returns the predictions.
// Entering a step (any way: a button, a key, setState, a link) applies the step's patch: the
// question's state, or the answer's when the step's prediction is already made. Fields given in
// the same patch win, so a link written by the lab reproduces exactly what the learner saw.
//
// No ImGui here (library attn_app): the panel (ui/panel_lesson.cpp) draws this data.
#pragma once

#include "app/app.h"

#include <string>
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

// The step shown (null at lesson 0) and whether its prediction has been made.
const LessonStep* CurrentLessonStep(const AppState& s);
bool LessonRevealed(const AppState& s);
int LessonPrediction(const attn::api::LabState& lab, int step);  // -1 or the choice, step 1-based

// The patch that brings the lab to step `step` (1-based): the lab's defaults, the view "steps",
// the step's setup and, when `revealed`, its reveal. Includes "lesson": step.
Json LessonStepPatch(int step, bool revealed);

// ApplyPatch's hook: when `patch` moves to another step, the step's patch with `patch` merged
// over it (patch's fields win); otherwise `patch` itself.
Json WithLessonStep(const AppState& s, const Json& patch);
// ApplyPatch's hook after an accepted change that entered a step: runs its actions.
void RunLessonActions(AppState& s, int previous_lesson);

// The learner's moves. Each goes through ApplyPatch.
attn::api::PatchResult GoToLesson(AppState& s, int step);      // 0 closes the lesson
attn::api::PatchResult AnswerLesson(AppState& s, int choice);  // records it and reveals
attn::api::PatchResult ShowLessonExtra(AppState& s);           // the step's second demonstration
attn::api::PatchResult RestoreLessonStep(AppState& s);         // back to the step's state

// The answer's numbers for the current step, read from the engine's results as they are now
// (they follow the learner's own changes), as lines in both languages. Empty before the reveal.
struct LessonLine {
  std::string en, ru;
};
std::vector<LessonLine> LessonReadout(const AppState& s);

// Numbers the lesson needs that no panel computes (tested in tests/app/test_lesson.cpp):
// the query's weights after adding `shift` to every scaled score (the chosen head, the lab's
// normalizer and mask): for softmax the shift cancels.
attn::VecD ShiftedWeights(const attn::LabResult& r, attn::Normalizer normalizer, double shift);
// The residual stream after the attention layer for the query: x + W_O·[A¹; …; A^H], (D).
attn::VecD ResidualOutput(const attn::LabResult& r);
// The training example's query row: vᵢ·∂L/∂A for every key i of head h, (N). Equals the
// engine's ∂L/∂αᵢ (dweights) up to rounding: the gradient into each weight.
attn::VecD WeightGradientFromValues(const attn::ExampleView& v, int head, int query);

}  // namespace app
