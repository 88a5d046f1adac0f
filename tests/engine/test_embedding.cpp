// Embeddings: hand-computed positional encodings, determinism, and the documented generator.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "engine/text/embedding.h"

using attn::MatF;
using attn::VecF;

namespace {

bool SameBits(const MatF& a, const MatF& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

}  // namespace

TEST_CASE("positional encoding at hand-computed positions") {
  const int D = 8;
  const MatF pe = attn::PositionalEncoding(4, D);
  REQUIRE(pe.rows() == 4);
  REQUIRE(pe.cols() == D);
  // PE(0) = [sin 0, cos 0, ...] = [0, 1, 0, 1, 0, 1, 0, 1]
  for (int k = 0; k < D; ++k) CHECK(pe(0, k) == (k % 2 == 0 ? 0.0f : 1.0f));
  // Frequency of the pair (2i, 2i+1) is 1 / 10000^(2i/8): 1, 0.1, 0.01, 0.001.
  CHECK(pe(1, 0) == doctest::Approx(std::sin(1.0)).epsilon(1e-6));
  CHECK(pe(1, 1) == doctest::Approx(std::cos(1.0)).epsilon(1e-6));
  CHECK(pe(1, 2) == doctest::Approx(std::sin(0.1)).epsilon(1e-6));  // 1 / 10000^(2/8) = 0.1
  CHECK(pe(2, 2) == doctest::Approx(std::sin(2.0 / std::pow(10000.0, 2.0 / D))).epsilon(1e-6));
  CHECK(pe(2, 2) == doctest::Approx(std::sin(0.2)).epsilon(1e-6));
  CHECK(pe(2, 3) == doctest::Approx(std::cos(0.2)).epsilon(1e-6));
  CHECK(pe(3, 6) == doctest::Approx(std::sin(0.003)).epsilon(1e-6));  // 3 / 10000^(6/8)
  CHECK(pe(3, 7) == doctest::Approx(std::cos(0.003)).epsilon(1e-6));
  CHECK(pe(3, 0) == doctest::Approx(std::sin(3.0)).epsilon(1e-6));

  // Odd D: the last column is a sin with i = (D - 1) / 2. D = 5: 1 / 10000^(4/5).
  const MatF pe5 = attn::PositionalEncoding(2, 5);
  REQUIRE(pe5.cols() == 5);
  CHECK(pe5(1, 4) == doctest::Approx(std::sin(1.0 / std::pow(10000.0, 0.8))).epsilon(1e-6));
  CHECK(pe5(1, 3) == doctest::Approx(std::cos(1.0 / std::pow(10000.0, 0.4))).epsilon(1e-6));
}

TEST_CASE("token embeddings: same (text, seed, D) gives the same bits; seeds and texts differ") {
  const VecF a = attn::TokenEmbedding("люблю", 16, 1);
  const VecF b = attn::TokenEmbedding("люблю", 16, 1);
  REQUIRE(a.size() == 16);
  CHECK(SameBits(a, b));
  CHECK_FALSE(SameBits(a, attn::TokenEmbedding("люблю", 16, 2)));
  CHECK_FALSE(SameBits(a, attn::TokenEmbedding("суши", 16, 1)));
  CHECK_FALSE(SameBits(a, attn::TokenEmbedding("Люблю", 16, 1)));
  CHECK(attn::HashToken("я", 1) == attn::HashToken("я", 1));
  CHECK(attn::HashToken("я", 1) != attn::HashToken("я", 2));
  CHECK(attn::HashToken("я", 1) != attn::HashToken("ты", 1));

  // Growing D keeps the first entries: the stream is read in order.
  const VecF a8 = attn::TokenEmbedding("люблю", 8, 1);
  const VecF a5 = attn::TokenEmbedding("люблю", 5, 1);
  CHECK(SameBits(a8, a.head(8)));
  CHECK(SameBits(a5, a.head(5)));
}

TEST_CASE("token embeddings follow the documented generator (values from a Python port)") {
  // FNV-1a of the bytes, then Mix64(fnv ^ Mix64(seed + golden)); splitmix64 stream;
  // Box-Muller with u1 = ((x >> 11) + 1) 2^-53, u2 = (x >> 11) 2^-53, cos then sin.
  // Computed by an independent Python implementation of that description.
  CHECK(attn::HashToken("я", 1) == 0x1CFBF040CCF4BE78ull);
  const VecF e = attn::TokenEmbedding("люблю", 5, 1);
  const float expected[5] = {1.145876169204712f, 1.019474744796753f, -0.7424533367156982f,
                             0.13289190828800201f, -0.919773280620575f};
  for (int k = 0; k < 5; ++k) {
    CAPTURE(k);
    CHECK(e(k) == doctest::Approx(expected[k]).epsilon(1e-6));
  }
}

TEST_CASE("token embeddings are standard normal in distribution") {
  // 200 tokens x 64 entries = 12800 samples: the mean's standard error is ~0.009 and the
  // variance's ~0.0125, so these bounds are > 5 sigma wide yet catch a wrong scale or shift.
  double sum = 0, sum2 = 0;
  int count = 0;
  for (int t = 0; t < 200; ++t) {
    const VecF e = attn::TokenEmbedding("token" + std::to_string(t), 64, 7);
    for (int k = 0; k < e.size(); ++k) {
      REQUIRE(std::isfinite(e(k)));
      sum += e(k);
      sum2 += double(e(k)) * e(k);
      ++count;
    }
  }
  const double mean = sum / count;
  const double var = sum2 / count - mean * mean;
  CHECK(std::abs(mean) < 0.05);
  CHECK(var > 0.93);
  CHECK(var < 1.07);
}

TEST_CASE("EmbedTokens: rows are embeddings, overrides replace them, PE is added") {
  const std::vector<std::string> toks = {"я", "люблю", "суши", "я"};
  const MatF plain = attn::EmbedTokens(toks, 6, 3, false);
  REQUIRE(plain.rows() == 4);
  REQUIRE(plain.cols() == 6);
  CHECK(SameBits(plain.row(1).transpose(), attn::TokenEmbedding("люблю", 6, 3)));
  CHECK(SameBits(plain.row(0), plain.row(3)));  // the same word, the same vector

  const MatF with_pe = attn::EmbedTokens(toks, 6, 3, true);
  const MatF pe = attn::PositionalEncoding(4, 6);
  CHECK((with_pe - plain - pe).cwiseAbs().maxCoeff() < 1e-6f);
  CHECK_FALSE(SameBits(with_pe.row(0), with_pe.row(3)));  // position tells them apart

  std::map<std::string, VecF> overrides;
  VecF v(6);
  v << 1, 2, 3, 4, 5, 6;
  overrides["суши"] = v;
  VecF wrong(3);
  wrong << 9, 9, 9;
  overrides["люблю"] = wrong;  // wrong length: ignored
  const MatF over = attn::EmbedTokens(toks, 6, 3, false, overrides);
  CHECK(SameBits(over.row(2).transpose(), v));
  CHECK(SameBits(over.row(1), plain.row(1)));
  CHECK(SameBits(over.row(0), plain.row(0)));
}
