// The logit lens (lens.h): each layer's residual stream through the final norm and W_U.
// The probabilities in double from the float logits, each row's sum in index order, so the same
// numbers natively and in the page.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/inspect/lens.h"

#include "engine/linalg/linalg.h"
#include "model/arch/parallel.h"

#include <algorithm>
#include <cmath>

namespace attn {
namespace model {

namespace {

// The logits of this many bytes at most at once: the lens's rows are stacked into groups of whole
// layers whose logits fit (GPT-2 small, 64 tokens: 4 layers of 12.9 MB), so that the output
// matrix is widened once a group, not once a layer, and memory stays bounded for a long text or a
// large vocabulary.
constexpr double kLogitsBytes = 64.0 * 1024 * 1024;

// What a row of logits (V) says, summed as a softmax in double: the maximum m, sum_v exp(l_v - m)
// in index order, and the top 5 (likeliest first; ties: the lower id first) with their logits
// in p until Finish turns them into probabilities.
struct RowStats {
  double m = -INFINITY, sum = 0;
  std::vector<LensToken> top;
};

// Rows [r0, r1) of logits (R, V): column by column, the rows inner, so that the reads are
// adjacent; each row still sees its logits in index order, as a row-by-row scan would.
void Summarize(const Mat<float>& logits, Eigen::Index r0, Eigen::Index r1, std::vector<RowStats>* stats) {
  const Eigen::Index V = logits.cols();
  for (Eigen::Index v = 0; v < V; ++v) {  // pass 1: the maximum and the top 5
    const float* col = &logits(0, v);
    for (Eigen::Index r = r0; r < r1; ++r) {
      RowStats& s = (*stats)[static_cast<std::size_t>(r)];
      const double x = static_cast<double>(col[r]);
      s.m = std::max(s.m, x);
      if (s.top.size() == 5 && x <= s.top.back().p) continue;
      LensToken t{static_cast<int>(v), x};
      auto at = std::upper_bound(s.top.begin(), s.top.end(), t, [](const LensToken& a, const LensToken& b) { return a.p > b.p; });
      s.top.insert(at, t);
      if (s.top.size() > 5) s.top.pop_back();
    }
  }
  for (Eigen::Index v = 0; v < V; ++v) {  // pass 2: the sums, each in index order
    const float* col = &logits(0, v);
    for (Eigen::Index r = r0; r < r1; ++r) {
      RowStats& s = (*stats)[static_cast<std::size_t>(r)];
      s.sum += std::exp(static_cast<double>(col[r]) - s.m);
    }
  }
  for (Eigen::Index r = r0; r < r1; ++r) {
    RowStats& s = (*stats)[static_cast<std::size_t>(r)];
    for (LensToken& t : s.top) t.p = std::exp(t.p - s.m) / s.sum;
  }
}

}  // namespace

bool ComputeLogitLens(const Params<float>& p, const ModelConfig& c, const SequenceActs<float>& acts, int target,
                      LogitLens* out, std::string* error, int threads) {
  const int L = static_cast<int>(acts.blocks.size());
  if (L != c.layers || acts.emb.cols() != c.d_model || acts.emb.rows() < 1)
    return linalg::Fail(error, "the run does not belong to this model");
  if (target < -1 || target >= c.vocab)
    return linalg::Fail(error, "target: expected a token id from 0 to " + std::to_string(c.vocab - 1) + ", got " + std::to_string(target));
  const int T = static_cast<int>(acts.emb.rows());
  LogitLens r;
  r.rows = L + 1;
  r.positions = T;
  r.chosen_target = target >= 0;
  r.cells.resize(static_cast<std::size_t>(r.rows * T));
  r.last_top5.resize(static_cast<std::size_t>(r.rows));
  r.targets.assign(static_cast<std::size_t>(T), target);  // -1: filled from row L's tops below
  // From the top row down: row L's top tokens are the columns' own targets. Each group's streams
  // are stacked, (n T, C), normed row by row and multiplied by W_U as one product: every logit is
  // its own sum over C, so the same bits as a product per layer.
  const int per_group = std::max(1, static_cast<int>(kLogitsBytes / (4.0 * T * c.vocab)));
  Mat<float> x, normed, logits;  // (n T, C), (n T, C), (n T, V)
  for (int top = L; top >= 0; top -= per_group) {
    const int n = std::min(per_group, top + 1);  // layers top, top - 1, ..., top - n + 1
    x.resize(static_cast<Eigen::Index>(n) * T, c.d_model);
    for (int i = 0; i < n; ++i) {
      const int k = top - i;
      x.middleRows(static_cast<Eigen::Index>(i) * T, T) = k == 0 ? acts.emb : acts.blocks[static_cast<std::size_t>(k - 1)].res2;
    }
    FinalNormRows(normed, x, p, c);
    UnembedRows(logits, normed, p, c, threads);
    // the rows' softmax summaries, rows split over the threads (each row's sums its own)
    const Eigen::Index rows = logits.rows();
    std::vector<RowStats> stats(static_cast<std::size_t>(rows));
    const int workers = std::max(1, std::min<int>(threads, static_cast<int>(rows)));
    ParallelFor(workers, workers, [&](int w) {
      Summarize(logits, rows * w / workers, rows * (w + 1) / workers, &stats);
    });
    for (int i = 0; i < n; ++i) {
      const int k = top - i;
      for (int t = 0; t < T; ++t) {
        const Eigen::Index row = static_cast<Eigen::Index>(i) * T + t;
        const RowStats& s = stats[static_cast<std::size_t>(row)];
        LensCell& cell = r.cells[static_cast<std::size_t>(k * T + t)];
        cell.top = s.top[0];
        // row L, the columns' own targets: each its top token, whose probability is the top's
        if (k == L && !r.chosen_target) r.targets[static_cast<std::size_t>(t)] = s.top[0].id;
        const int want = r.targets[static_cast<std::size_t>(t)];
        cell.target_p = k == L && !r.chosen_target ? s.top[0].p
                                                   : std::exp(static_cast<double>(logits(row, want)) - s.m) / s.sum;
        if (t == T - 1) r.last_top5[static_cast<std::size_t>(k)] = s.top;
      }
    }
  }
  *out = std::move(r);
  return true;
}

}  // namespace model
}  // namespace attn
