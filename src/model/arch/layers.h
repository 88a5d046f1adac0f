// The model's layers (MODEL.md), each a forward/backward pair side by side, llm.c style.
//
// Legend: T = positions of one sequence (<= context), C = d_model, F = MLP width, V = vocabulary,
// P = context (rows of the position table). One sequence at a time; a batch is a loop over
// sequences in order (model.h). Every (T, x) matrix is rows = positions.
// Arguments: outputs, inputs, weights; gradients are named d<name> and accumulate with +=
// (the caller zeroes them once per step), except the gradient of a layer's input, which the
// backward *adds* to as well, so that residual branches simply sum.
//
// Numerics (the same rules as the engine, linalg.h): plain loops in a fixed order, every sum
// left to right from 0, no fused multiply-add, exp/log/tanh/sqrt evaluated in double and rounded
// once to T. T is float for the shipped model and double for the finite-difference tests; the
// code is the same template.
#pragma once

#include "engine/linalg/linalg.h"  // the bit-exact kernels (and the FP_CONTRACT pragma for clang)
#include "engine/base/rng.h"
#include "engine/base/types.h"
#include "model/arch/parallel.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace attn {
namespace model {

template <typename T>
T Tanh(T x) {
  return static_cast<T>(std::tanh(static_cast<double>(x)));
}
template <typename T>
T Sqrt(T x) {
  return static_cast<T>(std::sqrt(static_cast<double>(x)));
}
template <typename T>
T Log(T x) {
  return static_cast<T>(std::log(static_cast<double>(x)));
}

// ---------------------------------------------------------------------------------------------
// Embedding: out[t] = wte[tokens[t]] + wpe[t]   (token row first, then the position row)
template <typename T>
void EmbeddingForward(Mat<T>& out,                      // (T, C)
                      const std::vector<int>& tokens,   // (T) ids < V
                      const Mat<T>& wte,                // (V, C)
                      const Mat<T>& wpe) {              // (P, C), T <= P
  const Eigen::Index n = static_cast<Eigen::Index>(tokens.size()), c = wte.cols();
  out.resize(n, c);
  for (Eigen::Index t = 0; t < n; ++t) {
    for (Eigen::Index k = 0; k < c; ++k) out(t, k) = wte(tokens[t], k) + wpe(t, k);
  }
}
template <typename T>
void EmbeddingBackward(Mat<T>& dwte,                    // (V, C) +=
                       Mat<T>& dwpe,                    // (P, C) +=
                       const Mat<T>& dout,              // (T, C)
                       const std::vector<int>& tokens) {  // (T)
  for (Eigen::Index t = 0; t < dout.rows(); ++t) {
    for (Eigen::Index k = 0; k < dout.cols(); ++k) {
      dwte(tokens[t], k) += dout(t, k);  // positions in order: a repeated token sums in t order
      dwpe(t, k) += dout(t, k);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// LayerNorm over the channels of each row (torch.nn.LayerNorm(C, eps=1e-5)):
//   mean = sum_k x_k / C;  var = sum_k (x_k - mean)^2 / C (biased);  rstd = 1 / sqrt(var + eps)
// (eps: 1e-5 in GPT-2 and the shipped model; a checkpoint's config may say otherwise)
//   out_k = (x_k - mean) * rstd * weight_k + bias_k
constexpr double kLayerNormEps = 1e-5;

template <typename T>
void LayerNormForward(Mat<T>& out,          // (T, C)
                      Vec<T>& mean,         // (T)
                      Vec<T>& rstd,         // (T)
                      const Mat<T>& x,      // (T, C)
                      const Vec<T>& weight, // (C)
                      const Vec<T>& bias,   // (C)
                      double eps = kLayerNormEps) {
  const Eigen::Index n = x.rows(), c = x.cols();
  out.resize(n, c);
  mean.resize(n);
  rstd.resize(n);
  for (Eigen::Index t = 0; t < n; ++t) {
    T sum = 0;
    for (Eigen::Index k = 0; k < c; ++k) sum += x(t, k);
    const T m = sum / static_cast<T>(c);
    T var = 0;
    for (Eigen::Index k = 0; k < c; ++k) {
      const T xm = x(t, k) - m;
      var += xm * xm;
    }
    var = var / static_cast<T>(c);
    const T s = static_cast<T>(1) / Sqrt(var + static_cast<T>(eps));
    for (Eigen::Index k = 0; k < c; ++k) out(t, k) = (x(t, k) - m) * s * weight(k) + bias(k);
    mean(t) = m;
    rstd(t) = s;
  }
}
// With xhat = (x - mean) rstd and g = dout * weight:
//   dx = rstd (g - mean_k(g) - xhat mean_k(g xhat))    (llm.c's layernorm_backward)
template <typename T>
void LayerNormBackward(Mat<T>& dx,            // (T, C) +=
                       Vec<T>& dweight,       // (C) +=
                       Vec<T>& dbias,         // (C) +=
                       const Mat<T>& dout,    // (T, C)
                       const Mat<T>& x,       // (T, C)
                       const Vec<T>& weight,  // (C)
                       const Vec<T>& mean,    // (T)
                       const Vec<T>& rstd) {  // (T)
  const Eigen::Index n = x.rows(), c = x.cols();
  for (Eigen::Index t = 0; t < n; ++t) {
    // pass 1: the two means
    T dnorm_mean = 0, dnorm_norm_mean = 0;
    for (Eigen::Index k = 0; k < c; ++k) {
      const T xhat = (x(t, k) - mean(t)) * rstd(t);
      const T g = dout(t, k) * weight(k);
      dnorm_mean += g;
      dnorm_norm_mean += g * xhat;
    }
    dnorm_mean = dnorm_mean / static_cast<T>(c);
    dnorm_norm_mean = dnorm_norm_mean / static_cast<T>(c);
    // pass 2: the gradients
    for (Eigen::Index k = 0; k < c; ++k) {
      const T xhat = (x(t, k) - mean(t)) * rstd(t);
      const T g = dout(t, k) * weight(k);
      dbias(k) += dout(t, k);
      dweight(k) += xhat * dout(t, k);
      dx(t, k) += (g - dnorm_mean - xhat * dnorm_norm_mean) * rstd(t);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Linear: out = x W + b   (W is (in, out), as x @ W in llm.c's matmul with the weight transposed)
// out = x w with the output's columns split over `threads` (a large product only): each entry
// is the kernel's same sum, whichever thread computes it, so the same bits.
template <typename T>
Mat<T> MatMulByColumns(const Mat<T>& x, const Mat<T>& w, int threads) {  // (T, I) x (I, O)
  const Eigen::Index rows = x.rows(), inner = x.cols(), cols = w.cols();
  if (threads <= 1 || cols < 64 || rows * inner * cols < (Eigen::Index(1) << 22)) return linalg::MatMul(x, w);
  Mat<T> out(rows, cols);  // (T, O)
  const Eigen::Index part = (cols + threads - 1) / threads;
  ParallelFor(threads, threads, [&](int i) {
    const Eigen::Index c0 = std::min<Eigen::Index>(cols, part * i), n = std::min<Eigen::Index>(part, cols - c0);
    if (n > 0) kernels::Gemm<T>(rows, n, inner, x.data(), 1, rows, w.data() + c0 * inner, 1, inner, out.data() + c0 * rows);
  });
  return out;
}

template <typename T>
void LinearForward(Mat<T>& out,         // (T, O)
                   const Mat<T>& x,     // (T, I)
                   const Mat<T>& w,     // (I, O)
                   const Vec<T>& b,     // (O)
                   int threads = 1) {
  out = MatMulByColumns(x, w, threads);  // each entry: acc = 0; acc += x_tk w_ko for k = 0.. in order
  for (Eigen::Index o = 0; o < out.cols(); ++o) {
    for (Eigen::Index t = 0; t < out.rows(); ++t) out(t, o) += b(o);  // then + b
  }
}
template <typename T>
void LinearBackward(Mat<T>& dx,          // (T, I) +=
                    Mat<T>& dw,          // (I, O) +=
                    Vec<T>& db,          // (O) +=
                    const Mat<T>& dout,  // (T, O)
                    const Mat<T>& x,     // (T, I)
                    const Mat<T>& w) {   // (I, O)
  linalg::AddInPlace(dx, linalg::MatMulTransposed(dout, w));  // dx = dout W^T
  linalg::AddInPlace(dw, linalg::MatMulTransposedA(x, dout)); // dW = x^T dout
  for (Eigen::Index o = 0; o < dout.cols(); ++o) {
    for (Eigen::Index t = 0; t < dout.rows(); ++t) db(o) += dout(t, o);
  }
}

// ---------------------------------------------------------------------------------------------
// GELU, the tanh approximation (GPT-2's, torch.nn.GELU(approximate="tanh")):
//   gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// Chosen over the exact erf form because every C library and the browser give the same
// double tanh for these arguments far more reliably than erf, and it is what GPT-2 trained
// with. The constants are rounded to T.
constexpr double kGeluScale = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kGeluCubic = 0.044715;

template <typename T>
void GeluForward(Mat<T>& out, const Mat<T>& x) {  // (T, F) <- (T, F)
  const T s = static_cast<T>(kGeluScale), a = static_cast<T>(kGeluCubic);
  out.resize(x.rows(), x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    for (Eigen::Index t = 0; t < x.rows(); ++t) {
      const T v = x(t, j);
      const T cube = a * v * v * v;
      out(t, j) = static_cast<T>(0.5) * v * (static_cast<T>(1) + Tanh(s * (v + cube)));
    }
  }
}
//   d gelu / dx = 0.5 (1 + th) + 0.5 x (1 - th^2) s (1 + 3 a x^2),  th = tanh(s (x + a x^3))
template <typename T>
void GeluBackward(Mat<T>& dx, const Mat<T>& dout, const Mat<T>& x) {  // (T, F) += ...
  const T s = static_cast<T>(kGeluScale), a = static_cast<T>(kGeluCubic);
  const T half = static_cast<T>(0.5), one = static_cast<T>(1), three = static_cast<T>(3);
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    for (Eigen::Index t = 0; t < x.rows(); ++t) {
      const T v = x(t, j);
      const T cube = a * v * v * v;
      const T th = Tanh(s * (v + cube));
      const T sech2 = one - th * th;
      const T local = half * (one + th) + half * v * sech2 * s * (one + three * a * v * v);
      dx(t, j) += local * dout(t, j);
    }
  }
}

// GELU, the exact form (torch.nn.GELU(), Hugging Face's activation "gelu"):
//   gelu(x) = 0.5 x (1 + erf(x / sqrt 2))
//   d gelu / dx = 0.5 (1 + erf(x / sqrt 2)) + x exp(-x^2 / 2) / sqrt(2 pi)
constexpr double kInvSqrt2 = 0.7071067811865476;
constexpr double kInvSqrt2Pi = 0.3989422804014327;

template <typename T>
T Erf(T x) {
  return static_cast<T>(std::erf(static_cast<double>(x)));
}

template <typename T>
void GeluErfForward(Mat<T>& out, const Mat<T>& x) {  // (T, F) <- (T, F)
  const T r = static_cast<T>(kInvSqrt2);
  out.resize(x.rows(), x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index t = 0; t < x.rows(); ++t) {
      const T v = x(t, j);
      out(t, j) = static_cast<T>(0.5) * v * (static_cast<T>(1) + Erf(v * r));
    }
}
template <typename T>
void GeluErfBackward(Mat<T>& dx, const Mat<T>& dout, const Mat<T>& x) {  // (T, F) += ...
  const T r = static_cast<T>(kInvSqrt2), k = static_cast<T>(kInvSqrt2Pi), half = static_cast<T>(0.5);
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index t = 0; t < x.rows(); ++t) {
      const T v = x(t, j);
      const T local = half * (static_cast<T>(1) + Erf(v * r)) + v * k * static_cast<T>(std::exp(-0.5 * static_cast<double>(v * v)));
      dx(t, j) += local * dout(t, j);
    }
}

// ---------------------------------------------------------------------------------------------
// Residual: out = a + b   (backward: the gradient flows unchanged into both branches)
template <typename T>
void ResidualForward(Mat<T>& out, const Mat<T>& a, const Mat<T>& b) {  // (T, C)
  out = a;
  linalg::AddInPlace(out, b);
}
template <typename T>
void ResidualBackward(Mat<T>& da, Mat<T>& db, const Mat<T>& dout) {  // (T, C) +=
  linalg::AddInPlace(da, dout);
  linalg::AddInPlace(db, dout);
}

// ---------------------------------------------------------------------------------------------
// Dropout (training only): mask(r, c) = 0 with probability p, else 1 / (1 - p); out = x * mask.
// Entry (r, c) keeps or drops by its own draw, u = Mix64(seed + r * cols + c) >> 40 (24 bits)
// compared with p * 2^24: a function of (seed, r, c) alone, so any thread gives the same mask.
// An empty mask is "no dropout" (every forward outside training).
template <typename T>
void DropoutMask(Mat<T>& mask, Eigen::Index rows, Eigen::Index cols, double p, std::uint64_t seed) {
  mask.resize(rows, cols);
  const std::uint64_t below = static_cast<std::uint64_t>(p * 16777216.0);  // p * 2^24
  const T keep = static_cast<T>(1.0 / (1.0 - p));
  for (Eigen::Index r = 0; r < rows; ++r) {
    for (Eigen::Index c = 0; c < cols; ++c) {
      const std::uint64_t u = rng::Mix64(seed + static_cast<std::uint64_t>(r * cols + c)) >> 40;
      mask(r, c) = u < below ? T(0) : keep;
    }
  }
}
template <typename T>
void DropoutForward(Mat<T>& x, const Mat<T>& mask) {  // (T, C) in place; empty mask: unchanged
  if (mask.size() == 0) return;
  x = x.cwiseProduct(mask);
}
template <typename T>
void DropoutBackward(Mat<T>& dx, const Mat<T>& mask) {  // (T, C) in place: d x = d out * mask
  if (mask.size() == 0) return;
  dx = dx.cwiseProduct(mask);
}

// ---------------------------------------------------------------------------------------------
// Tied output embedding: logits = h wte^T   (row t, column v: h_t . wte_v, summed over C in order)
template <typename T>
void TiedLogitsForward(Mat<T>& logits,     // (T, V)
                       const Mat<T>& h,    // (T, C)
                       const Mat<T>& wte) {  // (V, C)
  logits = linalg::MatMulTransposed(h, wte);
}
template <typename T>
void TiedLogitsBackward(Mat<T>& dh,            // (T, C) +=
                        Mat<T>& dwte,          // (V, C) +=
                        const Mat<T>& dlogits, // (T, V)
                        const Mat<T>& h,       // (T, C)
                        const Mat<T>& wte) {   // (V, C)
  linalg::AddInPlace(dh, linalg::MatMul(dlogits, wte));              // dh = dlogits wte
  linalg::AddInPlace(dwte, linalg::MatMulTransposedA(dlogits, h));   // dwte = dlogits^T h
}

// ---------------------------------------------------------------------------------------------
// Softmax cross-entropy, per row t with target y_t:
//   m = max_v logits_tv;  z = sum_v exp(logits_tv - m) (v in order);  p_tv = exp(...) / z
//   loss_t = log z + m - logits_t,y
// Returns sum_t loss_t (the caller divides by the number of positions of the batch).
// A target < 0 marks a position without a loss (it contributes 0 and gets no gradient).
template <typename T>
double CrossEntropyForward(Mat<T>& probs,                    // (T, V)
                           Vec<T>& losses,                   // (T)
                           const Mat<T>& logits,             // (T, V)
                           const std::vector<int>& targets) {  // (T)
  const Eigen::Index n = logits.rows(), v = logits.cols();
  probs.resize(n, v);
  losses.resize(n);
  double total = 0;
  for (Eigen::Index t = 0; t < n; ++t) {
    T m = logits(t, 0);
    for (Eigen::Index k = 1; k < v; ++k) m = logits(t, k) > m ? logits(t, k) : m;
    T z = 0;
    for (Eigen::Index k = 0; k < v; ++k) {
      probs(t, k) = linalg::Exp(static_cast<T>(logits(t, k) - m));
      z += probs(t, k);
    }
    for (Eigen::Index k = 0; k < v; ++k) probs(t, k) = probs(t, k) / z;
    const int y = targets[static_cast<std::size_t>(t)];
    losses(t) = y < 0 ? static_cast<T>(0) : Log(z) + m - logits(t, y);
    total += static_cast<double>(losses(t));
  }
  return total;
}
// dlogits_tv += scale (p_tv - [v == y_t]),   scale = dL/dloss_t (1 / positions for a mean)
template <typename T>
void CrossEntropyBackward(Mat<T>& dlogits,                   // (T, V) +=
                          const Mat<T>& probs,               // (T, V)
                          const std::vector<int>& targets,   // (T)
                          T scale) {
  for (Eigen::Index t = 0; t < probs.rows(); ++t) {
    const int y = targets[static_cast<std::size_t>(t)];
    if (y < 0) continue;
    for (Eigen::Index k = 0; k < probs.cols(); ++k) {
      const T indicator = k == y ? static_cast<T>(1) : static_cast<T>(0);
      dlogits(t, k) += scale * (probs(t, k) - indicator);
    }
  }
}

}  // namespace model
}  // namespace attn
