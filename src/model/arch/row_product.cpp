// One row times a block's matrices, a panel of output columns at a time (row_product.h).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/arch/row_product.h"

#include "engine/linalg/kernels.h"
#include "model/arch/parallel.h"

#include <algorithm>

namespace attn {
namespace model {

namespace {

struct Panel {
  std::size_t product;
  Eigen::Index first, n;  // output columns [first, first + n)
};

Eigen::Index OutputWidth(const RowProduct& r) {
  const Eigen::Index rows = r.stored ? r.stored->rows() : r.plain->rows();
  const Eigen::Index cols = r.stored ? r.stored->cols() : r.plain->cols();
  return r.transposed ? rows : cols;
}

// out[first, first + n) of one product; buf holds the widened panel when it needs one.
void RunPanel(const RowProduct& r, const Panel& panel, std::vector<float>* buf) {
  const Eigen::Index first = panel.first, n = panel.n;
  const Eigen::Index inner = r.transposed ? (r.stored ? r.stored->cols() : r.plain->cols())
                                          : (r.stored ? r.stored->rows() : r.plain->rows());
  const float* b = nullptr;  // B(k, j) = b[k * b_ks + j]: the panel, k-major
  Eigen::Index b_ks = n;
  if (r.plain && r.transposed) {  // W (N, K) column-major: the panel's rows are already adjacent
    b = r.plain->data() + first;
    b_ks = r.plain->rows();
  } else {
    buf->resize(static_cast<std::size_t>(inner * n));
    float* to = buf->data();
    if (r.stored && r.transposed) {
      r.stored->WidenRowsTo(first, n, to);  // to[j + k n]
    } else if (r.stored) {
      r.stored->WidenColumnsKMajor(first, n, to);
    } else {  // a float W (K, N): the panel transposed, as WidenColumnsKMajor
      const Mat<float>& w = *r.plain;
      for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index k = 0; k < inner; ++k) to[k * n + j] = w(k, first + j);
    }
    b = to;
  }
  // rows 1 and adjacent columns: the kernels' one-row path, each entry acc = acc + x_k * B(k, j) in k order
  kernels::Gemm<float>(1, n, inner, r.x, 1, 1, b, b_ks, 1, r.out + first);
}

}  // namespace

void RowProducts(const std::vector<RowProduct>& products, int threads, RowScratch* scratch) {
  std::vector<Panel> panels;
  for (std::size_t i = 0; i < products.size(); ++i) {
    const Eigen::Index width = OutputWidth(products[i]);
    for (Eigen::Index first = 0; first < width; first += kRowPanel)
      panels.push_back({i, first, std::min(kRowPanel, width - first)});
  }
  const int n = static_cast<int>(panels.size());
  const int workers = std::max(1, std::min(threads, n));
  if (static_cast<int>(scratch->panels.size()) < workers) scratch->panels.resize(static_cast<std::size_t>(workers));
  // worker t takes panels t, t + workers, ...: each output entry is one chain wherever it runs
  ParallelFor(workers, workers, [&](int t) {
    std::vector<float>* buf = &scratch->panels[static_cast<std::size_t>(t)];
    for (int i = t; i < n; i += workers) RunPanel(products[panels[static_cast<std::size_t>(i)].product], panels[static_cast<std::size_t>(i)], buf);
  });
}

}  // namespace model
}  // namespace attn
