// The optimizers of the training tab: plain SGD and Adam, one parameter matrix at a time.
#pragma once

#include "engine/base/types.h"

#include <string>

namespace attn {

enum class Optimizer { kAdam, kSgd };
const char* OptimizerName(Optimizer o);  // "adam", "sgd"
bool ParseOptimizer(const std::string& name, Optimizer* out);

struct AdamHyper {
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;  // Kingma & Ba 2015, as torch.optim.Adam
};

// p <- p - lr g
void SgdUpdate(MatD& param, const MatD& grad, double lr);
// Kingma & Ba's Adam with bias correction, step t >= 1 (torch.optim.Adam, no weight decay):
//   m <- b1 m + (1-b1) g;  v <- b2 v + (1-b2) g^2
//   p <- p - lr (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + eps)
void AdamUpdate(MatD& param, MatD& m, MatD& v, const MatD& grad, int t, double lr,
                const AdamHyper& h = {});

}  // namespace attn
