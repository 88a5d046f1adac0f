// The input of `attnlab forward` and `attnlab backward`: raw q, k, v (one head or h heads) and
// the attention settings, as JSON, checked field by field before anything is allocated.
//
// Shapes: H = heads, N = queries, M = keys/values, Dk = d_k, Dv = d_v.
//   "q": (N, Dk) or (H, N, Dk)     "k": (M, Dk) or (H, M, Dk)     "v": (M, Dv) or (H, M, Dv)
//   "mask": (N, M) booleans, true = may attend, shared by every head
//   "dOutput": (H, N, Dv), or (N, Dv) when q, k, v are 2-D
// q, k and v are all 2-D (one head) or all 3-D. Every error is one line that names the field
// and says what was expected, e.g.
//   "k": expected m×d_k or h×m×d_k nested arrays of numbers, got a ragged array at k[1] (...)
#pragma once

#include "api/fields_json.h"
#include "engine/base/common_fields.h"
#include "engine/attention/multihead.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace attn::cli {

using Json = nlohmann::json;

constexpr int kMaxDim = 4096;                  // h, n, m, d_k and d_v each
constexpr std::int64_t kMaxNumbers = 1 << 24;  // every number read and written, in total

struct RawInput {
  int heads = 1, n = 0, m = 0, d_k = 0, d_v = 0;
  bool three_d = false;               // q, k, v were given as (H, ., .)
  std::vector<Mat<double>> q;         // H of (N, Dk)
  std::vector<Mat<double>> k;         // H of (M, Dk)
  std::vector<Mat<double>> v;         // H of (M, Dv)
  std::vector<Mat<double>> d_output;  // H of (N, Dv); empty when not given
  Mask mask;                          // (N, M) "mask" AND causal; empty (0x0) = attend everywhere
  HeadConfig head;                    // normalizer, temperature, scale
};

// Fields of the input object; anything else is refused.
inline const char* const kRawFields[] = {"q",     "k",           "v",          "mask",   "causal",
                                         "scale", "temperature", "normalizer", "dOutput"};

// The attention settings of a raw input: the same rows as the lab's where they mean the same
// (normalizer, causal); temperature and scale are free here (any finite scale, any temperature
// > 0), since raw tensors come from anywhere.
struct RawSettings {
  bool causal = false;
  Normalizer normalizer = Normalizer::kSoftmax;
  double temperature = 1.0;
  std::optional<double> scale;  // empty (null) = 1/sqrt(d_k)
};

inline const FieldTable<RawSettings>& RawSettingsFields() {
  using R = RawSettings;
  constexpr double inf = std::numeric_limits<double>::infinity();
  static const FieldTable<R> table = {
      CausalField<R>(&R::causal),
      OptionalNumberField<R>("scale", &R::scale, -inf, inf, "the factor on q·k; null = 1/sqrt(d_k)"),
      NumberField<R>("temperature", &R::temperature, 0, inf, /*min_open=*/true,
                     "divides the scores before the normalizer"),
      NormalizerField<R>(&R::normalizer),
  };
  return table;
}

namespace detail {

inline std::string Quoted(const std::string& field) { return "\"" + field + "\""; }

// The shape of a checked nested array: rank 2 (R, C) or 3 (H, R, C).
struct Nested {
  int rank = 0;
  int dims[3] = {0, 0, 0};
};

inline std::string ShapeText(const Nested& s) {
  std::string out;
  for (int r = 0; r < s.rank; ++r) out += (r ? "×" : "") + std::to_string(s.dims[r]);
  return out;
}

// Checks that a field is a non-empty, non-ragged nested array of rank min_rank..max_rank whose
// leaves are all booleans (or all finite numbers), each dimension at most kMaxDim. Reads
// without allocating; paths such as k[1][0] are spelled out only for the message.
class NestedReader {
 public:
  // `expected` completes "expected ..." in messages; `dim_names[rank - min_rank]` names each
  // dimension of that rank, for the size limit.
  NestedReader(std::string field, std::string expected, bool booleans,
               std::vector<std::vector<std::string>> dim_names)
      : field_(std::move(field)), expected_(std::move(expected)), booleans_(booleans),
        dim_names_(std::move(dim_names)) {}

