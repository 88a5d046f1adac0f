// tokenizer.json (+ tokenizer_config.json) read into an HfTokenizerSpec (hf_tokenizer.h), on
// nlohmann-json: attn_model_io. Every component, field and value is either read or refused by
// name in one line; nothing is skipped silently.
#include "model/tokenizer/hf_tokenizer.h"
#include "model/tokenizer/hf_tokenizer_json.h"
#include "model/tokenizer/strict_json.h"

#include <initializer_list>

namespace attn {
namespace model {

namespace {

using Json = nlohmann::json;

// One file's reader: its name starts every message; the first refusal wins.
class Reader {
 public:
  explicit Reader(std::string name) : name_(std::move(name)) {}

  bool Fail(const std::string& message) {
    if (error_.empty()) error_ = name_ + ": " + message;
    return false;
  }
  const std::string& error() const { return error_; }

  static std::string TypeOf(const Json& part) {
    return part.is_object() && part.contains("type") && part["type"].is_string() ? part["type"].get<std::string>()
                                                                                : std::string("(no type)");
  }
  static bool Null(const Json& obj, const char* key) { return !obj.contains(key) || obj[key].is_null(); }
  static std::string Field(const std::string& where, const char* key) { return where.empty() ? key : where + "." + key; }

  // Refuses (by name) a member of `obj` that is not in `known`.
  bool OnlyKnown(const Json& obj, std::initializer_list<const char*> known, const std::string& where) {
    for (const auto& item : obj.items()) {
      bool ok = false;
      for (const char* k : known) ok = ok || item.key() == k;
      if (!ok) return Fail((where.empty() ? "" : where + ": ") + "the field " + Gpt2Quoted(item.key()) + " is not supported");
    }
    return true;
  }
  bool Bool(const Json& obj, const char* key, const std::string& where, bool fallback, bool* out) {
    if (Null(obj, key)) {
      *out = fallback;
      return true;
    }
    if (!obj[key].is_boolean()) return Fail(Field(where, key) + " is not true or false");
    *out = obj[key].get<bool>();
    return true;
  }
  bool String(const Json& obj, const char* key, const std::string& where, std::string* out) {
    if (!obj.contains(key) || !obj[key].is_string()) return Fail(Field(where, key) + " is missing or not a string");
    *out = obj[key].get<std::string>();
    return true;
  }
  bool Unsupported(const std::string& where, const Json& part) {
    return Fail(where + " " + Gpt2Quoted(TypeOf(part)) + " is not supported");
  }
  // A pattern {"String": "..."} or {"Regex": "..."}; regex = false refuses Regex.
  bool Pattern(const Json& obj, const std::string& where, bool regex_ok, HfPattern* out) {
    if (!obj.contains("pattern") || !obj["pattern"].is_object() || obj["pattern"].size() != 1)
      return Fail(where + ".pattern is not {\"String\": ...} or {\"Regex\": ...}");
    const Json& p = obj["pattern"];
    const bool regex = p.contains("Regex");
    if (!regex && !p.contains("String")) return Fail(where + ".pattern is not {\"String\": ...} or {\"Regex\": ...}");
    const Json& v = regex ? p["Regex"] : p["String"];
    if (!v.is_string()) return Fail(where + ".pattern is not a string");
    if (regex && !regex_ok) return Fail(where + ".pattern: a Regex pattern is not supported here (only String)");
    out->regex = regex;
    out->text = v.get<std::string>();
    if (out->text.empty()) return Fail(where + ".pattern is empty");
    return true;
  }

  // --- the components ---------------------------------------------------------------------
  bool Normalizer(const Json& n, const std::string& where, std::vector<HfNormalizer>* out) {
    if (n.is_null()) return true;
    const std::string type = TypeOf(n);
    if (type == "Sequence") {
      if (!OnlyKnown(n, {"type", "normalizers"}, where)) return false;
      if (!n.contains("normalizers") || !n["normalizers"].is_array()) return Fail(where + ".normalizers is not an array");
      for (std::size_t i = 0; i < n["normalizers"].size(); ++i)
        if (!Normalizer(n["normalizers"][i], where + ".normalizers[" + std::to_string(i) + "]", out)) return false;
      return true;
    }
    HfNormalizer s;
    s.where = where;
    if (type == "Prepend") {
      s.kind = HfNormalizer::Kind::kPrepend;
      if (!OnlyKnown(n, {"type", "prepend"}, where) || !String(n, "prepend", where, &s.prepend)) return false;
    } else if (type == "Replace") {
      s.kind = HfNormalizer::Kind::kReplace;
      if (!OnlyKnown(n, {"type", "pattern", "content"}, where) || !Pattern(n, where, true, &s.pattern) ||
          !String(n, "content", where, &s.content))
        return false;
    } else if (type == "NFC") {
      s.kind = HfNormalizer::Kind::kNfc;
      if (!OnlyKnown(n, {"type"}, where)) return false;
    } else {
      return Unsupported(where, n);
    }
    out->push_back(std::move(s));
    return true;
  }

