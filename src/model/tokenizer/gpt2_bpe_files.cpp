// GPT-2's tokenizer files (gpt2_bpe.h), on nlohmann-json: attn_model_io.
#include "model/tokenizer/gpt2_bpe.h"
#include "model/format/read_file.h"
#include "model/tokenizer/gpt2_bpe_json.h"
#include "model/tokenizer/strict_json.h"

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <unordered_set>

#include <nlohmann/json.hpp>

namespace attn {
namespace model {

namespace {

using Json = nlohmann::json;

bool ParseJson(std::string_view text, Json* out, std::string* problem) { return ParseStrictJson(text, out, problem); }

// A JSON id: an integer in 0..kMaxId.
bool JsonId(const Json& v, int* id) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(Gpt2Bpe::kMaxId)) return false;
    *id = static_cast<int>(u);
    return true;
  }
  if (!v.is_number_integer()) return false;
  const auto i = v.get<std::int64_t>();
  if (i < 0 || i > Gpt2Bpe::kMaxId) return false;
  *id = static_cast<int>(i);
  return true;
}

// The vocabulary object (vocab.json, or tokenizer.json's model.vocab) as (token, id) pairs.
bool VocabFromJson(const Json& j, const std::string& where, std::vector<std::pair<std::string, int>>* vocab,
                   std::string* error) {
  if (!j.is_object()) {
    if (error) *error = where + ": not a JSON object of tokens and their ids";
    return false;
  }
  for (const auto& [token, value] : j.items()) {
    int id;
    if (!JsonId(value, &id)) {
      if (error) *error = where + ": token " + Gpt2Quoted(token) + " has the id " + value.dump() +
                          ", not an integer in 0.." + std::to_string(Gpt2Bpe::kMaxId);
      return false;
    }
    vocab->emplace_back(token, id);
  }
  return true;
}

// A merge written "left right": exactly one space, both sides non-empty (byte-level tokens
// never hold a space: it is "Ġ").
bool SplitMerge(std::string_view line, std::pair<std::string, std::string>* merge) {
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos || space == 0 || space + 1 == line.size() ||
      line.find(' ', space + 1) != std::string_view::npos)
    return false;
  *merge = {std::string(line.substr(0, space)), std::string(line.substr(space + 1))};
  return true;
}

// Refuses (by name) a member of `obj` that is not in `known`.
bool OnlyKnown(const Json& obj, std::initializer_list<const char*> known, const std::string& where,
               std::string* error) {
  for (const auto& [key, value] : obj.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (!ok) {
      if (error) *error = where + ": the field " + Gpt2Quoted(key) + " is not supported";
      return false;
    }
  }
  return true;
}

}  // namespace

bool Gpt2FromVocabMerges(std::string_view vocab_json, std::string_view merges_txt, Gpt2Bpe* bpe, std::string* error,
                         const std::string& vocab_name, const std::string& merges_name) {
  Json j;
  std::string problem;
  if (!ParseJson(vocab_json, &j, &problem)) {
    if (error) *error = vocab_name + ": " + problem;
    return false;
  }
  std::vector<std::pair<std::string, int>> vocab;
  if (!VocabFromJson(j, vocab_name, &vocab, error)) return false;

  std::vector<std::pair<std::string, std::string>> merges;
  std::size_t line_start = 0;
  for (int line_number = 1; line_start < merges_txt.size(); ++line_number) {
    std::size_t end = merges_txt.find('\n', line_start);
    if (end == std::string_view::npos) end = merges_txt.size();
    std::string_view line = merges_txt.substr(line_start, end - line_start);
    line_start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // a file saved on Windows
    if (line_number == 1 && line.substr(0, 8) == "#version") continue;
    merges.emplace_back();
    if (!SplitMerge(line, &merges.back())) {
      if (error) *error = merges_name + ": line " + std::to_string(line_number) +
                          " is not two tokens separated by one space";
      return false;
    }
  }
  // GPT2Tokenizer's one special token, when the vocabulary has it (id 50256 in GPT-2's)
  std::vector<Gpt2AddedToken> added;
  for (const auto& [token, id] : vocab)
    if (token == "<|endoftext|>") added.push_back({token, id, true});
  return bpe->Load(vocab, merges, added, error, {vocab_name, merges_name, vocab_name});
}

