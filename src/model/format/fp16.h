// IEEE 754 binary16 (half precision) <-> float, written out so that every platform gives the
// same bits (no F16C, no compiler _Float16).
//   half: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits; largest finite 65504,
//   smallest normal 2^-14, smallest subnormal 2^-24.
// FloatToHalf rounds to nearest, ties to even (IEEE's default), so 65519.99 -> 65504 and
// 65520 -> inf; values at or below 2^-25 in magnitude go to a signed zero (2^-25 itself is a
// tie, and 0 is even); NaN stays NaN (quiet, sign and the top mantissa bits kept).
// HalfToFloat is exact (every half is a float).
#pragma once

#include <cstdint>
#include <cstring>

namespace attn {
namespace model {

inline std::uint16_t FloatToHalf(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exp = (x >> 23) & 0xFFu;
  std::uint32_t mant = x & 0x7FFFFFu;
  if (exp == 0xFFu) {  // inf or NaN
    if (mant == 0) return static_cast<std::uint16_t>(sign | 0x7C00u);
    return static_cast<std::uint16_t>(sign | 0x7E00u | (mant >> 13));
  }
  const int e = static_cast<int>(exp) - 127 + 15;  // the half's biased exponent
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7C00u);  // overflow: inf
  int shift;
  std::uint32_t base;
  if (e >= 1) {  // normal: drop 13 mantissa bits
    shift = 13;
    base = (static_cast<std::uint32_t>(e) << 10);
  } else {  // subnormal half (or zero): the implicit 1 joins the mantissa
    if (e < -10) return static_cast<std::uint16_t>(sign);  // below 2^-25: rounds to zero
    if (exp != 0) mant |= 0x800000u;
    shift = 14 - e;
    base = 0;
  }
  std::uint32_t half = base + (mant >> shift);
  const std::uint32_t rest = mant & ((1u << shift) - 1u);
  const std::uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1u))) ++half;  // a carry may reach inf
  return static_cast<std::uint16_t>(sign | half);
}

inline float HalfToFloat(std::uint16_t h) {
  const std::uint32_t sign = (static_cast<std::uint32_t>(h) & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1Fu;
  std::uint32_t mant = h & 0x3FFu;
  std::uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {  // subnormal: normalize
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      x = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
    }
  } else if (exp == 31) {
    x = sign | 0x7F800000u | (mant << 13);
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

}  // namespace model
}  // namespace attn
