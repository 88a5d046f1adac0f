// Weights at their stored precision (stored.h).
#include "model/arch/stored.h"

#include "model/format/fp16.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define ATTNLAB_STORED_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace attn {
namespace model {

namespace {

bool g_loops_only = false;  // ForceWideningLoops

// Every half's float, computed once (256 KB): widening a block is a table lookup per value.
const float* HalfTable() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (std::uint32_t h = 0; h < 65536; ++h) t[h] = HalfToFloat(static_cast<std::uint16_t>(h));
    return t;
  }();
  return table.data();
}

float Bf16ToFloat(std::uint16_t b) {
  const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;  // bfloat16 is float's top half
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

#if ATTNLAB_STORED_X86
// x86 with AVX and F16C (most x86-64 CPUs since 2012, chosen at run time; the page and other
// machines take the loops): eight halves widened by one instruction, exactly as the table (a half
// is a float; a NaN would come out quiet, but the readers refuse NaN weights), and the k-major
// panel made of 8 x 8 blocks transposed in registers: the same values, moved.
bool HasF16c() {
  static const bool has = [] {  // AVX with the OS's support for it, and CPUID's F16C bit (older clangs
    unsigned a = 0, b = 0, c = 0, d = 0;  // have no "f16c" for __builtin_cpu_supports)
    return __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
  }();
  return has && !g_loops_only;
}

__attribute__((target("avx,f16c"))) void HalvesToFloats(const std::uint16_t* in, Eigen::Index n, float* out) {
  Eigen::Index i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
  for (; i < n; ++i) out[i] = _cvtsh_ss(in[i]);
}

// Eight consecutive values of a column as floats.
template <StoredType kType>
__attribute__((target("avx,f16c"))) inline __m256 Load8(const float* f32, const std::uint16_t* half, std::size_t at) {
  if constexpr (kType == StoredType::kF32) {
    return _mm256_loadu_ps(f32 + at);
  } else {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(half + at));
    if constexpr (kType == StoredType::kF16) {
      return _mm256_cvtph_ps(v);
    } else {  // bfloat16: each value becomes the top half of a float
      const __m128i zero = _mm_setzero_si128();
      return _mm256_set_m128(_mm_castsi128_ps(_mm_unpackhi_epi16(zero, v)), _mm_castsi128_ps(_mm_unpacklo_epi16(zero, v)));
    }
  }
}

// The whole 8 x 8 blocks of WidenColumnsKMajor: columns [first, first + n8), rows [0, k8).
template <StoredType kType>
__attribute__((target("avx,f16c"))) void ColumnsKMajor8(const float* f32, const std::uint16_t* half, Eigen::Index rows,
                                                        Eigen::Index first, Eigen::Index n, Eigen::Index n8, Eigen::Index k8,
                                                        float* out) {
  for (Eigen::Index j0 = 0; j0 < n8; j0 += 8) {
    for (Eigen::Index k0 = 0; k0 < k8; k0 += 8) {
      __m256 r[8];
      for (int j = 0; j < 8; ++j) r[j] = Load8<kType>(f32, half, static_cast<std::size_t>((first + j0 + j) * rows + k0));
      // the transpose: r[j][k] -> o[k][j]
      const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
      const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
      const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
      const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
      const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
      const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
      const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
      const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
      const __m256 o[8] = {_mm256_permute2f128_ps(u0, u4, 0x20), _mm256_permute2f128_ps(u1, u5, 0x20),
                           _mm256_permute2f128_ps(u2, u6, 0x20), _mm256_permute2f128_ps(u3, u7, 0x20),
                           _mm256_permute2f128_ps(u0, u4, 0x31), _mm256_permute2f128_ps(u1, u5, 0x31),
                           _mm256_permute2f128_ps(u2, u6, 0x31), _mm256_permute2f128_ps(u3, u7, 0x31)};
      for (int k = 0; k < 8; ++k) _mm256_storeu_ps(out + (k0 + k) * n + j0, o[k]);
    }
  }
}
#endif

}  // namespace

void ForceWideningLoops(bool on) { g_loops_only = on; }

const char* StoredTypeName(StoredType t) {
  switch (t) {
    case StoredType::kF16: return "F16";
    case StoredType::kBF16: return "BF16";
    default: return "F32";
  }
}

StoredMatrix::StoredMatrix(StoredType type, Eigen::Index rows, Eigen::Index cols)
    : type_(type), rows_(rows), cols_(cols) {
  const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (type == StoredType::kF32) f32_.assign(n, 0.0f);
  else half_.assign(n, 0);
}

void StoredMatrix::SetRaw(Eigen::Index r, Eigen::Index c, const unsigned char* value) {
  const std::size_t i = static_cast<std::size_t>(c) * static_cast<std::size_t>(rows_) + static_cast<std::size_t>(r);
  if (type_ == StoredType::kF32) {
    const std::uint32_t bits = static_cast<std::uint32_t>(value[0]) | static_cast<std::uint32_t>(value[1]) << 8 |
                               static_cast<std::uint32_t>(value[2]) << 16 | static_cast<std::uint32_t>(value[3]) << 24;
    std::memcpy(&f32_[i], &bits, sizeof bits);
  } else {
    half_[i] = static_cast<std::uint16_t>(value[0] | value[1] << 8);
  }
}

