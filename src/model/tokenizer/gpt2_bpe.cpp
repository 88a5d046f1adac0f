#include "model/tokenizer/gpt2_bpe.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <queue>

#include "engine/text/tokenizer.h"  // DecodeUtf8
#include "model/tokenizer/gpt2_pretokenizer.h"

namespace attn {
namespace model {

namespace {

// encoder.py's bytes_to_unicode(): the printable bytes keep their code point, the others get
// 256, 257, ... in byte order.
struct ByteSymbols {
  static constexpr char32_t kEnd = 256 + 68;  // one past the last stand-in
  std::array<char32_t, 256> symbol{};
  std::array<int, kEnd> byte{};  // -1: stands for no byte
  ByteSymbols() {
    byte.fill(-1);
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      symbol[static_cast<std::size_t>(b)] = printable ? static_cast<char32_t>(b) : next++;
      byte[symbol[static_cast<std::size_t>(b)]] = b;
    }
  }
};
const ByteSymbols& Symbols() {
  static const ByteSymbols symbols;
  return symbols;
}

void AppendUtf8(char32_t cp, std::string* out) {  // cp < U+0800: the symbols need no more
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
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

// A token's bytes: its symbols' bytes; a token with a character that stands for no byte (an
// added token such as "<|ру|>") is its own UTF-8, as the tokenizers library's ByteLevel decoder does.
std::string TokenBytes(const std::string& token) {
  std::string bytes;
  for (std::size_t pos = 0; pos < token.size();) {
    char32_t cp;
    if (!DecodeUtf8(token, pos, cp)) return token;
    const int b = Gpt2SymbolByte(cp);
    if (b < 0) return token;
    bytes.push_back(static_cast<char>(b));
  }
  return bytes;
}

std::uint64_t PairKey(int left, int right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
}

}  // namespace

std::string Gpt2Quoted(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const auto escape = [&](unsigned code) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\u%04X", code);
      out += hex;
    };
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      escape(c);
    } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x85) {
      escape(0x85);  // NEL
      i += 1;
    } else if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xA8) {
      escape(0x2028 + (static_cast<unsigned char>(text[i + 2]) & 1));  // line and paragraph separators
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

char32_t Gpt2ByteSymbol(unsigned char byte) { return Symbols().symbol[byte]; }

int Gpt2SymbolByte(char32_t symbol) {
  return symbol < ByteSymbols::kEnd ? Symbols().byte[symbol] : -1;
}

bool Gpt2Bpe::Load(const std::vector<std::pair<std::string, int>>& vocab,
                   const std::vector<std::pair<std::string, std::string>>& merges,
                   const std::vector<Gpt2AddedToken>& added, std::string* error, const Gpt2Sources& sources) {
  auto fail = [&](const std::string& where, const std::string& message) {
    if (error) *error = where + ": " + message;
    return false;
  };
  Gpt2Bpe next;
  int max_id = -1;
  for (const auto& [token, id] : vocab) max_id = std::max(max_id, id);
  for (const Gpt2AddedToken& a : added) max_id = std::max(max_id, a.id);
  if (max_id > kMaxId) return fail(sources.vocab, "id " + std::to_string(max_id) + " is above " + std::to_string(kMaxId));
  const std::size_t size = static_cast<std::size_t>(max_id + 1);
  next.tokens_.assign(size, "");
  next.bytes_.assign(size, "");
  next.present_.assign(size, false);

  if (vocab.empty()) return fail(sources.vocab, "the vocabulary is empty");
  for (const auto& [token, id] : vocab) {
    std::size_t bad;
    if (token.empty()) return fail(sources.vocab, "a token is the empty string");
    if (!ValidUtf8(token, &bad)) return fail(sources.vocab, "a token is not valid UTF-8");
    if (id < 0) return fail(sources.vocab, "token " + Gpt2Quoted(token) + " has the negative id " + std::to_string(id));
    const std::size_t i = static_cast<std::size_t>(id);
    if (next.present_[i])
      return fail(sources.vocab, "id " + std::to_string(id) + " is given to both " + Gpt2Quoted(next.tokens_[i]) +
                                     " and " + Gpt2Quoted(token));
    if (!next.id_of_.emplace(token, id).second) return fail(sources.vocab, "token " + Gpt2Quoted(token) + " appears twice");
    next.tokens_[i] = token;
    next.bytes_[i] = TokenBytes(token);
    next.present_[i] = true;
  }
  for (int b = 0; b < 256; ++b) {
    std::string symbol;
    AppendUtf8(Gpt2ByteSymbol(static_cast<unsigned char>(b)), &symbol);
    const auto it = next.id_of_.find(symbol);
    if (it == next.id_of_.end()) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", b);
      return fail(sources.vocab, std::string("no token for the byte ") + hex + " (" + Gpt2Quoted(symbol) +
                                     "): not a byte-level vocabulary");
    }
    next.byte_token_[b] = it->second;
  }

  for (std::size_t rank = 0; rank < merges.size(); ++rank) {
    const auto& [left, right] = merges[rank];
    const std::string where = "merge " + std::to_string(rank + 1) + " " + Gpt2Quoted(left + " " + right);
    const auto l = next.id_of_.find(left), r = next.id_of_.find(right);
    if (l == next.id_of_.end()) return fail(sources.merges, where + ": " + Gpt2Quoted(left) + " is not in the vocabulary");
    if (r == next.id_of_.end()) return fail(sources.merges, where + ": " + Gpt2Quoted(right) + " is not in the vocabulary");
    const auto result = next.id_of_.find(left + right);
    if (result == next.id_of_.end())
      return fail(sources.merges, where + ": the merged token " + Gpt2Quoted(left + right) + " is not in the vocabulary");
    const Merge m{static_cast<int>(rank), result->second};
    if (!next.merge_.emplace(PairKey(l->second, r->second), m).second)
      return fail(sources.merges, where + " appears twice");
  }

  for (const Gpt2AddedToken& a : added) {
    std::size_t bad;
    if (a.content.empty()) return fail(sources.added, "an added token is the empty string");
    if (!ValidUtf8(a.content, &bad)) return fail(sources.added, "an added token is not valid UTF-8");
    if (a.id < 0) return fail(sources.added, Gpt2Quoted(a.content) + " has the negative id " + std::to_string(a.id));
    for (const Gpt2AddedToken& b : next.added_)
      if (b.content == a.content) return fail(sources.added, Gpt2Quoted(a.content) + " is added twice");
    const std::size_t i = static_cast<std::size_t>(a.id);
    const auto known = next.id_of_.find(a.content);
    if (known != next.id_of_.end() && known->second != a.id)
      return fail(sources.added, Gpt2Quoted(a.content) + " has id " + std::to_string(a.id) + " but is token " +
                                     std::to_string(known->second) + " of the vocabulary");
    if (next.present_[i] && next.tokens_[i] != a.content)
      return fail(sources.added, Gpt2Quoted(a.content) + " has id " + std::to_string(a.id) + ", which is " +
                                     Gpt2Quoted(next.tokens_[i]));
    next.id_of_[a.content] = a.id;
    next.tokens_[i] = a.content;
    next.bytes_[i] = TokenBytes(a.content);
    next.present_[i] = true;
    next.added_.push_back(a);
  }
  *this = std::move(next);
  return true;
}

