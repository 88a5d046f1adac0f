// scripts/bench.sh --gpt2 and --llama (a benchmark, not a test): a GPT-2-small-shaped checkpoint
// (issue 38; scripts/gpt2_fixture.py --only gpt2-small) or a SmolLM2-135M- / Qwen2.5-0.5B-shaped
// one (issue 39; scripts/llama_fixture.py --only NAME) read with model::ReadHfFolder and run with
// model::Forward, natively.
//
//   bench_gpt2 DIR [--tokens N] [--runs R] [--threads T] [--malloc-default]
//       the load (ReadHfFolder, then the folder's tokenizer: OpenTokenizerFolder) with the peak
//       resident memory it reached; the forward of N tokens (default 64: a text's BPE ids, as
//       `attnlab model run` gives them to a GPT-2 folder's forward, no <|endoftext|> first) with
//       last_only, the median of R (default 5)
//       after one run to warm up; where one forward's time goes, from hooks that only read
//       the clock (the same bits as the plain forward: checked); the engine's per-forward
//       checks of the attention weights timed apart.
//   bench_gpt2 --kernels [--runs R]
//       the products' GFLOP/s on the model's shapes for 64 tokens (kernels::Gemm, as MatMul and
//       MatMulTransposed call it), on one thread and on two (the output's columns split in two
//       halves: independent entries, the same bits), the best of R rounds of at least 0.2 s.
//   bench_gpt2 --load-phases DIR
//       ReadGpt2Folder's steps one by one, with their time and the peak resident memory after
//       each: config.json, the file's bytes (read as hf_gpt2.cpp reads them), ReadSafetensors
//       (the header, every number widened to float), Gpt2FromTensors (the parameters, each
//       matrix moved from row-major to Eigen's column-major, every number checked).
//   bench_gpt2 --widen DIR
//       F16 -> float widening of every number of DIR/model.safetensors (all F16), a block's worth
//       (7.1 M numbers) at a time, as a loader that keeps the weights at F16 would do per
//       forward: model/format/fp16.h's HalfToFloat, a 65536-entry table and, where the CPU has
//       it, F16C (both exact, so the same bits: checked).
// Each prints one line of JSON (scripts/bench.sh --gpt2 reads them). The allocator is set as
// `attnlab` sets it (cli/keep_freed_memory.h) unless --malloc-default.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define BENCH_F16C 1
#endif

#include "cli/keep_freed_memory.h"
#include "engine/linalg/kernels.h"
#include "engine/linalg/linalg.h"
#include "model/arch/model.h"
#include "model/format/fp16.h"
#include "model/format/hf_checkpoint.h"
#include "model/format/hf_gpt2.h"
#include "model/format/safetensors.h"
#include "model/format/model_folder.h"
#include "model/arch/sampling.h"
#include "model/inspect/attribution.h"
#include "model/inspect/lens.h"
#include "model/inspect/patching.h"

