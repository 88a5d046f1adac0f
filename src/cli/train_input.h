// The input of `attnlab train`: a training configuration (engine/train.h's TrainConfig) and a
// step count, as JSON, checked field by field (the same rules and messages as raw_input.h).
//
// Fields (all optional; a missing one takes TrainConfig's default, steps 200):
//   "task": "previous" | "reverse" | "verb_object" | "max"   "length": integer 2..16
//   "optimizer": "adam" | "sgd"     "lr": number in (0, 10]    "batch": integer 1..256
//   "seed": integer 0..4294967295   "normalizer": softmax, sparsemax, relunorm, sigmoid, none,
//   hardmax    "scaled", "causal": true or false    "dModel": integer 2..128
//   "dK": integer 1..256   "dV": integer 1..128   "heads": integer 1..8
//   "example": string (the sentence whose attention is printed at the end)
//   "steps": integer 1..100000
// Every error is one line that names the field and says what was expected, e.g.
//   "batch": expected an integer from 1 to 256, got a number (0)
#pragma once

#include "cli/raw_input.h"
#include "engine/lab.h"  // kMaxSeed, kMaxHeads
#include "engine/train.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace attn::cli {

constexpr int kMaxTrainSteps = 100000;
constexpr int kDefaultTrainSteps = 200;

struct TrainInput {
  TrainConfig config;
  int steps = kDefaultTrainSteps;
};

inline const char* const kTrainFields[] = {"task",   "length", "optimizer", "lr",     "batch",
                                           "seed",   "normalizer", "scaled", "dModel", "dK",
                                           "dV",     "heads",  "causal",    "example", "steps"};

namespace detail {

// An integer-valued JSON number in [lo, hi] (4 and 4.0 alike); false with a message otherwise.
inline bool ReadIntegerField(const Json& j, const char* field, double lo, double hi, double* out,
                             std::string* error) {
  const Json& v = j[field];
  const std::string expected = Quoted(field) + ": expected an integer from " +
                               std::to_string(static_cast<long long>(lo)) + " to " +
                               std::to_string(static_cast<long long>(hi)) + ", got ";
  if (!v.is_number()) {
    *error = expected + TypeWord(v);
    return false;
  }
  const double x = v.get<double>();  // exact for integers up to 2^53; larger are out of range
  if (!std::isfinite(x) || std::floor(x) != x || x < lo || x > hi) {
    *error = expected + TypeWord(v);
    return false;
  }
  *out = x;
  return true;
}

// One of `names` (exact); false with a message listing them otherwise.
template <typename Parse>
bool ReadNameField(const Json& j, const char* field, const char* names, Parse parse,
                   std::string* error) {
  const Json& v = j[field];
  if (!v.is_string() || !parse(v.get<std::string>())) {
    *error = Quoted(field) + ": expected one of " + names + ", got " + TypeWord(v);
    return false;
  }
  return true;
}

}  // namespace detail

