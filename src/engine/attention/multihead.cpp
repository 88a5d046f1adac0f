// Multi-head attention: masks, one head, all heads (the normalizers are in normalizers.cpp).
// Each forward is followed directly by its backward; the backward walks the same numbered
// passes in reverse, and each gradient line names the forward line it inverts.
//
// Shapes: H = heads, N = queries, M = keys/values, D = d_model, Dk = d_k, Dv = d_v,
// Do = output width. Formulas and conventions: multihead.h. Bit-exactness rules: linalg.h
// (plain loops in a fixed order, exp/log in double rounded once, no FMA contraction).
// Gradients are assigned, not accumulated: every backward overwrites its outputs.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/attention/multihead.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "engine/attention/attention.h"  // RandomProjection
#include "engine/base/format.h"
#include "engine/linalg/linalg.h"

namespace attn {

using linalg::AddInPlace;
using linalg::AllFinite;
using linalg::Fail;
using linalg::MatMul;
using linalg::MatMulTransposed;
using linalg::MatMulTransposedA;

// ---- masks ---------------------------------------------------------------------------------

Mask CausalMask(int n, int m) {
  Mask mask(n > 0 ? n : 0, m > 0 ? m : 0);  // (N, M)
  for (Eigen::Index j = 0; j < mask.cols(); ++j) {
    for (Eigen::Index i = 0; i < mask.rows(); ++i) mask(i, j) = j <= i;
  }
  return mask;
}

Mask FullMask(int n, int m) { return Mask::Constant(n > 0 ? n : 0, m > 0 ? m : 0, true); }

Mask CombineMasks(int n, int m, bool causal, const Mask& explicit_mask) {
  Mask mask = causal ? CausalMask(n, m) : FullMask(n, m);  // (N, M)
  if (explicit_mask.rows() == mask.rows() && explicit_mask.cols() == mask.cols()) {
    for (Eigen::Index j = 0; j < mask.cols(); ++j) {
      for (Eigen::Index i = 0; i < mask.rows(); ++i) mask(i, j) = mask(i, j) && explicit_mask(i, j);
    }
  }
  return mask;
}

namespace {

std::string ShapeOf(const Eigen::Index rows, const Eigen::Index cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

// Entropy of each row in nats, in double, rounded once (see HeadTrace::entropy).
template <typename T>
void RowEntropy(Vec<T>& entropy, const Mat<T>& weights, Normalizer n) {  // (N) <- (N, M)
  const bool positive_part = n == Normalizer::kSigmoid || n == Normalizer::kNone;
  entropy.resize(weights.rows());
  for (Eigen::Index i = 0; i < weights.rows(); ++i) {
    double total = 1;  // the normalized rows already sum to 1
    if (positive_part) {
      total = 0;
      for (Eigen::Index j = 0; j < weights.cols(); ++j) {
        total += weights(i, j) > 0 ? static_cast<double>(weights(i, j)) : 0.0;
      }
    }
    double h = 0;
    if (total > 0) {
      for (Eigen::Index j = 0; j < weights.cols(); ++j) {
        const double p = static_cast<double>(weights(i, j)) / total;
        if (p > 0) h -= p * std::log(p);
      }
    }
    entropy(i) = static_cast<T>(h > 0 ? h : 0.0);  // -1 * log(1) is -0; rounding can dip below
  }
}

// hook_attn_scores on out.scaled (N, M), under `mask` (empty: every key): the hooks see a copy;
// an entry they set to -inf becomes false in this head's own mask (out.mask), any other entry
// they change is taken, a NaN or +inf is refused.
template <typename T>
bool ScoresHook(HeadTrace<T>& out, const Mask& mask, const Hooks<T>* hooks, int layer, int head,
                std::string* error) {
  Mat<T> hooked = out.scaled;  // (N, M)
  if (!RunHooks(hooks, HookPoint::kAttnScores, layer, head, hooked, error)) return false;
  const Eigen::Index n = hooked.rows(), m = hooked.cols();
  for (Eigen::Index j = 0; j < m; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) {
      const T s = hooked(i, j);
      if (s == -std::numeric_limits<T>::infinity()) {
        if (out.mask.size() == 0) out.mask = mask.size() != 0 ? mask : FullMask(static_cast<int>(n), static_cast<int>(m));
        out.mask(i, j) = false;
      } else if (!std::isfinite(s)) {
        return Fail(error, HookName(HookPoint::kAttnScores, layer) + ": a hook wrote a score that is NaN or +inf");
      } else {
        out.scaled(i, j) = s;
      }
    }
  }
  return true;
}

}  // namespace

// ---- one head: forward ----------------------------------------------------------------------

template <typename T>
bool HeadForward(HeadTrace<T>& out, const Mat<T>& Q, const Mat<T>& K, const Mat<T>& V,
                 const Mask& mask, const HeadConfig& cfg, std::string* error, const Hooks<T>* hooks,
                 int layer, int head) {
  if (Q.cols() != K.cols()) {
    return Fail(error, "Q and K must have the same width d_k (got " + ShapeOf(Q.rows(), Q.cols()) +
                           " and " + ShapeOf(K.rows(), K.cols()) + ")");
  }
  if (K.rows() != V.rows()) {
    return Fail(error, "K and V must have one row per key (got " + ShapeOf(K.rows(), K.cols()) +
                           " and " + ShapeOf(V.rows(), V.cols()) + ")");
  }
  if (mask.size() != 0 && (mask.rows() != Q.rows() || mask.cols() != K.rows())) {
    return Fail(error, "the mask must be queries x keys = " + ShapeOf(Q.rows(), K.rows()) +
                           " (got " + ShapeOf(mask.rows(), mask.cols()) + ")");
  }
  // Checked after rounding to T: a tiny double temperature is 0 in float.
  const T temperature = static_cast<T>(cfg.temperature);
  if (!(temperature > 0) || !std::isfinite(temperature)) {
    return Fail(error, "temperature must be a finite number > 0 (got " +
                           FormatShortest(cfg.temperature) + ")");
  }
  const Eigen::Index dk = Q.cols();
  const T scale = cfg.scale ? static_cast<T>(*cfg.scale)
                  : cfg.scaled && dk > 0 ? static_cast<T>(1.0 / std::sqrt(static_cast<double>(dk)))
                                         : T(1);
  if (!std::isfinite(scale)) {
    return Fail(error, "scale must be a finite number (got " +
                           FormatShortest(cfg.scale ? *cfg.scale : 0.0) + ")");
  }
  if (!AllFinite(Q) || !AllFinite(K) || !AllFinite(V)) {
    return Fail(error, "Q, K and V must contain only finite numbers");
  }
  const Eigen::Index n = Q.rows(), m = K.rows();

  // pass 0: keep the inputs (each may be the field of `out` with the same name)
  out.Q = Q;  // (N, Dk)
  out.K = K;  // (M, Dk)
  out.V = V;  // (M, Dv)
  out.scale = scale;
  out.temperature = temperature;

  // pass 1: scores_ij = q_i . k_j
  out.scores = MatMulTransposed<T>(out.Q, out.K);  // (N, M)

  // pass 2: scaled = scores * scale / temperature
  out.scaled.resize(n, m);  // (N, M)
  for (Eigen::Index j = 0; j < m; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) out.scaled(i, j) = out.scores(i, j) * scale / temperature;
  }
  // Finite inputs can still overflow T in the products or in the division by a small
  // temperature; the normalizers need finite numbers, so refuse rather than show NaN.
  if (!AllFinite(out.scores) || !AllFinite(out.scaled)) {
    return Fail(error,
                "the attention scores overflowed the number type; use smaller embeddings or a "
                "higher temperature");
  }