  // Metaspace's prepend_scheme, or the older add_prefix_space (true: always, false: never).
  bool PrependScheme(const Json& m, const std::string& where, HfPreTokenizer::Prepend* out) {
    if (!Null(m, "prepend_scheme")) {
      const Json& v = m["prepend_scheme"];
      const std::string s = v.is_string() ? v.get<std::string>() : "";
      if (s == "always") *out = HfPreTokenizer::Prepend::kAlways;
      else if (s == "first") *out = HfPreTokenizer::Prepend::kFirst;
      else if (s == "never") *out = HfPreTokenizer::Prepend::kNever;
      else return Fail(where + ".prepend_scheme is not \"always\", \"first\" or \"never\"");
      return true;
    }
    bool add = true;
    if (!Bool(m, "add_prefix_space", where, true, &add)) return false;
    *out = add ? HfPreTokenizer::Prepend::kAlways : HfPreTokenizer::Prepend::kNever;
    return true;
  }
  bool Replacement(const Json& m, const std::string& where, std::string* out) {
    if (Null(m, "replacement")) return true;  // U+2581, the default
    if (!String(m, "replacement", where, out)) return false;
    std::size_t pos = 0;
    char32_t cp;
    if (out->empty() || !DecodeOne(*out, &pos, &cp) || pos != out->size())
      return Fail(where + ".replacement is not one character");
    return true;
  }
  static bool DecodeOne(const std::string& s, std::size_t* pos, char32_t* cp) {
    const unsigned char c = static_cast<unsigned char>(s[*pos]);
    const std::size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    if (n == 0 || *pos + n > s.size()) return false;
    *cp = c;
    *pos += n;
    return true;
  }

  bool PreTokenizer(const Json& p, const std::string& where, std::vector<HfPreTokenizer>* out) {
    if (p.is_null()) return true;
    const std::string type = TypeOf(p);
    if (type == "Sequence") {
      if (!OnlyKnown(p, {"type", "pretokenizers"}, where)) return false;
      if (!p.contains("pretokenizers") || !p["pretokenizers"].is_array()) return Fail(where + ".pretokenizers is not an array");
      for (std::size_t i = 0; i < p["pretokenizers"].size(); ++i)
        if (!PreTokenizer(p["pretokenizers"][i], where + ".pretokenizers[" + std::to_string(i) + "]", out)) return false;
      return true;
    }
    HfPreTokenizer s;
    s.where = where;
    bool ignored;
    if (type == "ByteLevel") {
      s.kind = HfPreTokenizer::Kind::kByteLevel;
      if (!OnlyKnown(p, {"type", "add_prefix_space", "trim_offsets", "use_regex"}, where) ||
          !Bool(p, "add_prefix_space", where, false, &s.add_prefix_space) ||
          !Bool(p, "trim_offsets", where, true, &ignored) ||  // offsets only
          !Bool(p, "use_regex", where, true, &s.use_regex))
        return false;
    } else if (type == "Split") {
      s.kind = HfPreTokenizer::Kind::kSplit;
      if (!OnlyKnown(p, {"type", "pattern", "behavior", "invert"}, where) || !Pattern(p, where, true, &s.pattern) ||
          !Bool(p, "invert", where, false, &s.invert))
        return false;
      std::string b;
      if (!String(p, "behavior", where, &b)) return false;
      if (b == "Removed") s.behavior = HfSplitBehavior::kRemoved;
      else if (b == "Isolated") s.behavior = HfSplitBehavior::kIsolated;
      else if (b == "MergedWithPrevious") s.behavior = HfSplitBehavior::kMergedWithPrevious;
      else if (b == "MergedWithNext") s.behavior = HfSplitBehavior::kMergedWithNext;
      else if (b == "Contiguous") s.behavior = HfSplitBehavior::kContiguous;
      else return Fail(where + ".behavior " + Gpt2Quoted(b) + " is not supported");
    } else if (type == "Metaspace") {
      s.kind = HfPreTokenizer::Kind::kMetaspace;
      if (!OnlyKnown(p, {"type", "replacement", "str_rep", "add_prefix_space", "prepend_scheme", "split"}, where) ||
          !Replacement(p, where, &s.replacement) || !PrependScheme(p, where, &s.prepend) ||
          !Bool(p, "split", where, true, &s.split))
        return false;
      if (!Null(p, "str_rep") && (!p["str_rep"].is_string() || p["str_rep"].get<std::string>() != s.replacement))
        return Fail(where + ".str_rep differs from replacement: not supported");
    } else {
      return Unsupported(where, p);
    }
    out->push_back(std::move(s));
    return true;
  }