  bool Read(const Json& v, int min_rank, int max_rank, Nested* out, std::string* error) {
    error_ = error;
    if (!v.is_array()) return Fail("got " + api::DescribeJson(v));
    // The shape, from the first element of each level.
    std::int64_t sizes[4] = {};
    int rank = 0;
    for (const Json* node = &v; node->is_array() && rank < 4; node = &(*node)[0]) {
      if (node->empty()) return Fail("got an empty array" + (rank ? " at " + First(rank) : ""));
      sizes[rank++] = static_cast<std::int64_t>(node->size());
    }
    if (rank < min_rank || rank > max_rank)
      return Fail("got a " + std::to_string(rank) + (rank == 4 ? "-D (or deeper)" : "-D") + " array");
    const std::vector<std::string>& names = dim_names_[static_cast<size_t>(rank - min_rank)];
    for (int r = 0; r < rank; ++r) {
      if (sizes[r] > kMaxDim)
        return Fail("got " + names[static_cast<size_t>(r)] + " = " + std::to_string(sizes[r]) +
                    ", more than the limit " + std::to_string(kMaxDim));
    }
    out->rank = rank;
    for (int r = 0; r < rank; ++r) out->dims[r] = static_cast<int>(sizes[r]);
    int index[3] = {0, 0, 0};
    return Walk(v, 0, index, *out);
  }

 private:
  // Every element of `v`, which sits at depth `level` and position index[0..level).
  bool Walk(const Json& v, int level, int* index, const Nested& s) {
    const bool leaf = booleans_ ? v.is_boolean() : v.is_number();
    const std::string leaf_word = booleans_ ? "boolean" : "number";
    const std::string at = " at " + Path(index, level);
    if (level == s.rank) {
      if (v.is_array())
        return Fail("got a ragged array" + at + " (an array where " + First(level) + " is a " + leaf_word + ")");
      if (!leaf) return Fail("got " + api::DescribeJson(v) + at);
      if (!booleans_ && !std::isfinite(v.get<double>())) return Fail("got a non-finite number" + at);
      return true;
    }
    if (leaf)
      return Fail("got a ragged array" + at + " (a " + leaf_word + " where " + First(level) + " is an array)");
    if (!v.is_array()) return Fail("got " + api::DescribeJson(v) + at);
    if (static_cast<std::int64_t>(v.size()) != s.dims[level]) {
      return Fail("got a ragged array" + at + " (" + std::to_string(v.size()) +
                  (v.size() == 1 ? " entry, " : " entries, ") + First(level) + " has " +
                  std::to_string(s.dims[level]) + ")");
    }
    for (int i = 0; i < s.dims[level]; ++i) {
      index[level] = i;
      if (!Walk(v[static_cast<size_t>(i)], level + 1, index, s)) return false;
    }
    return true;
  }

  // field[i][j]... down to `level`; and the same position in the first element: field[0][0]...
  std::string Path(const int* index, int level) const {
    std::string p = field_;
    for (int r = 0; r < level; ++r) p += "[" + std::to_string(index[r]) + "]";
    return p;
  }
  std::string First(int level) const {
    std::string p = field_;
    for (int r = 0; r < level; ++r) p += "[0]";
    return p;
  }

  bool Fail(const std::string& what) {
    *error_ = Quoted(field_) + ": expected " + expected_ + ", " + what;
    return false;
  }

  std::string field_, expected_;
  bool booleans_;
  std::vector<std::vector<std::string>> dim_names_;
  std::string* error_ = nullptr;
};

// Copies a checked nested array of numbers into H matrices (a 2-D one gives H = 1).
inline std::vector<Mat<double>> ToMatrices(const Json& v, const Nested& s) {
  auto fill = [](const Json& rows, int r, int c) {
    Mat<double> m(r, c);  // (R, C)
    for (int i = 0; i < r; ++i) {
      const Json& row = rows[static_cast<size_t>(i)];
      for (int j = 0; j < c; ++j) m(i, j) = row[static_cast<size_t>(j)].get<double>();
    }
    return m;
  };
  std::vector<Mat<double>> out;
  if (s.rank == 2) out.push_back(fill(v, s.dims[0], s.dims[1]));
  for (int h = 0; s.rank == 3 && h < s.dims[0]; ++h)
    out.push_back(fill(v[static_cast<size_t>(h)], s.dims[1], s.dims[2]));
  return out;
}

}  // namespace detail

