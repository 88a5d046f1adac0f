// The BPE vocabulary as JSON (bpe.h), on nlohmann-json: attn_model_io.
#include "model/tokenizer/bpe.h"

#include <nlohmann/json.hpp>

namespace attn {
namespace model {

std::string BpeToJson(const Bpe& bpe) {
  nlohmann::json merges = nlohmann::json::array();
  for (const BpeMerge& m : bpe.merges()) merges.push_back({m.left, m.right, m.result});
  nlohmann::json j = {{"format", "attnlab-bpe"},
                      {"version", 1},
                      {"char_count", bpe.char_count()},
                      {"tokens", bpe.tokens()},
                      {"merges", merges}};
  return j.dump(1);
}

bool BpeFromJson(const std::string& text, Bpe* bpe, std::string* error) {
  auto fail = [&](const std::string& message) {
    if (error) *error = "bpe: " + message;
    return false;
  };
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return fail("the vocabulary is not a JSON object");
  if (!j.contains("format") || !j["format"].is_string() || j["format"] != "attnlab-bpe")
    return fail("format is not \"attnlab-bpe\"");
  if (!j.contains("version") || j["version"] != 1) return fail("version is not 1");
  if (!j.contains("char_count") || !j["char_count"].is_number_integer())
    return fail("char_count is not an integer");
  if (!j.contains("tokens") || !j["tokens"].is_array()) return fail("tokens is not an array");
  if (!j.contains("merges") || !j["merges"].is_array()) return fail("merges is not an array");
  std::vector<std::string> tokens;
  for (const auto& t : j["tokens"]) {
    if (!t.is_string()) return fail("a token is not a string");
    tokens.push_back(t.get<std::string>());
  }
  std::vector<BpeMerge> merges;
  for (const auto& m : j["merges"]) {
    if (!m.is_array() || m.size() != 3 || !m[0].is_number_integer() ||
        !m[1].is_number_integer() || !m[2].is_number_integer())
      return fail("a merge is not three integers");
    merges.push_back({m[0].get<int>(), m[1].get<int>(), m[2].get<int>()});
  }
  return bpe->Load(std::move(tokens), j["char_count"].get<int>(), std::move(merges), error);
}

}  // namespace model
}  // namespace attn
