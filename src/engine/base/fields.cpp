#include "engine/base/fields.h"

namespace attn {

namespace {
std::string Quote(const std::string& s) { return "\"" + s + "\""; }
}  // namespace

std::string ExpectedText(const FieldRule& r) {
  std::string out;
  switch (r.kind) {
    case FieldKind::kInteger:
      out = "an integer from " + IntegerText(r.min) + " to " + IntegerText(r.max);
      break;
    case FieldKind::kNumber:
      if (r.min_open && std::isinf(r.max)) out = "a number > " + FormatShortest(r.min);
      else if (r.min_open) out = "a number > " + FormatShortest(r.min) + " and <= " + FormatShortest(r.max);
      else if (std::isinf(r.min) && std::isinf(r.max)) out = "a finite number";
      else out = "a number from " + FormatShortest(r.min) + " to " + FormatShortest(r.max);
      break;
    case FieldKind::kBoolean: out = "true or false"; break;
    case FieldKind::kName:
      out = "one of ";
      for (std::size_t i = 0; i < r.names.size(); ++i) out += (i ? ", " : "") + Quote(r.names[i]);
      break;
    case FieldKind::kText: out = "a string"; break;
    case FieldKind::kNameSet:
      out = "a list of ";
      for (std::size_t i = 0; i < r.names.size(); ++i) out += (i ? ", " : "") + Quote(r.names[i]);
      break;
  }
  return r.nullable ? out + " or null" : out;
}

bool AcceptsName(const FieldRule& r, std::string_view name) {
  for (const std::string& n : r.names)
    if (n == name) return true;
  return false;
}

bool ParseNameSet(const FieldRule& r, std::string_view text, std::string* canonical, std::string* unknown) {
  std::vector<bool> in(r.names.size(), false);
  while (true) {
    const std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (!item.empty()) {
      bool known = false;
      for (std::size_t i = 0; i < r.names.size(); ++i)
        if (r.names[i] == item) in[i] = known = true;
      if (!known) {
        *unknown = std::string(item);
        return false;
      }
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  canonical->clear();
  for (std::size_t i = 0; i < r.names.size(); ++i)
    if (in[i]) *canonical += (canonical->empty() ? "" : ",") + r.names[i];
  return true;
}

bool NameSetHas(std::string_view set, std::string_view name) {
  while (true) {
    const std::size_t comma = set.find(',');
    if (set.substr(0, comma) == name) return true;
    if (comma == std::string_view::npos) return false;
    set.remove_prefix(comma + 1);
  }
}

std::string RefusalText(std::string_view shown_name, const FieldRule& rule, std::string_view got) {
  return std::string(shown_name) + ": expected " + ExpectedText(rule) + ", got " + std::string(got);
}

}  // namespace attn