// Reads and checks the whole input. `need_grad`: dOutput is required (backward); when it is
// not, a dOutput given is still checked, so that one file serves both commands. False with a
// one-line message (the field first) otherwise.
inline bool ParseRawInput(const Json& j, bool need_grad, RawInput* in, std::string* error) {
  using detail::Nested;
  using detail::NestedReader;
  using detail::Quoted;
  using detail::ShapeText;
  auto fail = [&](const std::string& message) {
    *error = message;
    return false;
  };
  auto str = [](std::int64_t x) { return std::to_string(x); };

  // 1. an object with known fields, q, k, v present (and dOutput for backward)
  if (!j.is_object())
    return fail("expected a JSON object {\"q\": ..., \"k\": ..., \"v\": ...}, got " + api::DescribeJson(j));
  for (const auto& item : j.items()) {
    bool known = false;
    for (const char* f : kRawFields) known = known || item.key() == f;
    if (!known)
      return fail(api::DescribeJson(Json(item.key())) + ": unknown field (expected q, k, v, mask, "
                  "causal, scale, temperature, normalizer, dOutput)");
  }
  for (const char* f : {"q", "k", "v"})
    if (!j.contains(f)) return fail(Quoted(f) + ": missing (q, k and v are required)");
  if (need_grad && !j.contains("dOutput"))
    return fail("\"dOutput\": missing (backward needs dL/d output, h×n×d_v)");

  // 2. q, k, v: each 2-D or 3-D, not empty, not ragged, numbers only
  Nested qs, ks, vs;
  if (!NestedReader("q", "n×d_k or h×n×d_k nested arrays of numbers", false,
                    {{"n", "d_k"}, {"h", "n", "d_k"}})
           .Read(j["q"], 2, 3, &qs, error) ||
      !NestedReader("k", "m×d_k or h×m×d_k nested arrays of numbers", false,
                    {{"m", "d_k"}, {"h", "m", "d_k"}})
           .Read(j["k"], 2, 3, &ks, error) ||
      !NestedReader("v", "m×d_v or h×m×d_v nested arrays of numbers", false,
                    {{"m", "d_v"}, {"h", "m", "d_v"}})
           .Read(j["v"], 2, 3, &vs, error))
    return false;

  // 3. the shapes agree: same rank, same heads, d_k of q = d_k of k, m of k = m of v
  const bool three_d = qs.rank == 3;
  const int o = three_d ? 1 : 0;  // where (rows, columns) start
  const std::string rank_word = three_d ? "3-D (h heads)" : "2-D (one head)";
  for (const auto& [name, s] : {std::pair<const char*, const Nested*>{"k", &ks}, {"v", &vs}}) {
    if (s->rank != qs.rank)
      return fail(Quoted(name) + ": expected " + rank_word + " like \"q\", got a " + str(s->rank) + "-D array");
    if (three_d && s->dims[0] != qs.dims[0])
      return fail(Quoted(name) + ": expected h = " + str(qs.dims[0]) + " heads like \"q\", got " +
                  str(s->dims[0]));
  }
  if (ks.dims[o + 1] != qs.dims[o + 1])
    return fail("\"k\": expected d_k = " + str(qs.dims[o + 1]) + " columns like \"q\" (" + ShapeText(qs) +
                "), got " + ShapeText(ks));
  if (vs.dims[o] != ks.dims[o])
    return fail("\"v\": expected m = " + str(ks.dims[o]) + " rows like \"k\" (" + ShapeText(ks) + "), got " +
                ShapeText(vs));
  const std::int64_t h = three_d ? qs.dims[0] : 1, n = qs.dims[o], m = ks.dims[o];
  const std::int64_t dk = qs.dims[o + 1], dv = vs.dims[o + 1];

  // 4. the limit on every number in and out, before allocating any of them
  std::int64_t numbers = h * (n * dk + m * dk + m * dv)  // q, k, v
                         + h * (n * m + n * dv);         // weights, output
  if (j.contains("mask") || j.contains("causal")) numbers += n * m;  // the mask
  if (j.contains("dOutput")) numbers += h * n * dv;                  // dOutput
  if (need_grad) numbers += h * (n * dk + m * dk + m * dv);          // dq, dk, dv
  if (numbers > kMaxNumbers)
    return fail("too large: h = " + str(h) + ", n = " + str(n) + ", m = " + str(m) + ", d_k = " + str(dk) +
                ", d_v = " + str(dv) + " need " + str(numbers) + " numbers in and out, more than the limit " +
                str(kMaxNumbers));

  // 5. the settings, each by its row of RawSettingsFields()
  RawSettings settings;
  for (const char* f : {"causal", "scale", "temperature", "normalizer"}) {
    if (!j.contains(f)) continue;
    if (api::ApplyJsonField(*FindField(RawSettingsFields(), f), settings, j[f], Quoted(f), error) !=
        api::FieldStatus::kOk)
      return false;
  }
  const bool causal = settings.causal;
  HeadConfig head;
  head.normalizer = settings.normalizer;
  head.temperature = settings.temperature;
  head.scale = settings.scale;
  Mask mask;  // (N, M) or empty
  if (j.contains("mask")) {
    const std::string expected = str(n) + "×" + str(m) + " (n×m) booleans, true = may attend";
    Nested ms;
    if (!NestedReader("mask", expected, true, {{"n", "m"}}).Read(j["mask"], 2, 2, &ms, error)) return false;
    if (ms.dims[0] != n || ms.dims[1] != m)
      return fail("\"mask\": expected " + expected + ", got " + ShapeText(ms));
    mask.resize(n, m);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index jj = 0; jj < m; ++jj)
        mask(i, jj) = j["mask"][static_cast<size_t>(i)][static_cast<size_t>(jj)].get<bool>();
  }
  if (causal) mask = CombineMasks(static_cast<int>(n), static_cast<int>(m), true, mask);

  // 6. dOutput, shaped like the output (a 2-D input may also give it as 1×n×d_v)
  std::vector<Mat<double>> d_output;
  if (j.contains("dOutput")) {
    const std::string nd = str(n) + "×" + str(dv);
    const std::string expected =
        (three_d ? str(h) + "×" + nd : nd + " or 1×" + nd) + " (h×n×d_v, like the output) numbers";
    Nested ds;
    NestedReader reader("dOutput", expected, false,
                        three_d ? std::vector<std::vector<std::string>>{{"h", "n", "d_v"}}
                                : std::vector<std::vector<std::string>>{{"n", "d_v"},
                                                                        {"h", "n", "d_v"}});
    if (!reader.Read(j["dOutput"], three_d ? 3 : 2, 3, &ds, error)) return false;
    const int od = ds.rank == 3 ? 1 : 0;
    if ((ds.rank == 3 && ds.dims[0] != h) || ds.dims[od] != n || ds.dims[od + 1] != dv)
      return fail("\"dOutput\": expected " + expected + ", got " + ShapeText(ds));
    d_output = detail::ToMatrices(j["dOutput"], ds);
  }

  // 7. all checked: copy the numbers
  *in = RawInput{};
  in->three_d = three_d;
  in->heads = static_cast<int>(h);
  in->n = static_cast<int>(n);
  in->m = static_cast<int>(m);
  in->d_k = static_cast<int>(dk);
  in->d_v = static_cast<int>(dv);
  in->q = detail::ToMatrices(j["q"], qs);
  in->k = detail::ToMatrices(j["k"], ks);
  in->v = detail::ToMatrices(j["v"], vs);
  in->d_output = std::move(d_output);
  in->mask = std::move(mask);
  in->head = head;
  return true;
}

}  // namespace attn::cli
