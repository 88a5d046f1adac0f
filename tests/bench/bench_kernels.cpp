// scripts/bench.sh --kernels (a benchmark, not a test): GFLOP/s of the products of attention at
// N = 512, d = 64 and of a 256^3 product, for the old plain loops (linalg_reference.h), the
// blocked kernels (kernels.h, what the engine runs) and Eigen's own products, in float, in one
// run. The same file is built natively and for node (wasm, SIMD128).
//
//   attention forward:  S = Q K^T (N x N, inner d);  O = P V (N x d, inner N)
//   attention backward: dP = dO V^T;  dV = P^T dO;  dQ = dS K;  dK = dS^T Q
// (the products of HeadForward / HeadBackward, multihead.cpp; the softmax's O(N^2) work is not
// counted: it is the same code whatever the products are). FLOPs = 2 R C K per product.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "engine/linalg/kernels.h"
#include "engine/linalg/linalg.h"
#include "engine/linalg/linalg_reference.h"

using attn::Mat;
using MatF = attn::Mat<float>;
namespace linalg = attn::linalg;
namespace ref = attn::linalg::reference;

namespace {

// Natively the process's CPU time (the machine is shared: a wall clock would count the other
// processes' turns), in node the wall clock (wasm has no CPU clock).
double Now() {
#if defined(__wasm__)
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#else
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
#endif
}

MatF Random(Eigen::Index r, Eigen::Index c, unsigned seed) {
  MatF m(r, c);
  unsigned s = seed * 2654435761u + 1;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    s = s * 1664525u + 1013904223u;
    m.data()[i] = static_cast<float>(static_cast<int>(s >> 9) - (1 << 22)) / (1 << 22);
  }
  return m;
}

// Seconds per call of fn, repeating it until min_time seconds pass.
double SecondsPerCall(const std::function<void()>& fn, double min_time) {
  fn();  // warm-up (and the packing buffers)
  int n = 0;
  const double t0 = Now();
  double t = t0;
  do {
    fn();
    ++n;
    t = Now();
  } while (t - t0 < min_time);
  return (t - t0) / n;
}

volatile float g_sink;  // keeps the products from being optimized away

}  // namespace

int main(int argc, char** argv) {
  double min_time = 0.2;
  int rounds = 5;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      min_time = 0.05;
      rounds = 2;
    }
  }
  const Eigen::Index N = 512, d = 64, S3 = 256;
  const MatF Q = Random(N, d, 1), K = Random(N, d, 2), V = Random(N, d, 3), P = Random(N, N, 4);
  const MatF dO = Random(N, d, 5), dS = Random(N, N, 6);
  const MatF A = Random(S3, S3, 7), B = Random(S3, S3, 8);

  struct Impl {
    const char* name;
    std::function<void()> fwd, bwd, cube;
  };
  MatF o1, o2, o3, o4;
  std::vector<Impl> impls = {
      {"old loops",
       [&] { o1 = ref::MatMulTransposed(Q, K); o2 = ref::MatMul(P, V); },
       [&] {
         o1 = ref::MatMulTransposed(dO, V); o2 = ref::MatMulTransposedA(P, dO);
         o3 = ref::MatMul(dS, K); o4 = ref::MatMulTransposedA(dS, Q);
       },
       [&] { o1 = ref::MatMul(A, B); }},
      {"new kernels",
       [&] { o1 = linalg::MatMulTransposed(Q, K); o2 = linalg::MatMul(P, V); },
       [&] {
         o1 = linalg::MatMulTransposed(dO, V); o2 = linalg::MatMulTransposedA(P, dO);
         o3 = linalg::MatMul(dS, K); o4 = linalg::MatMulTransposedA(dS, Q);
       },
       [&] { o1 = linalg::MatMul(A, B); }},
      {"new (SSE2)",  // natively on a CPU with AVX: the baseline kernels any x86-64 runs
       [&] {
         attn::kernels::ForceBaseline(true);
         o1 = linalg::MatMulTransposed(Q, K); o2 = linalg::MatMul(P, V);
         attn::kernels::ForceBaseline(false);
       },
       [&] {
         attn::kernels::ForceBaseline(true);
         o1 = linalg::MatMulTransposed(dO, V); o2 = linalg::MatMulTransposedA(P, dO);
         o3 = linalg::MatMul(dS, K); o4 = linalg::MatMulTransposedA(dS, Q);
         attn::kernels::ForceBaseline(false);
       },
       [&] {
         attn::kernels::ForceBaseline(true);
         o1 = linalg::MatMul(A, B);
         attn::kernels::ForceBaseline(false);
       }},
      {"Eigen",
       [&] { o1.noalias() = Q * K.transpose(); o2.noalias() = P * V; },
       [&] {
         o1.noalias() = dO * V.transpose(); o2.noalias() = P.transpose() * dO;
         o3.noalias() = dS * K; o4.noalias() = dS.transpose() * Q;
       },
       [&] { o1.noalias() = A * B; }},
  };
  if (std::string(attn::kernels::KernelIsa()) != "avx") impls.erase(impls.begin() + 2);
  const double flop_fwd = 2.0 * 2 * N * N * d, flop_bwd = 4.0 * 2 * N * N * d;
  const double flop_cube = 2.0 * S3 * S3 * S3;

  // The kernels' bits are the loops' bits (the tests check many shapes; here the benchmark's).
  {
    const bool same = ref::MatMul(P, V) == linalg::MatMul(P, V) &&
                      ref::MatMulTransposed(Q, K) == linalg::MatMulTransposed(Q, K) &&
                      ref::MatMulTransposedA(dS, Q) == linalg::MatMulTransposedA(dS, Q);
    if (!same) {
      std::printf("kernels differ from the reference loops: a bug\n");
      return 1;
    }
  }
