// A tokenizer.json's BPE tokenizer (hf_tokenizer.h): the added tokens, the BPE model and the
// decoder, around the text steps of hf_text_steps.h. Written after the tokenizers library's
// Rust code (tokenizer/added_vocabulary.rs, models/bpe/, decoders/).
#include "model/tokenizer/hf_tokenizer.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <queue>
#include <unordered_map>

#include "engine/text/tokenizer.h"  // DecodeUtf8
#include "model/tokenizer/gpt2_bpe.h"
#include "model/tokenizer/hf_text_steps.h"
#include "model/tokenizer/unicode_classes.h"

namespace attn {
namespace model {

namespace {

constexpr int kMaxId = Gpt2Bpe::kMaxId;

std::uint64_t PairKey(int left, int right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
}

bool ValidUtf8(std::string_view s, std::size_t* bad) {
  for (std::size_t pos = 0; pos < s.size();) {
    char32_t cp;
    const std::size_t at = pos;
    if (!DecodeUtf8(s, pos, cp)) {
      *bad = at;
      return false;
    }
  }
  return true;
}

// The length of the UTF-8 character that starts with `lead` (the text is valid).
std::size_t CharLength(unsigned char lead) { return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4; }

// The byte a "<0xXX>" token stands for, or -1.
int FallbackByte(const std::string& token) {
  if (token.size() != 6 || token.compare(0, 3, "<0x") != 0 || token[5] != '>') return -1;
  const auto hex = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  };
  const int hi = hex(token[3]), lo = hex(token[4]);
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

// Bytes for people: whole characters as themselves, the rest (pieces of characters, control
// characters) as <0xE2> (gpt2_bpe.h's Readable, for any bytes).
std::string Readable(const std::string& b) {
  std::string out;
  for (std::size_t pos = 0; pos < b.size();) {
    const std::size_t at = pos;
    char32_t cp;
    const bool whole = DecodeUtf8(b, pos, cp);
    if (whole && !(cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))) {
      out.append(b, at, pos - at);
      continue;
    }
    if (!whole) pos = at + 1;
    for (std::size_t k = at; k < pos; ++k) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "<0x%02X>", static_cast<unsigned char>(b[k]));
      out += hex;
    }
  }
  return out;
}

// A set of added tokens found leftmost-longest: the tokens by their first byte, longest first.
struct AddedSet {
  struct Entry {
    std::string content;
    int id;
    bool lstrip, rstrip;
  };
  std::vector<Entry> entries;
  std::vector<int> by_first[256];

  void Add(Entry e) {
    if (e.content.empty()) return;
    entries.push_back(std::move(e));
  }
  void Index() {
    for (auto& v : by_first) v.clear();
    for (std::size_t k = 0; k < entries.size(); ++k)
      by_first[static_cast<unsigned char>(entries[k].content[0])].push_back(static_cast<int>(k));
    for (auto& v : by_first)
      std::stable_sort(v.begin(), v.end(), [&](int a, int b) {
        return entries[static_cast<std::size_t>(a)].content.size() > entries[static_cast<std::size_t>(b)].content.size();
      });
  }
  // The first match at or after `from`: its entry, or -1.
  int Find(std::string_view text, std::size_t from, std::size_t* at) const {
    if (entries.empty()) return -1;
    for (std::size_t i = from; i < text.size(); ++i)
      for (const int k : by_first[static_cast<unsigned char>(text[i])]) {
        const std::string& c = entries[static_cast<std::size_t>(k)].content;
        if (text.compare(i, c.size(), c) == 0) {
          *at = i;
          return k;
        }
      }
    return -1;
  }
};

// A stretch of the text: an added token's id, or text (id -1).
struct Section {
  int id = -1;
  std::string text;
  std::size_t offset = 0;  // where it starts in what was split
};

