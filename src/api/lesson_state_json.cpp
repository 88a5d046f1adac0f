// The lesson's part of a state patch (patch_rows.h): the rules of the rows lesson, predictions
// and lessonId against the lesson loaded.
#include "api/patch_rows.h"

namespace attn::api {

std::optional<PatchResult> CheckLessonPatch(const LabState& current, const LabState& next) {
  // The lesson loaded (lesson_steps, lesson_id; app/lesson): its steps, one prediction character
  // per step, '-' or one of its choices; its id is not changed by a patch.
  if (next.lesson_id != current.lesson_id)
    return Expected(current, "lessonId", DescribeJson(current.lesson_id) + " (the lesson loaded; setLesson loads another)",
                    DescribeJson(next.lesson_id));
  if (next.lesson > current.lesson_steps) {
    PatchResult r = Expected(current, "lesson", "an integer from 0 to " + std::to_string(current.lesson_steps),
                             std::to_string(next.lesson));
    r.rule = FieldRule{};
    r.rule->kind = FieldKind::kInteger;
    r.rule->max = current.lesson_steps;
    return r;
  }
  if (next.predictions != current.predictions) {
    bool ok = next.predictions.size() == static_cast<std::size_t>(current.lesson_steps);
    std::string letters;
    for (int i = 0; i < current.lesson_choices; ++i) letters += std::string(i ? ", " : "") + static_cast<char>('a' + i);
    for (char ch : next.predictions) ok = ok && (ch == '-' || (ch >= 'a' && ch < 'a' + current.lesson_choices));
    if (!ok)
      return Expected(current, "predictions",
                      std::to_string(current.lesson_steps) + " characters, each - (not yet) or " + letters + " (the choice)",
                      DescribeJson(next.predictions));
  }
  return std::nullopt;
}

}  // namespace attn::api
