// The C++ side of web/lab.js's URL contract. lab.js writes every top-level scalar field of the
// state as `name=value` and every field of the nested `train` object that differs from its
// default as `train.name=value` (encodeURIComponent; booleans as 1/0, numbers as JavaScript's
// String(n)); reading a link, it decodes each value to the type the field has in getState(),
// nests train.* back into `train` and calls setState with that patch. This test does the same
// steps in C++ (state -> hash -> patch -> ApplyPatchText) and checks that every field of the
// state, the nested train object included, comes back unchanged.
#include "app/app.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

using attn::api::Json;

const char* const kTrainPrefix = "train.";  // lab.js: TRAIN_PREFIX

// lab.js formatValue: booleans as 1/0, numbers as JavaScript's String(n), strings as they are.
std::string FormatValue(const Json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return v.dump();
  const double x = v.get<double>();
  if (x == std::floor(x) && std::fabs(x) < 1e21) {  // String(2.0) is "2"
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  return v.dump();  // the shortest text that reads back as the same double, like String(x)
}

// encodeURIComponent: everything but A-Z a-z 0-9 - _ . ! ~ * ' ( ) as %XX of the UTF-8 bytes.
std::string EncodeUriComponent(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || std::string("-_.!~*'()").find(static_cast<char>(c)) != std::string::npos) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// decodeURIComponent after lab.js's replace(/\+/g, ' ').
std::string DecodeUriComponent(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::strtol(s.substr(i + 1, 2).c_str(), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// lab.js writeHash, with trainDefaults = the train object of the default state.
std::string WriteHash(const Json& state, const Json& train_defaults) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : state.items())
    if (!v.is_null() && !v.is_object()) parts.push_back(EncodeUriComponent(k) + "=" + EncodeUriComponent(FormatValue(v)));
  for (const auto& [f, v] : state["train"].items()) {
    if (v.is_null() || v.is_object() || v == train_defaults[f]) continue;
    parts.push_back(EncodeUriComponent(kTrainPrefix + f) + "=" + EncodeUriComponent(FormatValue(v)));
  }
  std::string hash = "#";
  for (std::size_t i = 0; i < parts.size(); ++i) hash += (i ? "&" : "") + parts[i];
  return hash;
}

// lab.js parseHash: the decoded name=value pairs, in order.
std::vector<std::pair<std::string, std::string>> ParseHash(std::string hash) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!hash.empty() && hash[0] == '#') hash.erase(0, 1);
  std::size_t start = 0;
  while (start <= hash.size()) {
    const std::size_t end = std::min(hash.find('&', start), hash.size());
    const std::string pair = hash.substr(start, end - start);
    start = end + 1;
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    out.emplace_back(DecodeUriComponent(pair.substr(0, eq)), eq == std::string::npos ? "" : DecodeUriComponent(pair.substr(eq + 1)));
  }
  return out;
}

// lab.js typed(): the text as the type `example` has; what JSON.stringify then sends.
Json Typed(const std::string& text, const Json& example) {
  if (example.is_number()) {
    const double x = std::strtod(text.c_str(), nullptr);
    if (x == std::floor(x) && std::fabs(x) < 9007199254740992.0) return Json(static_cast<std::int64_t>(x));  // JSON.stringify(3) is "3"
    return Json(x);
  }
  if (example.is_boolean()) {
    if (text == "1" || text == "true" || text == "yes" || text == "on") return true;
    if (text == "0" || text == "false" || text == "no" || text == "off") return false;
  }
  return text;
}

// lab.js applyLinkState: the patch setState receives for a link, typed against `current`.
Json PatchFromHash(const std::string& hash, const Json& current) {
  Json patch = Json::object();
  for (const auto& [key, text] : ParseHash(hash)) {
    if (key.rfind(kTrainPrefix, 0) == 0) {
      const std::string sub = key.substr(std::string(kTrainPrefix).size());
      REQUIRE_MESSAGE(current["train"].contains(sub), "unknown train field in the link: " << sub);
      patch["train"][sub] = Typed(text, current["train"][sub]);
    } else {
      REQUIRE_MESSAGE(current.contains(key), "unknown field in the link: " << key);
      patch[key] = Typed(text, current[key]);
    }
  }
  return patch;
}