  // The post-processor's tokens before $A (at most one: Begin()); nothing after it.
  bool PostProcessor(const Json& p, const std::string& where, int* begin) {
    if (p.is_null()) return true;
    const std::string type = TypeOf(p);
    bool ignored;
    if (type == "Sequence") {
      if (!OnlyKnown(p, {"type", "processors"}, where)) return false;
      if (!p.contains("processors") || !p["processors"].is_array()) return Fail(where + ".processors is not an array");
      for (std::size_t i = 0; i < p["processors"].size(); ++i)
        if (!PostProcessor(p["processors"][i], where + ".processors[" + std::to_string(i) + "]", begin)) return false;
      return true;
    }
    if (type == "ByteLevel")  // offsets only
      return OnlyKnown(p, {"type", "add_prefix_space", "trim_offsets", "use_regex"}, where) &&
             Bool(p, "add_prefix_space", where, false, &ignored) && Bool(p, "trim_offsets", where, true, &ignored) &&
             Bool(p, "use_regex", where, true, &ignored);
    if (type != "TemplateProcessing") return Unsupported(where, p);
    if (!OnlyKnown(p, {"type", "single", "pair", "special_tokens"}, where)) return false;
    if (!p.contains("single") || !p["single"].is_array()) return Fail(where + ".single is not an array");
    const Json& single = p["single"];
    std::vector<std::string> before;
    bool seen_a = false;
    for (std::size_t i = 0; i < single.size(); ++i) {
      const Json& item = single[i];
      const std::string at = where + ".single[" + std::to_string(i) + "]";
      if (item.is_object() && item.size() == 1 && item.contains("Sequence") && item["Sequence"].is_object()) {
        const Json& s = item["Sequence"];
        if (!s.contains("id") || s["id"] != "A") return Fail(at + " is not the sequence $A");
        if (seen_a) return Fail(at + ": $A twice is not supported");
        seen_a = true;
      } else if (item.is_object() && item.size() == 1 && item.contains("SpecialToken") &&
                 item["SpecialToken"].is_object() && item["SpecialToken"].contains("id") &&
                 item["SpecialToken"]["id"].is_string()) {
        if (seen_a) return Fail(at + ": a token after $A is not supported (the lab adds nothing after a text)");
        before.push_back(item["SpecialToken"]["id"].get<std::string>());
      } else {
        return Fail(at + " is neither {\"SpecialToken\": ...} nor {\"Sequence\": ...}");
      }
    }
    if (!seen_a) return Fail(where + ".single has no $A");
    if (before.size() > 1) return Fail(where + ".single: more than one token before $A is not supported");
    if (before.empty()) return true;
    const std::string at = where + ".special_tokens[" + Gpt2Quoted(before[0]) + "]";
    if (!p.contains("special_tokens") || !p["special_tokens"].is_object() || !p["special_tokens"].contains(before[0]) ||
        !p["special_tokens"][before[0]].is_object())
      return Fail(at + " is missing");
    const Json& st = p["special_tokens"][before[0]];
    if (!st.contains("ids") || !st["ids"].is_array() || st["ids"].size() != 1 || !st["ids"][0].is_number_integer())
      return Fail(at + ".ids is not one id (several are not supported)");
    const auto id = st["ids"][0].get<std::int64_t>();
    if (id < 0 || id > Gpt2Bpe::kMaxId) return Fail(at + ".ids[0] is not an id");
    if (*begin >= 0 && *begin != id) return Fail(where + ": a second token before $A is not supported");
    *begin = static_cast<int>(id);
    return true;
  }

