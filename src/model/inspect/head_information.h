// The seed's question asked of a real head (issue 13): is head h of layer l's pattern, for one
// query, recoverable from what the layer passes on? Four observations, each a superset of the
// last's unknowns (engine/information/information.h, engine/information/layer_information.h):
//
//   A         the head's output A_h = V_h^T alpha_h (Dh = 32 numbers; the query sees n = t + 1
//             keys, causal): recoverable for every alpha iff the n values are affinely
//             independent, which needs n <= Dh + 1 = 33;
//   concat    [A_1; ..; A_H]: the heads are separate equations, so exactly as A (the dimension
//             of all heads' weights together is the sum of theirs);
//   output    concat W_O (C = 128): as concat when W_O (128 x 128) has full rank (its condition
//             number says how much rounding it amplifies); else the heads are coupled;
//   residual  x_t + concat W_O, the reader knowing LN(x) of every token (the values are
//             computed from it: LN(x) = concat of the heads' values times [W_V]^-1 when [W_V]
//             has full rank) but not the mean and the scale LayerNorm removed: two unknowns,
//             x_t = mean 1 + (1/rstd) xhat_t (RMSNorm removes no mean: the scale alone, one
//             unknown, x_t = (1/rstd) xhat_t). With x_t unknown altogether nothing is
//             recoverable (any output fits); with x_t known, as output.
//   after the MLP: y' = y + MLP(LN(y)) (GELU's, or SwiGLU's) is locally invertible where its Jacobian I + J is
//             (its smallest singular value > 0): then y' tells as much as y, near this point.
//
// Everything in double from the model's float intermediates (SequenceActs of Forward), so the
// numbers are the same natively and in the page.
#pragma once

#include "engine/information/information.h"
#include "engine/information/layer_information.h"
#include "model/arch/model.h"

#include <string>

namespace attn {
namespace model {

struct HeadInformation {
  int layer = 0, head = 0, query = 0;
  int keys = 0;      // n = query + 1: the keys the query sees (causal)
  int d_head = 0;    // Dh
  int heads = 0;     // H
  int target = -1;   // the second scenario's key (-1: AnalyzeInformation's automatic choice)
  InformationReport from_a;        // AnalyzeInformation(V_h, alpha_h, target) over the n keys
  LayerInformation from_concat;    // mix = I: the dimensions (the ranges are from_a's: a theorem,
                                   // checked by the tests with lps on)
  LayerInformation from_output;    // mix = W_O: the dimensions
  LayerInformation from_residual;  // mix = W_O, F = [1], P = [xhat_t]: dimensions, ranges,
                                   // the second scenario
  RankSummary w_o;   // W_O (H*Dh, C)
  RankSummary w_v;   // [W_V_1 .. W_V_H] (C, H*Dh): LN(x) from the values
  RankSummary mlp;   // d y' / d y at the query: I + J_MLP(LN(y)), (C, C)
};

struct HeadInformationOptions {
  bool all_lps = false;  // also the LPs of concat and output (tests: they equal from_a's)
};

// acts: Forward's intermediates of one sequence with the params p and config; 0 <= layer < L,
// 0 <= head < H, 0 <= query < T; target in [-1, query]. False with an English message otherwise.
bool AnalyzeHead(const Params<float>& p, const ModelConfig& config, const SequenceActs<float>& acts, int layer, int head,
                 int query, int target, HeadInformation* out, std::string* error = nullptr,
                 const HeadInformationOptions& options = {});

// d y' / d y for y' = y + MLP(Norm(y)) at row t, rows = d y (row-vector convention: d y' = d y G).
//   LayerNorm:  J(j, k) = rstd (delta_jk - 1/C - xhat_j xhat_k / C) w_k,  xhat = (y - mean) rstd
//   RMSNorm:    J(j, k) = rstd (delta_jk - xhat_j xhat_k / C) w_k,        xhat = y rstd
//   GELU MLP:   d h_f / d z = gelu'(pre_f) fc_w[:, f], then proj_w
//   SwiGLU MLP: d h_f / d z = silu'(g_f) up_f W_gate[:, f] + silu(g_f) W_up[:, f], then W_down,
//               silu'(g) = s (1 + g (1 - s)), s = sigmoid(g)
// b: block l's weights (widened: BlockOf), a: its Forward intermediates; (C, C) in double.
MatD ResidualMlpJacobian(const BlockParams<float>& b, const BlockActs<float>& a, int t, const ModelConfig& c);

}  // namespace model
}  // namespace attn
