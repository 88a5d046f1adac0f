// The lesson room's state (AppState::lesson): the document loaded (api/lesson_json.h reads and
// checks it), where it came from, and the answer events the page has not taken yet.
#pragma once

#include "api/lesson_json.h"
#include "app/room.h"

#include <memory>
#include <string>
#include <string_view>
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
// own fields win); Adopt runs the step's actions once the lab accepted it. The learner's moves
// and the loading go through the context's requests (Apply: ApplyPatch; Refuse), the actions too
// (lesson.cpp, declared in lesson.h).
struct Lesson final : Room {
  std::shared_ptr<const LessonDoc> doc;
  std::string url;          // #lessonUrl it came from ("" otherwise): written back into links
  std::vector<Json> events; // {type: "answer" | "lessonDone", ...} since the page last took them

  bool Expand(const RoomContext& c, Json* patch, attn::api::PatchResult* refused) override;
  void Adopt(const RoomContext& c, const attn::api::LabState& before, Source source) override;
  void Publish(LabView* view) const override;

  // Loading (setLesson, postMessage, #lessonUrl) and the learner's moves (lesson.h says each).
  attn::api::PatchResult Load(const RoomContext& c, std::string_view text, const std::string& from_url, bool open);
  std::string LoadUrl(const RoomContext& c, const std::string& from_url);
  attn::api::PatchResult GoTo(const RoomContext& c, int step);
  attn::api::PatchResult Answer(const RoomContext& c, int choice);
  attn::api::PatchResult ShowExtra(const RoomContext& c);
  attn::api::PatchResult Restore(const RoomContext& c);
  void RunActions(const RoomContext& c, int previous_lesson);
  Json Progress(const attn::api::LabState& lab) const;
  std::vector<Json> TakeEvents();
};

}  // namespace app
