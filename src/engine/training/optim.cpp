// The optimizers (optim.h).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF  // same bits natively and in wasm (linalg.h)
#endif

#include "engine/training/optim.h"

#include "engine/base/names.h"

#include <cmath>
#include <string>

namespace attn {

constexpr Named<Optimizer> kOptimizerNames[] = {{Optimizer::kAdam, "adam"}, {Optimizer::kSgd, "sgd"}};

const char* OptimizerName(Optimizer o) { return NameIn(kOptimizerNames, o); }
bool ParseOptimizer(const std::string& name, Optimizer* out) { return ParseIn(kOptimizerNames, name, out); }

void SgdUpdate(MatD& param, const MatD& grad, double lr) {
  for (Eigen::Index c = 0; c < param.cols(); ++c)
    for (Eigen::Index r = 0; r < param.rows(); ++r) param(r, c) -= lr * grad(r, c);
}

void AdamUpdate(MatD& param, MatD& m, MatD& v, const MatD& grad, int t, double lr, const AdamHyper& h) {
  const double correct1 = 1 - std::pow(h.beta1, t);  // bias corrections: m and v start at 0
  const double correct2 = 1 - std::pow(h.beta2, t);
  for (Eigen::Index c = 0; c < param.cols(); ++c) {
    for (Eigen::Index r = 0; r < param.rows(); ++r) {
      const double g = grad(r, c);
      m(r, c) = h.beta1 * m(r, c) + (1 - h.beta1) * g;
      v(r, c) = h.beta2 * v(r, c) + (1 - h.beta2) * (g * g);
      const double m_hat = m(r, c) / correct1;
      const double v_hat = v(r, c) / correct2;
      param(r, c) -= lr * m_hat / (std::sqrt(v_hat) + h.eps);
    }
  }
}

}  // namespace attn