// Splits `text` at the set's tokens; lstrip / rstrip take the white space beside a token.
void SplitAdded(const AddedSet& set, const std::string& text, std::vector<Section>* out) {
  out->clear();
  std::size_t start = 0, at;
  for (std::size_t from = 0;;) {
    const int k = set.Find(text, from, &at);
    if (k < 0) break;
    const AddedSet::Entry& e = set.entries[static_cast<std::size_t>(k)];
    std::size_t begin = at, end = at + e.content.size();
    if (e.lstrip) {  // back over white space, never into the last token
      while (begin > start) {
        std::size_t back = begin - 1;
        while (back > start && (static_cast<unsigned char>(text[back]) & 0xC0) == 0x80) --back;
        std::size_t pos = back;
        char32_t cp;
        if (!DecodeUtf8(text, pos, cp) || !IsWhiteSpace(cp)) break;
        begin = back;
      }
    }
    if (e.rstrip) {
      while (end < text.size()) {
        std::size_t pos = end;
        char32_t cp;
        if (!DecodeUtf8(text, pos, cp) || !IsWhiteSpace(cp)) break;
        end = pos;
      }
    }
    if (begin > start) out->push_back({-1, text.substr(start, begin - start), start});
    out->push_back({e.id, std::string(), begin});
    start = from = end;
  }
  if (start < text.size()) out->push_back({-1, text.substr(start), start});
}

class HfTokenizer final : public Tokenizer {
 public:
  bool Load(const HfTokenizerSpec& spec, std::string* error);

  bool Encode(std::string_view text, std::vector<int>* ids, std::string* error) const override;
  std::string Decode(const std::vector<int>& ids) const override;
  std::string Bytes(int id) const override {
    return Has(id) ? RunDecoder({tokens_[static_cast<std::size_t>(id)]}, /*alone=*/true) : std::string();
  }
  std::string Label(int id) const override {
    return Has(id) ? Readable(Bytes(id)) : "<no token " + std::to_string(id) + ">";
  }
  int size() const override { return static_cast<int>(tokens_.size()); }
  int EndOfText() const override { return eot_; }
  int Begin() const override { return begin_; }
  const char* Kind() const override { return "hf-bpe"; }

 private:
  struct Merge {
    int rank, result;
  };
  bool Has(int id) const { return id >= 0 && id < size() && present_[static_cast<std::size_t>(id)]; }
  bool EncodeWord(const std::string& word, std::vector<int>* ids, std::string* error) const;
  bool EncodeText(std::string text, std::size_t offset, std::vector<int>* ids, std::string* error) const;
  std::string RunDecoder(std::vector<std::string> tokens, bool alone) const;

  std::string name_;
  std::vector<std::string> tokens_;  // by id: the token as written in the file
  std::vector<bool> present_;
  std::unordered_map<std::string, int> vocab_;  // the model's vocabulary (added tokens apart)
  std::unordered_map<std::uint64_t, Merge> merges_;
  int byte_token_[256];  // byte_fallback: the id of "<0xXX>", -1 when absent
  int unk_ = -1;
  bool byte_fallback_ = false, fuse_unk_ = false, ignore_merges_ = false;
  HfTextSteps steps_;
  AddedSet raw_added_, normalized_added_;
  bool has_decoder_ = false;
  std::vector<HfDecoder> decoders_;
  int begin_ = -1, eot_ = -1;
};

