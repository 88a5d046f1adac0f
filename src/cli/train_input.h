// The input of `attnlab train`: a training configuration (engine/training/train.h's TrainConfig) and a
// step count, as JSON. Every field is read by its row of the engine's TrainFields() table (and
// "steps" by TrainInputFields() below), so the page and the CLI accept the same values and
// refuse them the same way, naming the field as written:
//   "batch": expected an integer from 1 to 256, got 0
// `attnlab train --help` lists the fields from the same tables.
#pragma once

#include "api/fields_json.h"
#include "cli/raw_input.h"
#include "engine/training/train.h"

#include <string>

namespace attn::cli {

constexpr int kMaxTrainSteps = 100000;
constexpr int kDefaultTrainSteps = 200;

struct TrainInput {
  TrainConfig config;
  int steps = kDefaultTrainSteps;
};

// The CLI's own row, beside TrainFields().
inline const FieldTable<TrainInput>& TrainInputFields() {
  static const FieldTable<TrainInput> table = {
      IntegerField<TrainInput>("steps", &TrainInput::steps, 1, kMaxTrainSteps, "optimizer steps to run"),
  };
  return table;
}

// Reads and checks the whole input, then the engine's ValidateTrainConfig (which also checks
// that the example fits the task). False with a one-line message (the field first) otherwise.
inline bool ParseTrainInput(const Json& j, TrainInput* in, std::string* error) {
  using detail::Quoted;
  if (!j.is_object()) {
    *error = "expected a JSON object such as {\"task\": \"verb_object\", \"steps\": 200}, got " +
             api::DescribeJson(j);
    return false;
  }
  TrainInput r;
  for (const auto& [key, v] : j.items()) {
    api::FieldStatus s = api::FieldStatus::kOk;
    if (const Field<TrainConfig>* f = FindField(TrainFields(), key)) {
      s = api::ApplyJsonField(*f, r.config, v, Quoted(key), error);
    } else if (const Field<TrainInput>* g = FindField(TrainInputFields(), key)) {
      s = api::ApplyJsonField(*g, r, v, Quoted(key), error);
    } else {
      *error = Quoted(key) + ": unknown field (expected one of " + api::FieldNames(TrainFields()) + ", " +
               api::FieldNames(TrainInputFields()) + ")";
      return false;
    }
    if (s != api::FieldStatus::kOk) return false;
  }
  const TrainError e = ValidateTrainConfig(r.config);
  if (!e.ok()) {
    *error = Quoted(e.field) + ": " + e.message.substr(e.field.size() + 2);  // "field: ..." quoted
    return false;
  }
  *in = std::move(r);
  return true;
}

}  // namespace attn::cli