#if defined(__wasm__)
  const char* where = "wasm (node)";
  const char* clock_kind = "wall";
#else
  const char* where = "native";
  const char* clock_kind = "CPU";
#endif
  std::printf("%s (%s time), float, kernels: %s; Eigen %d.%d.%d (SIMD: %s)\n", where,
              clock_kind, attn::kernels::KernelIsa(), EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION,
              EIGEN_MINOR_VERSION, Eigen::SimdInstructionSetsInUse());
  std::printf("%-12s %14s %14s %14s   GFLOP/s\n", "", "attn fwd", "attn bwd", "256^3");
  // Rounds interleave the implementations (the machine may be shared: a busy moment then
  // slows all three alike), and each keeps its best round.
  const std::size_t n = impls.size(), eigen = n - 1;
  std::vector<std::vector<double>> best(n, std::vector<double>(3, 1e30)), g = best;
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < impls.size(); ++i) {
      best[i][0] = std::min(best[i][0], SecondsPerCall(impls[i].fwd, min_time));
      best[i][1] = std::min(best[i][1], SecondsPerCall(impls[i].bwd, min_time));
      best[i][2] = std::min(best[i][2], SecondsPerCall(impls[i].cube, min_time));
    }
  }
  for (std::size_t i = 0; i < impls.size(); ++i) {
    g[i][0] = flop_fwd / best[i][0] * 1e-9;
    g[i][1] = flop_bwd / best[i][1] * 1e-9;
    g[i][2] = flop_cube / best[i][2] * 1e-9;
    std::printf("%-12s %14.1f %14.1f %14.1f\n", impls[i].name, g[i][0], g[i][1], g[i][2]);
  }
  std::printf("%-12s %13.2fx %13.2fx %13.2fx\n", "new / old", g[1][0] / g[0][0], g[1][1] / g[0][1],
              g[1][2] / g[0][2]);
  std::printf("%-12s %13.2fx %13.2fx %13.2fx\n", "new / Eigen", g[1][0] / g[eigen][0],
              g[1][1] / g[eigen][1], g[1][2] / g[eigen][2]);
  if (n == 4) {
    std::printf("%-12s %13.2fx %13.2fx %13.2fx\n", "SSE2 / Eigen", g[2][0] / g[eigen][0],
                g[2][1] / g[eigen][1], g[2][2] / g[eigen][2]);
  }
  g_sink = o1(0, 0) + o2(0, 0) + o3(0, 0) + o4(0, 0);
  return 0;
}