bool HfTokenizer::Load(const HfTokenizerSpec& spec, std::string* error) {
  name_ = spec.name;
  auto fail = [&](const std::string& message) {
    if (error) *error = name_ + ": " + message;
    return false;
  };
  int max_id = -1;
  for (const auto& v : spec.vocab) max_id = std::max(max_id, v.second);
  for (const HfAddedToken& a : spec.added) max_id = std::max(max_id, a.id);
  if (max_id > kMaxId) return fail("id " + std::to_string(max_id) + " is above " + std::to_string(kMaxId));
  if (spec.vocab.empty()) return fail("model.vocab is empty");
  tokens_.assign(static_cast<std::size_t>(max_id + 1), std::string());
  present_.assign(static_cast<std::size_t>(max_id + 1), false);
  for (const auto& [token, id] : spec.vocab) {
    std::size_t bad;
    if (token.empty()) return fail("model.vocab: a token is the empty string");
    if (!ValidUtf8(token, &bad)) return fail("model.vocab: a token is not valid UTF-8");
    if (id < 0) return fail("model.vocab: token " + Gpt2Quoted(token) + " has the negative id " + std::to_string(id));
    const std::size_t i = static_cast<std::size_t>(id);
    if (present_[i])
      return fail("model.vocab: id " + std::to_string(id) + " is given to both " + Gpt2Quoted(tokens_[i]) + " and " +
                  Gpt2Quoted(token));
    if (!vocab_.emplace(token, id).second) return fail("model.vocab: token " + Gpt2Quoted(token) + " appears twice");
    tokens_[i] = token;
    present_[i] = true;
  }
  merges_.reserve(spec.merges.size());
  for (std::size_t rank = 0; rank < spec.merges.size(); ++rank) {
    const auto& [left, right] = spec.merges[rank];
    const std::string where = "model.merges[" + std::to_string(rank) + "] " + Gpt2Quoted(left + " " + right);
    const auto l = vocab_.find(left), r = vocab_.find(right);
    if (l == vocab_.end()) return fail(where + ": " + Gpt2Quoted(left) + " is not in the vocabulary");
    if (r == vocab_.end()) return fail(where + ": " + Gpt2Quoted(right) + " is not in the vocabulary");
    const auto result = vocab_.find(left + right);
    if (result == vocab_.end())
      return fail(where + ": the merged token " + Gpt2Quoted(left + right) + " is not in the vocabulary");
    if (!merges_.emplace(PairKey(l->second, r->second), Merge{static_cast<int>(rank), result->second}).second)
      return fail(where + " appears twice");
  }
  unk_ = -1;
  if (!spec.unk_token.empty()) {
    const auto it = vocab_.find(spec.unk_token);
    if (it == vocab_.end()) return fail("model.unk_token " + Gpt2Quoted(spec.unk_token) + " is not in the vocabulary");
    unk_ = it->second;
  }
  byte_fallback_ = spec.byte_fallback;
  fuse_unk_ = spec.fuse_unk;
  ignore_merges_ = spec.ignore_merges;
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    const auto it = vocab_.find(name);
    byte_token_[b] = it == vocab_.end() ? -1 : it->second;
  }
  if (!steps_.Compile(spec, error)) return false;

  for (std::size_t k = 0; k < spec.added.size(); ++k) {
    const HfAddedToken& a = spec.added[k];
    const std::string where = "added_tokens[" + std::to_string(k) + "]";
    std::size_t bad;
    if (a.content.empty()) return fail(where + ".content is the empty string");
    if (!ValidUtf8(a.content, &bad)) return fail(where + ".content is not valid UTF-8");
    if (a.id < 0) return fail(where + ".id is negative");
    const std::size_t i = static_cast<std::size_t>(a.id);
    // an added token may repeat a token of the vocabulary (Llama's <s>), not replace another one
    if (present_[i] && tokens_[i] != a.content)
      return fail(where + " " + Gpt2Quoted(a.content) + " has id " + std::to_string(a.id) + ", which is " +
                  Gpt2Quoted(tokens_[i]));
    tokens_[i] = a.content;
    present_[i] = true;
    AddedSet& set = a.normalized && !steps_.empty_normalizer() ? normalized_added_ : raw_added_;
    std::string content = a.content;
    std::string why;
    if (&set == &normalized_added_ && !steps_.Normalize(&content, &why)) return fail(where + ": " + why);
    for (const AddedSet::Entry& e : set.entries)
      if (e.content == content && e.id != a.id) return fail(where + " " + Gpt2Quoted(a.content) + " is added twice");
    set.Add({content, a.id, a.lstrip, a.rstrip});
  }
  raw_added_.Index();
  normalized_added_.Index();

  has_decoder_ = spec.has_decoder;
  decoders_ = spec.decoders;
  begin_ = spec.begin;
  eot_ = spec.end_of_text;
  if (begin_ >= 0 && !Has(begin_)) return fail("the post-processor's first token " + std::to_string(begin_) + " names no token");
  if (eot_ >= 0 && !Has(eot_)) eot_ = -1;
  return true;
}

