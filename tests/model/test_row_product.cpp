// One row times a stored or float matrix, a panel of columns at a time (model/arch/row_product.h):
// the bits of MatMul on the widened matrix (x W) and of MatMulTransposed (x W^T, the logits), for
// F32, F16 and BF16, widths that are and are not whole panels, on one, two and three threads; and
// widening itself, F16C's path and the portable loops, against fp16.h for every value.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "engine/base/rng.h"
#include "engine/linalg/linalg.h"
#include "model/arch/row_product.h"
#include "model/format/fp16.h"

using namespace attn;
using namespace attn::model;

namespace {

// A (rows, cols) matrix of the type with random values, and the same numbers widened to float.
StoredMatrix RandomStored(StoredType type, Eigen::Index rows, Eigen::Index cols, std::uint64_t seed, Mat<float>* wide) {
  StoredMatrix m(type, rows, cols);
  rng::SplitMix64 draw(seed);
  for (Eigen::Index c = 0; c < cols; ++c) {
    for (Eigen::Index r = 0; r < rows; ++r) {
      const float f = static_cast<float>(draw.Uniform() * 4 - 2);
      unsigned char bytes[4];
      if (type == StoredType::kF32) {
        std::memcpy(bytes, &f, 4);  // little-endian machines only, as the loader's tests
      } else {
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        const std::uint16_t h = type == StoredType::kF16 ? FloatToHalf(f) : static_cast<std::uint16_t>(bits >> 16);
        bytes[0] = static_cast<unsigned char>(h & 0xFF);
        bytes[1] = static_cast<unsigned char>(h >> 8);
      }
      m.SetRaw(r, c, bytes);
    }
  }
  m.Widen(wide);
  return m;
}

bool SameBits(const Mat<float>& a, const std::vector<float>& b) {
  return static_cast<std::size_t>(a.size()) == b.size() && std::memcmp(a.data(), b.data(), b.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("widening: every half and bfloat16 value, by rows and as a k-major panel, F16C's path and the loops'") {
  // a (256, 256) matrix holding each of the 65536 bit patterns once: value (r, c) = r + 256 c
  for (const StoredType type : {StoredType::kF16, StoredType::kBF16}) {
    CAPTURE(StoredTypeName(type));
    StoredMatrix m(type, 256, 256);
    for (Eigen::Index c = 0; c < 256; ++c)
      for (Eigen::Index r = 0; r < 256; ++r) {
        const unsigned char bytes[2] = {static_cast<unsigned char>(r), static_cast<unsigned char>(c)};
        m.SetRaw(r, c, bytes);
      }
    auto want = [&](Eigen::Index r, Eigen::Index c) {
      const std::uint16_t h = static_cast<std::uint16_t>(r + 256 * c);
      if (type == StoredType::kF16) return HalfToFloat(h);
      const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    };
    // the same bits, or both NaN (a NaN half may come out quiet: the readers refuse NaN weights)
    auto same = [](float a, float b) { return std::memcmp(&a, &b, 4) == 0 || (std::isnan(a) && std::isnan(b)); };
    for (const bool loops : {false, true}) {
      CAPTURE(loops);
      ForceWideningLoops(loops);
      Mat<float> wide;
      m.Widen(&wide);
      std::vector<float> panel(256 * 61);
      m.WidenColumnsKMajor(3, 61, panel.data());  // an edge of 5 columns past whole blocks of 8
      int differ = 0;
      for (Eigen::Index c = 0; c < 256; ++c)
        for (Eigen::Index r = 0; r < 256; ++r) differ += !same(wide(r, c), want(r, c));
      for (Eigen::Index k = 0; k < 256; ++k)
        for (Eigen::Index j = 0; j < 61; ++j) differ += !same(panel[static_cast<std::size_t>(k * 61 + j)], want(k, 3 + j));
      CHECK(differ == 0);
    }
    ForceWideningLoops(false);
  }
}

TEST_CASE("row products: x W and x W^T, stored or float, the bits of the widened matrix's product on any thread count") {
  RowScratch scratch;
  const Eigen::Index shapes[][2] = {{768, 64}, {37, 200}, {5, 1}, {130, 129}, {64, 3}};  // (K, N): whole panels and not
  for (const StoredType type : {StoredType::kF32, StoredType::kF16, StoredType::kBF16}) {
    for (const auto& shape : shapes) {
      const Eigen::Index K = shape[0], N = shape[1];
      CAPTURE(StoredTypeName(type));
      CAPTURE(K);
      CAPTURE(N);
      Mat<float> w, wt;  // (K, N), (N, K)
      const StoredMatrix s = RandomStored(type, K, N, static_cast<std::uint64_t>(K * 1000 + N), &w);
      const StoredMatrix st = RandomStored(type, N, K, static_cast<std::uint64_t>(K * 7 + N), &wt);
      Mat<float> x(1, K);  // (1, K)
      rng::SplitMix64 draw(static_cast<std::uint64_t>(N));
      for (Eigen::Index k = 0; k < K; ++k) x(0, k) = static_cast<float>(draw.Uniform() * 2 - 1);
      const Mat<float> want = linalg::MatMul<float>(x, w);             // (1, N)
      const Mat<float> want_t = linalg::MatMulTransposed<float>(x, wt);  // (1, N)
      for (const int threads : {1, 2, 3}) {
        CAPTURE(threads);
        ForceWideningLoops(threads == 3);  // the page's loops once (the reference is F16C's where the CPU has it)
        std::vector<float> a(static_cast<std::size_t>(N)), b(a), c(a), d(a);
        RowProduct ps, pp, pst, ppt;
        ps.x = pp.x = pst.x = ppt.x = x.data();
        ps.stored = &s;
        ps.out = a.data();
        pp.plain = &w;
        pp.out = b.data();
        pst.stored = &st;
        pst.transposed = true;
        pst.out = c.data();
        ppt.plain = &wt;
        ppt.transposed = true;
        ppt.out = d.data();
        RowProducts({ps, pp, pst, ppt}, threads, &scratch);
        CHECK(SameBits(want, a));
        CHECK(SameBits(want, b));
        CHECK(SameBits(want_t, c));
        CHECK(SameBits(want_t, d));
      }
      ForceWideningLoops(false);
    }
  }
}
