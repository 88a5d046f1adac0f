// A Hugging Face `tokenizer.json` with a BPE model, in general: what the tokenizers library
// (and transformers' fast tokenizers, and tokenizers.js) does with the files of Llama 2 and 3,
// Mistral, Qwen2 and 3, SmolLM, TinyLlama. GPT-2's own files keep their exact reader
// (gpt2_bpe.h); model_folder.h picks.
//
// Encode(text), as the library's Tokenizer::encode without the post-processor:
//   1. the added tokens are found first, leftmost and then longest: those with normalized =
//      false in the raw text, then, in each stretch between, the normalizer runs and those with
//      normalized = true are found in its output; lstrip / rstrip take the white space beside;
//   2. each stretch left is normalized (Prepend, Replace, NFC, in order) and cut by the
//      pre-tokenizers (ByteLevel, Split, Metaspace, in order, each on every piece of the last);
//   3. each piece is one BPE word: the whole piece when it is a token and ignore_merges is set;
//      else its characters' tokens (a character without one: its UTF-8 bytes' <0xXX> tokens
//      with byte_fallback, else unk_token, runs of them fused with fuse_unk), merged by the
//      pair of lowest rank, leftmost first, until no pair has a rank.
// Begin() is the post-processor's token before $A (TemplateProcessing), or what
// tokenizer_config.json's add_bos_token says; Encode adds nothing (tokenizer.h).
// Decode(ids) runs the decoder (ByteLevel; Replace, ByteFallback, Fuse, Strip; Metaspace) on
// the ids' tokens, added tokens included, as the library does with skip_special_tokens = false;
// bytes are kept as bytes (the library writes U+FFFD for bytes that are not UTF-8). Bytes(id) is
// one token's text alone, without the decoder's rules for a text's start (Strip, Metaspace's
// first U+2581). Label(id): Bytes(id) for people, as GPT-2's tokens are shown: whole characters
// as themselves, other bytes as <0xE2> (Llama 2's "<0x0A>" is <0x0A>, its "U+2581the" is " the").
// (No source file spells U+2581 itself: the page's font keeps every symbol the sources use.)
//
// The file itself is read by hf_tokenizer_json.cpp (attn_model_io, nlohmann-json); everything it
// does not implement is refused there by name.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/tokenizer/tokenizer.h"

namespace attn {
namespace model {

// A Split's or a Replace's pattern: a literal string or a regular expression (hf_regex.h).
struct HfPattern {
  bool regex = false;
  std::string text;
};

struct HfNormalizer {
  enum class Kind { kPrepend, kReplace, kNfc } kind = Kind::kNfc;
  std::string prepend;     // kPrepend
  HfPattern pattern;       // kReplace
  std::string content;     // kReplace
  std::string where;       // e.g. "normalizer.normalizers[1]": the messages name it
};

// How a Split keeps its matches (the tokenizers library's SplitDelimiterBehavior).
enum class HfSplitBehavior { kRemoved, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous };

struct HfPreTokenizer {
  enum class Kind { kByteLevel, kSplit, kMetaspace } kind = Kind::kByteLevel;
  bool add_prefix_space = false, use_regex = true;  // kByteLevel
  HfPattern pattern;                                 // kSplit
  HfSplitBehavior behavior = HfSplitBehavior::kIsolated;
  bool invert = false;
  std::string replacement = "\u2581";  // kMetaspace: one character, U+2581 by default
  enum class Prepend { kAlways, kFirst, kNever } prepend = Prepend::kAlways;
  bool split = true;
  std::string where;
};

struct HfDecoder {
  enum class Kind { kByteLevel, kReplace, kByteFallback, kFuse, kStrip, kMetaspace } kind = Kind::kFuse;
  std::string pattern, content;  // kReplace (a string pattern); kStrip: content, one character
  int start = 0, stop = 0;       // kStrip
  std::string replacement;       // kMetaspace
  bool strip_first = true;       // kMetaspace: prepend_scheme is not "never"
};

struct HfAddedToken {
  std::string content;
  int id = -1;
  bool special = false, lstrip = false, rstrip = false, normalized = false;
};

// Everything the tokenizer is, as read from the files.
struct HfTokenizerSpec {
  std::vector<std::pair<std::string, int>> vocab;                   // model.vocab
  std::vector<std::pair<std::string, std::string>> merges;          // by rank
  std::string unk_token;                                            // "" when null
  bool byte_fallback = false, fuse_unk = false, ignore_merges = false;
  std::vector<HfNormalizer> normalizers;     // in order (Sequences flattened)
  std::vector<HfPreTokenizer> pre_tokenizers;
  bool has_decoder = false;                  // null: tokens are concatenated as written
  std::vector<HfDecoder> decoders;
  std::vector<HfAddedToken> added;
  int begin = -1;                            // what a run starts with (tokenizer.h)
  int end_of_text = -1;                      // what separates documents
  std::string name = "tokenizer.json";       // the messages start with it
};

// The tokenizer, or false with a one-line message starting with spec.name (a pattern the
// regular expressions do not support, a merge whose parts are not tokens, an id given twice...).
bool MakeHfTokenizer(const HfTokenizerSpec& spec, std::shared_ptr<const Tokenizer>* out, std::string* error = nullptr);

// --- the files (hf_tokenizer_json.cpp, in attn_model_io: nlohmann-json) --------------------
// tokenizer.json's text and, when the folder has it, tokenizer_config.json's (nullptr: none).
// eos: config.json's eos_token_id (-1: none; then tokenizer_config.json's eos_token). Every
// component, field or value this reader does not implement is refused by name, in one line
// starting with the file's name: `tokenizer.json: pre_tokenizer "Digits" is not supported`.
bool HfTokenizerFromJson(std::string_view tokenizer_json, const std::string* config_json, int eos,
                         std::shared_ptr<const Tokenizer>* out, std::string* error = nullptr,
                         const std::string& name = "tokenizer.json",
                         const std::string& config_name = "tokenizer_config.json");

}  // namespace model
}  // namespace attn
