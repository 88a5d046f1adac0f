// Byte-pair encoding (bpe.h): pre-splitting on the lab's word rule, training, encoding.
#include "model/tokenizer/bpe.h"

#include "engine/base/limits.h"
#include "engine/text/tokenizer.h"

#include <cstdio>
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace attn {
namespace model {

namespace {

std::string Utf8(char32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    s.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    s.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    s.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return s;
}

std::string ByteName(int byte) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "<0x%02X>", byte);
  return buf;
}

std::uint64_t PairKey(int left, int right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
         static_cast<std::uint32_t>(right);
}

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = "bpe: " + message;
  return false;
}

// The lab tokens of text[lo, hi), cutting a piece the lab refuses as too long or with too many
// tokens at the ASCII space nearest its middle (else at the middle code point).
void LabSpans(std::string_view text, std::size_t lo, std::size_t hi,
              std::vector<std::pair<std::size_t, std::size_t>>* spans) {
  if (lo >= hi) return;
  const TokenizeResult r = Tokenize(text.substr(lo, hi - lo));
  if (r.ok()) {
    for (const Token& t : r.tokens) spans->push_back({lo + t.byte_begin, lo + t.byte_end});
    return;
  }
  if (r.error == TokenizeError::kEmpty || r.error == TokenizeError::kInvalidUtf8) return;
  const std::size_t mid = lo + (hi - lo) / 2;
  std::size_t cut = 0;
  for (std::size_t d = 0; d < (hi - lo) / 2 && cut == 0; ++d) {
    if (mid - d > lo && text[mid - d] == ' ') cut = mid - d;
    else if (mid + d < hi && mid + d > lo && text[mid + d] == ' ') cut = mid + d;
  }
  if (cut == 0) {
    cut = mid;
    while (cut > lo && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    if (cut == lo) {
      cut = mid + 1;
      while (cut < hi && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) ++cut;
    }
  }
  LabSpans(text, lo, cut, spans);
  LabSpans(text, cut, hi, spans);
}

}  // namespace

bool PreSplit(std::string_view text, std::vector<Chunk>* chunks, std::string* error) {
  chunks->clear();
  for (std::size_t pos = 0; pos < text.size();) {
    char32_t cp;
    const std::size_t at = pos;
    if (!DecodeUtf8(text, pos, cp))
      return Fail(error, "invalid UTF-8 at byte " + std::to_string(at));
  }
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  LabSpans(text, 0, text.size(), &spans);
  std::size_t prev = 0;
  for (const auto& [b, e] : spans) {
    std::size_t start = b;
    if (b > prev && text[b - 1] == ' ') start = b - 1;  // " word"
    if (start > prev) chunks->push_back({prev, start});
    chunks->push_back({start, e});
    prev = e;
  }
  if (prev < text.size()) chunks->push_back({prev, text.size()});
  return true;
}

void Bpe::BaseTokens(const std::vector<char32_t>& chars) {
  tokens_.clear();
  merges_.clear();
  merge_rank_.clear();
  char_id_.clear();
  tokens_.push_back("<|endoftext|>");
  for (int b = 0; b < 128; ++b) tokens_.push_back(std::string(1, static_cast<char>(b)));
  for (int b = 0x80; b < 0x100; ++b) tokens_.push_back(ByteName(b));
  for (char32_t cp : chars) {
    char_id_[cp] = static_cast<int>(tokens_.size());
    tokens_.push_back(Utf8(cp));
  }
  char_count_ = static_cast<int>(chars.size());
}

void Bpe::EncodeChunk(std::string_view chunk, std::vector<int>* out) const {
  std::vector<int> ids;
  for (std::size_t pos = 0; pos < chunk.size();) {
    const std::size_t at = pos;
    char32_t cp = 0;
    DecodeUtf8(chunk, pos, cp);  // valid: checked by PreSplit
    if (cp < 0x80) {
      ids.push_back(kFirstAscii + static_cast<int>(cp));
      continue;
    }
    const auto it = char_id_.find(cp);
    if (it != char_id_.end()) {
      ids.push_back(it->second);
      continue;
    }
    for (std::size_t k = at; k < pos; ++k)
      ids.push_back(kFirstByte + static_cast<int>(static_cast<unsigned char>(chunk[k])) - 0x80);
  }
  // merge the pair of lowest rank, every occurrence left to right, until none has a rank
  while (ids.size() > 1) {
    int best = -1;
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
      const auto it = merge_rank_.find(PairKey(ids[i], ids[i + 1]));
      if (it != merge_rank_.end() && (best < 0 || it->second < best)) best = it->second;
    }
    if (best < 0) break;
    const BpeMerge& m = merges_[static_cast<std::size_t>(best)];
    std::vector<int> next;
    next.reserve(ids.size());
    for (std::size_t i = 0; i < ids.size();) {
      if (i + 1 < ids.size() && ids[i] == m.left && ids[i + 1] == m.right) {
        next.push_back(m.result);
        i += 2;
      } else {
        next.push_back(ids[i++]);
      }
    }
    ids.swap(next);
  }
  out->insert(out->end(), ids.begin(), ids.end());
}