  bool Decoder(const Json& d, const std::string& where, std::vector<HfDecoder>* out) {
    const std::string type = TypeOf(d);
    if (type == "Sequence") {
      if (!OnlyKnown(d, {"type", "decoders"}, where)) return false;
      if (!d.contains("decoders") || !d["decoders"].is_array()) return Fail(where + ".decoders is not an array");
      for (std::size_t i = 0; i < d["decoders"].size(); ++i)
        if (!Decoder(d["decoders"][i], where + ".decoders[" + std::to_string(i) + "]", out)) return false;
      return true;
    }
    HfDecoder s;
    bool ignored;
    if (type == "ByteLevel") {
      s.kind = HfDecoder::Kind::kByteLevel;
      if (!OnlyKnown(d, {"type", "add_prefix_space", "trim_offsets", "use_regex"}, where) ||
          !Bool(d, "add_prefix_space", where, false, &ignored) || !Bool(d, "trim_offsets", where, true, &ignored) ||
          !Bool(d, "use_regex", where, true, &ignored))
        return false;
    } else if (type == "Replace") {
      s.kind = HfDecoder::Kind::kReplace;
      HfPattern p;
      if (!OnlyKnown(d, {"type", "pattern", "content"}, where) || !Pattern(d, where, false, &p) ||
          !String(d, "content", where, &s.content))
        return false;
      s.pattern = p.text;
    } else if (type == "ByteFallback" || type == "Fuse") {
      s.kind = type == "Fuse" ? HfDecoder::Kind::kFuse : HfDecoder::Kind::kByteFallback;
      if (!OnlyKnown(d, {"type"}, where)) return false;
    } else if (type == "Strip") {
      s.kind = HfDecoder::Kind::kStrip;
      if (!OnlyKnown(d, {"type", "content", "start", "stop"}, where) || !String(d, "content", where, &s.content))
        return false;
      std::size_t pos = 0;
      char32_t cp;
      if (s.content.empty() || !DecodeOne(s.content, &pos, &cp) || pos != s.content.size())
        return Fail(where + ".content is not one character");
      for (const char* key : {"start", "stop"}) {
        if (!d.contains(key) || !d[key].is_number_integer() || d[key].get<std::int64_t>() < 0 ||
            d[key].get<std::int64_t>() > 1000)
          return Fail(where + "." + key + " is not an integer in 0..1000");
        (std::string(key) == "start" ? s.start : s.stop) = static_cast<int>(d[key].get<std::int64_t>());
      }
    } else if (type == "Metaspace") {
      s.kind = HfDecoder::Kind::kMetaspace;
      HfPreTokenizer::Prepend prepend;
      s.replacement = "\u2581";
      if (!OnlyKnown(d, {"type", "replacement", "str_rep", "add_prefix_space", "prepend_scheme", "split"}, where) ||
          !Replacement(d, where, &s.replacement) || !PrependScheme(d, where, &prepend) ||
          !Bool(d, "split", where, true, &ignored))
        return false;
      s.strip_first = prepend != HfPreTokenizer::Prepend::kNever;
    } else {
      return Unsupported(where, d);
    }
    out->push_back(std::move(s));
    return true;
  }

