// Settings as tables: one row per field of a configuration struct, written once and walked by
// everything that reads, writes, checks, compares or describes settings (the page's state
// patches and getState, the URL hash, the CLI's JSON inputs, --help, the field tables in docs/page-api.md).
// The shape is TensorFlow Playground's State.PROPS: adding a setting is one row in a table and
// one default in its struct.
//
// A row holds: the name the outside world uses ("dModel"), the rule (kind, range or names, taken
// from limits.h), a one-line description, and accessors. The default is the struct's own
// initializer, read through the row (DefaultText), so it is written once too.
//
// Every refusal reads the same, in the page and on the command line alike:
//   <field as the user wrote it>: expected <what the rule accepts>, got <what came>
//   train.batch: expected an integer from 1 to 256, got 0
#pragma once

#include "engine/base/format.h"

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

enum class FieldKind {
  kInteger,  // an integer-valued number in [min, max]
  kNumber,   // a finite number in [min, max], or (min, max] when min_open
  kBoolean,  // true or false
  kName,     // one of `names`
  kText,     // any string (the engine checks its content: a sentence, an example)
  kNameSet   // a set of `names`, written comma-separated ("sentence,steps"); "" = the empty set
};

// What a field accepts: enough to check a value and to say what was expected, in any language.
struct FieldRule {
  FieldKind kind = FieldKind::kInteger;
  double min = 0, max = 0;         // kInteger, kNumber
  bool min_open = false;           // kNumber: (min, max] instead of [min, max]
  bool nullable = false;           // null is accepted and means "the default" (see Field::set_null)
  std::vector<std::string> names;  // kName, kNameSet, in display order
};

// An integer-valued double as plain digits ("100000", not "1e+05"); others as FormatShortest.
// Inline, with AcceptsNumber below: the table's templates call them for every row.
inline std::string IntegerText(double x) {
  if (std::isfinite(x) && std::floor(x) == x && std::fabs(x) < 9007199254740992.0)  // 2^53
    return std::to_string(static_cast<long long>(x));
  return FormatShortest(x);
}

// "an integer from 1 to 256", "a number > 0 and <= 10", "true or false",
// "one of \"adam\", \"sgd\"", "a list of \"sentence\", \"steps\"", "a string"; "... or null"
// when nullable.
std::string ExpectedText(const FieldRule& rule);
// Whether a number fits an integer/number rule (finite, integral for kInteger, in range).
inline bool AcceptsNumber(const FieldRule& r, double x) {
  if (!std::isfinite(x)) return false;  // also refuses NaN, whatever the range
  if (r.kind == FieldKind::kInteger && std::floor(x) != x) return false;
  if (r.min_open ? !(x > r.min) : !(x >= r.min)) return false;
  return x <= r.max;
}
bool AcceptsName(const FieldRule& rule, std::string_view name);
// kNameSet: reads "a, b,a" (commas, spaces around names and empty items ignored) into the
// canonical text "a,b" (the rule's order, each name once). False, with the first unknown name in
// *unknown, when a name is not the rule's.
bool ParseNameSet(const FieldRule& rule, std::string_view text, std::string* canonical, std::string* unknown);
// Whether the canonical set text `set` ("sentence,steps") holds `name`.
bool NameSetHas(std::string_view set, std::string_view name);
// The one wording of a refusal: "<shown_name>: expected <ExpectedText>, got <got>".
std::string RefusalText(std::string_view shown_name, const FieldRule& rule, std::string_view got);

// One row of a table over the configuration struct C.
template <class C>
struct Field {
  std::string name;  // as written in JSON, the URL and the CLI
  FieldRule rule;
  std::string help;  // one line, for --help and docs/page-api.md
  bool linked_at_default = true;  // written into links even at its default (false: only when
                                  // changed, so that links stay short)
  // Numbers, integers and booleans (0/1) travel as double: exact for every accepted integer
  // (the largest, kMaxSeed, is below 2^53). Names and texts travel as strings.
  std::function<double(const C&)> get_number;
  std::function<void(C&, double)> set_number;      // only with a value AcceptsNumber took
  std::function<std::string(const C&)> get_text;
  std::function<void(C&, const std::string&)> set_text;  // kName: only with an accepted name
  std::function<void(C&)> set_null;                       // rule.nullable only
  std::function<bool(const C&)> is_null;                  // rule.nullable only
};

template <class C>
using FieldTable = std::vector<Field<C>>;