namespace {

using Clock = std::chrono::steady_clock;
using attn::model::HfCheckpoint;
using attn::model::Params;

double Since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double PeakRssMib() {  // the process's peak resident memory so far, MiB
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KB on Linux
}

double CurrentRssMib() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  f >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1048576.0;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int Fail(const std::string& why) {
  std::fprintf(stderr, "bench_gpt2: %s\n", why.c_str());
  return 1;
}

// ---- the forward ------------------------------------------------------------------------------

// Where a forward's time goes, by the interval that ends at each hook point.
enum Part { kEmbed, kLayerNorm, kQkv, kAttnCore, kAttnOut, kMlpFc, kGelu, kMlpProj, kResidual, kLmHead, kParts };
const char* const kPartNames[kParts] = {"embedding", "norms", "attn_qkv", "attn_core", "attn_out",
                                        "mlp_fc", "mlp_act", "mlp_proj", "residuals", "lm_head"};

Part PartEndingAt(attn::HookPoint p) {
  using attn::HookPoint;
  switch (p) {
    case HookPoint::kResidPre: return kResidual;  // block 0: the embedding (fixed by the caller)
    case HookPoint::kLn1: case HookPoint::kLn2: case HookPoint::kLnFinal: return kLayerNorm;
    case HookPoint::kQ: case HookPoint::kK: case HookPoint::kV: return kQkv;
    case HookPoint::kAttnScores: case HookPoint::kPattern: case HookPoint::kZ: return kAttnCore;
    case HookPoint::kAttnOut: return kAttnOut;
    case HookPoint::kMlpPre: return kMlpFc;
    case HookPoint::kMlpPost: return kGelu;
    case HookPoint::kMlpOut: return kMlpProj;
    default: return kResidual;  // resid_mid, resid_post
  }
}

// 64 GPT-2 tokens, issue 38's length (scripts/bench.sh --gpt2 gives `attnlab model run` the same
// text).
const char* const kText =
    "Self-attention outputs a weighted sum of value vectors, so does the sum lose which words mattered? "
    "The lab computes the attention of a sentence live and shows every step with real numbers, from the "
    "scores to the weights, the weighted values and their sum, and what the output alone can and cannot tell us.";

int RunForward(const std::string& dir, int tokens, int runs, int threads) {
  // The load, as `attnlab model run` would: the checkpoint, then the tokenizer.
  const double rss_before = PeakRssMib();
  auto t0 = Clock::now();
  HfCheckpoint ck;
  std::string error;
  if (!attn::model::ReadHfFolder(dir, &ck, &error)) return Fail(error);
  const double load_s = Since(t0);
  const double peak_after_load = PeakRssMib(), rss_after_load = CurrentRssMib();
  t0 = Clock::now();
  std::shared_ptr<const attn::model::Tokenizer> tokenizer;  // the folder's, whichever kind (model_folder.h)
  if (!attn::model::OpenTokenizerFolder(dir, &tokenizer, &error)) return Fail(error);
  const double tokenizer_s = Since(t0), rss_after_tokenizer = CurrentRssMib();
  const attn::model::ModelConfig& c = ck.config;
  std::int64_t param_floats = 0;
  for (const auto& t : attn::model::Tensors(ck.params)) param_floats += t.size();

  // The text's ids (kText: 64 of them), repeated or cut to `tokens`.
  std::string text;
  std::vector<int> ids;
  while (static_cast<int>(ids.size()) < tokens) {
    text += text.empty() ? kText : std::string(" ") + kText;
    if (!tokenizer->Encode(text, &ids, &error)) return Fail(error);
  }
  attn::model::Sequence s;
  s.tokens.assign(ids.begin(), ids.begin() + tokens);
  s.targets.assign(s.tokens.size(), -1);
  s.threads = threads;  // the large products by columns, as `attnlab model run --threads`

  attn::model::SequenceActs<float> acts;
  std::vector<double> times;
  for (int r = 0; r <= runs; ++r) {  // run 0 warms up
    t0 = Clock::now();
    if (!attn::model::Forward(acts, ck.params, c, s, &error, /*last_only=*/true)) return Fail(error);
    if (r > 0) times.push_back(Since(t0));
  }
  const double forward_s = Median(times), rss_after_forward = CurrentRssMib();
  const attn::Mat<float> plain_logits = acts.logits;
  const long logits_rows = static_cast<long>(acts.logits.rows());

  // The same forward with hooks that read the clock: the intervals between hook points.
  std::vector<std::vector<double>> part_runs(kParts);
  bool same_bits = true;
  for (int r = 0; r < runs; ++r) {
    double parts[kParts] = {};
    Clock::time_point last;
    attn::Hooks<float> hooks;
    for (attn::HookPoint p : attn::kHookPoints) {
      if (p == attn::HookPoint::kEmbed || p == attn::HookPoint::kPosEmbed) continue;  // the plain embedding
      hooks.Add(p, -1, -1, [&, p](const attn::HookSite& site, attn::Mat<float>&, std::string*) {
        const Clock::time_point now = Clock::now();
        const Part part = p == attn::HookPoint::kResidPre && site.layer == 0 ? kEmbed : PartEndingAt(p);
        parts[part] += std::chrono::duration<double>(now - last).count();
        last = Clock::now();  // the hook's own time is no part's
        return true;
      });
    }
    last = Clock::now();
    if (!attn::model::Forward(acts, ck.params, c, s, &error, true, &hooks)) return Fail(error);
    parts[kLmHead] += Since(last);
    for (int k = 0; k < kParts; ++k) part_runs[static_cast<std::size_t>(k)].push_back(parts[k]);
    same_bits = same_bits && acts.logits.size() == plain_logits.size() &&
                std::memcmp(acts.logits.data(), plain_logits.data(), sizeof(float) * static_cast<std::size_t>(plain_logits.size())) == 0;
  }
  // The engine's checks of the attention weights (MultiHeadForward: AllFinite of every head's
  // W_Q, W_K, W_V and of W_O), which run in every forward inside attn_qkv's interval.
  std::vector<double> check_times;
  for (int r = 0; r < runs; ++r) {
    t0 = Clock::now();
    bool ok = true;
    for (const auto& b : ck.params.blocks) {
      for (std::size_t h = 0; h < b.attn.W_Q.size(); ++h)
        ok = ok && attn::linalg::AllFinite(b.attn.W_Q[h]) && attn::linalg::AllFinite(b.attn.W_K[h]) &&
             attn::linalg::AllFinite(b.attn.W_V[h]);
      ok = ok && attn::linalg::AllFinite(b.attn.W_O);
    }
    check_times.push_back(Since(t0));
    if (!ok) return Fail("a weight is not finite");
  }

  // The products' arithmetic of one forward (multiply-adds x 2).
  // W_K, W_V: one product per key/value head (grouped-query heads copy theirs); SwiGLU: gate and up.
  const double T = tokens, C = c.d_model, F = c.mlp, V = c.vocab, L = c.layers;
  const double Dq = c.heads * attn::model::HeadDim(c), Dkv = attn::model::KvHeads(c) * attn::model::HeadDim(c);
  const double gflop_blocks = 2 * L * (T * C * (Dq + 2 * Dkv) + T * Dq * C + (c.swiglu ? 3 : 2) * T * C * F) / 1e9;
  const double gflop_attn = 2 * L * 2 * (T * (T + 1) / 2) * Dq / 1e9;  // QK^T and PV, causal half (computed: full)
  const double gflop_head = 2 * C * V / 1e9;

  std::printf("{\"dir\": \"%s\", \"dtype\": \"%s\", \"layers\": %d, \"heads\": %d, \"d_model\": %d, \"vocab\": %d, "
              "\"parameters\": %lld, \"file_bytes\": %llu, \"params_mib\": %.1f, "
              "\"load_s\": %.3f, \"tokenizer_s\": %.3f, \"rss_before_mib\": %.1f, \"peak_rss_load_mib\": %.1f, "
              "\"rss_after_load_mib\": %.1f, \"rss_after_tokenizer_mib\": %.1f, \"rss_after_forward_mib\": %.1f, "
              "\"tokens\": %d, \"text_ids\": %zu, \"runs\": %d, \"threads\": %d, \"kernels\": \"%s\", "
              "\"forward_s\": %.4f, \"forward_min_s\": %.4f, \"forward_max_s\": %.4f, \"logits_rows\": %ld, "
              "\"gflop_block_products\": %.3f, \"gflop_attention\": %.3f, \"gflop_lm_head\": %.4f, "
              "\"weight_checks_s\": %.4f, \"hooked_same_bits\": %s, \"parts_s\": {",
              dir.c_str(), ck.dtype.c_str(), c.layers, c.heads, c.d_model, c.vocab,
              static_cast<long long>(ck.parameters), static_cast<unsigned long long>(ck.file_bytes),
              static_cast<double>(param_floats) * 4 / 1048576.0, load_s, tokenizer_s, rss_before, peak_after_load,
              rss_after_load, rss_after_tokenizer, rss_after_forward, tokens, ids.size(), runs, threads, attn::kernels::KernelIsa(), forward_s,
              *std::min_element(times.begin(), times.end()), *std::max_element(times.begin(), times.end()),
              logits_rows, gflop_blocks, gflop_attn, gflop_head, Median(check_times), same_bits ? "true" : "false");
  for (int k = 0; k < kParts; ++k)
    std::printf("%s\"%s\": %.4f", k ? ", " : "", kPartNames[k], Median(part_runs[static_cast<std::size_t>(k)]));
  std::printf("}, \"peak_rss_mib\": %.1f}\n", PeakRssMib());
  return 0;
}

// ---- issue 40's tools -------------------------------------------------------------------------

// The logit lens and attribution of 64 tokens, residual-stream patching of 16, and 32 tokens
// generated after a 64-token prompt with and without the key/value cache (greedy: the same
// tokens, checked), each the median of `runs`.
int RunInspect(const std::string& dir, int runs, int threads) {
  HfCheckpoint ck;
  std::string error;
  if (!attn::model::ReadHfFolder(dir, &ck, &error)) return Fail(error);
  std::shared_ptr<const attn::model::Tokenizer> tokenizer;
  if (!attn::model::OpenTokenizerFolder(dir, &tokenizer, &error)) return Fail(error);
  std::vector<int> ids;
  std::string text;
  while (ids.size() < 64) {
    text += text.empty() ? kText : std::string(" ") + kText;
    if (!tokenizer->Encode(text, &ids, &error)) return Fail(error);
  }
  ids.resize(64);
  const attn::model::ModelConfig& c = ck.config;
  auto timed = [&](auto body) {
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
      const auto t0 = Clock::now();
      if (!body()) return -1.0;
      t.push_back(Since(t0));
    }
    return Median(t);
  };
  attn::model::Sequence s;
  s.tokens = ids;
  s.targets.assign(ids.size(), -1);
  s.threads = threads;
  attn::model::SequenceActs<float> acts;
  const double forward_s = timed([&] { return attn::model::Forward(acts, ck.params, c, s, &error, true); });
  attn::model::LogitLens lens;
  const double lens_s = timed([&] { return attn::model::ComputeLogitLens(ck.params, c, acts, -1, &lens, &error, threads); });
  attn::model::Attribution attribution;
  const double attribution_s = timed([&] { return attn::model::ComputeAttribution(ck.params, c, ids, acts, -1, -1, &attribution, &error); });
  attn::model::PatchSpec spec;
  spec.clean.assign(ids.begin(), ids.begin() + 16);
  spec.corrupted = spec.clean;
  std::swap(spec.corrupted[3], spec.corrupted[9]);
  std::swap(spec.corrupted[5], spec.corrupted[12]);
  int patch_runs = 0;
  const double patch_s = timed([&] {
    attn::model::PatchRun run;
    if (!run.Start(ck.params, c, spec, &error, threads)) return false;
    while (!run.done())
      if (!run.Step(8, &error)) return false;
    patch_runs = run.total();
    return true;
  });
  attn::model::SamplingConfig greedy;
  greedy.temperature = 0;
  attn::model::Generation cached, whole;
  const double cached_s = timed([&] { return attn::model::Generate(ck.params, c, ids, 32, -1, greedy, true, &cached, &error, threads); });
  const double whole_s = timed([&] { return attn::model::Generate(ck.params, c, ids, 32, -1, greedy, false, &whole, &error, threads); });
  if (forward_s < 0 || lens_s < 0 || attribution_s < 0 || patch_s < 0 || cached_s < 0 || whole_s < 0) return Fail(error);
  std::printf("{\"dir\": \"%s\", \"threads\": %d, \"runs\": %d, \"forward_64_s\": %.4f, \"lens_64_s\": %.4f, "
              "\"attribution_64_s\": %.4f, \"patch_resid_16_s\": %.3f, \"patch_runs\": %d, \"generate_32_cached_s\": %.3f, "
              "\"generate_32_whole_s\": %.3f, \"same_tokens\": %s}\n",
              dir.c_str(), threads, runs, forward_s, lens_s, attribution_s, patch_s, patch_runs, cached_s, whole_s,
              cached.tokens == whole.tokens ? "true" : "false");
  return 0;
}

