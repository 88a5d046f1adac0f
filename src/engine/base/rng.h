// Engine-internal: the seeded random streams behind embeddings and projections.
//
// Everything here is integer arithmetic plus IEEE double operations, so that the same seed gives
// the same numbers with every standard library (std::normal_distribution does not: its algorithm
// is left to the implementation, and libstdc++, libc++ and Emscripten's libc++ differ).
#pragma once

#include <cmath>
#include <cstdint>

namespace attn {
namespace rng {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;  // splitmix64's increment, 2^64 / phi

// splitmix64's output function (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
inline std::uint64_t Mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// splitmix64: state += golden; return Mix64(state).
struct SplitMix64 {
  std::uint64_t state;
  explicit SplitMix64(std::uint64_t seed) : state(seed) {}
  std::uint64_t Next() {
    state += kGolden;
    return Mix64(state);
  }
  // The top 53 bits as a double in (0, 1]: never 0, so log() below stays finite.
  double UniformOpen0() { return static_cast<double>((Next() >> 11) + 1) * 0x1.0p-53; }
  // The top 53 bits as a double in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
};

// Standard normal samples by Box-Muller, two per pair of uniforms (cos first, then sin).
// Fills out[0..n) in order; an odd n drops the last sin.
inline void FillStandardNormal(SplitMix64& stream, double* out, int n) {
  const double two_pi = 6.283185307179586476925286766559;
  for (int k = 0; k < n; k += 2) {
    const double u1 = stream.UniformOpen0();  // (0, 1]
    const double u2 = stream.Uniform();       // [0, 1)
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double theta = two_pi * u2;
    out[k] = r * std::cos(theta);
    if (k + 1 < n) out[k + 1] = r * std::sin(theta);
  }
}

}  // namespace rng
}  // namespace attn
