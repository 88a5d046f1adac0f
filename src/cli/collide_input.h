// The input of `attnlab collide`: values, attention weights and a target token, as JSON, checked
// field by field before anything is allocated (the same rules and messages as raw_input.h).
//
// Shapes: N = tokens, Dv = d_v.
//   "values": (N, Dv) numbers, row i = v_i     "weights": (N) numbers >= 0 summing to 1
//   "target": an integer token index in [0, N)  "minimizeTop": true or false (default false)
//   "normalizer": the normalizer the weights came from (default softmax): it names the set they
//                 live in (information.h): softmax, sparsemax, relunorm, hardmax: >= 0 summing
//                 to 1; sigmoid: each in [0, 1]; none: any numbers
// Every error is one line that names the field and says what was expected, e.g.
//   "weights": expected n = 3 weights summing to 1 (within 1e-06), got a sum of 0.9
#pragma once

#include "cli/raw_input.h"
#include "engine/base/common_fields.h"
#include "engine/information/information.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace attn::cli {

// Every LP over the weights that give the same output is a dense (r + 1)×N tableau (r <= Dv
// the values' affine rank), and the ranges solve up to 2N of them: the cost grows like N³·r.
// Measured: N = 64 in milliseconds; N = 512 in 0.1 s (d = 1) to ~20 s (d ~ 0.9 N; d >= N - 1
// is recoverable and needs no LP); N = 4096 would take hours, so collide stops at 512 tokens.
constexpr int kMaxCollideTokens = 512;
static_assert(static_cast<std::int64_t>(kMaxCollideTokens) * (kMaxDim + 4) + 2 * kMaxDim <= kMaxNumbers,
              "collide's numbers in and out (n·d + n in; 3n + 2d out) stay within the global limit");

constexpr double kWeightSumTol = 1e-6;    // |sum of the weights - 1| allowed
constexpr double kNegativeWeightTol = 1e-12;  // a weight in [-tol, 0) is rounding: read as 0

struct CollideInput {
  int n = 0, d = 0;
  Mat<double> values;  // (N, Dv)
  Vec<double> weights;  // (N), every entry >= 0 (rounding below 0 set to 0)
  int target = 0;
  bool minimize_top = false;
  Normalizer normalizer = Normalizer::kSoftmax;  // names the set of the weights (FeasibleSetOf)
};

inline const char* const kCollideFields[] = {"values", "weights", "target", "minimizeTop", "normalizer"};

// collide's one setting (values, weights and target are data, checked against each other).
inline const Field<CollideInput>& CollideMinimizeTopField() {
  static const Field<CollideInput> f = BooleanField<CollideInput>(
      "minimizeTop", &CollideInput::minimize_top,
      "the second scenario puts as little weight as possible on the top word (instead of as much as "
      "possible on the target)");
  return f;
}

// The normalizer the weights came from: the same row as the lab's.
inline const Field<CollideInput>& CollideNormalizerField() {
  static const Field<CollideInput> f = NormalizerField<CollideInput>(&CollideInput::normalizer);
  return f;
}

