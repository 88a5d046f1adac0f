// The lab's BPE (bpe.h) written as a Hugging Face `tokenizer.json`, for `attnlab model export
// --to hf`: a best effort that others' tools (the Rust `tokenizers`, npm `@huggingface/tokenizers`,
// transformers' PreTrainedTokenizerFast) read. The lab itself reads the exact vocabulary from
// attnlab-tokenizer.json (BpeToJson) written beside it.
//
//   model          BPE, byte_fallback true, no unk token: our vocabulary by id (the byte-fallback
//                  tokens are already named "<0x80>".."<0xFF>", as Hugging Face's byte fallback
//                  looks them up) and our merges in rank order, as ["left", "right"] pairs (tokens
//                  hold spaces, so the "left right" string form would be ambiguous)
//   pre_tokenizer  Split, behaviour Isolated, on LabSplitRegex(): PreSplit's chunks
//   added_tokens   <|endoftext|> (id 0), special
//   decoder        ByteFallback then Fuse: byte tokens back to UTF-8, the pieces joined
//   normalizer, post_processor   none (no text is changed; no token is added around a text)
//
// What it cannot say (docs/models.md, "Ours out", measured by scripts/hf_tokenizer_check.sh):
// PreSplit cuts a piece of more than kMaxTokens lab tokens or kMaxSentenceBytes bytes that holds no
// ASCII space at its middle code point, which may fall inside a word: a regular expression cannot
// count tokens. And Hugging Face's tokenizers match the text "<|endoftext|>" as the special token,
// where the lab encodes its characters.
//
// Lives in attn_model_io (nlohmann-json).
#pragma once

#include "model/tokenizer/bpe.h"

#include <string>

namespace attn {
namespace model {

// PreSplit's chunks as one regular expression in the syntax both Oniguruma (the Rust library)
// and JavaScript's `u` mode (the npm one, which translates \x{...}) read the same way: the lab's
// word rule (engine/text/tokenizer.h) with the character classes of its own table, an ASCII space
// before a token kept with it, and each run of whitespace otherwise a chunk of its own.
std::string LabSplitRegex();

// tokenizer.json's text. False with a message when two ids hold the same text (a Hugging Face
// vocabulary maps each text to one id).
bool BpeToHfTokenizerJson(const Bpe& bpe, std::string* json, std::string* error = nullptr);

}  // namespace model
}  // namespace attn
