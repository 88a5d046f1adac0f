// What one unit of "Train it more" (model/training/finetune.h: one sequence's forward and backward, and
// the update at a step's end) costs, natively and in node (wasm): the shipped model's shape with
// random weights (the time does not depend on the values) on a random stream.
//   bench_tune [--length N] [--units K]
#include "model/training/finetune.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace attn::model;

int main(int argc, char** argv) {
  int length = 32, units = 8;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--length") length = std::atoi(argv[i + 1]);
    else if (k == "--units") units = std::atoi(argv[i + 1]);
  }
  const ModelConfig c{2048, 128, 4, 4, 64, 384};  // web/model/config.json
  Params<float> p = InitParams<float>(c, 1);
  std::vector<int> stream;
  for (int i = 0; i < 2000; ++i) stream.push_back((i * 7919) % c.vocab);
  TuneConfig cfg;
  cfg.length = length;
  cfg.batch = 4;
  TuneSession s;
  std::string error;
  if (!s.Start(c, stream, cfg, &error)) {
    std::fprintf(stderr, "bench_tune: %s\n", error.c_str());
    return 1;
  }
  bool done = false;
  s.Work(p, &done);  // warm-up
  const auto t0 = std::chrono::steady_clock::now();
  double update_ms = 0;
  for (int k = 0; k < units; ++k) {
    const auto u0 = std::chrono::steady_clock::now();
    s.Work(p, &done);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - u0).count();
    if (done) update_ms += ms;
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"length\": %d, \"units\": %d, \"msPerUnit\": %.2f, \"msPerStep4\": %.2f}\n", length, units,
              ms / units, 4 * ms / units);
  (void)update_ms;
  return 0;
}
