// The blocked products (kernels.h): one kernel body (kernels_impl.inc) compiled for the baseline
// vector width (SSE2 on x86-64, SIMD128 in wasm with -msimd128) and, natively on x86-64 with
// GCC or clang, again for AVX, chosen at run time when the CPU has it (the binary stays
// portable to any x86-64). Neither variant fuses a multiply and an add: AVX has no FMA, and the
// engine is compiled with -ffp-contract=off (CMakeLists.txt) besides the pragma below.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "engine/linalg/kernels.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define ATTNLAB_KERNELS_AVX 1
#endif

// The one-row path of a b^T (kernels_impl.inc's GemvRow: the logits of a forward's last
// position) natively and in the page's full build (its fast engine copy, ATTNLAB_ENGINE_FAST:
// cmake/Emscripten.cmake), which runs the model; the default page, which never does, keeps its
// size (0.6 KB gzipped; its budget is 500 KB). The bits are the same either way.
#if !defined(__wasm__) || defined(ATTNLAB_ENGINE_FAST)
#define ATTNLAB_KERNELS_ONE_ROW 1
#endif

namespace attn {
namespace kernels {

namespace base {
#define KERNELS_VECTOR_BYTES 16
#include "engine/linalg/kernels_impl.inc"
#undef KERNELS_VECTOR_BYTES
}  // namespace base

#if ATTNLAB_KERNELS_AVX
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx")
#endif
namespace avx {
#define KERNELS_VECTOR_BYTES 32
#include "engine/linalg/kernels_impl.inc"
#undef KERNELS_VECTOR_BYTES
}  // namespace avx
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

bool g_baseline_only = false;  // ForceBaseline

static bool HasAvx() {
  static const bool has = __builtin_cpu_supports("avx");
  return has && !g_baseline_only;
}
#endif

template <typename T>
void Gemm(Index rows, Index cols, Index inner, const T* a, Index a_rs, Index a_ks, const T* b,
          Index b_ks, Index b_cs, T* out) {
#if ATTNLAB_KERNELS_AVX
  if (HasAvx()) return avx::GemmImpl<T>(rows, cols, inner, a, a_rs, a_ks, b, b_ks, b_cs, out);
#endif
  base::GemmImpl<T>(rows, cols, inner, a, a_rs, a_ks, b, b_ks, b_cs, out);
}

void ForceBaseline(bool on) {
#if ATTNLAB_KERNELS_AVX
  g_baseline_only = on;
#else
  (void)on;
#endif
}

const char* KernelIsa() {
#if ATTNLAB_KERNELS_AVX
  return HasAvx() ? "avx" : "sse2";
#elif defined(__wasm_simd128__)
  return "simd128";
#elif defined(__wasm__)
  return "scalar";
#else
  return "generic";
#endif
}

template void Gemm<float>(Index, Index, Index, const float*, Index, Index, const float*, Index,
                          Index, float*);
template void Gemm<double>(Index, Index, Index, const double*, Index, Index, const double*,
                           Index, Index, double*);

}  // namespace kernels
}  // namespace attn