  bool Model(const Json& m, HfTokenizerSpec* spec) {
    if (!m.is_object()) return Fail("model is missing or not an object");
    if (m.contains("type") && TypeOf(m) != "BPE") return Fail("model " + Gpt2Quoted(TypeOf(m)) + " is not supported (only BPE)");
    if (!OnlyKnown(m, {"type", "dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix", "fuse_unk",
                       "byte_fallback", "ignore_merges", "vocab", "merges"}, "model"))
      return false;
    if (!Null(m, "dropout")) return Fail("model.dropout is set: not supported (encoding would be random)");
    for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"})
      if (!Null(m, key) && m[key] != "") return Fail(std::string("model.") + key + " " + m[key].dump() + " is not supported");
    if (!Bool(m, "byte_fallback", "model", false, &spec->byte_fallback) ||
        !Bool(m, "fuse_unk", "model", false, &spec->fuse_unk) ||
        !Bool(m, "ignore_merges", "model", false, &spec->ignore_merges))
      return false;
    if (!Null(m, "unk_token") && !String(m, "unk_token", "model", &spec->unk_token)) return false;
    if (!m.contains("vocab") || !m["vocab"].is_object()) return Fail("model.vocab is missing or not an object");
    for (const auto& item : m["vocab"].items()) {
      const Json& v = item.value();
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > Gpt2Bpe::kMaxId)
        return Fail("model.vocab: token " + Gpt2Quoted(item.key()) + " has the id " + v.dump() +
                    ", not an integer in 0.." + std::to_string(Gpt2Bpe::kMaxId));
      spec->vocab.emplace_back(item.key(), static_cast<int>(v.get<std::int64_t>()));
    }
    if (!m.contains("merges") || !m["merges"].is_array()) return Fail("model.merges is missing or not an array");
    const Json& merges = m["merges"];
    spec->merges.reserve(merges.size());
    for (std::size_t i = 0; i < merges.size(); ++i) {
      const Json& x = merges[i];
      std::string left, right;
      if (x.is_string()) {  // "a b": one space (the tokens of such files hold none)
        const std::string s = x.get<std::string>();
        const std::size_t space = s.find(' ');
        if (space != std::string::npos && space > 0 && space + 1 < s.size() && s.find(' ', space + 1) == std::string::npos) {
          left = s.substr(0, space);
          right = s.substr(space + 1);
        }
      } else if (x.is_array() && x.size() == 2 && x[0].is_string() && x[1].is_string()) {
        left = x[0].get<std::string>();
        right = x[1].get<std::string>();
      }
      if (left.empty() || right.empty())
        return Fail("model.merges[" + std::to_string(i) + "] is neither \"a b\" nor [\"a\", \"b\"]");
      spec->merges.emplace_back(std::move(left), std::move(right));
    }
    return true;
  }

  bool AddedTokens(const Json& j, std::vector<HfAddedToken>* out) {
    if (j.is_null()) return true;
    if (!j.is_array()) return Fail("added_tokens is not an array");
    for (std::size_t i = 0; i < j.size(); ++i) {
      const Json& a = j[i];
      const std::string where = "added_tokens[" + std::to_string(i) + "]";
      if (!a.is_object()) return Fail(where + " is not an object");
      if (!OnlyKnown(a, {"id", "content", "single_word", "lstrip", "rstrip", "normalized", "special"}, where))
        return false;
      HfAddedToken t;
      if (!a.contains("id") || !a["id"].is_number_integer() || a["id"].get<std::int64_t>() < 0 ||
          a["id"].get<std::int64_t>() > Gpt2Bpe::kMaxId)
        return Fail(where + ".id is not an integer in 0.." + std::to_string(Gpt2Bpe::kMaxId));
      t.id = static_cast<int>(a["id"].get<std::int64_t>());
      bool single_word;
      if (!String(a, "content", where, &t.content) || !Bool(a, "special", where, false, &t.special) ||
          !Bool(a, "single_word", where, false, &single_word) || !Bool(a, "lstrip", where, false, &t.lstrip) ||
          !Bool(a, "rstrip", where, false, &t.rstrip) || !Bool(a, "normalized", where, !t.special, &t.normalized))
        return false;
      if (single_word) return Fail(where + ".single_word = true is not supported");
      out->push_back(std::move(t));
    }
    return true;
  }

