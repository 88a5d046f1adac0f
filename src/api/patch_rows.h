// The pieces every room's part of a state patch is made of (internal to src/api): a refusal,
// one JSON value through one table row, "<field>: expected <what>, got <got>", an unknown field;
// and each room's part of ApplyStatePatch (state_json.cpp runs them in turn): the training
// panel's `train` object (train_state_json.cpp), the lesson's rows (lesson_state_json.cpp), the
// edits a new sentence drops (whatif_json.cpp).
#pragma once

#include "api/state_json.h"

#include <optional>
#include <string>

namespace attn::api {

inline PatchResult RefusePatch(const LabState& current, ApiError code, std::string field, std::string message) {
  PatchResult r;
  r.ok = false;
  r.state = current;
  r.api_error = code;
  r.field = std::move(field);
  r.message = std::move(message);
  return r;
}

// One JSON value into one table row; a refusal (naming the field as `shown`) otherwise.
template <class C>
inline std::optional<PatchResult> ApplyRow(const LabState& current, const Field<C>& f, C& target,
                                    const Json& v, const std::string& shown) {
  std::string message;
  const FieldStatus s = ApplyJsonField(f, target, v, shown, &message);
  if (s == FieldStatus::kOk) return std::nullopt;
  PatchResult r = RefusePatch(current, s == FieldStatus::kWrongType ? ApiError::kWrongType : ApiError::kBadValue,
                         shown, message);
  r.rule = f.rule;
  r.got = DescribeRefused(f.rule, v);
  return r;
}

// A refusal whose English line is "<field>: expected <what>, got <got>".
inline PatchResult Expected(const LabState& current, const char* field, const std::string& what, const std::string& got) {
  PatchResult r = RefusePatch(current, ApiError::kBadValue, field, std::string(field) + ": expected " + what + ", got " + got);
  r.got = got;
  return r;
}

inline PatchResult UnknownField(const LabState& current, const std::string& shown, const std::string& names) {
  return RefusePatch(current, ApiError::kUnknownField, shown, ShownName(shown) + ": unknown field (expected one of " + names + ")");
}

// ---- each room's part of the patch ---------------------------------------------------------------

// The training panel: applies the `train` object of a patch to next.train (train_state_json.cpp).
PatchResult ApplyTrainPatch(const LabState& current, LabState& next, const Json& patch);
// The lesson: after the rows are applied, the lesson's own rules against the lesson loaded
// (lessonId read-only, lesson within its steps, one prediction per step); nullopt when fine.
std::optional<PatchResult> CheckLessonPatch(const LabState& current, const LabState& next);
// The what-if edits: whether a row is one of theirs, and what a patch without them drops (a new
// sentence: the edits naming its tokens; model mode chosen: all of them).
bool IsEditField(const std::string& key);
void DropStaleEdits(const LabConfig& before, LabConfig& c);

}  // namespace attn::api
