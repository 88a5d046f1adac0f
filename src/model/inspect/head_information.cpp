// A real head's pattern seen through its layer (head_information.h).
// Bit-exactness: plain loops in a fixed order, no FMA contraction (linalg.h's rules).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/inspect/head_information.h"

#include "engine/lab/validate.h"

#include <algorithm>
#include <cmath>

namespace attn {
namespace model {

namespace {

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

MatD ResidualMlpJacobian(const BlockParams<float>& b, const BlockActs<float>& a, int t, const ModelConfig& c) {
  const bool rms = c.rms_norm;
  const int C = static_cast<int>(b.ln2_w.size()), F = static_cast<int>(b.fc_w.cols());
  const double rstd = a.ln2_rstd(t), mean = rms ? 0.0 : static_cast<double>(a.ln2_mean(t));
  VecD xhat(C);
  for (int k = 0; k < C; ++k) xhat(k) = (static_cast<double>(a.res1(t, k)) - mean) * rstd;
  MatD jln(C, C);
  for (int j = 0; j < C; ++j) {
    for (int k = 0; k < C; ++k) {
      const double delta = j == k ? 1.0 : 0.0;
      jln(j, k) = rstd * (delta - (rms ? 0.0 : 1.0 / C) - xhat(j) * xhat(k) / C) * static_cast<double>(b.ln2_w(k));
    }
  }
  MatD P(C, F);  // J_LN (d h / d z)
  if (b.gate_w.size() != 0) {
    VecD dgate(F), dup(F);  // SwiGLU's two paths, in double
    for (int f = 0; f < F; ++f) {
      const double g = a.fc(t, f), sig = 1.0 / (1.0 + std::exp(-g));
      dgate(f) = sig * (1 + g * (1 - sig)) * static_cast<double>(a.up(t, f));
      dup(f) = g * sig;
    }
    for (int j = 0; j < C; ++j)
      for (int f = 0; f < F; ++f) {
        double sum = 0;
        for (int k = 0; k < C; ++k)
          sum += jln(j, k) * (static_cast<double>(b.gate_w(k, f)) * dgate(f) + static_cast<double>(b.fc_w(k, f)) * dup(f));
        P(j, f) = sum;
      }
  } else {
    // GELU's derivative at the pre-activation (layers.h's GeluBackward, in double): the tanh
    // form, or the erf form's Phi(v) + v phi(v).
    const double s = 0.7978845608028654, cu = 0.044715;
    VecD dg(F);
    for (int f = 0; f < F; ++f) {
      const double v = a.fc(t, f);
      if (c.gelu_erf) {
        dg(f) = 0.5 * (1 + std::erf(v * 0.7071067811865476)) + v * std::exp(-0.5 * v * v) * 0.3989422804014327;
        continue;
      }
      const double th = std::tanh(s * (v + cu * v * v * v));
      dg(f) = 0.5 * (1 + th) + 0.5 * v * (1 - th * th) * s * (1 + 3 * cu * v * v);
    }
    for (int j = 0; j < C; ++j) {
      for (int f = 0; f < F; ++f) {
        double sum = 0;
        for (int k = 0; k < C; ++k) sum += jln(j, k) * static_cast<double>(b.fc_w(k, f));
        P(j, f) = sum * dg(f);
      }
    }
  }
  MatD G(C, C);
  for (int j = 0; j < C; ++j) {
    for (int k = 0; k < C; ++k) {
      double sum = 0;
      for (int f = 0; f < F; ++f) sum += P(j, f) * static_cast<double>(b.proj_w(f, k));
      G(j, k) = (j == k ? 1.0 : 0.0) + sum;
    }
  }
  return G;
}

bool AnalyzeHead(const Params<float>& p, const ModelConfig& config, const SequenceActs<float>& acts, int layer, int head,
                 int query, int target, HeadInformation* out, std::string* error,
                 const HeadInformationOptions& options) {
  const int L = static_cast<int>(std::min(acts.blocks.size(), p.blocks.size()));
  const int H = layer >= 0 && layer < L ? static_cast<int>(acts.blocks[static_cast<std::size_t>(layer)].attn.heads.size()) : 0;
  const LabError chosen = CheckLayerHead(L, H, layer, head);
  if (!chosen.ok()) return Fail(error, chosen.message);
  const BlockActs<float>& a = acts.blocks[static_cast<std::size_t>(layer)];
  BlockParams<float> widened;  // stored weights: this block widened
  const BlockParams<float>& b = BlockOf(p, layer, &widened);
  const int T = static_cast<int>(a.x.rows());
  if (query < 0 || query >= T) return Fail(error, "query: out of range");
  const int n = query + 1;
  if (target < -1 || target >= n) return Fail(error, "target: out of range");
  const int dh = static_cast<int>(a.attn.heads[0].V.cols());
  const int C = static_cast<int>(a.x.cols());

  HeadInformation r;
  r.layer = layer;
  r.head = head;
  r.query = query;
  r.keys = n;
  r.d_head = dh;
  r.heads = H;

  // The heads' visible values and weights of the query, widened to double.
  LayerHeadsInput in;
  for (int j = 0; j < H; ++j) {
    const HeadTrace<float>& h = a.attn.heads[static_cast<std::size_t>(j)];
    in.values.push_back(h.V.topRows(n).cast<double>());
    in.alphas.push_back(h.weights.row(query).head(n).transpose().cast<double>());
  }
  if (target < 0) {  // the lab's automatic target: the key after the one the head leans on most
    const VecD& al = in.alphas[static_cast<std::size_t>(head)];
    int top = 0;
    for (int i = 1; i < n; ++i) {
      if (al(i) > al(top)) top = i;
    }
    target = (top + 1) % n;
  }
  r.target = target;
  r.from_a = AnalyzeInformation(in.values[static_cast<std::size_t>(head)],
                                in.alphas[static_cast<std::size_t>(head)], target);

  in.mix = MatD::Identity(static_cast<Eigen::Index>(H) * dh, static_cast<Eigen::Index>(H) * dh);
  r.from_concat = AnalyzeLayerHeads(in, head, target, options.all_lps);
  in.mix = b.attn.W_O.cast<double>();
  r.from_output = AnalyzeLayerHeads(in, head, target, options.all_lps);
  // The residual: x_t = mean 1 + (1/rstd) xhat_t, LN(x)'s mean and scale unknown (RMSNorm: no
  // mean, x_t = (1/rstd) xhat_t).
  const bool rms = a.ln1_mean.size() == 0;
  if (!rms) in.free_dirs = MatD::Ones(1, C);
  in.pos_dirs.resize(1, C);
  const double mean = rms ? 0.0 : static_cast<double>(a.ln1_mean(query)), rstd = a.ln1_rstd(query);
  for (int k = 0; k < C; ++k) in.pos_dirs(0, k) = (static_cast<double>(a.x(query, k)) - mean) * rstd;
  in.pos_coef = VecD::Constant(1, 1.0 / rstd);
  r.from_residual = AnalyzeLayerHeads(in, head, target, true);

  r.w_o = SummarizeRank(b.attn.W_O.cast<double>());
  MatD wv(C, static_cast<Eigen::Index>(H) * dh);
  for (int j = 0; j < H; ++j) wv.middleCols(static_cast<Eigen::Index>(j) * dh, dh) = b.attn.W_V[static_cast<std::size_t>(j)].cast<double>();
  r.w_v = SummarizeRank(wv);
  r.mlp = SummarizeRank(ResidualMlpJacobian(b, a, query, config));
  *out = std::move(r);
  return true;
}

}  // namespace model
}  // namespace attn
