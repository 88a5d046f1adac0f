// Work on independent items over a few threads, the result independent of the thread count:
// each item writes only its own output, and the caller combines the outputs in item order
// afterwards. That is how training uses both cores and stays bit for bit deterministic.
#pragma once

#include <exception>
#include <thread>
#include <vector>

namespace attn {
namespace model {

// Calls fn(i) for i in [0, n), items i = t, t + threads, ... on thread t. threads <= 1 (and
// every build without threads, e.g. the browser's) runs them in order on the caller's thread.
template <typename Fn>
void ParallelFor(int n, int threads, Fn fn) {
  if (threads <= 1 || n <= 1) {
    for (int i = 0; i < n; ++i) fn(i);
    return;
  }
  if (threads > n) threads = n;
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(threads - 1));
  auto run = [&](int t) {
    for (int i = t; i < n; i += threads) fn(i);
  };
  for (int t = 1; t < threads; ++t) pool.emplace_back(run, t);
  run(0);
  for (std::thread& th : pool) th.join();
}

}  // namespace model
}  // namespace attn
