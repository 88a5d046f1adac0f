// The logit lens (lens.h): each layer's residual stream through the final norm and W_U.
// The probabilities in double from the float logits, each row's sum in index order, so the same
// numbers natively and in the page.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/inspect/lens.h"

#include "engine/linalg/linalg.h"

#include <algorithm>
#include <cmath>

namespace attn {
namespace model {

namespace {

// One row of logits (V) as probabilities: the top 5 and the probability of `target`.
struct RowSummary {
  std::vector<LensToken> top5;
  double target_p = 0;
};
RowSummary Summarize(const float* logits, Eigen::Index stride, int vocab, int target) {
  double m = -INFINITY;
  for (int v = 0; v < vocab; ++v) m = std::max(m, static_cast<double>(logits[v * stride]));
  double sum = 0;
  for (int v = 0; v < vocab; ++v) sum += std::exp(static_cast<double>(logits[v * stride]) - m);
  RowSummary r;
  std::vector<LensToken> top;  // kept sorted, likeliest first (ties: the lower id first)
  for (int v = 0; v < vocab; ++v) {
    const double x = static_cast<double>(logits[v * stride]);
    if (top.size() == 5 && x <= top.back().p) continue;
    LensToken t{v, x};
    auto at = std::upper_bound(top.begin(), top.end(), t, [](const LensToken& a, const LensToken& b) { return a.p > b.p; });
    top.insert(at, t);
    if (top.size() > 5) top.pop_back();
  }
  for (LensToken& t : top) t.p = std::exp(t.p - m) / sum;
  r.top5 = std::move(top);
  r.target_p = target >= 0 ? std::exp(static_cast<double>(logits[target * stride]) - m) / sum : 0.0;
  return r;
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
  // From the top row down: row L's top tokens are the columns' own targets.
  Mat<float> normed, logits;  // (T, C), (T, V)
  for (int k = L; k >= 0; --k) {
    const Mat<float>& x = k == 0 ? acts.emb : acts.blocks[static_cast<std::size_t>(k - 1)].res2;  // (T, C)
    FinalNormRows(normed, x, p, c);
    UnembedRows(logits, normed, p, c, threads);
    if (k == L) r.targets.assign(static_cast<std::size_t>(T), target);  // -1: filled from row L's tops below
    for (int t = 0; t < T; ++t) {
      const RowSummary s = Summarize(&logits(t, 0), logits.rows(), c.vocab, r.targets[static_cast<std::size_t>(t)]);
      LensCell& cell = r.cells[static_cast<std::size_t>(k * T + t)];
      cell.top = s.top5[0];
      // row L, the columns' own targets: each its top token, whose probability is the top's
      if (k == L && !r.chosen_target) r.targets[static_cast<std::size_t>(t)] = s.top5[0].id;
      cell.target_p = k == L && !r.chosen_target ? s.top5[0].p : s.target_p;
      if (t == T - 1) r.last_top5[static_cast<std::size_t>(k)] = s.top5;
    }
  }
  *out = std::move(r);
  return true;
}

}  // namespace model
}  // namespace attn
