// Numbers read off the lab's result and a training example (lab_readout.h).
#include "lab_readout.h"

#include "normalizers.h"

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

}  // namespace attn