// Reads and checks the whole input, then the engine's ValidateTrainConfig (which also checks
// that the example fits the task). False with a one-line message (the field first) otherwise.
inline bool ParseTrainInput(const Json& j, TrainInput* in, std::string* error) {
  using detail::Quoted;
  using detail::ReadIntegerField;
  using detail::ReadNameField;
  using detail::TypeWord;
  auto fail = [&](const std::string& message) {
    *error = message;
    return false;
  };

  // 1. an object with known fields
  if (!j.is_object())
    return fail("expected a JSON object such as {\"task\": \"verb_object\", \"steps\": 200}, got " +
                TypeWord(j));
  for (const auto& item : j.items()) {
    bool known = false;
    for (const char* f : kTrainFields) known = known || item.key() == f;
    if (!known)
      return fail(detail::Describe(Json(item.key())) +
                  ": unknown field (expected task, length, optimizer, lr, batch, seed, normalizer, "
                  "scaled, dModel, dK, dV, heads, causal, example, steps)");
  }

  // 2. every field given, in the order of the list above
  TrainInput r;
  TrainConfig& c = r.config;
  double x = 0;
  if (j.contains("task") &&
      !ReadNameField(j, "task", "\"previous\", \"reverse\", \"verb_object\", \"max\"",
                     [&](const std::string& s) { return ParseTask(s, &c.task); }, error))
    return false;
  if (j.contains("length")) {
    if (!ReadIntegerField(j, "length", kMinLength, kMaxLength, &x, error)) return false;
    c.length = static_cast<int>(x);
  }
  if (j.contains("optimizer") &&
      !ReadNameField(j, "optimizer", "\"adam\", \"sgd\"",
                     [&](const std::string& s) { return ParseOptimizer(s, &c.optimizer); }, error))
    return false;
  if (j.contains("lr")) {
    const Json& v = j["lr"];
    if (!v.is_number() || !std::isfinite(v.get<double>()) || !(v.get<double>() > 0) ||
        v.get<double>() > kMaxLearningRate)
      return fail("\"lr\": expected a number > 0 and <= " +
                  std::to_string(static_cast<int>(kMaxLearningRate)) + ", got " + TypeWord(v));
    c.lr = v.get<double>();
  }
  if (j.contains("batch")) {
    if (!ReadIntegerField(j, "batch", 1, kMaxBatch, &x, error)) return false;
    c.batch = static_cast<int>(x);
  }
  if (j.contains("seed")) {
    if (!ReadIntegerField(j, "seed", 0, static_cast<double>(kMaxSeed), &x, error)) return false;
    c.seed = static_cast<std::uint64_t>(x);
  }
  if (j.contains("normalizer") &&
      !ReadNameField(j, "normalizer",
                     "\"softmax\", \"sparsemax\", \"relunorm\", \"sigmoid\", \"none\", \"hardmax\"",
                     [&](const std::string& s) { return ParseNormalizer(s, &c.normalizer); }, error))
    return false;
  for (const char* f : {"scaled", "causal"}) {
    if (!j.contains(f)) continue;
    if (!j[f].is_boolean()) return fail(Quoted(f) + ": expected true or false, got " + TypeWord(j[f]));
    (std::string(f) == "scaled" ? c.scaled : c.causal) = j[f].get<bool>();
  }
  if (j.contains("dModel")) {
    if (!ReadIntegerField(j, "dModel", 2, kMaxTrainDModel, &x, error)) return false;
    c.d_model = static_cast<int>(x);
  }
  if (j.contains("dK")) {
    if (!ReadIntegerField(j, "dK", 1, kMaxTrainDk, &x, error)) return false;
    c.d_k = static_cast<int>(x);
  }
  if (j.contains("dV")) {
    if (!ReadIntegerField(j, "dV", 1, kMaxTrainDv, &x, error)) return false;
    c.d_v = static_cast<int>(x);
  }
  if (j.contains("heads")) {
    if (!ReadIntegerField(j, "heads", kMinHeads, kMaxHeads, &x, error)) return false;
    c.heads = static_cast<int>(x);
  }
  if (j.contains("example")) {
    if (!j["example"].is_string())
      return fail("\"example\": expected a sentence (a string), got " + TypeWord(j["example"]));
    c.example = j["example"].get<std::string>();
  }
  if (j.contains("steps")) {
    if (!ReadIntegerField(j, "steps", 1, kMaxTrainSteps, &x, error)) return false;
    r.steps = static_cast<int>(x);
  }

  // 3. the engine's own check (the ranges again, and the example against the task)
  const TrainError e = ValidateTrainConfig(c);
  if (!e.ok()) {
    std::string what = e.message;  // "field: what"
    const std::string prefix = e.field + ": ";
    if (what.compare(0, prefix.size(), prefix) == 0) what = what.substr(prefix.size());
    return fail(Quoted(e.field) + ": " + what);
  }
  *in = std::move(r);
  return true;
}

}  // namespace attn::cli
