// The one way a run says no: a LabError with the code the interface translates (text/i18n.cpp),
// the field it is about, an English line, and the offending number. Every refusal of the lab,
// the model, the what-if edits and the heads is made here, so that one wording serves them all.
#pragma once

#include "engine/lab/lab.h"

#include <string>
#include <utility>

namespace attn {

inline LabError Refuse(ConfigError code, std::string field, std::string message, double value = 0) {
  LabError e;
  e.code = code;
  e.field = std::move(field);
  e.message = std::move(message);
  e.value = value;
  return e;
}

// An index out of its range, in the lab's one wording:
// "<field>: expected <what> from 0 to <count - 1>, got <got>" (value = got).
inline LabError RefuseIndex(ConfigError code, const char* field, const char* what, int count, int got) {
  return Refuse(code, field,
                std::string(field) + ": expected " + what + " from 0 to " + std::to_string(count - 1) + ", got " +
                    std::to_string(got),
                got);
}

// The query and the target against a run of n tokens (the lower bounds are the field table's):
// ok() or the query's refusal, then the target's (-1 = automatic).
inline LabError CheckQueryTarget(int query, int target, int n) {
  if (query >= n) return RefuseIndex(ConfigError::kQueryOutOfRange, "query", "a token index", n, query);
  if (target >= n)
    return Refuse(ConfigError::kTargetOutOfRange, "target",
                  "target: expected -1 (automatic) or a token index from 0 to " + std::to_string(n - 1) + ", got " +
                      std::to_string(target),
                  target);
  return LabError();
}

}  // namespace attn
