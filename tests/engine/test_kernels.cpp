// The blocked products (kernels.h, linalg.h) against the plain loops that define their bits
// (linalg_reference.h): memcmp equality, not a tolerance, for float and double, over shapes
// that hit every tail of the register tile and of the k/row blocks (1x1, odd sizes, MR and NR
// plus and minus one, N = 512 with d = 64), and inputs with NaN, inf, -0 and subnormals.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "engine/linalg/kernels.h"
#include "engine/linalg/linalg.h"
#include "engine/linalg/linalg_reference.h"

using attn::Mat;
namespace linalg = attn::linalg;
namespace reference = attn::linalg::reference;

namespace {

// Entries of several magnitudes and signs (so that sums round often), from a fixed stream.
template <typename T>
Mat<T> Random(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  Mat<T> m(rows, cols);
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    const double u = static_cast<double>(s >> 11) / 9007199254740992.0;  // [0, 1)
    const double scale = std::ldexp(1.0, static_cast<int>(s & 7) - 3);
    m.data()[i] = static_cast<T>((u * 2 - 1) * scale);
  }
  return m;
}

// memcmp of the two matrices; with nan_any, a NaN matches any NaN: IEEE 754 leaves the sign
// and payload of a NaN from two NaN operands open (x86 keeps the first operand's, and which
// operand is first in an add is the compiler's choice: the reference loop's scalar code and the
// kernels differ there), and wasm leaves every NaN's bits open. Every other entry, inf and -0
// included, must have the same bits.
template <typename T>
bool SameEntry(const T& x, const T& y, bool nan_any) {
  if (nan_any && std::isnan(x) && std::isnan(y)) return true;
  return std::memcmp(&x, &y, sizeof(T)) == 0;
}

template <typename T>
bool SameBits(const Mat<T>& x, const Mat<T>& y, bool nan_any = false) {
  if (x.rows() != y.rows() || x.cols() != y.cols()) return false;
  if (!nan_any) {
    return std::memcmp(x.data(), y.data(), sizeof(T) * static_cast<std::size_t>(x.size())) == 0;
  }
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (!SameEntry(x.data()[i], y.data()[i], true)) return false;
  }
  return true;
}

template <typename T>
std::string Where(const Mat<T>& x, const Mat<T>& y, bool nan_any = false) {
  std::ostringstream o;
  if (x.rows() != y.rows() || x.cols() != y.cols()) {
    o << "shape " << x.rows() << "x" << x.cols() << " vs " << y.rows() << "x" << y.cols();
    return o.str();
  }
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
      if (!SameEntry(x(r, c), y(r, c), nan_any)) {
        o.precision(17);
        o << "first difference at (" << r << ", " << c << "): " << x(r, c) << " vs " << y(r, c);
        return o.str();
      }
    }
  }
  return "same";
}

// The three products of an (R, K) x (K, C) problem, each against its reference.
template <typename T>
void CheckShape(Eigen::Index R, Eigen::Index K, Eigen::Index C, std::uint64_t seed,
                void (*poison)(Mat<T>&) = nullptr) {
  Mat<T> a = Random<T>(R, K, seed), b = Random<T>(K, C, seed + 1);
  Mat<T> bt = Random<T>(C, K, seed + 2), at = Random<T>(K, R, seed + 3);
  if (poison) {
    poison(a);
    poison(b);
    poison(bt);
    poison(at);
  }
  CAPTURE(R);
  CAPTURE(K);
  CAPTURE(C);
  CAPTURE(sizeof(T));
  const bool nan_any = poison != nullptr;
  const Mat<T> m1 = linalg::MatMul(a, b), r1 = reference::MatMul(a, b);
  CHECK_MESSAGE(SameBits(m1, r1, nan_any), "MatMul: " << Where(m1, r1, nan_any));
  const Mat<T> m2 = linalg::MatMulTransposed(a, bt), r2 = reference::MatMulTransposed(a, bt);
  CHECK_MESSAGE(SameBits(m2, r2, nan_any), "MatMulTransposed: " << Where(m2, r2, nan_any));
  const Mat<T> m3 = linalg::MatMulTransposedA(at, b), r3 = reference::MatMulTransposedA(at, b);
  CHECK_MESSAGE(SameBits(m3, r3, nan_any), "MatMulTransposedA: " << Where(m3, r3, nan_any));
}