bool Bpe::Train(const std::vector<std::string>& texts, int vocab_size, int min_char_count,
                std::string* error) {
  // 1. chunks with their counts (a sorted map: the same order on every machine)
  std::map<std::string, std::int64_t> chunk_counts;
  std::vector<Chunk> chunks;
  for (const std::string& text : texts) {
    if (!PreSplit(text, &chunks, error)) return false;
    for (const Chunk& c : chunks) ++chunk_counts[text.substr(c.begin, c.end - c.begin)];
  }
  // 2. the base: ASCII, bytes, and the non-ASCII characters seen min_char_count times
  std::map<char32_t, std::int64_t> char_counts;
  for (const auto& [chunk, count] : chunk_counts) {
    for (std::size_t pos = 0; pos < chunk.size();) {
      char32_t cp = 0;
      DecodeUtf8(chunk, pos, cp);
      if (cp >= 0x80) char_counts[cp] += count;
    }
  }
  std::vector<char32_t> chars;
  for (const auto& [cp, count] : char_counts) {
    if (count >= min_char_count) chars.push_back(cp);
  }
  BaseTokens(chars);
  if (vocab_size < size())
    return Fail(error, "a vocabulary of " + std::to_string(vocab_size) +
                           " is smaller than the base of " + std::to_string(size()) + " tokens");
  std::unordered_map<std::string, int> token_id;
  for (int id = 0; id < size(); ++id) token_id.emplace(tokens_[static_cast<std::size_t>(id)], id);
  std::vector<std::vector<int>> words;
  std::vector<std::int64_t> counts;
  for (const auto& [chunk, count] : chunk_counts) {
    words.emplace_back();
    EncodeChunk(chunk, &words.back());
    counts.push_back(count);
  }
  // 3. merges. The pair counts are kept up to date instead of recounted for every merge: a merge
  // takes the words that hold its pair out of the counts, merges them, and puts them back; the
  // best pair is the first of `order` (count descending, then the smaller (left, right)), which is
  // the rule a full recount applies, so the merges are the same.
  auto mergeable = [&](int id) { return id != kEndOfText && !IsByte(id); };
  std::unordered_map<std::uint64_t, std::int64_t> pair_count;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> where;  // words holding a pair (may repeat)
  std::set<std::pair<std::int64_t, std::uint64_t>> order;              // (-count, key)
  auto count_word = [&](std::size_t w, int sign) {
    const std::vector<int>& ids = words[w];
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
      if (!mergeable(ids[i]) || !mergeable(ids[i + 1])) continue;
      const std::uint64_t key = PairKey(ids[i], ids[i + 1]);
      std::int64_t& c = pair_count[key];
      if (c > 0) order.erase({-c, key});
      c += sign * counts[w];
      if (c > 0) order.insert({-c, key});
      if (sign > 0) where[key].push_back(static_cast<std::uint32_t>(w));
    }
  };
  for (std::size_t w = 0; w < words.size(); ++w) count_word(w, +1);
  while (size() < vocab_size && !order.empty()) {
    const auto [neg_count, best_key] = *order.begin();
    if (-neg_count < 2) break;
    const int left = static_cast<int>(best_key >> 32), right = static_cast<int>(best_key & 0xFFFFFFFFu);
    const std::string text = tokens_[static_cast<std::size_t>(left)] + tokens_[static_cast<std::size_t>(right)];
    int result;
    const auto found = token_id.find(text);
    if (found != token_id.end()) {
      result = found->second;
    } else {
      result = size();
      tokens_.push_back(text);
      token_id.emplace(text, result);
    }
    merge_rank_[best_key] = static_cast<int>(merges_.size());
    merges_.push_back({left, right, result});
    std::vector<std::uint32_t> holders = std::move(where[best_key]);
    where.erase(best_key);
    std::sort(holders.begin(), holders.end());
    holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
    for (const std::uint32_t w : holders) {
      std::vector<int>& ids = words[w];
      bool holds = false;
      for (std::size_t i = 0; i + 1 < ids.size() && !holds; ++i) holds = ids[i] == left && ids[i + 1] == right;
      if (!holds) continue;  // merged away by an earlier merge
      count_word(w, -1);
      std::size_t out = 0;
      for (std::size_t i = 0; i < ids.size(); ++out) {
        if (i + 1 < ids.size() && ids[i] == left && ids[i + 1] == right) {
          ids[out] = result;
          i += 2;
        } else {
          ids[out] = ids[i++];
        }
      }
      ids.resize(out);
      count_word(w, +1);
    }
  }
  return true;
}

