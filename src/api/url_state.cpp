#include "api/url_state.h"

#include "engine/text/tokenizer.h"

#include <cctype>
#include <cstdlib>
#include <algorithm>

namespace attn::api {

namespace {

constexpr std::string_view kTrainPrefix = "train.";

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool ValidUtf8(std::string_view s) {
  char32_t cp = 0;
  for (std::size_t pos = 0; pos < s.size();)
    if (!DecodeUtf8(s, pos, cp)) return false;
  return true;
}

std::string Trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// [+-]digits[.digits][e[+-]digits] or [+-].digits[...]: what a JavaScript link writer produces.
bool IsDecimal(const std::string& t) {
  std::size_t i = 0, n = t.size();
  auto digits = [&]() {
    const std::size_t from = i;
    while (i < n && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    return i - from;
  };
  if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < n && t[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == n;
}

// A link's text read by a row's kind (see the header).
Json Typed(const FieldRule& rule, const std::string& text) {
  if (rule.kind == FieldKind::kInteger || rule.kind == FieldKind::kNumber) {
    const std::string t = Trim(text);
    if (IsDecimal(t)) return std::strtod(t.c_str(), nullptr);
    const std::string l = Lower(t);
    if (l == "nan" || l == "inf" || l == "+inf" || l == "-inf" || l == "infinity" || l == "+infinity" ||
        l == "-infinity")
      return nullptr;  // refused as a number, with the field's message
    return text;
  }
  if (rule.kind == FieldKind::kBoolean) {
    const std::string l = Lower(Trim(text));
    if (l == "1" || l == "true" || l == "yes" || l == "on") return true;
    if (l == "0" || l == "false" || l == "no" || l == "off") return false;
    return text;
  }
  return text;
}

// The row a link key names, and its position in table order; null when unknown.
const FieldRule* RuleOf(const std::string& key, int* order) {
  int k = 0;
  auto find = [&](const auto& table, std::string_view name) -> const FieldRule* {
    for (const auto& f : table) {
      if (f.name == name) {
        *order = k;
        return &f.rule;
      }
      ++k;
    }
    return nullptr;
  };
  if (key.compare(0, kTrainPrefix.size(), kTrainPrefix) == 0) {
    const std::string_view sub = std::string_view(key).substr(kTrainPrefix.size());
    k = 1000;
    if (const FieldRule* r = find(TrainFields(), sub)) return r;
    return find(TrainStateFields(), sub);
  }
  if (const FieldRule* r = find(LabFields(), key)) return r;
  return find(StateFields(), key);
}

}  // namespace

bool PercentDecode(std::string_view in, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+') {
      *out += ' ';
    } else if (in[i] == '%') {
      if (i + 2 >= in.size()) return false;  // "%", "%4" at the end
      const int hi = HexDigit(in[i + 1]), lo = HexDigit(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      *out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      *out += in[i];
    }
  }
  return ValidUtf8(*out);
}

std::string PercentEncode(std::string_view in) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (char ch : in) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || std::string_view("-_.!~*'()").find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

LinkPatch ReadLink(std::string_view hash) {
  LinkPatch link;
  if (!hash.empty() && hash[0] == '#') hash.remove_prefix(1);
  std::vector<std::pair<int, std::string>> ordered;  // (table order, key)
  Json flat = Json::object();
  while (!hash.empty()) {
    const std::size_t amp = hash.find('&');
    const std::string_view pair = hash.substr(0, amp);
    hash = amp == std::string_view::npos ? std::string_view() : hash.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    const std::string_view raw_key = pair.substr(0, eq);
    const std::string_view raw_value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    std::string key, value;
    if (!PercentDecode(raw_key, &key)) {
      link.errors.push_back({std::string(raw_key.substr(0, 40)), "malformed parameter name"});
      continue;
    }
    if (!PercentDecode(raw_value, &value)) {
      link.errors.push_back({key, "malformed percent-encoding in the link"});
      continue;
    }
    int order = 0;
    const FieldRule* rule = RuleOf(key, &order);
    if (!rule) {
      link.errors.push_back({key, "unknown parameter"});
      continue;
    }
    if (!flat.contains(key)) ordered.emplace_back(order, key);
    flat[key] = Typed(*rule, value);  // the last value of a key wins
  }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [order, key] : ordered) {
    link.keys.push_back(key);
    if (key.compare(0, kTrainPrefix.size(), kTrainPrefix) == 0)
      link.patch["train"][key.substr(kTrainPrefix.size())] = flat[key];
    else
      link.patch[key] = flat[key];
  }
  return link;
}

Json PatchOfKey(const LinkPatch& link, const std::string& key) {
  Json p = Json::object();
  if (key.compare(0, kTrainPrefix.size(), kTrainPrefix) == 0) {
    const std::string sub = key.substr(kTrainPrefix.size());
    p["train"][sub] = link.patch["train"][sub];
  } else {
    p[key] = link.patch[key];
  }
  return p;
}

LinkResult ApplyLink(const LabState& current, std::string_view hash) {
  const LinkPatch link = ReadLink(hash);
  LinkResult out;
  out.state = current;
  out.errors = link.errors;
  if (link.keys.empty()) return out;
  PatchResult all = ApplyStatePatch(current, link.patch);
  if (all.ok) {
    out.state = all.state;
    out.accepted = link.patch;
    return out;
  }
  // Field by field, twice: a field refused in the first pass may depend on a later one.
  std::vector<std::string> todo = link.keys;
  std::vector<PatchResult> refused;
  for (int pass = 0; pass < 2 && !todo.empty(); ++pass) {
    std::vector<std::string> again;
    refused.clear();
    for (const std::string& key : todo) {
      const Json one = PatchOfKey(link, key);
      PatchResult r = ApplyStatePatch(out.state, one);
      if (r.ok) {
        out.state = r.state;
        out.accepted.merge_patch(one);
      } else {
        again.push_back(key);
        refused.push_back(std::move(r));
      }
    }
    todo = std::move(again);
  }
  for (const PatchResult& r : refused) out.errors.push_back({r.field, r.message});
  if (!refused.empty()) out.last_refusal = refused.back();
  return out;
}

std::string WriteLink(const LabState& state, const TrainState& train_defaults) {
  std::string out = "#";
  auto add = [&](const std::string& key, const std::string& value) {
    if (out.size() > 1) out += '&';
    out += PercentEncode(key) + "=" + PercentEncode(value);
  };
  auto text = [](const auto& f, const auto& c) {
    return f.rule.kind == FieldKind::kBoolean ? std::string(f.get_number(c) != 0 ? "1" : "0") : FieldText(f, c);
  };
  const LabState defaults;
  for (const auto& f : LabFields()) {
    if (!f.linked_at_default && text(f, state.config) == text(f, defaults.config)) continue;  // the edits
    add(f.name, text(f, state.config));
  }
  for (const auto& f : StateFields()) {
    if (!f.linked_at_default && text(f, state) == text(f, defaults)) continue;
    if (f.rule.kind == FieldKind::kNameSet) {  // names need no escaping: the commas stay readable
      out += (out.size() > 1 ? "&" : "") + f.name + "=" + text(f, state);
      continue;
    }
    add(f.name, text(f, state));
  }
  for (const auto& f : TrainFields())
    if (text(f, state.train.config) != text(f, train_defaults.config))
      add("train." + f.name, text(f, state.train.config));
  for (const auto& f : TrainStateFields())
    if (text(f, state.train) != text(f, train_defaults))
      add("train." + f.name, text(f, state.train));
  return out;
}

}  // namespace attn::api
