// GPT-2's byte-level BPE (OpenAI's encoder.py; Hugging Face's GPT2Tokenizer and the tokenizers
// library's BPE + ByteLevel), given its vocabulary and merges as data.
//
// Bytes as symbols: every byte 0..255 has a printable stand-in code point (Gpt2ByteSymbol):
// the printable Latin-1 bytes ('!'..'~', '¡'..'¬', '®'..'ÿ') stand for themselves, the other 68
// (controls, space, 0x7F..0xA0, 0xAD) for U+0100.. in byte order, so a space is "Ġ" (U+0120) and
// a newline "Ċ" (U+010A). Vocabulary and merges are written in these symbols.
//
// Encode(text):
//   1. added tokens (e.g. "<|endoftext|>" = 50256) are found in the text first, leftmost and
//      then longest; they become their ids and cut the text, as Hugging Face's tokenizers do
//      (OpenAI's encoder.py knows none and would spell "<|endoftext|>" as 7 tokens:
//      EncodeOrdinary); no beginning-of-text token is added, as in GPT-2's reference encoders;
//   2. each stretch between them is cut by the pre-tokenizer (gpt2_pretokenizer.h);
//   3. each piece's bytes become their symbols' tokens, then the adjacent pair of lowest merge
//      rank is merged, every occurrence from left to right, until no adjacent pair has a rank.
// The text must be valid UTF-8: invalid input is refused with the byte's offset. (The reference
// encoders take strings, so invalid bytes never reach them: JavaScript's TextDecoder or Python's
// decode would have turned them into U+FFFD first. Refusing keeps the lab from tokenizing text
// the learner did not write.)
// Decode(ids) concatenates the tokens' bytes: Decode(Encode(text)) == text byte for byte. A token
// may end inside a UTF-8 character (GPT-2 has tokens of one byte of "—" or of an emoji); its
// Readable() form shows such bytes as <0xE2>.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attn {
namespace model {

// The stand-in code point of a byte, and back (-1 for a code point that stands for no byte).
char32_t Gpt2ByteSymbol(unsigned char byte);
int Gpt2SymbolByte(char32_t symbol);

// `text` in double quotes for a one-line message: quotes, backslashes, control characters and
// the Unicode line breaks escaped as in JSON (a line break becomes \n), whatever a file holds.
std::string Gpt2Quoted(std::string_view text);

struct Gpt2AddedToken {
  std::string content;  // as it appears in text (UTF-8), e.g. "<|endoftext|>"
  int id = -1;
  bool special = true;  // Hugging Face's flag: decoding may skip special tokens
};

// Which file or part of a file each kind of input came from: Load's messages start with it.
struct Gpt2Sources {
  std::string vocab = "vocabulary", merges = "merges", added = "added tokens";
};

class Gpt2Bpe {
 public:
  // vocab: (token in byte symbols, id) pairs; merges: pairs of tokens, by rank (first = 0);
  // added: matched in text before pre-tokenization. Refuses (message, nothing changed) a
  // vocabulary without a token for each of the 256 bytes, repeated tokens or ids, negative ids
  // or ids above kMaxId, merges whose parts or result are not in the vocabulary, a merge given
  // twice, empty or repeated added tokens, an added token whose id holds another token.
  bool Load(const std::vector<std::pair<std::string, int>>& vocab,
            const std::vector<std::pair<std::string, std::string>>& merges,
            const std::vector<Gpt2AddedToken>& added, std::string* error = nullptr,
            const Gpt2Sources& sources = {});

  bool Encode(std::string_view text, std::vector<int>* ids, std::string* error = nullptr) const;
  // Without the added tokens: what OpenAI's encoder.py and npm's gpt-3-encoder do.
  bool EncodeOrdinary(std::string_view text, std::vector<int>* ids, std::string* error = nullptr) const;
  // The bytes of the ids' tokens; refuses an id that names no token.
  bool Decode(const std::vector<int>& ids, std::string* bytes, std::string* error = nullptr) const;

  // One token for people: its bytes as UTF-8 text where they form whole characters, every other
  // byte (a piece of a character, a control character's bytes) as <0xE2>; "<no token 7>" for
  // an id that names none.
  std::string Readable(int id) const;

  // Above the largest real vocabularies (about 262 000 ids); keeps the id table (64 bytes an id)
  // small whatever a file says.
  static constexpr int kMaxId = (1 << 20) - 1;
  int size() const { return static_cast<int>(tokens_.size()); }  // one above the largest id
  bool Has(int id) const { return id >= 0 && id < size() && present_[static_cast<std::size_t>(id)]; }
  int Id(const std::string& token) const;  // -1 when absent; added tokens by their content
  const std::string& Token(int id) const { return tokens_[static_cast<std::size_t>(id)]; }  // Has(id)
  const std::string& Bytes(int id) const { return bytes_[static_cast<std::size_t>(id)]; }   // Has(id)
  bool IsSpecial(int id) const;
  const std::vector<Gpt2AddedToken>& added() const { return added_; }
  int merge_count() const { return static_cast<int>(merge_.size()); }

 private:
  struct Merge {
    int rank, result;
  };
  void EncodePiece(std::string_view piece, std::vector<int>* ids) const;
  const Merge* FindMerge(int left, int right) const;

  std::vector<std::string> tokens_;  // by id: the token in byte symbols ("" where no token)
  std::vector<std::string> bytes_;   // by id: the bytes it decodes to
  std::vector<bool> present_;
  std::unordered_map<std::string, int> id_of_;         // vocabulary and added tokens
  std::unordered_map<std::uint64_t, Merge> merge_;     // (left << 32 | right) -> rank, result
  int byte_token_[256] = {};                           // the token of each byte's symbol
  std::vector<Gpt2AddedToken> added_;
};

// --- the files (gpt2_bpe_files.cpp, in attn_model_io: nlohmann-json) -----------------------
// Messages are one line and start with the file's name.
//
// vocab.json (an object token -> id; OpenAI's encoder.json) and merges.txt (OpenAI's vocab.bpe:
// an optional "#version" first line, then one merge a line, two tokens separated by one space;
// the last line may end with a newline). "<|endoftext|>", when in the vocabulary, is the
// added special token, as GPT2Tokenizer makes it.
bool LoadGpt2VocabMerges(const std::string& vocab_path, const std::string& merges_path, Gpt2Bpe* bpe,
                         std::string* error = nullptr);
bool Gpt2FromVocabMerges(std::string_view vocab_json, std::string_view merges_txt, Gpt2Bpe* bpe,
                         std::string* error = nullptr, const std::string& vocab_name = "vocab.json",
                         const std::string& merges_name = "merges.txt");
// tokenizer.json of Hugging Face's tokenizers library, as GPT-2's checkpoints have it: model BPE
// (merges as "a b" strings or ["a", "b"] pairs), pre_tokenizer ByteLevel, added_tokens. A
// setting it does not implement (a normalizer, another pre-tokenizer, dropout, byte fallback, a
// post-processor that adds tokens, an unknown field, ...) is refused by its name, never skipped.
bool LoadGpt2TokenizerJson(const std::string& path, Gpt2Bpe* bpe, std::string* error = nullptr);
bool Gpt2FromTokenizerJson(std::string_view json, Gpt2Bpe* bpe, std::string* error = nullptr,
                           const std::string& name = "tokenizer.json");

}  // namespace model
}  // namespace attn