// A row's one-line help is for the CLI and the docs (`attnlab fields`, `--help`); the page's
// builds leave it out (ATTNLAB_FIELD_HELP=0, cmake/Emscripten.cmake): the texts are then never
// used, so the linker drops them, some 2 KB of the default page's 500 KB.
#ifndef ATTNLAB_FIELD_HELP
#define ATTNLAB_FIELD_HELP 1
#endif
struct FieldHelp {
  FieldHelp(const char* t) : text(ATTNLAB_FIELD_HELP ? t : "") {}  // implicit: rows pass a literal
  FieldHelp(std::string t) : text(ATTNLAB_FIELD_HELP ? std::move(t) : std::string()) {}
  std::string text;
};

// ---- rows -------------------------------------------------------------------------------------

template <class C, class M>
Field<C> IntegerField(std::string name, M C::*member, double min, double max, FieldHelp help) {
  Field<C> f;
  f.name = std::move(name);
  f.rule.kind = FieldKind::kInteger;
  f.rule.min = min;
  f.rule.max = max;
  f.help = std::move(help.text);
  f.get_number = [member](const C& c) { return static_cast<double>(c.*member); };
  f.set_number = [member](C& c, double x) { c.*member = static_cast<M>(x); };
  return f;
}

template <class C>
Field<C> NumberField(std::string name, double C::*member, double min, double max, bool min_open,
                     FieldHelp help) {
  Field<C> f;
  f.name = std::move(name);
  f.rule.kind = FieldKind::kNumber;
  f.rule.min = min;
  f.rule.max = max;
  f.rule.min_open = min_open;
  f.help = std::move(help.text);
  f.get_number = [member](const C& c) { return c.*member; };
  f.set_number = [member](C& c, double x) { c.*member = x; };
  return f;
}

// A number that may be absent (null in JSON: "use the default").
template <class C>
Field<C> OptionalNumberField(std::string name, std::optional<double> C::*member, double min,
                             double max, FieldHelp help) {
  Field<C> f;
  f.name = std::move(name);
  f.rule.kind = FieldKind::kNumber;
  f.rule.min = min;
  f.rule.max = max;
  f.rule.nullable = true;
  f.help = std::move(help.text);
  f.get_number = [member](const C& c) { return (c.*member).value_or(0.0); };
  f.set_number = [member](C& c, double x) { c.*member = x; };
  f.set_null = [member](C& c) { (c.*member).reset(); };
  f.is_null = [member](const C& c) { return !(c.*member).has_value(); };
  return f;
}

template <class C>
Field<C> BooleanField(std::string name, bool C::*member, FieldHelp help) {
  Field<C> f;
  f.name = std::move(name);
  f.rule.kind = FieldKind::kBoolean;
  f.help = std::move(help.text);
  f.get_number = [member](const C& c) { return c.*member ? 1.0 : 0.0; };
  f.set_number = [member](C& c, double x) { c.*member = x != 0; };
  return f;
}

template <class C>
Field<C> TextField(std::string name, std::string C::*member, FieldHelp help) {
  Field<C> f;
  f.name = std::move(name);
  f.rule.kind = FieldKind::kText;
  f.help = std::move(help.text);
  f.get_text = [member](const C& c) { return c.*member; };
  f.set_text = [member](C& c, const std::string& s) { c.*member = s; };
  return f;
}

// A text parsed where it is set into a typed value (engine/whatif/edit_lists.h's KeyList and
// HeadList): M is built from the text and keeps it in M::text, which the state writes back.
template <class C, class M>
Field<C> ParsedTextField(std::string name, M C::*member, FieldHelp help) {
  Field<C> f;
  f.name = std::move(name);
  f.rule.kind = FieldKind::kText;
  f.help = std::move(help.text);
  f.get_text = [member](const C& c) { return (c.*member).text; };
  f.set_text = [member](C& c, const std::string& s) { c.*member = M(s); };
  return f;
}

// An enum written by name: `to_name` and `parse` are the enum's own (NormalizerName and
// ParseNormalizer...), `values` every value in display order.
template <class C, class E>
Field<C> NameField(std::string name, E C::*member, const char* (*to_name)(E),
                   bool (*parse)(const std::string&, E*), const std::vector<E>& values,
                   FieldHelp help) {
  Field<C> f;
  f.name = std::move(name);
  f.rule.kind = FieldKind::kName;
  for (E v : values) f.rule.names.emplace_back(to_name(v));
  f.help = std::move(help.text);
  f.get_text = [member, to_name](const C& c) { return std::string(to_name(c.*member)); };
  f.set_text = [member, parse](C& c, const std::string& s) { parse(s, &(c.*member)); };
  return f;
}

