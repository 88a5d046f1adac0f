#include "api/fields_json.h"

#include <algorithm>

namespace attn::api {

Json Obj(std::initializer_list<std::pair<std::string_view, Json>> members) {
  Json out = Json::object();
  for (const auto& [key, value] : members) out[std::string(key)] = value;
  return out;
}


std::string DescribeJson(const Json& v) {
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  if (v.is_number_float()) return FormatShortest(v.get<double>());
  std::string s = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (s.size() > 40) {
    std::size_t cut = 36;  // on a character boundary: never half a Cyrillic letter
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    s = s.substr(0, cut) + (v.is_string() ? "...\"" : "...");
  }
  return s;
}

std::string ShownName(const std::string& name) {
  const bool plain = !name.empty() && name.size() <= 40 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
  });
  return plain ? name : DescribeJson(Json(name));
}

std::string DescribeRefused(const FieldRule& rule, const Json& v) {
  if (rule.kind == FieldKind::kNameSet) {
    std::string text, canonical, unknown;
    if (v.is_string()) text = v.get<std::string>();
    else if (v.is_array() && std::all_of(v.begin(), v.end(), [](const Json& x) { return x.is_string(); }))
      for (const Json& item : v) text += item.get<std::string>() + ",";
    else return DescribeJson(v);
    if (!ParseNameSet(rule, text, &canonical, &unknown)) return DescribeJson(Json(unknown));
  }
  return DescribeJson(v);
}

}  // namespace attn::api