bool LoadGpt2VocabMerges(const std::string& vocab_path, const std::string& merges_path, Gpt2Bpe* bpe,
                         std::string* error) {
  std::string vocab, merges;
  return ReadFileBytes(vocab_path, &vocab, error) && ReadFileBytes(merges_path, &merges, error) &&
         Gpt2FromVocabMerges(vocab, merges, bpe, error, vocab_path, merges_path);
}

bool Gpt2FromTokenizerJson(std::string_view text, Gpt2Bpe* bpe, std::string* error, const std::string& name) {
  Json j;
  std::string problem;
  if (!ParseJson(text, &j, &problem)) {
    if (error) *error = name + ": " + problem;
    return false;
  }
  return Gpt2FromParsedTokenizerJson(j, bpe, error, name);
}

bool Gpt2FromParsedTokenizerJson(const nlohmann::json& j, Gpt2Bpe* bpe, std::string* error, const std::string& name) {
  auto fail = [&](const std::string& message) {
    if (error) *error = name + ": " + message;
    return false;
  };
  if (!j.is_object()) return fail("not a JSON object");
  if (!OnlyKnown(j, {"version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer",
                     "post_processor", "decoder", "model"}, name, error))
    return false;
  const auto absent_or_null = [&](const char* key) { return !j.contains(key) || j[key].is_null(); };
  const auto type_of = [](const Json& part) {
    return part.is_object() && part.contains("type") && part["type"].is_string() ? part["type"].get<std::string>()
                                                                                : std::string("(no type)");
  };
  // A ByteLevel part: its flags change offsets only, except the two the pre-tokenizer checks.
  const auto byte_level = [&](const char* key) {
    const Json& part = j[key];
    if (type_of(part) != "ByteLevel")
      return fail(std::string(key) + " " + Gpt2Quoted(type_of(part)) + " is not supported (only ByteLevel)");
    if (!OnlyKnown(part, {"type", "add_prefix_space", "trim_offsets", "use_regex"}, name + ": " + key, error))
      return false;
    for (const char* flag : {"add_prefix_space", "trim_offsets", "use_regex"})
      if (part.contains(flag) && !part[flag].is_boolean())
        return fail(std::string(key) + "." + flag + " is not true or false");
    return true;
  };

  if (j.contains("version") && !j["version"].is_string()) return fail("version is not a string");
  for (const char* key : {"truncation", "padding"})
    if (!absent_or_null(key)) return fail(std::string(key) + " is set: not supported (ids are never cut or padded here)");
  if (!absent_or_null("normalizer"))
    return fail("normalizer " + Gpt2Quoted(type_of(j["normalizer"])) + " is not supported (GPT-2 has none)");
  if (absent_or_null("pre_tokenizer")) return fail("pre_tokenizer is missing (GPT-2's is ByteLevel)");
  if (!byte_level("pre_tokenizer")) return false;
  const Json& pre = j["pre_tokenizer"];
  if (pre.value("add_prefix_space", false)) return fail("pre_tokenizer.add_prefix_space = true is not supported");
  if (!pre.value("use_regex", true)) return fail("pre_tokenizer.use_regex = false is not supported");
  if (!absent_or_null("post_processor") && !byte_level("post_processor")) return false;
  if (!absent_or_null("decoder") && !byte_level("decoder")) return false;

  if (!j.contains("model") || !j["model"].is_object()) return fail("model is missing or not an object");
  const Json& model = j["model"];
  if (type_of(model) != "BPE") return fail("model " + Gpt2Quoted(type_of(model)) + " is not supported (only BPE)");
  if (!OnlyKnown(model, {"type", "dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix",
                         "fuse_unk", "byte_fallback", "ignore_merges", "vocab", "merges"}, name + ": model", error))
    return false;
  const auto set = [&](const char* key) { return model.contains(key) && !model[key].is_null(); };
  if (set("dropout")) return fail("model.dropout is set: not supported (encoding would be random)");
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"})
    if (set(key) && model[key] != "") return fail(std::string("model.") + key + " is not empty: not supported");
  for (const char* key : {"byte_fallback", "ignore_merges"})
    if (set(key) && model[key] != false) return fail(std::string("model.") + key + " is not false: not supported");
  if (set("fuse_unk") && !model["fuse_unk"].is_boolean()) return fail("model.fuse_unk is not true or false");
  std::vector<std::pair<std::string, int>> vocab;
  if (!model.contains("vocab")) return fail("model.vocab is missing");
  if (!VocabFromJson(model["vocab"], name + ": model.vocab", &vocab, error)) return false;
  // An unknown token is never needed: every byte has a token (Load checks), so unk_token and
  // fuse_unk change nothing; unk_token must still name a token.
  if (set("unk_token") &&
      (!model["unk_token"].is_string() || !model["vocab"].contains(model["unk_token"].get<std::string>())))
    return fail("model.unk_token is not a token of model.vocab");
  if (!model.contains("merges") || !model["merges"].is_array()) return fail("model.merges is missing or not an array");
  std::vector<std::pair<std::string, std::string>> merges;
  for (std::size_t i = 0; i < model["merges"].size(); ++i) {
    const Json& m = model["merges"][i];
    merges.emplace_back();
    const bool ok = m.is_string() ? SplitMerge(m.get<std::string>(), &merges.back())
                                  : m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string() &&
                                        !m[0].get<std::string>().empty() && !m[1].get<std::string>().empty();
    if (ok && m.is_array()) merges.back() = {m[0].get<std::string>(), m[1].get<std::string>()};
    if (!ok)
      return fail("model.merges[" + std::to_string(i) + "] is neither \"a b\" nor [\"a\", \"b\"]");
  }

  std::vector<Gpt2AddedToken> added;
  if (!absent_or_null("added_tokens")) {
    if (!j["added_tokens"].is_array()) return fail("added_tokens is not an array");
    for (std::size_t i = 0; i < j["added_tokens"].size(); ++i) {
      const Json& a = j["added_tokens"][i];
      const std::string where = "added_tokens[" + std::to_string(i) + "]";
      if (!a.is_object()) return fail(where + " is not an object");
      if (!OnlyKnown(a, {"id", "content", "single_word", "lstrip", "rstrip", "normalized", "special"},
                     name + ": " + where, error))
        return false;
      Gpt2AddedToken t;
      if (!a.contains("id") || !JsonId(a["id"], &t.id)) return fail(where + ".id is not an integer in 0.." +
                                                                      std::to_string(Gpt2Bpe::kMaxId));
      if (!a.contains("content") || !a["content"].is_string()) return fail(where + ".content is not a string");
      t.content = a["content"].get<std::string>();
      for (const char* flag : {"single_word", "lstrip", "rstrip", "normalized", "special"})
        if (a.contains(flag) && !a[flag].is_boolean()) return fail(where + "." + flag + " is not true or false");
      // normalized matters only with a normalizer, which is refused above
      for (const char* flag : {"single_word", "lstrip", "rstrip"})
        if (a.value(flag, false)) return fail(where + "." + flag + " = true is not supported");
      t.special = a.value("special", false);
      added.push_back(t);
    }
  }
  return bpe->Load(vocab, merges, added, error,
                   {name + ": model.vocab", name + ": model.merges", name + ": added_tokens"});
}

bool LoadGpt2TokenizerJson(const std::string& path, Gpt2Bpe* bpe, std::string* error) {
  std::string text;
  return ReadFileBytes(path, &text, error) && Gpt2FromTokenizerJson(text, bpe, error, path);
}

}  // namespace model
}  // namespace attn
