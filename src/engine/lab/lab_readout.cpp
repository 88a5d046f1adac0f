// Numbers read off the lab's result and a training example (lab_readout.h).
#include "engine/lab/lab_readout.h"

#include "engine/attention/normalizers.h"

namespace attn {

VecD ShiftedWeights(const LabResult& r, Normalizer normalizer, double shift) {
  if (!r.error.ok() || r.steps.query >= r.trace.scaled.rows()) return {};
  // The chosen head is the trace's: its scaled scores and the mask actually used.
  const int q = r.steps.query;
  MatD scaled = r.trace.scaled.row(q).cast<double>();
  scaled.array() += shift;
  Mask mask;
  if (r.mha.mask.rows() > q) mask = r.mha.mask.row(q);
  return NormalizeRows<double>(scaled, mask, normalizer).row(0).transpose();
}

VecD ResidualOutput(const LabResult& r) {
  if (!r.error.ok()) return {};
  const int q = r.steps.query;
  return (r.trace.X.row(q).cast<double>() + r.mha.output.row(q).cast<double>()).transpose();
}

VecD WeightGradientFromValues(const ExampleView& v, int head, int query) {
  const auto& heads = v.forward.attn.heads;
  if (head < 0 || head >= static_cast<int>(heads.size())) return {};
  Eigen::Index offset = 0;
  for (int h = 0; h < head; ++h) offset += heads[h].V.cols();
  const MatD& V = heads[head].V;  // (N, Dv)
  if (query < 0 || query >= v.grads.dconcat.rows()) return {};
  const VecD dA = v.grads.dconcat.row(query).segment(offset, V.cols()).transpose();  // (Dv)
  VecD out(V.rows());
  for (Eigen::Index i = 0; i < V.rows(); ++i) {
    double sum = 0;
    for (Eigen::Index k = 0; k < V.cols(); ++k) sum += V(i, k) * dA(k);
    out(i) = sum;
  }
  return out;
}

std::vector<InductionRow> InductionRows(const std::vector<int>& ids, const MatF& weights) {
  std::vector<InductionRow> rows;
  const auto T = static_cast<Eigen::Index>(ids.size());
  if (weights.rows() != T || weights.cols() != T) return rows;
  auto id = [&](Eigen::Index t) { return ids[static_cast<std::size_t>(t)]; };
  for (Eigen::Index t = 1; t < T; ++t) {
    Eigen::Index j = -1;  // the latest earlier occurrence whose next token is before t
    for (Eigen::Index k = t - 1; k >= 1 && j < 0; --k)
      if (id(k) == id(t) && k + 1 < t) j = k;
    if (j < 0) continue;
    Eigen::Index best = 1;
    for (Eigen::Index k = 2; k <= t; ++k) best = weights(t, k) > weights(t, best) ? k : best;
    InductionRow r;
    r.query = static_cast<int>(t);
    r.after_copy = static_cast<int>(j + 1);
    r.largest = static_cast<int>(best);
    r.weight_after_copy = weights(t, j + 1);
    r.weight_largest = weights(t, best);
    r.spread_evenly = 1.0 / static_cast<double>(t + 1);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace attn