// Sizes around every tile and block edge: MR is 8 or 16 floats (4 or 8 doubles), NR is 6, the
// row block 96, the k block 256.
const std::vector<Eigen::Index> kSizes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 15, 16, 17,
                                          31, 33, 64, 95, 97, 100};
const std::vector<Eigen::Index> kInner = {0, 1, 2, 3, 7, 16, 64, 255, 256, 257, 513};

template <typename T>
void CheckAllShapes() {
  std::uint64_t seed = 1;
  for (Eigen::Index R : kSizes) {
    for (Eigen::Index C : {Eigen::Index{1}, Eigen::Index{5}, Eigen::Index{6}, Eigen::Index{7},
                           Eigen::Index{13}, Eigen::Index{64}}) {
      for (Eigen::Index K : {Eigen::Index{1}, Eigen::Index{3}, Eigen::Index{64}}) {
        CheckShape<T>(R, K, C, seed++);
      }
    }
  }
  for (Eigen::Index K : kInner) CheckShape<T>(37, K, 11, seed++);
  for (Eigen::Index C : kSizes) CheckShape<T>(19, 9, C, seed++);
  CheckShape<T>(512, 64, 512, seed++);  // Q K^T at N = 512, d = 64
  CheckShape<T>(512, 512, 64, seed++);  // P V
  CheckShape<T>(193, 300, 131, seed++);  // two row blocks and a tail, two k blocks
  // One row: a b^T runs its own path (lanes across columns, 8 vectors at a time, then whole
  // vectors, then single columns): column counts around each of those edges, k past a block.
  for (Eigen::Index C : {Eigen::Index{1}, Eigen::Index{3}, Eigen::Index{4}, Eigen::Index{8}, Eigen::Index{9},
                         Eigen::Index{31}, Eigen::Index{32}, Eigen::Index{33}, Eigen::Index{63}, Eigen::Index{64},
                         Eigen::Index{65}, Eigen::Index{72}, Eigen::Index{100}, Eigen::Index{1000}})
    for (Eigen::Index K : {Eigen::Index{0}, Eigen::Index{1}, Eigen::Index{5}, Eigen::Index{257}})
      CheckShape<T>(1, K, C, seed++);
}

template <typename T>
void PoisonSpecials(Mat<T>& m) {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T sub = std::numeric_limits<T>::denorm_min();
  const T specials[] = {inf, -inf, nan, T(-0.0), sub, -sub, std::numeric_limits<T>::max()};
  for (Eigen::Index i = 0; i < m.size(); i += 7) m.data()[i] = specials[(i / 7) % 7];
}

}  // namespace

// Natively on a CPU with AVX, the baseline (SSE2) kernels are checked too, as a CPU without
// AVX runs them.
struct Isa {
  bool baseline;
  explicit Isa(bool b) : baseline(b) { attn::kernels::ForceBaseline(b); }
  ~Isa() { attn::kernels::ForceBaseline(false); }
};

TEST_CASE("kernels: products give the reference loops' bits for every shape (float)") {
  for (bool baseline : {false, true}) {
    Isa isa(baseline);
    const std::string name = attn::kernels::KernelIsa();
    CAPTURE(name);
    CheckAllShapes<float>();
  }
}

TEST_CASE("kernels: products give the reference loops' bits for every shape (double)") {
  for (bool baseline : {false, true}) {
    Isa isa(baseline);
    const std::string name = attn::kernels::KernelIsa();
    CAPTURE(name);
    CheckAllShapes<double>();
  }
}