  // hook_attn_scores: a hook may rewrite the scaled scores; an entry it sets to -inf is masked
  // out (this head's own mask), and the record keeps the score as computed
  out.mask.resize(0, 0);
  if (hooks && hooks->Wants(HookPoint::kAttnScores, layer) &&
      !ScoresHook<T>(out, mask, hooks, layer, head, error))
    return false;
  const Mask& used = out.mask.size() != 0 ? out.mask : mask;

  // pass 3: weights = numerator / denominator, row by row, under the mask
  NormalizeRowsParts<T>(out.weights, out.shift, out.numerator, out.denominator, out.scaled, used,
                        cfg.normalizer);
  if (!AllFinite(out.denominator) || !AllFinite(out.weights)) {
    return Fail(error, "the attention weights overflowed the number type; use smaller embeddings");
  }
  // hook_pattern: the weights (the numerator and denominator stay as computed)
  if (!RunHooks(hooks, HookPoint::kPattern, layer, head, out.weights, error)) return false;

  // pass 4: output_i = sum_j p_ij v_j
  out.output = MatMul<T>(out.weights, out.V);  // (N, Dv)
  // hook_z: the head's output (a knocked-out head's is 0)
  if (!RunHooks(hooks, HookPoint::kZ, layer, head, out.output, error)) return false;
  if (!AllFinite(out.output)) {
    return Fail(error, "the attention output overflowed the number type; use smaller embeddings");
  }

