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
// The lesson room: lesson_steps.cpp holds the steps as data (texts EN/RU, patches, predictions),
// lesson.cpp the controller (its state and moves, ApplyPatch's hooks), lesson_readout.cpp the
// answer's numbers in both languages. No ImGui here (library attn_app): the panel
// (ui/panel_lesson.cpp) draws this data.
#pragma once

#include "api/state_json.h"
#include "app/lesson/lesson_steps.h"

#include <string>
#include <vector>

namespace app {

struct AppState;
using attn::api::Json;

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

}  // namespace app
