// One row times a block's big matrices, without widening the whole block (issue 40: the cached
// step of kv_cache.h). Legend as model.h; K = a product's inner width, N its output width.
//
// A forward of many rows widens a stored block once and multiplies every row by it (model.h
// BlockOf). For one row that widening is most of the work -- 85 M weights of GPT-2 small each
// converted, written and read back for one multiply -- and the blocked kernel pads the one row to
// a whole tile. Here a panel of kRowPanel output columns at a time is widened into k-major order
// (entry (k, j) of the panel at k * n + j: adjacent output columns adjacent in memory) and the
// engine's one-row product (kernels.h: SIMD lanes across adjacent output columns) runs over it
// while it is in cache. Every output entry is still
//   acc = 0;  for k = 0 .. K-1:  acc = acc + x_k * W(k, n)
// the chain of MatMul(x, W) on the widened matrix: the same bits (tests/model/test_row_product.cpp).
// The panels are independent outputs, spread over threads.
#pragma once

#include "engine/base/types.h"
#include "model/arch/stored.h"

#include <vector>

namespace attn {
namespace model {

constexpr Eigen::Index kRowPanel = 64;  // output columns per panel: the one-row kernel's 8 AVX vectors

struct RowProduct {
  const float* x = nullptr;              // (K) the row
  const StoredMatrix* stored = nullptr;  // W at its stored precision, or
  const Mat<float>* plain = nullptr;     // W in float
  bool transposed = false;               // false: x W, W (K, N); true: x W^T, W (N, K) (the logits' h out^T)
  float* out = nullptr;                  // (N) written
};

// The panels' buffers, one per thread, kept between calls (a decode step makes dozens of calls).
struct RowScratch {
  std::vector<std::vector<float>> panels;
};

// Every product, its panels over `threads` (each output entry computed by one thread: the same
// bits whatever the number).
void RowProducts(const std::vector<RowProduct>& products, int threads, RowScratch* scratch);

}  // namespace model
}  // namespace attn