  // pass 5: the entropy of each row (display only; no gradient)
  RowEntropy<T>(out.entropy, out.weights, cfg.normalizer);  // (N)
  return true;
}

// ---- one head: backward ---------------------------------------------------------------------

template <typename T>
bool HeadBackward(HeadGrads<T>& g, const Mat<T>& dOut, const HeadTrace<T>& fwd, const Mask& mask,
                  const HeadConfig& cfg, std::string* error) {
  if (dOut.rows() != fwd.output.rows() || dOut.cols() != fwd.output.cols()) {
    return Fail(error, "dOutput must be queries x d_v = " +
                           ShapeOf(fwd.output.rows(), fwd.output.cols()) + " (got " +
                           ShapeOf(dOut.rows(), dOut.cols()) + ")");
  }
  const Eigen::Index n = fwd.scaled.rows(), m = fwd.scaled.cols();

  // pass 4: output = weights V
  g.dweights = MatMulTransposed<T>(dOut, fwd.V);  // (N, M) dP_ij = dO_i . v_j
  g.dV = MatMulTransposedA<T>(fwd.weights, dOut);  // (M, Dv) dv_j = sum_i P_ij dO_i

  // pass 3: weights = normalize(scaled)
  g.dscaled = NormalizeRowsBackward<T>(g.dweights, fwd.weights, fwd.scaled, mask,
                                       cfg.normalizer);  // (N, M)

  // pass 2: scaled = scores * scale / temperature
  g.dscores.resize(n, m);  // (N, M)
  for (Eigen::Index j = 0; j < m; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) {
      g.dscores(i, j) = g.dscaled(i, j) * fwd.scale / fwd.temperature;
    }
  }

  // pass 1: scores = Q K^T
  g.dQ = MatMul<T>(g.dscores, fwd.K);             // (N, Dk) dq_i = sum_j dS_ij k_j
  g.dK = MatMulTransposedA<T>(g.dscores, fwd.Q);  // (M, Dk) dk_j = sum_i dS_ij q_i
  return true;
}

// ---- weights --------------------------------------------------------------------------------

template <typename T>
MultiHeadWeights<T> IdentityWeights(int d_model, int heads) {
  const int d = d_model > 0 ? d_model : 0, h = heads > 0 ? heads : 0;
  MultiHeadWeights<T> w;
  w.W_Q.assign(static_cast<std::size_t>(h), Mat<T>::Identity(d, d));  // H of (D, D)
  w.W_K.assign(static_cast<std::size_t>(h), Mat<T>::Identity(d, d));  // H of (D, D)
  w.W_V.assign(static_cast<std::size_t>(h), Mat<T>::Identity(d, d));  // H of (D, D)
  w.W_O.setZero(static_cast<Eigen::Index>(h) * d, d);                 // (H*D, D) = [I; ...; I] / H
  const T inv = h > 0 ? static_cast<T>(1.0 / h) : T(0);
  for (int k = 0; k < h; ++k) {
    for (int c = 0; c < d; ++c) w.W_O(static_cast<Eigen::Index>(k) * d + c, c) = inv;
  }
  return w;
}

