// The lab's BPE as a Hugging Face tokenizer.json (bpe_hf.h), on nlohmann-json: attn_model_io.
#include "model/tokenizer/bpe_hf.h"

#include "engine/text/tokenizer.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <initializer_list>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attn {
namespace model {

namespace {

using Json = nlohmann::ordered_json;  // keys in the order the tokenizers library saves them

std::string Hex(char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%X}", static_cast<unsigned>(cp));
  return buf;
}

// The engine's table as runs of one class over every code point but the surrogates (no valid text
// holds one, and Oniguruma refuses them in a class), computed once.
struct Run {
  char32_t first, last;
  CharClass cls;
};
const std::vector<Run>& Runs() {
  static const std::vector<Run> runs = [] {
    std::vector<Run> out;
    for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
      if (cp == 0xD800) cp = 0xE000;
      const CharClass c = ClassifyCodePoint(cp);
      if (!out.empty() && out.back().cls == c && out.back().last + 1 == cp) out.back().last = cp;
      else out.push_back({cp, cp, c});
    }
    return out;
  }();
  return runs;
}

// The code points of the given classes as the inside of a bracket expression ("\x{41}-\x{5A}...").
std::string ClassBody(std::initializer_list<CharClass> classes) {
  std::vector<std::pair<char32_t, char32_t>> ranges;  // adjacent runs of the classes joined
  for (const Run& r : Runs()) {
    bool in = false;
    for (CharClass k : classes) in = in || r.cls == k;
    if (!in) continue;
    if (!ranges.empty() && ranges.back().second + 1 == r.first) ranges.back().second = r.last;
    else ranges.push_back({r.first, r.last});
  }
  std::string out;
  for (const auto& [first, last] : ranges) {
    out += Hex(first);
    if (last > first) out += (last > first + 1 ? "-" : "") + Hex(last);
  }
  return out;
}

std::string Class(std::initializer_list<CharClass> classes) { return "[" + ClassBody(classes) + "]"; }

}  // namespace

// The word rule of engine/text/tokenizer.h as a grammar, one letter per class of its table:
// S space, L letter, D digit, I in-word (' ’ - ‐), E extend, J the joiner U+200D, R regional
// indicator, Y symbol. Tokenize is a small automaton; each piece below is one of its states:
//   K     = E | J+ E                 what joins any token and leaves its state as it was
//   WORD  = (L K* (I L K*)* | D K*)+  letters and digits; I only between a letter and a letter
//   BODY  = WORD | [IY] K* | R K* (R K*)?   a token begun by its first code point (a flag: two R)
//   TOKEN = (BODY | E K* | J+ (BODY | E K*)?) (J+ BODY)* J*
//           a joiner takes whatever follows it, which then decides the state, as a first code
//           point would; a mark after a space stands alone; a trailing joiner ends the token
//   chunk = " "? TOKEN | ((?! " " [^S]) S)+
//           an ASCII space just before a token goes with it (" cat"); the rest of a gap is a
//           chunk of its own.
// Every quantifier is greedy and each step is decided by the next code point's class, so the
// first match a backtracking engine finds is the automaton's token.
std::string LabSplitRegex() {
  const std::string S = Class({CharClass::kSpace});
  const std::string not_S = "[^" + ClassBody({CharClass::kSpace}) + "]";
  const std::string L = Class({CharClass::kLetter}), D = Class({CharClass::kDigit});
  const std::string I = Class({CharClass::kInWord}), IY = Class({CharClass::kInWord, CharClass::kSymbol});
  const std::string E = Class({CharClass::kExtend}), J = Hex(0x200D), R = Class({CharClass::kRegional});
  const std::string K = "(?:" + E + "|" + J + "+" + E + ")";
  const std::string word = "(?:" + L + K + "*(?:" + I + L + K + "*)*|" + D + K + "*)+";
  const std::string body = "(?:" + word + "|" + IY + K + "*|" + R + K + "*(?:" + R + K + "*)?)";
  const std::string token = "(?:" + body + "|" + E + K + "*|" + J + "+(?:" + body + "|" + E + K + "*)?)(?:" + J +
                            "+" + body + ")*" + J + "*";
  return " ?" + token + "|(?:(?! " + not_S + ")" + S + ")+";
}

bool BpeToHfTokenizerJson(const Bpe& bpe, std::string* out, std::string* error) {
  Json vocab = Json::object();
  std::unordered_map<std::string, int> seen;
  for (int id = 0; id < bpe.size(); ++id) {
    const auto [it, fresh] = seen.emplace(bpe.Text(id), id);
    if (!fresh) {
      if (error)
        *error = "tokenizer.json: tokens " + std::to_string(it->second) + " and " + std::to_string(id) +
                 " have the same text, which a Hugging Face vocabulary cannot hold";
      return false;
    }
    vocab[bpe.Text(id)] = id;
  }
  Json merges = Json::array();
  for (const BpeMerge& m : bpe.merges()) merges.push_back({bpe.Text(m.left), bpe.Text(m.right)});
  const Json end_of_text = {{"id", Bpe::kEndOfText}, {"content", bpe.Text(Bpe::kEndOfText)}, {"single_word", false},
                            {"lstrip", false},        {"rstrip", false},                      {"normalized", false},
                            {"special", true}};
  Json model = {{"type", "BPE"},        {"dropout", nullptr},        {"unk_token", nullptr},
                {"continuing_subword_prefix", nullptr},             {"end_of_word_suffix", nullptr},
                {"fuse_unk", false},    {"byte_fallback", true},     {"ignore_merges", false}};
  model["vocab"] = std::move(vocab);
  model["merges"] = std::move(merges);
  Json doc = {{"version", "1.0"}, {"truncation", nullptr}, {"padding", nullptr}};
  doc["added_tokens"] = Json::array({end_of_text});
  doc["normalizer"] = nullptr;
  doc["pre_tokenizer"] = {{"type", "Split"}, {"pattern", {{"Regex", LabSplitRegex()}}}, {"behavior", "Isolated"},
                          {"invert", false}};
  doc["post_processor"] = nullptr;
  doc["decoder"] = {{"type", "Sequence"}, {"decoders", Json::array({{{"type", "ByteFallback"}}, {{"type", "Fuse"}}})}};
  doc["model"] = std::move(model);
  // Every token is whole UTF-8 characters (bpe.h); `replace` only keeps dump() from ever throwing.
  *out = doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  return true;
}

}  // namespace model
}  // namespace attn