// ---- the load, step by step ------------------------------------------------------------------

// As hf_gpt2.cpp's ReadFile: through an ostringstream, then a copy into the string.
bool ReadLikeTheLoader(const std::string& path, std::string* bytes) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  *bytes = ss.str();
  return static_cast<bool>(f) || f.eof();
}

int RunLoadPhases(const std::string& dir) {
  std::string error, text;
  auto t0 = Clock::now();
  attn::model::ModelConfig c;
  int eos = -1;
  if (!ReadLikeTheLoader(dir + "/config.json", &text) || !attn::model::ParseGpt2Config(text, &c, &eos, &error))
    return Fail("config.json: " + error);
  const double config_s = Since(t0);
  t0 = Clock::now();
  std::string bytes;
  if (!ReadLikeTheLoader(dir + "/model.safetensors", &bytes)) return Fail("model.safetensors: cannot be read");
  const double read_s = Since(t0), read_peak = PeakRssMib(), read_rss = CurrentRssMib();
  t0 = Clock::now();
  attn::model::StFile st;
  if (!attn::model::ReadSafetensors(bytes, &st, &error)) return Fail(error);
  const double parse_s = Since(t0), parse_peak = PeakRssMib(), parse_rss = CurrentRssMib();
  std::string().swap(bytes);  // as ReadGpt2Folder: the bytes go before the parameters are made
  t0 = Clock::now();
  Params<float> params;
  if (!attn::model::HfFromTensors(c, st.tensors, &params, &error)) return Fail(error);
  const double params_s = Since(t0), params_peak = PeakRssMib(), params_rss = CurrentRssMib();
  st = attn::model::StFile();
  std::printf("{\"config_s\": %.4f, \"read_s\": %.3f, \"read_peak_mib\": %.1f, \"read_rss_mib\": %.1f, "
              "\"safetensors_s\": %.3f, \"safetensors_peak_mib\": %.1f, \"safetensors_rss_mib\": %.1f, "
              "\"params_s\": %.3f, \"params_peak_mib\": %.1f, \"params_rss_mib\": %.1f, \"rss_end_mib\": %.1f}\n",
              config_s, read_s, read_peak, read_rss, parse_s, parse_peak, parse_rss, params_s, params_peak,
              params_rss, CurrentRssMib());
  return 0;
}

