// Settings tables (engine/base/fields.h) meet JSON: one field read from a JSON value, a table written
// as a JSON object. The page's state, the URL hash, postMessage and every CLI input read
// settings through ApplyJsonField, so they accept the same values and refuse the same way:
//   <field as the user wrote it>: expected <what the rule accepts>, got <what came>
#pragma once

#include "engine/base/fields.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace attn::api {

using Json = nlohmann::json;

// A JSON object from key/value pairs: what Json{{"key", value}, ...} makes, with a fraction of
// its code (nlohmann's initializer lists expand to a lot of code at every use, and the page
// counts its bytes). The values are copied: for large arrays, assign them into the object.
Json Obj(std::initializer_list<std::pair<std::string_view, Json>> members);

// A JSON value shortened for a message, on one line, never throwing: numbers shortest, strings
// quoted (at most 40 characters), true/false/null as they are, "an array", "an object".
std::string DescribeJson(const Json& v);

// A field name from outside, as a message shows it: a plain name (letters, digits, '_', '.', '-',
// at most 40) as it is; anything else quoted like DescribeJson, so that a name holding a newline,
// a quote or 4 KB still makes a one-line message.
std::string ShownName(const std::string& name);

enum class FieldStatus { kOk, kWrongType, kBadValue };

// What a refusal of `v` by `rule` says came: DescribeJson(v), except for a set of names, where it
// is the first unknown name ("foo" in "sentence,foo"), the one to correct.
std::string DescribeRefused(const FieldRule& rule, const Json& v);

// Reads `v` into field `f` of `c` when the rule accepts it; otherwise leaves `c` untouched and
// writes the refusal (naming the field as `shown`, e.g. "train.batch" or "\"batch\"").
template <class C>
FieldStatus ApplyJsonField(const Field<C>& f, C& c, const Json& v, std::string_view shown,
                           std::string* error) {
  const FieldRule& r = f.rule;
  auto refuse = [&](FieldStatus s) {
    *error = RefusalText(shown, r, DescribeRefused(r, v));
    return s;
  };
  if (v.is_null() && r.nullable) {
    f.set_null(c);
    return FieldStatus::kOk;
  }
  switch (r.kind) {
    case FieldKind::kInteger:
    case FieldKind::kNumber:
      if (!v.is_number()) return refuse(FieldStatus::kWrongType);
      // Integers beyond 2^53 become the nearest double: still out of every range.
      if (!AcceptsNumber(r, v.get<double>())) return refuse(FieldStatus::kBadValue);
      f.set_number(c, v.get<double>());
      return FieldStatus::kOk;
    case FieldKind::kBoolean:
      if (!v.is_boolean()) return refuse(FieldStatus::kWrongType);
      f.set_number(c, v.get<bool>() ? 1 : 0);
      return FieldStatus::kOk;
    case FieldKind::kName:
      if (!v.is_string()) return refuse(FieldStatus::kWrongType);
      if (!AcceptsName(r, v.get_ref<const std::string&>())) return refuse(FieldStatus::kBadValue);
      f.set_text(c, v.get<std::string>());
      return FieldStatus::kOk;
    case FieldKind::kText:
      if (!v.is_string()) return refuse(FieldStatus::kWrongType);
      f.set_text(c, v.get<std::string>());
      return FieldStatus::kOk;
    case FieldKind::kNameSet: {
      // "sentence,steps" or ["sentence", "steps"]
      std::string text, canonical, unknown;
      if (v.is_string()) {
        text = v.get<std::string>();
      } else if (v.is_array()) {
        for (const Json& item : v) {
          if (!item.is_string()) return refuse(FieldStatus::kWrongType);
          text += item.get<std::string>() + ",";
        }
      } else {
        return refuse(FieldStatus::kWrongType);
      }
      if (!ParseNameSet(r, text, &canonical, &unknown)) return refuse(FieldStatus::kBadValue);
      f.set_text(c, canonical);
      return FieldStatus::kOk;
    }
  }
  return refuse(FieldStatus::kBadValue);
}

// The field's value as JSON: integers as JSON integers, numbers as doubles.
template <class C>
Json FieldToJson(const Field<C>& f, const C& c) {
  if (f.rule.nullable && f.is_null(c)) return nullptr;
  switch (f.rule.kind) {
    case FieldKind::kInteger: return static_cast<std::int64_t>(f.get_number(c));
    case FieldKind::kNumber: return f.get_number(c);
    case FieldKind::kBoolean: return f.get_number(c) != 0;
    case FieldKind::kName:
    case FieldKind::kText:
    case FieldKind::kNameSet: return f.get_text(c);
  }
  return nullptr;
}

// Every field of the table into the object `out`.
template <class C>
void FieldsToJson(const FieldTable<C>& table, const C& c, Json& out) {
  for (const Field<C>& f : table) out[f.name] = FieldToJson(f, c);
}

// "a, b, c": the table's names, for "unknown field" messages.
template <class C>
std::string FieldNames(const FieldTable<C>& table) {
  std::string out;
  for (const Field<C>& f : table) out += (out.empty() ? "" : ", ") + f.name;
  return out;
}

}  // namespace attn::api
