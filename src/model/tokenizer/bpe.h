// Byte-pair encoding trained by our own code, on top of the lab's word rule, so that every token
// is readable UTF-8 text in both scripts.
//
// Pre-splitting (PreSplit): the text is cut into chunks that merges never cross. The lab's
// tokenizer (engine/text/tokenizer.h) finds the words and symbols of each line; the characters it
// drops (whitespace, controls) stay in the text: the gap before a lab token becomes a chunk of
// its own, except that a gap's last character, when it is an ASCII space, goes with the token
// (" cat", as GPT-2 does). The gap after the last token is a chunk too, so the chunks
// concatenate back to the text exactly. A line of more than kMaxTokens lab tokens (or
// kMaxSentenceBytes bytes) is first cut at the ASCII space nearest its middle (at the middle
// code point when it has none), recursively.
//
// Vocabulary, in id order:
//   0                  "<|endoftext|>" (separates entries; decodes to nothing)
//   1 .. 128           the 128 ASCII characters, id = byte + 1
//   129 .. 256         byte fallback for 0x80..0xFF, shown as "<0x80>".."<0xFF>": a character
//                      that is not in the vocabulary is encoded as its UTF-8 bytes, so every
//                      valid UTF-8 text round-trips
//   257 ..             the non-ASCII characters seen at least min_char_count times in training,
//                      by code point
//   then merges        each merge's token: the two texts joined (a merge whose text already
//                      exists reuses that token)
// Training: count every adjacent pair inside each chunk (weighted by the chunk's count); merge
// the most frequent pair, ties broken by the smaller (left id, right id); byte-fallback tokens
// and id 0 never merge, so every token is whole characters; stop at vocab_size tokens or when
// no pair occurs at least twice.
// Encoding a chunk: its characters as ids, then repeatedly merge the adjacent pair of lowest
// merge rank (every occurrence, left to right) until no pair has a rank.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn {
namespace model {

// The chunks of `text` (valid UTF-8), as byte ranges that concatenate to the text.
// Returns false (message) on invalid UTF-8.
struct Chunk {
  std::size_t begin, end;  // bytes, [begin, end)
};
bool PreSplit(std::string_view text, std::vector<Chunk>* chunks, std::string* error = nullptr);

struct BpeMerge {
  int left, right, result;  // token ids; result's text = text(left) + text(right)
};

class Bpe {
 public:
  static constexpr int kEndOfText = 0;
  static constexpr int kFirstAscii = 1;
  static constexpr int kFirstByte = 129;   // byte 0x80
  static constexpr int kFirstChar = 257;   // the first non-ASCII character

  // Trains on the texts (each valid UTF-8; an invalid one is refused with a message).
  bool Train(const std::vector<std::string>& texts, int vocab_size, int min_char_count = 2,
             std::string* error = nullptr);
  // Builds from stored tokens and merges (the JSON file), checking that they are consistent.
  bool Load(std::vector<std::string> tokens, int char_count, std::vector<BpeMerge> merges,
            std::string* error = nullptr);

  bool Encode(std::string_view text, std::vector<int>* ids, std::string* error = nullptr) const;
  std::string Decode(const std::vector<int>& ids) const;

  int size() const { return static_cast<int>(tokens_.size()); }
  const std::string& Text(int id) const { return tokens_[static_cast<std::size_t>(id)]; }
  bool IsByte(int id) const { return id >= kFirstByte && id < kFirstChar; }
  const std::vector<std::string>& tokens() const { return tokens_; }
  const std::vector<BpeMerge>& merges() const { return merges_; }
  int char_count() const { return char_count_; }  // non-ASCII characters in the base

 private:
  void BaseTokens(const std::vector<char32_t>& chars);
  void EncodeChunk(std::string_view chunk, std::vector<int>* ids) const;

  std::vector<std::string> tokens_;
  std::vector<BpeMerge> merges_;
  int char_count_ = 0;
  std::unordered_map<char32_t, int> char_id_;          // non-ASCII character -> id
  std::unordered_map<std::uint64_t, int> merge_rank_;  // (left << 32 | right) -> rank
};

// The vocabulary as JSON and back (bpe_json.cpp, in attn_model_io):
//   {"format": "attnlab-bpe", "version": 1, "char_count": n, "tokens": [...],
//    "merges": [[left, right, result], ...]}
std::string BpeToJson(const Bpe& bpe);
bool BpeFromJson(const std::string& json, Bpe* bpe, std::string* error = nullptr);

}  // namespace model
}  // namespace attn