// ---- the products -----------------------------------------------------------------------------

struct Shape {
  const char* name;
  long rows, cols, inner;
  bool transposed_b;  // B = w^T with w (cols, inner) column-major: MatMulTransposed (the lm head)
  int per_forward;    // how many such products one forward of 64 tokens runs
};

// out (rows x cols) = A B through kernels::Gemm, the columns split over `threads` threads.
void Product(const Shape& s, const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& out,
             int threads) {
  const long b_ks = s.transposed_b ? s.cols : 1, b_cs = s.transposed_b ? 1 : s.inner;
  auto part = [&](long c0, long c1) {
    attn::kernels::Gemm<float>(s.rows, c1 - c0, s.inner, a.data(), 1, s.rows, b.data() + c0 * b_cs, b_ks, b_cs,
                               out.data() + c0 * s.rows);
  };
  if (threads <= 1) return part(0, s.cols);
  const long mid = (s.cols / 2 + 7) / 8 * 8;
  std::thread other(part, mid, s.cols);
  part(0, mid);
  other.join();
}

// The products of one forward of `tokens` tokens through the folder's config.json.
int RunKernels(const std::string& dir, int tokens, int runs) {
  std::string text, error;
  attn::model::ModelConfig c;
  int eos = -1;
  if (!ReadLikeTheLoader(dir + "/config.json", &text) || !attn::model::ParseHfConfig(text, &c, &eos, &error))
    return Fail("config.json: " + error);
  const long T = tokens, C = c.d_model, F = c.mlp, V = c.vocab, L = c.layers, H = c.heads;
  const long dh = attn::model::HeadDim(c), kv = attn::model::KvHeads(c);
  const int per_layer = static_cast<int>(L);
  const Shape shapes[] = {
      // MultiHeadForward: X W_Q[h] per query head, X W_K[h], X W_V[h] per key/value head
      {"qkv_per_head", T, dh, C, false, static_cast<int>(L * (H + 2 * kv))},
      {"qkv_fused", T, (H + 2 * kv) * dh, C, false, 0},  // the same numbers as one product
      {"attn_out", T, C, H * dh, false, per_layer},
      {"mlp_fc", T, F, C, false, per_layer * (c.swiglu ? 2 : 1)},  // SwiGLU: gate and up
      {"mlp_proj", T, C, F, false, per_layer},
      {"lm_head_last", 1, V, C, true, 1},  // last_only: one row times wte^T
      {"lm_head_all", T, V, C, true, 0},   // every position's (what last_only avoids)
  };
  std::printf("{\"kernels\": \"%s\", \"hardware_threads\": %u, \"shapes\": [", attn::kernels::KernelIsa(),
              std::thread::hardware_concurrency());
  bool first = true;
  for (const Shape& s : shapes) {
    std::vector<float> a(static_cast<std::size_t>(s.rows * s.inner)), b(static_cast<std::size_t>(s.inner * s.cols)),
        out1(static_cast<std::size_t>(s.rows * s.cols)), out2(out1.size());
    std::uint32_t x = 12345;
    auto next = [&x] { x = x * 1664525u + 1013904223u; return static_cast<float>(x >> 8) / 16777216.0f - 0.5f; };
    for (float& v : a) v = next();
    for (float& v : b) v = next();
    const double flop = 2.0 * static_cast<double>(s.rows) * static_cast<double>(s.cols) * static_cast<double>(s.inner);
    double best[3] = {0, 0, 0};
    for (int threads = 1; threads <= 2; ++threads) {
      std::vector<float>& out = threads == 1 ? out1 : out2;
      Product(s, a, b, out, threads);  // warm
      for (int r = 0; r < runs; ++r) {
        int n = 0;
        const auto t0 = Clock::now();
        do {
          Product(s, a, b, out, threads);
          ++n;
        } while (Since(t0) < 0.2);
        const double per = Since(t0) / n;
        if (best[threads] == 0 || per < best[threads]) best[threads] = per;
      }
    }
    const bool same = std::memcmp(out1.data(), out2.data(), out1.size() * sizeof(float)) == 0;
    std::printf("%s{\"name\": \"%s\", \"rows\": %ld, \"cols\": %ld, \"inner\": %ld, \"per_forward\": %d, "
                "\"ms_1\": %.4f, \"gflops_1\": %.1f, \"ms_2\": %.4f, \"gflops_2\": %.1f, \"same_bits\": %s}",
                first ? "" : ", ", s.name, s.rows, s.cols, s.inner, s.per_forward, best[1] * 1e3, flop / best[1] / 1e9,
                best[2] * 1e3, flop / best[2] / 1e9, same ? "true" : "false");
    first = false;
  }
  std::printf("]}\n");
  return 0;
}