 private:
  std::string name_, error_;
};

// A token named in tokenizer_config.json ("<s>" or {"content": "<s>", ...}): its id, or -1.
int ConfigTokenId(const Json& v, const HfTokenizerSpec& spec, std::string* content) {
  *content = v.is_string() ? v.get<std::string>()
             : v.is_object() && v.contains("content") && v["content"].is_string() ? v["content"].get<std::string>()
                                                                                   : std::string();
  if (content->empty()) return -1;
  for (const HfAddedToken& a : spec.added)
    if (a.content == *content) return a.id;
  for (const auto& [token, id] : spec.vocab)
    if (token == *content) return id;
  return -1;
}

}  // namespace

bool LooksLikeGpt2TokenizerJson(const Json& j) {
  if (!j.is_object() || !Reader::Null(j, "normalizer") || !j.contains("pre_tokenizer") ||
      Reader::TypeOf(j["pre_tokenizer"]) != "ByteLevel" || !j.contains("model") || !j["model"].is_object())
    return false;
  const Json& m = j["model"];
  const auto set = [&](const char* key) { return m.contains(key) && m[key] == true; };
  return !set("byte_fallback") && !set("ignore_merges");
}

bool HfTokenizerFromJson(std::string_view tokenizer_json, const std::string* config_json, int eos,
                         std::shared_ptr<const Tokenizer>* out, std::string* error, const std::string& name,
                         const std::string& config_name) {
  Json j;
  std::string problem;
  if (!ParseStrictJson(tokenizer_json, &j, &problem)) {
    if (error) *error = name + ": " + problem;
    return false;
  }
  return HfTokenizerFromJsonValue(j, config_json, eos, out, error, name, config_name);
}

bool HfTokenizerFromJsonValue(const Json& j, const std::string* config_json, int eos,
                              std::shared_ptr<const Tokenizer>* out, std::string* error, const std::string& name,
                              const std::string& config_name) {
  Reader r(name);
  const auto done = [&](bool ok) {
    if (!ok && error) *error = r.error();
    return ok;
  };
  std::string problem;
  if (!j.is_object()) return done(r.Fail("not a JSON object"));
  if (!r.OnlyKnown(j, {"version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer",
                       "post_processor", "decoder", "model"}, ""))
    return done(false);
  if (j.contains("version") && !j["version"].is_string()) return done(r.Fail("version is not a string"));
  for (const char* key : {"truncation", "padding"})
    if (!Reader::Null(j, key)) return done(r.Fail(std::string(key) + " is set: not supported (ids are never cut or padded here)"));

  HfTokenizerSpec spec;
  spec.name = name;
  const Json null;
  const auto part = [&](const char* key) -> const Json& { return j.contains(key) ? j[key] : null; };
  if (!r.Model(part("model"), &spec) || !r.Normalizer(part("normalizer"), "normalizer", &spec.normalizers) ||
      !r.PreTokenizer(part("pre_tokenizer"), "pre_tokenizer", &spec.pre_tokenizers) ||
      !r.PostProcessor(part("post_processor"), "post_processor", &spec.begin) ||
      !r.AddedTokens(part("added_tokens"), &spec.added))
    return done(false);
  spec.has_decoder = !part("decoder").is_null();
  if (spec.has_decoder && !r.Decoder(part("decoder"), "decoder", &spec.decoders)) return done(false);

  // tokenizer_config.json: whether a text starts with the begin-of-text token, as transformers'
  // Llama tokenizers decide it (add_bos_token; absent: the post-processor's), and the end of text
  spec.end_of_text = eos;
  if (config_json) {
    Reader c(config_name);
    const auto config_done = [&](bool ok) {
      if (!ok && error) *error = c.error();
      return ok;
    };
    Json k;
    if (!ParseStrictJson(*config_json, &k, &problem)) return config_done(c.Fail(problem));
    if (!k.is_object()) return config_done(c.Fail("not a JSON object"));
    bool add_eos = false, add_prefix_space = false;
    if (!c.Bool(k, "add_eos_token", "", false, &add_eos) || !c.Bool(k, "add_prefix_space", "", false, &add_prefix_space))
      return config_done(false);
    if (add_eos) return config_done(c.Fail("add_eos_token = true is not supported (the lab adds nothing after a text)"));
    if (add_prefix_space) {
      bool has = false;
      for (const HfPreTokenizer& p : spec.pre_tokenizers)
        has = has || (p.kind == HfPreTokenizer::Kind::kByteLevel && p.add_prefix_space) ||
              (p.kind == HfPreTokenizer::Kind::kMetaspace && p.prepend != HfPreTokenizer::Prepend::kNever);
      if (!has) return config_done(c.Fail("add_prefix_space = true is not what " + name + "'s pre_tokenizer does: not supported"));
    }
    if (!Reader::Null(k, "add_bos_token")) {
      bool add_bos;
      if (!c.Bool(k, "add_bos_token", "", false, &add_bos)) return config_done(false);
      spec.begin = -1;
      if (add_bos) {
        std::string content;
        spec.begin = k.contains("bos_token") ? ConfigTokenId(k["bos_token"], spec, &content) : -1;
        if (spec.begin < 0)
          return config_done(c.Fail("add_bos_token is true but bos_token " + (content.empty() ? "is missing" : Gpt2Quoted(content) + " is no token")));
      }
    }
    if (spec.end_of_text < 0 && k.contains("eos_token")) {
      std::string content;
      spec.end_of_text = ConfigTokenId(k["eos_token"], spec, &content);
    }
  }
  std::shared_ptr<const Tokenizer> made;
  if (!MakeHfTokenizer(spec, &made, error)) return false;  // its messages start with `name`
  *out = std::move(made);
  return true;
}

}  // namespace model
}  // namespace attn