int Gpt2Bpe::Id(const std::string& token) const {
  const auto it = id_of_.find(token);
  return it == id_of_.end() ? -1 : it->second;
}

bool Gpt2Bpe::IsSpecial(int id) const {
  for (const Gpt2AddedToken& a : added_)
    if (a.id == id) return a.special;
  return false;
}

const Gpt2Bpe::Merge* Gpt2Bpe::FindMerge(int left, int right) const {
  const auto it = merge_.find(PairKey(left, right));
  return it == merge_.end() ? nullptr : &it->second;
}

// encoder.py's bpe(): repeatedly the adjacent pair of lowest rank, every occurrence left to
// right. A heap of (rank, position) finds that pair without rescanning the piece, so a long
// word costs n log n, not n^2. All entries of one rank (one pair) are taken before any merge
// is made, because a merge may create a pair of lower rank that encoder.py only sees after the
// whole pass; a merge never creates its own pair again (its result is longer than both parts).
void Gpt2Bpe::EncodePiece(std::string_view piece, std::vector<int>* ids) const {
  const int n = static_cast<int>(piece.size());
  std::vector<int> id(static_cast<std::size_t>(n)), prev(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    id[i] = byte_token_[static_cast<unsigned char>(piece[static_cast<std::size_t>(i)])];
    prev[i] = i - 1;
    next[i] = i + 1;  // n: none
  }
  using Entry = std::pair<int, int>;  // (rank, position of the pair's left token)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  auto push_pair = [&](int left) {
    if (left < 0 || next[left] >= n) return;
    if (const Merge* m = FindMerge(id[left], id[next[left]])) heap.push({m->rank, left});
  };
  for (int i = 0; i + 1 < n; ++i) push_pair(i);
  std::vector<int> batch;
  while (!heap.empty()) {
    const int rank = heap.top().first;
    batch.clear();
    for (; !heap.empty() && heap.top().first == rank; heap.pop()) batch.push_back(heap.top().second);
    for (const int left : batch) {  // ascending: the heap orders by (rank, position)
      if (id[left] < 0 || next[left] >= n) continue;  // merged away, or now the last token
      const Merge* m = FindMerge(id[left], id[next[left]]);
      if (!m || m->rank != rank) continue;  // this pair changed since it was pushed
      const int right = next[left];
      id[left] = m->result;
      id[right] = -1;
      next[left] = next[right];
      if (next[left] < n) prev[next[left]] = left;
      push_pair(prev[left]);
      push_pair(left);
    }
  }
  for (int i = 0; i < n; i = next[i]) ids->push_back(id[i]);
}