template <typename T>
MultiHeadWeights<T> RandomWeights(int d_model, int heads, int d_k, int d_v, std::uint64_t seed) {
  const int h = heads > 0 ? heads : 0, dv = d_v > 0 ? d_v : 0;
  MultiHeadWeights<T> w;
  for (int k = 0; k < h; ++k) {
    w.W_Q.push_back(RandomProjection<T>(d_model, d_k, seed, 4 * k + 0));  // (D, Dk)
    w.W_K.push_back(RandomProjection<T>(d_model, d_k, seed, 4 * k + 1));  // (D, Dk)
    w.W_V.push_back(RandomProjection<T>(d_model, d_v, seed, 4 * k + 2));  // (D, Dv)
  }
  w.W_O = RandomProjection<T>(h * dv, d_model, seed, 3);  // (H*Dv, D), N(0, 1/(H*Dv))
  return w;
}

// ---- all heads: forward ---------------------------------------------------------------------

namespace {
// For each matrix, the index of the first one equal to it, shape and bits (itself when none is).
template <typename T>
std::vector<std::size_t> FirstEqual(const std::vector<Mat<T>>& ms) {
  std::vector<std::size_t> from(ms.size());
  for (std::size_t h = 0; h < ms.size(); ++h) {
    from[h] = h;
    for (std::size_t j = 0; j < h; ++j) {
      if (from[j] == j && ms[j].rows() == ms[h].rows() && ms[j].cols() == ms[h].cols() &&
          std::memcmp(ms[j].data(), ms[h].data(), sizeof(T) * static_cast<std::size_t>(ms[h].size())) == 0) {
        from[h] = j;
        break;
      }
    }
  }
  return from;
}
bool IsCopiedLater(const std::vector<std::size_t>& from, std::size_t h) {
  for (std::size_t j = h + 1; j < from.size(); ++j)
    if (from[j] == h) return true;
  return false;
}
}  // namespace