// ---- F16 -> float -----------------------------------------------------------------------------

#if BENCH_F16C
__attribute__((target("f16c,avx"))) void WidenF16c(const std::uint16_t* in, float* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
  for (; i < n; ++i) out[i] = attn::model::HalfToFloat(in[i]);
}
#endif

int RunWiden(const std::string& dir) {
  std::ifstream f(dir + "/model.safetensors", std::ios::binary);
  if (!f) return Fail(dir + "/model.safetensors: cannot be read");
  std::uint64_t header = 0;
  f.read(reinterpret_cast<char*>(&header), 8);  // little-endian: x86
  f.seekg(0, std::ios::end);
  const std::uint64_t size = static_cast<std::uint64_t>(f.tellg());
  const std::size_t n = static_cast<std::size_t>((size - 8 - header) / 2);
  std::vector<std::uint16_t> halves(n);
  f.seekg(static_cast<std::streamoff>(8 + header));
  f.read(reinterpret_cast<char*>(halves.data()), static_cast<std::streamsize>(n * 2));
  if (!f) return Fail("short read");
  const std::size_t chunk = 7087872;  // one block's numbers at 768 wide: 12 C^2 + 13 C
  std::vector<float> out(chunk), check(chunk);
  std::vector<float> table(65536);
  for (std::uint32_t h = 0; h < 65536; ++h) table[h] = attn::model::HalfToFloat(static_cast<std::uint16_t>(h));

  auto timed = [&](auto widen) {
    const auto t0 = Clock::now();
    double sink = 0;
    for (std::size_t i = 0; i < n; i += chunk) {
      const std::size_t m = std::min(chunk, n - i);
      widen(halves.data() + i, out.data(), m);
      sink += out[m - 1];
    }
    const double s = Since(t0);
    if (sink == 12345.678) std::printf(" ");
    return s;
  };
  auto by_function = [](const std::uint16_t* in, float* o, std::size_t m) {
    for (std::size_t i = 0; i < m; ++i) o[i] = attn::model::HalfToFloat(in[i]);
  };
  auto by_table = [&table](const std::uint16_t* in, float* o, std::size_t m) {
    for (std::size_t i = 0; i < m; ++i) o[i] = table[in[i]];
  };
  // Same bits: every half of the file through each way, against HalfToFloat.
  bool table_same = true, f16c_same = true;
  for (std::size_t i = 0; i < n; i += chunk) {
    const std::size_t m = std::min(chunk, n - i);
    by_function(halves.data() + i, check.data(), m);
    by_table(halves.data() + i, out.data(), m);
    table_same = table_same && std::memcmp(out.data(), check.data(), m * 4) == 0;
#if BENCH_F16C
    if (__builtin_cpu_supports("f16c")) {
      WidenF16c(halves.data() + i, out.data(), m);
      f16c_same = f16c_same && std::memcmp(out.data(), check.data(), m * 4) == 0;
    }
#endif
  }
  double t_fn = 1e9, t_table = 1e9, t_f16c = 0;
  for (int r = 0; r < 3; ++r) {
    t_fn = std::min(t_fn, timed(by_function));
    t_table = std::min(t_table, timed(by_table));
  }
  bool has_f16c = false;
#if BENCH_F16C
  has_f16c = __builtin_cpu_supports("f16c");
  if (has_f16c) {
    t_f16c = 1e9;
    for (int r = 0; r < 3; ++r) t_f16c = std::min(t_f16c, timed(WidenF16c));
  }
#endif
  std::printf("{\"values\": %zu, \"chunk\": %zu, \"halftofloat_s\": %.4f, \"halftofloat_mvalues_per_s\": %.0f, "
              "\"table_s\": %.4f, \"table_mvalues_per_s\": %.0f, \"table_same_bits\": %s, \"f16c\": %s, "
              "\"f16c_s\": %.4f, \"f16c_mvalues_per_s\": %.0f, \"f16c_same_bits\": %s}\n",
              n, chunk, t_fn, n / t_fn / 1e6, t_table, n / t_table / 1e6, table_same ? "true" : "false",
              has_f16c ? "true" : "false", t_f16c, has_f16c ? n / t_f16c / 1e6 : 0.0, f16c_same ? "true" : "false");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir, mode = "forward";
  int tokens = 64, runs = 5, threads = 2;
  bool keep = true;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (k == "--malloc-default") keep = false;
    else if (k == "--kernels" || k == "--widen" || k == "--load-phases" || k == "--inspect") mode = k.substr(2);
    else if (k == "--tokens" && i + 1 < argc) tokens = std::atoi(argv[++i]);
    else if (k == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (k == "--threads" && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (!k.empty() && k[0] != '-' && dir.empty()) dir = k;
    else return Fail("unknown option " + k);
  }
  if (keep) attn::cli::KeepFreedMemory();  // as attnlab does
  if (runs < 1 || tokens < 1) return Fail("--runs and --tokens must be at least 1");
  if (dir.empty())
    return Fail("usage: bench_gpt2 DIR [--tokens N] [--runs R] | --kernels DIR | --load-phases DIR | --widen DIR | --inspect DIR");
  if (mode == "kernels") return RunKernels(dir, tokens, runs);
  if (mode == "inspect") return RunInspect(dir, runs, threads < 1 ? 1 : threads);
  if (mode == "widen") return RunWiden(dir);
  if (mode == "load-phases") return RunLoadPhases(dir);
  return RunForward(dir, tokens, runs, threads < 1 ? 1 : threads);
}