bool Gpt2Bpe::EncodeOrdinary(std::string_view text, std::vector<int>* ids, std::string* error) const {
  ids->clear();
  std::vector<Chunk> pieces;
  if (!Gpt2PreTokenize(text, &pieces, error)) return false;
  for (const Chunk& c : pieces) EncodePiece(text.substr(c.begin, c.end - c.begin), ids);
  return true;
}

bool Gpt2Bpe::Encode(std::string_view text, std::vector<int>* ids, std::string* error) const {
  ids->clear();
  std::size_t bad;
  if (!ValidUtf8(text, &bad)) {
    if (error) *error = "gpt2 tokenizer: invalid UTF-8 at byte " + std::to_string(bad);
    return false;
  }
  // Where each added token next occurs at or after `pos` (npos: nowhere), found again only
  // when `pos` has passed it, so that many added tokens in a long text cost one scan each.
  std::vector<std::size_t> found;
  for (const Gpt2AddedToken& a : added_) found.push_back(text.find(a.content));
  std::vector<int> piece_ids;
  std::size_t pos = 0;
  while (true) {
    std::size_t best = std::string_view::npos, best_length = 0;
    int best_id = -1;
    for (std::size_t k = 0; k < added_.size(); ++k) {
      if (found[k] != std::string_view::npos && found[k] < pos) found[k] = text.find(added_[k].content, pos);
      const std::size_t length = added_[k].content.size();
      if (found[k] < best || (found[k] == best && found[k] != std::string_view::npos && length > best_length)) {
        best = found[k];
        best_length = length;
        best_id = added_[k].id;
      }
    }
    if (!EncodeOrdinary(text.substr(pos, best == std::string_view::npos ? text.npos : best - pos), &piece_ids, error))
      return false;  // unreachable: the text is valid UTF-8 and so is every added token
    ids->insert(ids->end(), piece_ids.begin(), piece_ids.end());
    if (best == std::string_view::npos) return true;
    ids->push_back(best_id);
    pos = best + best_length;
  }
}

bool Gpt2Bpe::Decode(const std::vector<int>& ids, std::string* bytes, std::string* error) const {
  bytes->clear();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!Has(ids[i])) {
      if (error) *error = "gpt2 tokenizer: id " + std::to_string(ids[i]) + " (position " + std::to_string(i) +
                          ") names no token";
      bytes->clear();
      return false;
    }
    *bytes += bytes_[static_cast<std::size_t>(ids[i])];
  }
  return true;
}

std::string Gpt2Bpe::Readable(int id) const {
  if (!Has(id)) return "<no token " + std::to_string(id) + ">";
  const std::string& b = bytes_[static_cast<std::size_t>(id)];
  std::string out;
  for (std::size_t pos = 0; pos < b.size();) {
    const std::size_t at = pos;
    char32_t cp;
    const bool whole = DecodeUtf8(b, pos, cp);
    if (whole && !(cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))) {  // not a control character
      out.append(b, at, pos - at);
      continue;
    }
    if (!whole) pos = at + 1;  // one byte at a time: the next may start a whole character
    for (std::size_t k = at; k < pos; ++k) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "<0x%02X>", static_cast<unsigned char>(b[k]));
      out += hex;
    }
  }
  return out;
}

}  // namespace model
}  // namespace attn
