// A JSON text parsed strictly for the tokenizer files (attn_model_io: nlohmann-json): a key given
// twice in one object is refused, where nlohmann-json would keep the last one silently (a
// vocabulary that names a token twice is broken). Shared by gpt2_bpe_files.cpp and
// hf_tokenizer_json.cpp.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/tokenizer/gpt2_bpe.h"  // Gpt2Quoted

namespace attn {
namespace model {

// False with `problem` ("not valid JSON", "the key \"a\" appears twice in one object").
inline bool ParseStrictJson(std::string_view text, nlohmann::json* out, std::string* problem) {
  using Json = nlohmann::json;
  std::vector<std::unordered_set<std::string>> keys;  // one set per open object
  std::string repeated;
  Json::parser_callback_t check = [&](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) keys.emplace_back();
    if (event == Json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == Json::parse_event_t::key && !keys.empty() && repeated.empty() &&
        !keys.back().insert(parsed.get<std::string>()).second)
      repeated = parsed.get<std::string>();
    return true;
  };
  *out = Json::parse(text.begin(), text.end(), check, /*allow_exceptions=*/false);
  if (out->is_discarded()) {
    *problem = "not valid JSON";
    return false;
  }
  if (!repeated.empty()) {
    *problem = "the key " + Gpt2Quoted(repeated) + " appears twice in one object";
    return false;
  }
  return true;
}

}  // namespace model
}  // namespace attn
