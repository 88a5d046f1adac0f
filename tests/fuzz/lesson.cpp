// Fuzz target: a lesson document (api/lesson_json.h), as setLesson, postMessage or #lessonUrl hand
// it over. Properties: no crash; a refusal is one line that starts with the path it names; a
// document accepted is accepted again from its own JSON with the same steps, and the app loads it
// (its step count and id become the state's) or refuses it while keeping the lab as it was.
#include "api/lesson_json.h"
#include "app/app.h"
#include "app/lesson/lesson.h"
#include "fuzz_common.h"

using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = attn::fuzz::AsText(data, size);
  const attn::api::LessonParse p = attn::api::ParseLesson(text);
  if (!p.ok) {
    Check(p.doc == nullptr, "a refused document came with a document");
    attn::fuzz::CheckMessage(p.message, "ParseLesson");
    const std::string path = p.field.empty() ? "lesson" : p.field;
    Check(p.message.compare(0, path.size() + 2, path + ": ") == 0, "the message does not start with its path: " + p.message);
    return 0;
  }
  const attn::api::LessonParse again = attn::api::ParseLessonJson(p.doc->source);
  Check(again.ok && again.doc->steps.size() == p.doc->steps.size() && again.doc->id == p.doc->id,
        "an accepted document is refused from its own JSON: " + again.message);

  static app::AppState* s = [] {
    auto* state = new app::AppState;
    app::InitApp(*state);
    return state;
  }();
  const std::string before = app::StateJson(*s);
  const attn::api::PatchResult r = app::LoadLesson(*s, text);
  if (r.ok) {
    Check(s->lab.lesson_id == p.doc->id && s->lab.lesson_steps == static_cast<int>(p.doc->steps.size()) &&
              s->lab.lesson == 1,
          "the loaded lesson is not the state's");
    for (int choice = 0; choice < 2; ++choice) (void)app::AnswerLesson(*s, choice);
    (void)app::TakeLessonEvents(*s);
  } else {
    attn::fuzz::CheckMessage(r.message, "LoadLesson");
    Check(app::StateJson(*s) == before, "a refused lesson changed the lab");
  }
  return 0;
}
