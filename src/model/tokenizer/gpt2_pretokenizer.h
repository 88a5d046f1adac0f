// GPT-2's pre-tokenizer: the text cut into the pieces that BPE merges never cross, as OpenAI's
// encoder.py cuts it with the regex
//
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// written out as a scanner (std::regex has no \p{..}). At each position the first alternative
// that matches wins, each as long as it can be:
//   1. an ASCII apostrophe and s, t, re, ve, m, ll or d, lower case only ("'S" is not one);
//   2-4. an optional ASCII space, then a run of letters, of numbers, or of anything else that is
//      not white space (the space joins only a run that follows it directly);
//   5. a run of white space, less its last character when a non-space follows: that character
//      is left to the next piece, so " world" keeps its space (a run of one is taken whole, 6).
// Every character is a letter, a number, white space or other, so some alternative always
// matches and the pieces concatenate back to the text. Classes: unicode_classes.h (\s is
// White_Space, as in Python's `regex`, which encoder.py uses).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/tokenizer/bpe.h"  // Chunk

namespace attn {
namespace model {

// The pieces of `text` as byte ranges, in order. Returns false (message naming the byte) when
// `text` is not valid UTF-8.
bool Gpt2PreTokenize(std::string_view text, std::vector<Chunk>* pieces, std::string* error = nullptr);

}  // namespace model
}  // namespace attn