template <typename T>
bool MultiHeadForward(MultiHeadTrace<T>& out, const Mat<T>& X, const Mat<T>* Y,
                      const MultiHeadWeights<T>& w, const MultiHeadConfig& cfg,
                      std::string* error, const Hooks<T>* hooks, int layer) {
  const Mat<T>& Ykv = Y ? *Y : X;  // (M, D) keys and values come from here
  const std::size_t heads = w.W_Q.size();
  const Eigen::Index n = X.rows(), m = Ykv.rows(), d = X.cols();
  if (Y && Y->cols() != d) {
    return Fail(error, "X and Y must have the same width d_model (got " + ShapeOf(n, d) +
                           " and " + ShapeOf(Y->rows(), Y->cols()) + ")");
  }
  if (heads == 0) return Fail(error, "there must be at least one head (W_Q is empty)");
  if (w.W_K.size() != heads || w.W_V.size() != heads) {
    return Fail(error, "W_Q, W_K and W_V must have one matrix per head (got " +
                           std::to_string(heads) + ", " + std::to_string(w.W_K.size()) + " and " +
                           std::to_string(w.W_V.size()) + ")");
  }
  Eigen::Index concat_cols = 0;  // sum_h Dv_h
  for (std::size_t h = 0; h < heads; ++h) {
    const std::string head = "head " + std::to_string(h) + ": ";
    const Mat<T>& wq = w.W_Q[h];
    const Mat<T>& wk = w.W_K[h];
    const Mat<T>& wv = w.W_V[h];
    if (wq.rows() != d || wk.rows() != d || wv.rows() != d) {
      return Fail(error, head + "W_Q, W_K and W_V must have d_model = " + std::to_string(d) +
                             " rows (got " + ShapeOf(wq.rows(), wq.cols()) + ", " +
                             ShapeOf(wk.rows(), wk.cols()) + " and " +
                             ShapeOf(wv.rows(), wv.cols()) + ")");
    }
    if (wq.cols() != wk.cols()) {
      return Fail(error, head + "W_Q and W_K must have the same width d_k (got " +
                             ShapeOf(wq.rows(), wq.cols()) + " and " +
                             ShapeOf(wk.rows(), wk.cols()) + ")");
    }
    if (!AllFinite(wq) || !AllFinite(wk) || !AllFinite(wv)) {
      return Fail(error, head + "W_Q, W_K and W_V must contain only finite numbers");
    }
    concat_cols += wv.cols();
  }
  if (w.W_O.rows() != concat_cols) {
    return Fail(error, "W_O must have one row per concatenated value column (" +
                           std::to_string(concat_cols) + "; got " +
                           ShapeOf(w.W_O.rows(), w.W_O.cols()) + ")");
  }
  if (!AllFinite(w.W_O)) return Fail(error, "W_O must contain only finite numbers");
  if (cfg.mask.size() != 0 && (cfg.mask.rows() != n || cfg.mask.cols() != m)) {
    return Fail(error, "the mask must be queries x keys = " + ShapeOf(n, m) + " (got " +
                           ShapeOf(cfg.mask.rows(), cfg.mask.cols()) + ")");
  }
  if (!AllFinite(X) || !AllFinite(Ykv)) {
    return Fail(error, "the input embeddings contain a NaN or infinite value");
  }

  out.mask = CombineMasks(static_cast<int>(n), static_cast<int>(m), cfg.causal, cfg.mask);
  out.heads.resize(heads);
  // Grouped-query attention repeats one W_K, W_V per key/value head for each query head: a head
  // whose matrix equals an earlier head's takes a copy of that head's product (before the hooks),
  // the same bits without the second product.
  const std::vector<std::size_t> k_from = FirstEqual(w.W_K), v_from = FirstEqual(w.W_V);
  std::vector<Mat<T>> k_raw(heads), v_raw(heads);  // the products later heads copy, (M, Dk) / (M, Dv)
  for (std::size_t h = 0; h < heads; ++h) {
    HeadTrace<T>& head = out.heads[h];
    // pass 1: the projections
    head.Q = MatMul<T>(X, w.W_Q[h]);  // (N, Dk)
    head.K = k_from[h] == h ? MatMul<T>(Ykv, w.W_K[h]) : k_raw[k_from[h]];  // (M, Dk)
    head.V = v_from[h] == h ? MatMul<T>(Ykv, w.W_V[h]) : v_raw[v_from[h]];  // (M, Dv)
    if (IsCopiedLater(k_from, h)) k_raw[h] = head.K;
    if (IsCopiedLater(v_from, h)) v_raw[h] = head.V;
    // hook_q, hook_k, hook_v (a dragged value moves a row of V here)
    const int hi = static_cast<int>(h);
    std::string why;
    if (!RunHooks(hooks, HookPoint::kQ, layer, hi, head.Q, &why) ||
        !RunHooks(hooks, HookPoint::kK, layer, hi, head.K, &why) ||
        !RunHooks(hooks, HookPoint::kV, layer, hi, head.V, &why)) {
      return Fail(error, "head " + std::to_string(h) + ": " + why);
    }
    // passes 2-3: the head itself (scores, scaling, normalizer, weighted sum)
    if (!HeadForward<T>(head, head.Q, head.K, head.V, out.mask, cfg.head, &why, hooks, layer, hi)) {
      return Fail(error, "head " + std::to_string(h) + ": " + why);
    }
  }

  // pass 4: concat = [O_1 ... O_H]
  out.concat.resize(n, concat_cols);  // (N, H*Dv)
  Eigen::Index offset = 0;
  for (std::size_t h = 0; h < heads; ++h) {
    const Mat<T>& o = out.heads[h].output;  // (N, Dv)
    out.concat.middleCols(offset, o.cols()) = o;
    offset += o.cols();
  }

  // pass 5: output = concat W_O
  out.output = MatMul<T>(out.concat, w.W_O);  // (N, Do)
  if (!AllFinite(out.output)) {
    return Fail(error, "the projected output overflowed the number type; use smaller embeddings");
  }
  return true;
}

// ---- all heads: backward --------------------------------------------------------------------

