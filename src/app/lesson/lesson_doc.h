// The lesson room's state (AppState::lesson): the document loaded (api/lesson_json.h reads and
// checks it), where it came from, and the answer events the page has not taken yet.
#pragma once

#include "api/lesson_json.h"
#include "app/room.h"

#include <memory>
#include <string>
#include <vector>

namespace app {

using attn::api::Json;
using attn::api::kLessonChoices;  // the built-in lesson's steps and choices
using attn::api::kLessonSteps;
using attn::api::kLessonTrainSteps;
using attn::api::kMaxChoices;
using attn::api::LessonAction;
using attn::api::LessonDoc;
using attn::api::LessonParse;
using attn::api::LessonPoint;
using attn::api::LessonStep;
using attn::api::LessonText;
using attn::api::ParseLesson;
using attn::api::Verdict;

// The lesson's room in AppState: the document loaded, where it came from, and the answers the
// page has not been told of yet. Until a document is loaded the lab's lesson is the built-in one
// (state lessonId "seed", 8 steps), fetched when first needed (EnsureLesson).
//
// The room (room.h): Expand brings a step's settings when the patch enters a step (the patch's
// own fields win); Adopt runs the step's actions once the lab accepted it (lesson.cpp).
struct Lesson final : Room {
  std::shared_ptr<const LessonDoc> doc;
  std::string url;          // #lessonUrl it came from ("" otherwise): written back into links
  std::vector<Json> events; // {type: "answer" | "lessonDone", ...} since the page last took them

  bool Expand(AppState& s, Json* patch, attn::api::PatchResult* refused) override;
  void Adopt(AppState& s, const attn::api::LabState& before, Source source) override;
};

}  // namespace app