// Reads and checks the whole input. False with a one-line message (the field first) otherwise.
inline bool ParseCollideInput(const Json& j, CollideInput* in, std::string* error) {
  using detail::Nested;
  using detail::NestedReader;
  using detail::Quoted;
  auto fail = [&](const std::string& message) {
    *error = message;
    return false;
  };
  auto str = [](std::int64_t x) { return std::to_string(x); };

  // 1. an object with known fields, values, weights and target present
  if (!j.is_object())
    return fail("expected a JSON object {\"values\": ..., \"weights\": ..., \"target\": ...}, got " +
                api::DescribeJson(j));
  for (const auto& item : j.items()) {
    bool known = false;
    for (const char* f : kCollideFields) known = known || item.key() == f;
    if (!known)
      return fail(api::DescribeJson(Json(item.key())) +
                  ": unknown field (expected values, weights, target, minimizeTop, normalizer)");
  }
  for (const char* f : {"values", "weights", "target"})
    if (!j.contains(f)) return fail(Quoted(f) + ": missing (values, weights and target are required)");

  // 2. values: n×d, not empty, not ragged, finite numbers, n <= 512 and d <= 4096
  // (the token limit first: it is collide's own, below the readers' 4096)
  if (j["values"].is_array() && j["values"].size() > static_cast<size_t>(kMaxCollideTokens))
    return fail("\"values\": expected at most " + str(kMaxCollideTokens) + " tokens (rows) for collide, got n = " +
                str(static_cast<std::int64_t>(j["values"].size())) +
                " (each linear program costs ~n²·d and the ranges solve up to 2n of them)");
  Nested vs;
  if (!NestedReader("values", "n×d nested arrays of numbers (row i = the value vector of token i)", false,
                    {{"n", "d"}})
           .Read(j["values"], 2, 2, &vs, error))
    return false;
  const int n = vs.dims[0], d = vs.dims[1];

  // 3. the normalizer, by its row (it says what the weights may be), then the weights: n numbers,
  // >= 0 summing to 1 (the simplex), each in [0, 1] (sigmoid's box) or any (none)
  CollideInput settings;
  if (j.contains("normalizer") &&
      api::ApplyJsonField(CollideNormalizerField(), settings, j["normalizer"], "\"normalizer\"", error) !=
          api::FieldStatus::kOk)
    return false;
  const FeasibleSet set = FeasibleSetOf(settings.normalizer);
  const char* const what = set == FeasibleSet::kBox      ? "weights in [0, 1], sigmoid's"
                           : set == FeasibleSet::kAffine ? "any numbers, none's"
                                                         : "weights >= 0 summing to 1";
  const std::string expected_w = "n = " + str(n) + " numbers, one per row of \"values\" (" + what + ")";
  Nested ws;
  if (!NestedReader("weights", expected_w, false, {{"n"}}).Read(j["weights"], 1, 1, &ws, error)) return false;
  if (ws.dims[0] != n)
    return fail("\"weights\": expected " + expected_w + ", got " + str(ws.dims[0]) +
                (ws.dims[0] == 1 ? " number" : " numbers"));
  Vec<double> w(n);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const double x = j["weights"][static_cast<size_t>(i)].get<double>();
    if (set != FeasibleSet::kAffine && x < -kNegativeWeightTol)
      return fail("\"weights\": expected weights >= 0, got weights[" + str(i) + "] = " + FormatShortest(x));
    if (set == FeasibleSet::kBox && x > 1 + kNegativeWeightTol)
      return fail("\"weights\": expected weights <= 1 (sigmoid), got weights[" + str(i) + "] = " + FormatShortest(x));
    w(i) = set == FeasibleSet::kAffine ? x + 0.0 : x > 0 ? x : 0.0;  // rounding below 0, and -0, read as 0
    if (set == FeasibleSet::kBox && w(i) > 1) w(i) = 1;                   // and rounding above 1 as 1
    sum += w(i);
  }
  if (set == FeasibleSet::kSimplex && !(std::abs(sum - 1) <= kWeightSumTol))
    return fail("\"weights\": expected weights summing to 1 (within " + FormatShortest(kWeightSumTol) +
                "), got a sum of " + FormatShortest(sum) +
                " (weights from sigmoid or none: say so with \"normalizer\")");

  // 4. target: an integer in [0, n)
  const Json& t = j["target"];
  const std::string expected_t = "a token index, an integer from 0 to " + str(n - 1) + " (n = " + str(n) + ")";
  if (!t.is_number()) return fail("\"target\": expected " + expected_t + ", got " + api::DescribeJson(t));
  const double tv = t.get<double>();  // integers up to 2^53 exactly; larger ones are out of range anyway
  if (t.is_number_float() && !(std::floor(tv) == tv))
    return fail("\"target\": expected " + expected_t + ", got " + api::DescribeJson(t) + ", not an integer");
  if (!(tv >= 0 && tv < n)) return fail("\"target\": expected " + expected_t + ", got " + api::DescribeJson(t));

  // 5. minimizeTop, by its row
  if (j.contains("minimizeTop") &&
      api::ApplyJsonField(CollideMinimizeTopField(), settings, j["minimizeTop"], "\"minimizeTop\"", error) !=
          api::FieldStatus::kOk)
    return false;
  const bool minimize_top = settings.minimize_top;

  // 6. all checked: copy the numbers
  *in = CollideInput{};
  in->n = n;
  in->d = d;
  in->values = detail::ToMatrices(j["values"], vs)[0];
  in->weights = std::move(w);
  in->target = static_cast<int>(tv);
  in->minimize_top = minimize_top;
  in->normalizer = settings.normalizer;
  return true;
}

}  // namespace attn::cli
