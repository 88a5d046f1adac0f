// The Llama family's own layers (issue 39; model.h has the loop they plug into): RMSNorm, the
// SwiGLU MLP's activation and rotary position embedding (RoPE), forward only: these models are
// opened and looked into, never trained here.
//
// Legend as layers.h: T = positions, C = d_model, F = MLP width, Dh = a head's width.
// Numerics as layers.h: plain loops in a fixed order, no fused multiply-add, sqrt/exp/cos/sin in
// double rounded once to T, so the page and the CLI print the same bits.
#pragma once

#include "engine/base/types.h"
#include "model/arch/layers.h"
#include "model/arch/model.h"

#include <cmath>
#include <vector>

namespace attn {
namespace model {

// ---------------------------------------------------------------------------------------------
// RMSNorm (Llama's LlamaRMSNorm): no mean, no bias.
//   ms = sum_k x_k^2 / C;  rstd = 1 / sqrt(ms + eps);  out_k = (x_k * rstd) * weight_k
// rstd is kept (T) so that the Information panel can undo the scale, as LayerNorm's.
template <typename T>
void RmsNormForward(Mat<T>& out,          // (T, C)
                    Vec<T>& rstd,         // (T)
                    const Mat<T>& x,      // (T, C)
                    const Vec<T>& weight, // (C)
                    double eps) {
  const Eigen::Index n = x.rows(), c = x.cols();
  out.resize(n, c);
  rstd.resize(n);
  for (Eigen::Index t = 0; t < n; ++t) {
    T sum = 0;
    for (Eigen::Index k = 0; k < c; ++k) sum += x(t, k) * x(t, k);
    const T s = static_cast<T>(1) / Sqrt(sum / static_cast<T>(c) + static_cast<T>(eps));
    for (Eigen::Index k = 0; k < c; ++k) out(t, k) = (x(t, k) * s) * weight(k);
    rstd(t) = s;
  }
}

// ---------------------------------------------------------------------------------------------
// SwiGLU's gate: out = SiLU(gate) * up, SiLU(g) = g / (1 + exp(-g)) (Llama's act_fn "silu").
template <typename T>
void SwiGluForward(Mat<T>& out, const Mat<T>& gate, const Mat<T>& up) {  // (T, F) <- (T, F), (T, F)
  out.resize(gate.rows(), gate.cols());
  for (Eigen::Index j = 0; j < gate.cols(); ++j)
    for (Eigen::Index t = 0; t < gate.rows(); ++t) {
      const T g = gate(t, j);
      const T sig = static_cast<T>(1.0 / (1.0 + std::exp(-static_cast<double>(g))));
      out(t, j) = (g * sig) * up(t, j);
    }
}

// ---------------------------------------------------------------------------------------------
// RoPE as the Hub's checkpoints expect it ("rotate half": entry i pairs with i + Dh/2, not with
// its neighbour; the Hub's Llama weights are permuted for this pairing). At position t, with
// angle_i = t * inv_freq_i (i < Dh/2):
//   x'_i        = x_i cos - x_{i+Dh/2} sin
//   x'_{i+Dh/2} = x_{i+Dh/2} cos + x_i sin
// inv_freq_i = theta^(-2i / Dh), then rope_scaling: "linear" divides every one by factor;
// "llama3" (transformers' _compute_llama3_parameters) divides those whose wavelength 2 pi /
// inv_freq is above original / low_freq_factor, keeps those below original / high_freq_factor
// and blends the band between: s = (original / wavelength - low) / (high - low),
// inv = (1 - s) inv / factor + s inv.
// So q_t . k_u depends on t - u only: rotations compose (the lab's RoPE scene shows it).
std::vector<double> RopeInverseFrequencies(const ModelConfig& c);  // (Dh/2)

// The cos and sin of every position's angles, rounded once to T: (T, Dh/2) each.
template <typename T>
struct RopeTable {
  Mat<T> cos, sin;
};
template <typename T>
RopeTable<T> MakeRopeTable(const ModelConfig& c, Eigen::Index positions) {
  const std::vector<double> inv = RopeInverseFrequencies(c);
  const Eigen::Index half = static_cast<Eigen::Index>(inv.size());
  RopeTable<T> r;
  r.cos.resize(positions, half);
  r.sin.resize(positions, half);
  for (Eigen::Index i = 0; i < half; ++i)
    for (Eigen::Index t = 0; t < positions; ++t) {
      const double angle = static_cast<double>(t) * inv[static_cast<std::size_t>(i)];
      r.cos(t, i) = static_cast<T>(std::cos(angle));
      r.sin(t, i) = static_cast<T>(std::sin(angle));
    }
  return r;
}

// Rotates each row t of x (T, Dh) by position first + t, in place.
template <typename T>
void RopeRotate(Mat<T>& x, const RopeTable<T>& table, Eigen::Index first = 0) {
  const Eigen::Index half = x.cols() / 2;
  for (Eigen::Index t = 0; t < x.rows(); ++t)
    for (Eigen::Index i = 0; i < half; ++i) {
      const T a = x(t, i), b = x(t, i + half);
      const T co = table.cos(first + t, i), si = table.sin(first + t, i);
      x(t, i) = a * co - b * si;
      x(t, i + half) = b * co + a * si;
    }
}

// The config's norm: LayerNorm, or RMSNorm (mean left empty, no bias). The forward, the cached
// forward (kv_cache.h) and the logit lens use it.
template <typename T>
void Norm(Mat<T>& out, Vec<T>& mean, Vec<T>& rstd, const Mat<T>& x, const Vec<T>& w, const Vec<T>& b, const ModelConfig& c) {
  if (c.rms_norm) {
    mean.resize(0);
    RmsNormForward(out, rstd, x, w, c.ln_eps);
  } else {
    LayerNormForward(out, mean, rstd, x, w, b, c.ln_eps);
  }
}

// A bias added to every row, after the product (so the product's bits stay).
template <typename T>
void AddRowBias(Mat<T>& m, const Vec<T>& b) {  // (T, K) += (K) per row
  for (Eigen::Index k = 0; k < m.cols(); ++k)
    for (Eigen::Index r = 0; r < m.rows(); ++r) m(r, k) += b(k);
}

// Qwen3's q/k norm: RMSNorm of each row (T, Dh) with weight (Dh), in place.
template <typename T>
void RmsNormRows(Mat<T>& x, const Vec<T>& weight, double eps) {
  Mat<T> out;
  Vec<T> rstd;
  RmsNormForward(out, rstd, x, weight, eps);
  x = out;
}

}  // namespace model
}  // namespace attn
