// The guided lesson: a document of steps (lesson_doc.h; the built-in one is the seed's answer,
// web/lessons/seed.json) inside the lab. Each step may quote, give a verdict, ask the learner to
// predict, then sets the lab to the state that answers the question through ApplyPatch (the same
// path as every other change) and reads the answer's numbers from the engine's results
// (LessonReadout).
//
// State: `lesson` (0 = the free lab, 1..steps = the step), `predictions` (one character per step:
// '-' not yet, 'a', 'b', ... the choice) and `lessonId` (read-only) are rows of
// api::StateFields(), so a course page opens step 3 with #lesson=3 or setState({lesson: 3}) and
// getState() returns the predictions. Entering a step (any way: a button, a key, setState, a
// link) applies the step's patch: the question's state, or the answer's when the step's
// prediction is already made. Fields given in the same patch win, so a link written by the lab
// reproduces exactly what the learner saw.
//
// The lesson room: lesson_doc.cpp reads a document, lesson.cpp is the controller (loading, its
// moves, ApplyPatch's hooks, the answer events), lesson_readout.cpp the answer's numbers in both
// languages. No ImGui here (library attn_app): the panel (ui/panel_lesson.cpp) draws this data.
#pragma once

#include "api/state_json.h"
#include "app/lab_view.h"
#include "app/lesson/lesson_doc.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace app {


// A file of the site (web/) by its relative path: in the page a synchronous same-origin request
// (platform/web_bridge.cpp), natively only lessons/seed.json, embedded at build time
// (lesson_seed_native.cpp). False and a message ("lessons/x.json: HTTP 404") when it cannot.
bool FetchSiteFile(const std::string& path, std::string* text, std::string* error);

// The built-in lesson (lessons/seed.json), read once; null and the reason when it cannot be.
std::shared_ptr<const LessonDoc> BuiltinLesson(std::string* error = nullptr);
// Its steps (empty if it cannot be read): the tests' and the CLI's view of the built-in lesson.
const std::vector<LessonStep>& LessonSteps();

// The step shown (null at lesson 0) and whether its answer is shown (its prediction made, or a
// step without a question). The lesson loaded is lesson.doc (null until one is needed: the
// built-in one is fetched on first use).
const LessonStep* CurrentLessonStep(const Lesson& lesson, const attn::api::LabState& lab);
bool LessonRevealed(const Lesson& lesson, const attn::api::LabState& lab);
int LessonPrediction(const attn::api::LabState& lab, int step);  // -1 or the choice, step 1-based

// Lesson::Load: loads a lesson document (setLesson, postMessage, #lessonUrl with its `url`):
// checked whole (ParseLesson), then the lab opens its step 1 with no predictions. A refusal
// names the path and leaves the lab and the lesson loaded before as they were (and shows it in
// the header). `open` false: loaded at lesson 0 (the model build's switch, whose carried state
// follows).
// #lessonUrl: a relative path inside the site ("lessons/mine.json"): no scheme, no "//", no
// "..", no "\", ending in .json. "" when it is one, else the refusal's message.
std::string CheckLessonUrl(const std::string& url);
// Lesson::LoadUrl: a link's #lessonUrl: checked, fetched from the site and loaded, unless it is
// the lesson loaded already; "" or the refusal (also shown in the header).
// {ok, lessonId, steps, state} or {ok: false, field, error}: the page's setLesson answer.
Json LessonLoadJson(const attn::api::LabState& lab, const attn::api::PatchResult& r);

// The patch that brings the lab to step `step` (1-based) of `doc` (null: the built-in lesson):
// the lab's defaults, the view "steps", the step's setup and, when `revealed`, its reveal.
// Includes "lesson": step.
Json LessonStepPatch(int step, bool revealed, const LessonDoc* doc = nullptr);

// Lesson::Expand, ApplyPatch's hook: when the patch moves to another step, the step's patch with
// the patch merged over it (its fields win); otherwise the patch itself. Fetches the built-in
// lesson when it is first needed; false (and the refusal) when it cannot be. Lesson::Adopt:
// after an accepted change that entered a step, runs its actions (RunActions).
//
// The learner's moves (Lesson::GoTo: 0 closes the lesson; Answer: records it, reveals, an
// event; ShowExtra: the step's second demonstration; Restore: back to the step's state). Each
// goes through ApplyPatch (the context's requests).
//
// Lesson::Progress, the answers: {lessonId, total (questions), answered, correct, answers:
// [{step, choice, correct}]}; TakeEvents, the events since the page last took them, oldest
// first: {type: "answer", step, choice, correct, lessonId} for each answer, then {type:
// "lessonDone", <progress>} when the lesson's last unanswered question was answered.

// The answer's numbers for the current step (its "numbers"), read from the engine's results as
// they are now (they follow the learner's own changes), as lines in both languages. Empty before
// the reveal. It reads the other rooms through what they publish (lab_view.h) only.
struct LessonLine {
  std::string en, ru;
};
std::vector<LessonLine> LessonReadout(const Lesson& lesson, const LabView& lab);

}  // namespace app