bool Bpe::Load(std::vector<std::string> tokens, int char_count, std::vector<BpeMerge> merges,
               std::string* error) {
  if (char_count < 0 || tokens.size() < static_cast<std::size_t>(kFirstChar + char_count))
    return Fail(error, "fewer tokens than the base vocabulary");
  std::vector<char32_t> chars;
  for (int k = 0; k < char_count; ++k) {
    const std::string& t = tokens[static_cast<std::size_t>(kFirstChar + k)];
    std::size_t pos = 0;
    char32_t cp = 0;
    if (!DecodeUtf8(t, pos, cp) || pos != t.size() || cp < 0x80 || (!chars.empty() && cp <= chars.back()))
      return Fail(error, "token " + std::to_string(kFirstChar + k) +
                             " is not the next non-ASCII character");
    chars.push_back(cp);
  }
  BaseTokens(chars);
  if (tokens[0] != tokens_[0]) return Fail(error, "token 0 is not <|endoftext|>");
  for (int id = 1; id < kFirstChar; ++id) {
    if (tokens[static_cast<std::size_t>(id)] != tokens_[static_cast<std::size_t>(id)])
      return Fail(error, "token " + std::to_string(id) + " is not the base vocabulary's");
  }
  tokens_ = std::move(tokens);
  const int n = size();
  std::vector<bool> made(static_cast<std::size_t>(n), false);
  for (std::size_t r = 0; r < merges.size(); ++r) {
    const BpeMerge& m = merges[r];
    const std::string where = "merge " + std::to_string(r);
    if (m.left < 0 || m.left >= n || m.right < 0 || m.right >= n || m.result < 0 || m.result >= n)
      return Fail(error, where + ": a token id out of range");
    if (m.left == kEndOfText || m.right == kEndOfText || IsByte(m.left) || IsByte(m.right))
      return Fail(error, where + ": merges a byte or the end-of-text token");
    if (Text(m.result) != Text(m.left) + Text(m.right))
      return Fail(error, where + ": the result's text is not the pair's");
    if (!merge_rank_.emplace(PairKey(m.left, m.right), static_cast<int>(r)).second)
      return Fail(error, where + ": the pair repeats");
    made[static_cast<std::size_t>(m.result)] = true;
  }
  for (int id = kFirstChar + char_count; id < n; ++id) {
    if (!made[static_cast<std::size_t>(id)])
      return Fail(error, "token " + std::to_string(id) + " is made by no merge");
  }
  merges_ = std::move(merges);
  return true;
}

bool Bpe::Encode(std::string_view text, std::vector<int>* ids, std::string* error) const {
  ids->clear();
  std::vector<Chunk> chunks;
  if (!PreSplit(text, &chunks, error)) return false;
  for (const Chunk& c : chunks) EncodeChunk(text.substr(c.begin, c.end - c.begin), ids);
  return true;
}

std::string Bpe::Decode(const std::vector<int>& ids) const {
  std::string out;
  for (int id : ids) {
    if (id <= kEndOfText || id >= size()) continue;  // specials and unknown ids: nothing
    if (IsByte(id)) {
      out.push_back(static_cast<char>(0x80 + (id - kFirstByte)));
    } else {
      out += Text(id);
    }
  }
  return out;
}

}  // namespace model
}  // namespace attn