// A name stored as a string (the interface language, the view).
template <class C>
Field<C> NameTextField(std::string name, std::string C::*member, std::vector<std::string> names,
                       FieldHelp help) {
  Field<C> f = TextField<C>(std::move(name), member, std::move(help));
  f.rule.kind = FieldKind::kName;
  f.rule.names = std::move(names);
  return f;
}

// A set of names stored as its canonical text ("sentence,steps"; "" = none): what a course page
// hides or locks. set_text is only called with a canonical text (ParseNameSet).
template <class C>
Field<C> NameSetField(std::string name, std::string C::*member, std::vector<std::string> names,
                      FieldHelp help) {
  Field<C> f = TextField<C>(std::move(name), member, std::move(help));
  f.rule.kind = FieldKind::kNameSet;
  f.rule.names = std::move(names);
  return f;
}

// The same row, written into links only when it differs from its default.
template <class C>
Field<C> OnlyLinkedWhenChanged(Field<C> f) {
  f.linked_at_default = false;
  return f;
}

// ---- walking a table ----------------------------------------------------------------------------

template <class C>
const Field<C>* FindField(const FieldTable<C>& table, std::string_view name) {
  for (const Field<C>& f : table)
    if (f.name == name) return &f;
  return nullptr;
}

// The field's value as text: numbers shortest, booleans true/false, names and texts as they are.
template <class C>
std::string FieldText(const Field<C>& f, const C& c) {
  if (f.rule.nullable && f.is_null(c)) return "null";
  switch (f.rule.kind) {
    case FieldKind::kBoolean: return f.get_number(c) != 0 ? "true" : "false";
    case FieldKind::kInteger: return IntegerText(f.get_number(c));
    case FieldKind::kNumber: return FormatShortest(f.get_number(c));
    case FieldKind::kName:
    case FieldKind::kText:
    case FieldKind::kNameSet: return f.get_text(c);
  }
  return {};
}

// The default, from the struct's own initializer.
template <class C>
std::string DefaultText(const Field<C>& f) {
  return FieldText(f, C{});
}

// True when every field of the table holds the same value in a and b.
template <class C>
bool SameFields(const FieldTable<C>& table, const C& a, const C& b) {
  for (const Field<C>& f : table) {
    if (f.rule.nullable && (f.is_null(a) || f.is_null(b))) {
      if (f.is_null(a) != f.is_null(b)) return false;
      continue;
    }
    const bool text = f.rule.kind == FieldKind::kName || f.rule.kind == FieldKind::kText ||
                      f.rule.kind == FieldKind::kNameSet;
    if (text ? f.get_text(a) != f.get_text(b) : !(f.get_number(a) == f.get_number(b))) return false;
  }
  return true;
}

// For callers that fill a struct directly (not through JSON): the first field whose value its
// rule does not accept, or null. Names and texts are not checked here (an enum always has a
// name; a text is checked by the engine's own validation).
template <class C>
const Field<C>* FirstRefusedField(const FieldTable<C>& table, const C& c) {
  for (const Field<C>& f : table) {
    if (f.rule.kind != FieldKind::kInteger && f.rule.kind != FieldKind::kNumber) continue;
    if (f.rule.nullable && f.is_null(c)) continue;
    if (!AcceptsNumber(f.rule, f.get_number(c))) return &f;
  }
  return nullptr;
}

// "  name  <expected> (default <d>): <help>", one line per field, for --help and docs/page-api.md.
template <class C>
std::string FieldsHelp(const FieldTable<C>& table, std::string_view indent = "  ") {
  std::size_t width = 11;  // tables printed one after the other stay aligned
  for (const Field<C>& f : table) width = f.name.size() > width ? f.name.size() : width;
  std::string out;
  for (const Field<C>& f : table) {
    out += std::string(indent) + f.name + std::string(width - f.name.size() + 2, ' ') + f.help + "; " +
           ExpectedText(f.rule) + ", default " +
           (f.rule.kind == FieldKind::kText || f.rule.kind == FieldKind::kName ||
                    f.rule.kind == FieldKind::kNameSet
                ? "\"" + DefaultText(f) + "\""
                : DefaultText(f)) +
           "\n";
  }
  return out;
}

}  // namespace attn