// BPE on one word (models/bpe/model.rs, merge_word and Word::merge_all): the characters'
// tokens, then the pair of lowest rank, leftmost first, merged one at a time; a heap of
// (rank, position) finds it, checked again when taken (a merge may have changed the pair).
bool HfTokenizer::EncodeWord(const std::string& word, std::vector<int>* ids, std::string* error) const {
  if (ignore_merges_) {
    const auto it = vocab_.find(word);
    if (it != vocab_.end()) {
      ids->push_back(it->second);
      return true;
    }
  }
  std::vector<int> id;
  bool last_unk = false;
  std::string ch;
  for (std::size_t pos = 0; pos < word.size();) {
    const std::size_t length = std::min(CharLength(static_cast<unsigned char>(word[pos])), word.size() - pos);
    ch.assign(word, pos, length);
    pos += length;
    const auto it = vocab_.find(ch);
    if (it != vocab_.end()) {
      id.push_back(it->second);
      last_unk = false;
      continue;
    }
    if (byte_fallback_) {
      bool all = true;
      for (const char c : ch) all = all && byte_token_[static_cast<unsigned char>(c)] >= 0;
      if (all) {
        for (const char c : ch) id.push_back(byte_token_[static_cast<unsigned char>(c)]);
        last_unk = false;
        continue;
      }
    }
    if (unk_ < 0) {
      if (error) *error = name_ + ": no token for " + Gpt2Quoted(ch) + " (no byte_fallback token, no unk_token)";
      return false;
    }
    if (!(fuse_unk_ && last_unk)) id.push_back(unk_);
    last_unk = true;
  }
  const int n = static_cast<int>(id.size());
  std::vector<int> prev(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    prev[static_cast<std::size_t>(i)] = i - 1;
    next[static_cast<std::size_t>(i)] = i + 1;  // n: none
  }
  using Entry = std::pair<int, int>;  // (rank, position of the pair's left token)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  const auto find = [&](int left, int right) -> const Merge* {
    const auto it = merges_.find(PairKey(left, right));
    return it == merges_.end() ? nullptr : &it->second;
  };
  const auto push_pair = [&](int left) {
    if (left < 0 || next[static_cast<std::size_t>(left)] >= n) return;
    if (const Merge* m = find(id[static_cast<std::size_t>(left)], id[static_cast<std::size_t>(next[static_cast<std::size_t>(left)])]))
      heap.push({m->rank, left});
  };
  for (int i = 0; i + 1 < n; ++i) push_pair(i);
  while (!heap.empty()) {
    const auto [rank, left] = heap.top();
    heap.pop();
    const std::size_t l = static_cast<std::size_t>(left);
    if (id[l] < 0 || next[l] >= n) continue;  // merged away, or now the last token
    const std::size_t r = static_cast<std::size_t>(next[l]);
    const Merge* m = find(id[l], id[r]);
    if (!m || m->rank != rank) continue;  // this pair changed since it was pushed
    id[l] = m->result;
    id[r] = -1;
    next[l] = next[r];
    if (next[l] < n) prev[static_cast<std::size_t>(next[l])] = left;
    push_pair(prev[l]);
    push_pair(left);
  }
  for (int i = 0; i < n; i = next[static_cast<std::size_t>(i)]) ids->push_back(id[static_cast<std::size_t>(i)]);
  return true;
}

// One stretch between raw added tokens: normalized, cut at the normalized added tokens, each
// piece pre-tokenized and each word through the model.
bool HfTokenizer::EncodeText(std::string text, std::size_t offset, std::vector<int>* ids, std::string* error) const {
  if (!steps_.Normalize(&text, error)) return false;
  std::vector<Section> sections;
  SplitAdded(normalized_added_, text, &sections);
  std::vector<HfPiece> pieces;
  for (Section& s : sections) {
    if (s.id >= 0) {
      ids->push_back(s.id);
      continue;
    }
    pieces.clear();
    pieces.push_back({std::move(s.text), offset == 0 && s.offset == 0});
    if (!steps_.PreTokenize(&pieces, error)) return false;
    for (const HfPiece& p : pieces)
      if (!EncodeWord(p.text, ids, error)) return false;
  }
  return true;
}

bool HfTokenizer::Encode(std::string_view text, std::vector<int>* ids, std::string* error) const {
  ids->clear();
  std::size_t bad;
  if (!ValidUtf8(text, &bad)) {
    if (error) *error = "hf tokenizer: invalid UTF-8 at byte " + std::to_string(bad);
    return false;
  }
  std::vector<Section> sections;
  SplitAdded(raw_added_, std::string(text), &sections);
  for (Section& s : sections) {
    if (s.id >= 0) {
      ids->push_back(s.id);
    } else if (!EncodeText(std::move(s.text), s.offset, ids, error)) {
      ids->clear();
      return false;
    }
  }
  return true;
}