TEST_CASE("kernels: NaN, inf, -0, subnormals and overflow give the same bits (NaN: any NaN)") {
  std::uint64_t seed = 1000;
  for (bool baseline : {false, true}) {
    Isa isa(baseline);
    const std::string name = attn::kernels::KernelIsa();
    CAPTURE(name);
    for (Eigen::Index R : {1, 5, 8, 17, 40}) {
      for (Eigen::Index K : {1, 4, 9, 300}) {
        for (Eigen::Index C : {1, 6, 7, 70}) {
          CheckShape<float>(R, K, C, seed, PoisonSpecials<float>);
          CheckShape<double>(R, K, C, seed, PoisonSpecials<double>);
          ++seed;
        }
      }
    }
  }
}

TEST_CASE("kernels: each multiply is rounded before its add, and k runs 0, 1, 2, ...") {
  // x = 1 + 2^-12: x * x = 1 + 2^-11 + 2^-24 rounds (a tie, to even) to 1 + 2^-11, so
  // -1 * 1 + x * x is exactly 2^-11 with a separate multiply and add, and 2^-11 + 2^-24 with an
  // FMA. And 1 + e + e with e = 2^-24 is 1 summed left to right, 1 + 2^-23 in any order that
  // adds the two e first. Whole 16 x 6 tiles, so the vector path runs, in all three products;
  // 70 columns, so that one row's a b^T runs its vectors (64 columns) and its single columns.
  const float x = 1.0f + std::ldexp(1.0f, -12), e = std::ldexp(1.0f, -24);
  for (bool baseline : {false, true})
  for (Eigen::Index R : {Eigen::Index{1}, Eigen::Index{16}, Eigen::Index{48}}) {
    Isa isa(baseline);
    CAPTURE(R);
    Mat<float> a(R, 5), b(5, 70);
    for (Eigen::Index r = 0; r < R; ++r) a.row(r) << -1.0f, x, 1.0f, e, e;
    for (Eigen::Index c = 0; c < 70; ++c) b.col(c) << 1.0f, x, 0.0f, 0.0f, 0.0f;
    const Mat<float> m = linalg::MatMul(a, b);
    const Mat<float> mt = linalg::MatMulTransposed(a, Mat<float>(b.transpose()));
    const Mat<float> ma = linalg::MatMulTransposedA(Mat<float>(a.transpose()), b);
    for (Eigen::Index r = 0; r < R; ++r) {
      for (Eigen::Index c : {Eigen::Index{0}, Eigen::Index{63}, Eigen::Index{69}}) {
        CHECK(m(r, c) == std::ldexp(1.0f, -11));
        CHECK(mt(r, c) == std::ldexp(1.0f, -11));
        CHECK(ma(r, c) == std::ldexp(1.0f, -11));
      }
    }
    Mat<float> s(R, 3), ones = Mat<float>::Ones(3, 70);
    for (Eigen::Index r = 0; r < R; ++r) s.row(r) << 1.0f, e, e;
    const Mat<float> sm = linalg::MatMul(s, ones);
    const Mat<float> st = linalg::MatMulTransposed(s, Mat<float>(ones.transpose()));
    const Mat<float> sa = linalg::MatMulTransposedA(Mat<float>(s.transpose()), ones);
    for (Eigen::Index r = 0; r < R; ++r) {
      for (Eigen::Index c : {Eigen::Index{5}, Eigen::Index{63}, Eigen::Index{69}}) {
        CHECK(sm(r, c) == 1.0f);
        CHECK(st(r, c) == 1.0f);
        CHECK(sa(r, c) == 1.0f);
      }
    }
  }
}

TEST_CASE("kernels: the instruction set is named") {
  const std::string isa = attn::kernels::KernelIsa();
  CHECK(!isa.empty());
  MESSAGE("kernels use " << isa);
}
