// scripts/bench.sh --model (a benchmark, not a test): trains the model (src/model/training/train.h
// Trainer<float>, the engine's kernels) for a fixed number of steps on random tokens and prints
// tokens per second. tests/bench/bench_model_torch.py trains the same architecture with PyTorch
// on the same shapes (bench.sh --model --torch prints the ratio).
//
//   bench_model [--vocab V] [--d-model C] [--layers L] [--heads H] [--context P] [--mlp F]
//               [--batch B] [--steps S] [--warmup W] [--threads N] [--malloc-default]
// Prints one line of JSON: {"tokens_per_s": ..., "seconds": ..., "steps": ..., ...}, with the
// GFLOP/s the training used (the products' multiply-adds of forward and backward, counted below)
// next to the products' peak: the engine's Gemm on the model's largest product, (T, C) x (C, V),
// one thread, times the threads.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/keep_freed_memory.h"
#include "engine/linalg/kernels.h"
#include "model/training/train.h"

int main(int argc, char** argv) {
  // as attnlab does: training's large blocks reused (--malloc-default: glibc's default, to compare)
  bool keep = true;
  for (int i = 1; i < argc; ++i) if (std::strcmp(argv[i], "--malloc-default") == 0) keep = false;
  if (keep) attn::cli::KeepFreedMemory();
  attn::model::TrainConfig cfg;
  cfg.model.vocab = 2048;
  cfg.model.d_model = 128;
  cfg.model.layers = 4;
  cfg.model.heads = 4;
  cfg.model.context = 64;
  cfg.model.mlp = 512;
  cfg.batch = 8;
  int steps = 20, warmup = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (k == "--malloc-default") continue;
    const int v = i + 1 < argc ? std::atoi(argv[++i]) : 0;
    if (k == "--vocab") cfg.model.vocab = v;
    else if (k == "--d-model") cfg.model.d_model = v;
    else if (k == "--layers") cfg.model.layers = v;
    else if (k == "--heads") cfg.model.heads = v;
    else if (k == "--context") cfg.model.context = v;
    else if (k == "--mlp") cfg.model.mlp = v;
    else if (k == "--batch") cfg.batch = v;
    else if (k == "--steps") steps = v;
    else if (k == "--warmup") warmup = v;
    else if (k == "--threads") cfg.threads = v;
    else {
      std::fprintf(stderr, "bench_model: unknown option %s\n", k.c_str());
      return 2;
    }
  }
  cfg.length = cfg.model.context;
  cfg.schedule.steps = steps + warmup;
  // Random tokens (a fixed xorshift stream): the speed does not depend on the text.
  std::vector<int> stream(200000);
  std::uint64_t s = 88172645463325252ull;
  for (int& t : stream) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    t = static_cast<int>(s % static_cast<std::uint64_t>(cfg.model.vocab));
  }
  attn::model::Trainer<float> trainer;
  std::string error;
  if (!trainer.Reset(cfg, stream, &error)) {
    std::fprintf(stderr, "bench_model: %s\n", error.c_str());
    return 1;
  }
  attn::model::StepMetrics m;
  for (int i = 0; i < warmup; ++i) {
    if (!trainer.Step(&m, &error)) {
      std::fprintf(stderr, "bench_model: %s\n", error.c_str());
      return 1;
    }
  }
  const double first_loss = m.loss;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();  // CPU time of every thread: robust on a shared machine
  for (int i = 0; i < steps; ++i) {
    if (!trainer.Step(&m, &error)) {
      std::fprintf(stderr, "bench_model: %s\n", error.c_str());
      return 1;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu_seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double tokens = static_cast<double>(steps) * cfg.batch * cfg.length;
  // FLOPs of one token's training step in the products (2 per multiply-add; the forward's
  // products once, the backward's twice: the input's and the weights' gradients). Per layer and
  // token: Q, K, V and W_O (4 C^2), the MLP (2 C F); attention: scores and the weighted sum over
  // the keys a causal row sees, (T + 1) / 2 on average, for every head (2 T' C); the logits (C V).
  const double C = cfg.model.d_model, F = cfg.model.mlp, V = cfg.model.vocab, T = cfg.length;
  const double keys = (T + 1) / 2;
  const double fwd = 2 * (cfg.model.layers * (4 * C * C + 2 * C * F + 2 * keys * C) + C * V);
  const double flops_per_token = 3 * fwd;
  // The products' peak: one thread of the same Gemm on (T, C) x (C, V), best of 5.
  std::vector<float> a(static_cast<std::size_t>(T * C), 0.5f), b(static_cast<std::size_t>(C * V), 0.25f),
      out(static_cast<std::size_t>(T * V));
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto g0 = std::chrono::steady_clock::now();
    attn::kernels::Gemm<float>(static_cast<long>(T), static_cast<long>(V), static_cast<long>(C), a.data(),
                               static_cast<long>(C), 1, b.data(), static_cast<long>(V), 1, out.data());
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count());
  }
  const double peak_one = 2 * T * C * V / best / 1e9;
  std::printf(
      "{\"impl\": \"attnlab\", \"kernels\": \"%s\", \"threads\": %d, \"tokens_per_s\": %.1f, "
      "\"tokens_per_cpu_s\": %.1f, \"seconds\": %.3f, \"cpu_seconds\": %.3f, \"steps\": %d, \"batch\": %d, \"length\": %d, \"loss_first\": %.4f, "
      "\"loss_last\": %.4f, \"gflop_per_token\": %.6f, \"gflops_used\": %.2f, \"gflops_peak_one_thread\": %.2f, "
      "\"gflops_peak\": %.2f, \"share_of_peak\": %.3f}\n",
      attn::kernels::KernelIsa(), cfg.threads, tokens / seconds, tokens / cpu_seconds, seconds, cpu_seconds, steps, cfg.batch, cfg.length,
      first_loss, m.loss, flops_per_token / 1e9, tokens / seconds * flops_per_token / 1e9, peak_one,
      peak_one * cfg.threads, tokens / seconds * flops_per_token / 1e9 / (peak_one * cfg.threads));
  return 0;
}
