// Token embeddings and sinusoidal positional encoding. Shapes: N = tokens, D = d_model.
// No FMA contraction, for the same bits natively and in wasm (see attention.cpp).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/text/embedding.h"

#include <cmath>
#include <vector>

#include "engine/base/rng.h"

namespace attn {

std::uint64_t HashToken(const std::string& text, std::uint64_t seed) {
  // FNV-1a over the bytes (offset basis and prime of the 64-bit variant).
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (const char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001B3ull;
  }
  // Then the seed, through the splitmix64 mixer so that seeds 1 and 2 give unrelated streams.
  return rng::Mix64(h ^ rng::Mix64(seed + rng::kGolden));
}

VecF TokenEmbedding(const std::string& text, int d_model, std::uint64_t seed) {
  const int d = d_model > 0 ? d_model : 0;
  std::vector<double> z(static_cast<std::size_t>(d));  // (D) drawn in double, rounded once
  rng::SplitMix64 stream(HashToken(text, seed));
  rng::FillStandardNormal(stream, z.data(), d);
  VecF e(d);  // (D)
  for (int k = 0; k < d; ++k) e(k) = static_cast<float>(z[static_cast<std::size_t>(k)]);
  return e;
}

MatF PositionalEncoding(int n_tokens, int d_model) {
  const int n = n_tokens > 0 ? n_tokens : 0;
  const int d = d_model > 0 ? d_model : 0;
  MatF pe(n, d);  // (N, D)
  for (int k = 0; k < d; ++k) {
    // Columns 2i and 2i+1 share the frequency 1 / 10000^(2i/D); computed in double and rounded
    // once, so that float does not lose the phase at large positions.
    const int two_i = k - (k % 2);
    const double inv_freq = 1.0 / std::pow(10000.0, static_cast<double>(two_i) / d);
    for (int pos = 0; pos < n; ++pos) {
      const double angle = pos * inv_freq;
      pe(pos, k) = static_cast<float>(k % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return pe;
}

MatF EmbedTokens(const std::vector<std::string>& tokens, int d_model, std::uint64_t seed,
                 bool positional, const std::map<std::string, VecF>& overrides) {
  const int n = static_cast<int>(tokens.size());
  const int d = d_model > 0 ? d_model : 0;
  MatF x(n, d);  // (N, D)
  for (int i = 0; i < n; ++i) {
    const std::string& text = tokens[static_cast<std::size_t>(i)];
    const auto it = overrides.find(text);
    // An override of the wrong length is ignored rather than padded or cut: it is a caller bug,
    // and the token's own embedding is the least surprising stand-in.
    if (it != overrides.end() && it->second.size() == d) {
      x.row(i) = it->second.transpose();
    } else {
      x.row(i) = TokenEmbedding(text, d, seed).transpose();
    }
  }
  if (positional) x += PositionalEncoding(n, d);
  return x;
}

}  // namespace attn
