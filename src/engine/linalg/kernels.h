// Engine-internal: the blocked, register-tiled, vectorized matrix product every MatMul* of
// linalg.h runs on, with exactly the bits of the plain loops (linalg_reference.h).
//
// Why the bits do not change: a product's output entry (r, c) is a chain of operations
//   acc = 0;  for k = 0, 1, ..., K-1:  acc = acc + (A(r, k) * B(k, c))
// (each * and + rounded on its own, never fused). The kernels keep that chain for every entry
// and only change *which entries advance together*: a register tile of MR x NR entries takes
// its k-th step at once, SIMD lanes across MR independent rows, and a k-block's partial sums
// wait in the output between blocks (storing a float and loading it back is exact). Nothing is
// reassociated, so the vector width (SSE2 natively, AVX when the CPU has it, SIMD128 in wasm,
// none in a scalar build) changes the speed, not the result.
//
// Layout: out is column-major with leading dimension `rows` (an Eigen Mat); A and B are read
// through strides, so the one routine serves a b, a b^T and a^T b:
//   A(r, k) = a[r * a_rs + k * a_ks],   B(k, c) = b[k * b_ks + c * b_cs].
#pragma once

#include <cstddef>

namespace attn {
namespace kernels {

using Index = std::ptrdiff_t;

// out(r, c) = sum_k A(r, k) B(k, c), k in order from 0; out has rows * cols entries (written,
// not accumulated). inner == 0 gives zeros.
template <typename T>
void Gemm(Index rows, Index cols, Index inner,                  // R, C, K
          const T* a, Index a_rs, Index a_ks,                   // A (R, K)
          const T* b, Index b_ks, Index b_cs,                   // B (K, C)
          T* out);                                              // (R, C), column-major

// The instruction set the native kernels picked at run time ("sse2", "avx", or "simd128" /
// "scalar" in wasm): for the benchmark's report.
const char* KernelIsa();

// Tests and the benchmark only: true runs the baseline kernels (SSE2) even on a CPU with AVX,
// so that this machine checks the code path of an x86-64 without AVX too. Not thread-safe.
void ForceBaseline(bool on);

}  // namespace kernels
}  // namespace attn