float StoredMatrix::At(Eigen::Index r, Eigen::Index c) const {
  const std::size_t i = static_cast<std::size_t>(c) * static_cast<std::size_t>(rows_) + static_cast<std::size_t>(r);
  switch (type_) {
    case StoredType::kF16: return HalfTable()[half_[i]];
    case StoredType::kBF16: return Bf16ToFloat(half_[i]);
    default: return f32_[i];
  }
}

void StoredMatrix::WidenRows(Eigen::Index first, Eigen::Index n, Mat<float>* out) const {
  out->resize(n, cols_);  // (n, cols); no reallocation when a scratch already has the shape
  WidenRowsTo(first, n, out->data());
}

void StoredMatrix::WidenRowsTo(Eigen::Index first, Eigen::Index n, float* o) const {
  for (Eigen::Index c = 0; c < cols_; ++c) {  // column-major, as the storage: each column's rows are one run
    const std::size_t from = static_cast<std::size_t>(c * rows_ + first);
    float* to = o + c * n;
    if (type_ == StoredType::kF32) {
      for (Eigen::Index r = 0; r < n; ++r) to[r] = f32_[from + static_cast<std::size_t>(r)];
    } else if (type_ == StoredType::kF16) {
#if ATTNLAB_STORED_X86
      if (HasF16c()) {
        HalvesToFloats(&half_[from], n, to);
        continue;
      }
#endif
      const float* table = HalfTable();
      for (Eigen::Index r = 0; r < n; ++r) to[r] = table[half_[from + static_cast<std::size_t>(r)]];
    } else {
      for (Eigen::Index r = 0; r < n; ++r) to[r] = Bf16ToFloat(half_[from + static_cast<std::size_t>(r)]);
    }
  }
}

void StoredMatrix::WidenColumnsKMajor(Eigen::Index first, Eigen::Index n, float* out) const {
  Eigen::Index n8 = 0, k8 = 0;  // the part the 8 x 8 blocks did
#if ATTNLAB_STORED_X86
  if (HasF16c()) {
    n8 = n / 8 * 8;
    k8 = rows_ / 8 * 8;
    const float* f = f32_.data();
    const std::uint16_t* h = half_.data();
    if (type_ == StoredType::kF32) ColumnsKMajor8<StoredType::kF32>(f, h, rows_, first, n, n8, k8, out);
    else if (type_ == StoredType::kF16) ColumnsKMajor8<StoredType::kF16>(f, h, rows_, first, n, n8, k8, out);
    else ColumnsKMajor8<StoredType::kBF16>(f, h, rows_, first, n, n8, k8, out);
  }
#endif
  // The rest (all of it without the blocks): a transpose, kGroup columns at a time -- their k-th
  // entries, one read from each of kGroup sequential streams (the panel's columns lie one after
  // another in the storage), written as one run of out's row k.
  constexpr Eigen::Index kGroup = 16;
  const float* table = HalfTable();
  for (Eigen::Index j0 = 0; j0 < n; j0 += kGroup) {
    const Eigen::Index g = std::min(kGroup, n - j0);
    const std::size_t from = static_cast<std::size_t>((first + j0) * rows_), stride = static_cast<std::size_t>(rows_);
    for (Eigen::Index k = j0 + g <= n8 ? k8 : 0; k < rows_; ++k) {
      float* to = out + k * n + j0;
      const std::size_t at = from + static_cast<std::size_t>(k);
      if (type_ == StoredType::kF32) {
        for (Eigen::Index j = 0; j < g; ++j) to[j] = f32_[at + static_cast<std::size_t>(j) * stride];
      } else if (type_ == StoredType::kF16) {
        for (Eigen::Index j = 0; j < g; ++j) to[j] = table[half_[at + static_cast<std::size_t>(j) * stride]];
      } else {
        for (Eigen::Index j = 0; j < g; ++j) to[j] = Bf16ToFloat(half_[at + static_cast<std::size_t>(j) * stride]);
      }
    }
  }
}

bool StoredMatrix::AllFinite() const {
  if (type_ == StoredType::kF32) {
    for (float v : f32_)
      if (!std::isfinite(v)) return false;
    return true;
  }
  // F16: exponent 0x1F is inf or NaN; BF16: exponent 0xFF
  const std::uint16_t mask = type_ == StoredType::kF16 ? 0x7C00u : 0x7F80u;
  for (std::uint16_t h : half_)
    if ((h & mask) == mask) return false;
  return true;
}

std::size_t StoredWeights::bytes() const {
  std::size_t n = wte.bytes() + lm_head.bytes();
  for (const StoredBlock& b : blocks) {
    for (const auto* list : {&b.wq, &b.wk, &b.wv})
      for (const StoredMatrix& m : *list) n += m.bytes();
    n += b.wo.bytes() + b.gate_w.bytes() + b.fc_w.bytes() + b.proj_w.bytes();
  }
  return n;
}

}  // namespace model
}  // namespace attn