// The decoder chain (decoders/*.rs: decode_chain) on the tokens' strings, then concatenated.
// alone: one token's text by itself (Bytes): Strip and Metaspace's first-token rule skipped.
std::string HfTokenizer::RunDecoder(std::vector<std::string> tokens, bool alone) const {
  for (const HfDecoder& d : has_decoder_ ? decoders_ : std::vector<HfDecoder>{}) {
    switch (d.kind) {
      case HfDecoder::Kind::kByteLevel:
        for (std::string& t : tokens) {  // every character a byte's stand-in, else the token as it is
          std::string bytes;
          bool all = true;
          for (std::size_t pos = 0; pos < t.size() && all;) {
            char32_t cp;
            const int b = DecodeUtf8(t, pos, cp) ? Gpt2SymbolByte(cp) : -1;
            all = b >= 0;
            bytes.push_back(static_cast<char>(b));
          }
          if (all) t = std::move(bytes);
        }
        break;
      case HfDecoder::Kind::kReplace:
        for (std::string& t : tokens) {
          if (d.pattern.empty()) break;
          std::string out;
          std::size_t at = 0;
          for (std::size_t f = t.find(d.pattern); f != std::string::npos; f = t.find(d.pattern, at)) {
            out.append(t, at, f - at);
            out += d.content;
            at = f + d.pattern.size();
          }
          out.append(t, at, std::string::npos);
          t = std::move(out);
        }
        break;
      case HfDecoder::Kind::kByteFallback: {  // runs of <0xXX> tokens become their bytes
        std::vector<std::string> out;
        std::string run;
        bool in_run = false;
        for (std::string& t : tokens) {
          const int b = FallbackByte(t);
          if (b >= 0) {
            run.push_back(static_cast<char>(b));
            in_run = true;
            continue;
          }
          if (in_run) out.push_back(std::move(run));
          run.clear();
          in_run = false;
          out.push_back(std::move(t));
        }
        if (in_run) out.push_back(std::move(run));
        tokens = std::move(out);
        break;
      }
      case HfDecoder::Kind::kFuse: {
        std::string all;
        for (const std::string& t : tokens) all += t;
        tokens.assign(1, std::move(all));
        break;
      }
      case HfDecoder::Kind::kStrip:
        if (alone) break;
        for (std::string& t : tokens) {
          std::size_t begin = 0, end = t.size();
          for (int k = 0; k < d.start && t.compare(begin, d.content.size(), d.content) == 0; ++k) begin += d.content.size();
          for (int k = 0; k < d.stop && end >= begin + d.content.size() &&
                          t.compare(end - d.content.size(), d.content.size(), d.content) == 0;
               ++k)
            end -= d.content.size();
          t = t.substr(begin, end - begin);
        }
        break;
      case HfDecoder::Kind::kMetaspace:
        for (std::size_t k = 0; k < tokens.size(); ++k) {
          std::string out;
          const std::string& t = tokens[k];
          for (std::size_t at = 0; at < t.size();) {
            if (t.compare(at, d.replacement.size(), d.replacement) == 0) {
              if (!(k == 0 && d.strip_first && !alone)) out += ' ';  // the library drops them in the first token
              at += d.replacement.size();
            } else {
              out.push_back(t[at++]);
            }
          }
          tokens[k] = std::move(out);
        }
        break;
    }
  }
  std::string text;
  for (const std::string& t : tokens) text += t;
  return text;
}

std::string HfTokenizer::Decode(const std::vector<int>& ids) const {
  std::vector<std::string> tokens;
  for (int id : ids)
    if (Has(id)) tokens.push_back(tokens_[static_cast<std::size_t>(id)]);
  return RunDecoder(std::move(tokens), /*alone=*/false);
}

}  // namespace

bool MakeHfTokenizer(const HfTokenizerSpec& spec, std::shared_ptr<const Tokenizer>* out, std::string* error) {
  auto t = std::make_shared<HfTokenizer>();
  if (!t->Load(spec, error)) return false;
  *out = std::move(t);
  return true;
}

}  // namespace model
}  // namespace attn
