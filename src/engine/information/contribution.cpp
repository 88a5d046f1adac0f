// Weight against contribution: see contribution.h. No FMA contraction (linalg.h's rules).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/information/contribution.h"

#include "engine/attention/multihead.h"

#include <cmath>

namespace attn {

double DistanceInOrder(const VecF& a, const VecF& b) {
  double sum = 0;
  for (Eigen::Index c = 0; c < a.size() && c < b.size(); ++c) {
    const double d = static_cast<double>(a(c)) - static_cast<double>(b(c));
    sum += d * d;
  }
  return std::sqrt(sum);
}

VecF OutputWithout(const AttentionTrace<float>& trace, int query, const std::vector<char>& removed) {
  const Eigen::Index n = trace.K.rows();
  if (query < 0 || query >= trace.Q.rows() || static_cast<Eigen::Index>(removed.size()) != n) return VecF();
  // The query's row alone: every entry of scores, weights and output is computed by the same
  // sequence of operations as in the full run (linalg.h), so this is the full run's row.
  const MatF q = trace.Q.row(query);  // (1, Dk)
  Mask mask(1, n);                    // (1, N) the keys the query sees in the trace
  std::vector<int> keys;              // ... and those taken away: a knock-out hook, as the lab's
  for (Eigen::Index j = 0; j < n; ++j) {
    mask(0, j) = MaskAllows(trace.mask, query, j);
    if (removed[static_cast<std::size_t>(j)] != 0) keys.push_back(static_cast<int>(j));
  }
  Hooks<float> hooks;
  hooks.Add(HookPoint::kAttnScores, -1, -1, MaskKeysHook<float>(std::move(keys)));
  HeadConfig cfg;
  cfg.normalizer = trace.normalizer;
  cfg.temperature = static_cast<double>(trace.temperature);  // rounds back to the same float
  cfg.scale = static_cast<double>(trace.scale);
  HeadTrace<float> row;
  if (!HeadForward<float>(row, q, trace.K, trace.V, mask, cfg, nullptr, &hooks)) return VecF();
  return row.output.row(0).transpose();  // (Dv)
}

ContributionTable ComputeContributions(const AttentionTrace<float>& trace, int query,
                                       const MatF& w_o, int head_row) {
  ContributionTable table;
  table.query = query;
  const Eigen::Index n = trace.weights.cols(), dv = trace.V.cols();
  if (query < 0 || query >= trace.weights.rows() ||
      static_cast<Eigen::Index>(trace.weighted_values.size()) != trace.weights.rows())
    return table;
  const MatF& weighted = trace.weighted_values[static_cast<std::size_t>(query)];  // (N, Dv)
  const VecF a = trace.output.row(query).transpose();                               // (Dv) A
  const bool has_w_o = head_row >= 0 && head_row + dv <= w_o.rows();
  table.keys.resize(static_cast<std::size_t>(n));
  std::vector<char> removed(static_cast<std::size_t>(n), 0);
  for (Eigen::Index i = 0; i < n; ++i) {
    KeyContribution& k = table.keys[static_cast<std::size_t>(i)];
    k.weight = trace.weights(query, i);
    k.masked = !MaskAllows(trace.mask, query, i);
    // ||alpha_i v_i||: the weighted value the steps panel shows
    double sum = 0;
    for (Eigen::Index c = 0; c < dv; ++c) sum += static_cast<double>(weighted(i, c)) * weighted(i, c);
    k.value_norm = std::sqrt(sum);
    table.value_norm_sum += k.value_norm;
    // ||(alpha_i v_i) W_O[h]||: the head's rows of W_O carry its Dv numbers to the residual
    if (has_w_o) {
      double r2 = 0;
      for (Eigen::Index o = 0; o < w_o.cols(); ++o) {
        double r = 0;
        for (Eigen::Index c = 0; c < dv; ++c) r += static_cast<double>(weighted(i, c)) * w_o(head_row + c, o);
        r2 += r * r;
      }
      k.residual_norm = std::sqrt(r2);
    }
    // ||A - A_{-i}||: key i masked out, the rest renormalized
    if (k.masked) {
      k.output_without = a;
      continue;
    }
    removed[static_cast<std::size_t>(i)] = 1;
    k.output_without = OutputWithout(trace, query, removed);
    removed[static_cast<std::size_t>(i)] = 0;
    k.removal = k.output_without.size() == a.size() ? DistanceInOrder(a, k.output_without) : 0;
  }
  return table;
}

}  // namespace attn
