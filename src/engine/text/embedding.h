// Token embeddings and sinusoidal positional encoding.
//
// Legend for shapes: N = number of tokens, D = d_model.
#pragma once

#include "engine/base/types.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attn {

// 64-bit FNV-1a of the bytes mixed with the seed; stable across platforms and builds.
std::uint64_t HashToken(const std::string& text, std::uint64_t seed);

// A deterministic pseudo-random embedding: entries ~ N(0, 1) drawn from a splitmix64 stream
// seeded by HashToken(text, seed). Same (text, seed, D) -> same vector on every platform.
VecF TokenEmbedding(const std::string& text, int d_model, std::uint64_t seed);  // (D)

// Vaswani et al. 2017: PE(pos, 2i) = sin(pos / 10000^(2i/D)), PE(pos, 2i+1) = cos(same).
MatF PositionalEncoding(int n_tokens, int d_model);  // (N, D)

// The embedding matrix the attention layer reads: one row per token, the token's embedding
// (or its override, which must have D entries) plus the positional encoding when enabled.
MatF EmbedTokens(const std::vector<std::string>& tokens, int d_model, std::uint64_t seed,
                 bool positional,
                 const std::map<std::string, VecF>& overrides = {});  // (N, D)

}  // namespace attn