template <typename T>
bool MultiHeadBackward(MultiHeadGrads<T>& g, const Mat<T>& dOutput, const MultiHeadTrace<T>& fwd,
                       const Mat<T>& X, const Mat<T>* Y, const MultiHeadWeights<T>& w,
                       const MultiHeadConfig& cfg, std::string* error) {
  if (dOutput.rows() != fwd.output.rows() || dOutput.cols() != fwd.output.cols()) {
    return Fail(error, "dOutput must be queries x output width = " +
                           ShapeOf(fwd.output.rows(), fwd.output.cols()) + " (got " +
                           ShapeOf(dOutput.rows(), dOutput.cols()) + ")");
  }
  const Mat<T>& Ykv = Y ? *Y : X;  // (M, D)
  const std::size_t heads = fwd.heads.size();

  // pass 5: output = concat W_O
  g.dW_O = MatMulTransposedA<T>(fwd.concat, dOutput);  // (H*Dv, Do) concat^T dOutput
  g.dconcat = MatMulTransposed<T>(dOutput, w.W_O);     // (N, H*Dv) dOutput W_O^T

  g.dX.setZero(X.rows(), X.cols());  // (N, D)
  if (Y) {
    g.dY.setZero(Y->rows(), Y->cols());  // (M, D)
  } else {
    g.dY.resize(0, 0);
  }
  Mat<T>& dYkv = Y ? g.dY : g.dX;  // self-attention: keys and values are X too
  g.heads.resize(heads);
  g.dW_Q.resize(heads);
  g.dW_K.resize(heads);
  g.dW_V.resize(heads);
  Eigen::Index offset = 0;
  for (std::size_t h = 0; h < heads; ++h) {
    const HeadTrace<T>& head = fwd.heads[h];
    HeadGrads<T>& gh = g.heads[h];
    // pass 4: concat = [O_1 ... O_H]
    const Mat<T> dO = g.dconcat.middleCols(offset, head.output.cols());  // (N, Dv)
    offset += head.output.cols();

    // passes 2-3: the head
    std::string why;
    const Mask& mask = head.mask.size() != 0 ? head.mask : fwd.mask;  // a hook may have masked keys
    if (!HeadBackward<T>(gh, dO, head, mask, cfg.head, &why)) {
      return Fail(error, "head " + std::to_string(h) + ": " + why);
    }

    // pass 1: Q_h = X W_Q[h], K_h = Y W_K[h], V_h = Y W_V[h]
    g.dW_Q[h] = MatMulTransposedA<T>(X, gh.dQ);                // (D, Dk) X^T dQ
    g.dW_K[h] = MatMulTransposedA<T>(Ykv, gh.dK);              // (D, Dk) Y^T dK
    g.dW_V[h] = MatMulTransposedA<T>(Ykv, gh.dV);              // (D, Dv) Y^T dV
    AddInPlace<T>(g.dX, MatMulTransposed<T>(gh.dQ, w.W_Q[h]));  // (N, D) += dQ W_Q^T
    AddInPlace<T>(dYkv, MatMulTransposed<T>(gh.dK, w.W_K[h]));  // (M, D) += dK W_K^T
    AddInPlace<T>(dYkv, MatMulTransposed<T>(gh.dV, w.W_V[h]));  // (M, D) += dV W_V^T
  }
  return true;
}

// ---- explicit instantiations: float for the lab, double for the tests -----------------------

#define ATTN_MULTIHEAD_INSTANTIATE(T)                                                            \
  template bool HeadForward<T>(HeadTrace<T>&, const Mat<T>&, const Mat<T>&, const Mat<T>&,       \
                               const Mask&, const HeadConfig&, std::string*, const Hooks<T>*,    \
                               int, int);                                                        \
  template bool HeadBackward<T>(HeadGrads<T>&, const Mat<T>&, const HeadTrace<T>&, const Mask&,  \
                                const HeadConfig&, std::string*);                                \
  template MultiHeadWeights<T> IdentityWeights<T>(int, int);                                     \
  template MultiHeadWeights<T> RandomWeights<T>(int, int, int, int, std::uint64_t);              \
  template bool MultiHeadForward<T>(MultiHeadTrace<T>&, const Mat<T>&, const Mat<T>*,            \
                                    const MultiHeadWeights<T>&, const MultiHeadConfig&,          \
                                    std::string*, const Hooks<T>*, int);                         \
  template bool MultiHeadBackward<T>(MultiHeadGrads<T>&, const Mat<T>&, const MultiHeadTrace<T>&, \
                                     const Mat<T>&, const Mat<T>*, const MultiHeadWeights<T>&,   \
                                     const MultiHeadConfig&, std::string*);
ATTN_MULTIHEAD_INSTANTIATE(float)
ATTN_MULTIHEAD_INSTANTIATE(double)
#undef ATTN_MULTIHEAD_INSTANTIATE

}  // namespace attn