// A state in which every field differs from the default, with text that needs encoding.
const char* const kEveryField = R"({
  "sentence": "кот & пёс = друзья + 100% #1 ещё?",
  "query": 3, "projection": "random", "temperature": 0.7, "scaled": false, "dModel": 12, "dK": 6,
  "seed": 7, "positional": false, "heads": 2, "head": 1, "normalizer": "sparsemax", "causal": true,
  "dV": 4, "target": 0, "lang": "ru", "view": "training",
  "train": {"task": "previous", "length": 5, "optimizer": "sgd", "lr": 0.03, "batch": 8, "seed": 3,
            "normalizer": "relunorm", "scaled": false, "dModel": 16, "dK": 8, "dV": 4, "heads": 2,
            "causal": true, "example": "EXAMPLE", "compare": "lr:0.1", "play": true, "speed": 4,
            "query": 2}
})";

}  // namespace

TEST_SUITE("app") {

TEST_CASE("URL state: every field of the state, the nested train object included, survives state -> hash -> setState") {
  const Json defaults = attn::api::StateToJson(attn::api::LabState{});
  Json wanted = Json::parse(kEveryField);
  wanted["train"]["example"] = attn::MakeTask(attn::TaskKind::kPreviousToken, 5).default_example;

  app::AppState source;
  app::InitApp(source);
  const attn::api::PatchResult set = app::ApplyPatch(source, wanted);
  REQUIRE_MESSAGE(set.ok, set.field << ": " << set.message);
  const Json state = Json::parse(app::StateJson(source));

  // The test covers every field: a field added to the state must be added to kEveryField.
  for (const auto& [k, v] : defaults.items()) {
    CAPTURE(k);
    REQUIRE(state.contains(k));
    if (k != "train") CHECK(state[k] != v);
  }
  for (const auto& [k, v] : defaults["train"].items()) {
    CAPTURE(k);
    REQUIRE(state["train"].contains(k));
    CHECK(state["train"][k] != v);
  }
  CHECK(state.size() == wanted.size());
  CHECK(state["train"].size() == wanted["train"].size());

  const std::string hash = WriteHash(state, defaults["train"]);
  CAPTURE(hash);
  CHECK(hash.find("sentence=%D0%BA%D0%BE%D1%82%20%26%20") != std::string::npos);  // "кот & " encoded
  CHECK(ParseHash(hash).size() == (state.size() - 1) + state["train"].size());   // every field written

  app::AppState reader;
  app::InitApp(reader);
  const Json patch = PatchFromHash(hash, Json::parse(app::StateJson(reader)));
  const attn::api::PatchResult r = app::ApplyPatchText(reader, patch.dump());
  REQUIRE_MESSAGE(r.ok, r.field << ": " << r.message);
  const Json back = Json::parse(app::StateJson(reader));
  for (const auto& [k, v] : state.items()) {
    CAPTURE(k);
    CHECK(back[k] == v);
  }
  CHECK(app::StateJson(reader) == app::StateJson(source));
  CHECK(app::TraceJson(reader) == app::TraceJson(source));
}

TEST_CASE("URL state: the default state writes only the top-level fields, and reading them changes nothing") {
  app::AppState s;
  app::InitApp(s);
  const Json state = Json::parse(app::StateJson(s));
  const std::string hash = WriteHash(state, state["train"]);
  CHECK(hash.find(kTrainPrefix) == std::string::npos);
  app::AppState reader;
  app::InitApp(reader);
  const attn::api::PatchResult r = app::ApplyPatchText(reader, PatchFromHash(hash, state).dump());
  REQUIRE(r.ok);
  CHECK(app::StateJson(reader) == app::StateJson(s));
}

TEST_CASE("URL state: numbers round-trip through their shortest text") {
  for (double t : {0.1, 0.7, 1.0 / 3.0, 2.5e-3, 7.0, 123.456}) {
    CAPTURE(t);
    app::AppState s;
    app::InitApp(s);
    REQUIRE(app::ApplyPatch(s, {{"temperature", t}}).ok);
    const Json state = Json::parse(app::StateJson(s));
    app::AppState reader;
    app::InitApp(reader);
    REQUIRE(app::ApplyPatchText(reader, PatchFromHash(WriteHash(state, state["train"]), state).dump()).ok);
    CHECK(reader.lab.config.temperature == t);
  }
}

}  // TEST_SUITE
