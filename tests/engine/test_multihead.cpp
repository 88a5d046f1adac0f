// Multi-head attention, masks and normalizers.
//   1. every forward (NormalizeRows, MultiHeadForward and so HeadForward) against a plain-loop
//      reference written here from the formulas, in float and double;
//   2. every backward (NormalizeRowsBackward, HeadBackward, MultiHeadBackward) against central
//      finite differences in double;
//   3. analytic cases (sparsemax, causal structure, fully masked rows, temperature -> 0, ...).
// Table-driven in the manner of ggml's test-backend-ops: one table of cases, and each error is
// one number (the max abs difference, normalized by the largest reference entry) reported with
// the case that produced it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/attention/attention.h"
#include "engine/attention/hooks.h"
#include "engine/attention/multihead.h"
#include "engine/linalg/linalg.h"

using attn::HeadConfig;
using attn::HeadGrads;
using attn::HeadTrace;
using attn::Mask;
using attn::Mat;
using attn::MultiHeadConfig;
using attn::MultiHeadGrads;
using attn::MultiHeadTrace;
using attn::MultiHeadWeights;
using attn::Normalizer;
using attn::kAllNormalizers;
using attn::Vec;

namespace {

using MatD = Mat<double>;
using VecD = Vec<double>;

// A tiny deterministic generator for test inputs (not the engine's, on purpose).
struct TestRng {
  std::uint64_t s;
  double Uniform(double lo, double hi) {  // [lo, hi)
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * static_cast<double>(s >> 11) * 0x1.0p-53;
  }
};

MatD RandomMatrix(Eigen::Index rows, Eigen::Index cols, TestRng& rng, double lo = -1,
                  double hi = 1) {
  MatD m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r) {
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = rng.Uniform(lo, hi);
  }
  return m;
}

// How a case masks: nothing, causal, an explicit random mask, or both (ANDed).
enum class MaskKind { kNone, kCausal, kRandom, kCausalAndRandom };
const MaskKind kAllMasks[] = {MaskKind::kNone, MaskKind::kCausal, MaskKind::kRandom,
                              MaskKind::kCausalAndRandom};
const char* MaskName(MaskKind k) {
  switch (k) {
    case MaskKind::kNone:
      return "none";
    case MaskKind::kCausal:
      return "causal";
    case MaskKind::kRandom:
      return "random";
    case MaskKind::kCausalAndRandom:
      return "causal+random";
  }
  return "?";
}

// An explicit random mask: each entry allowed with probability 0.6, and row n/2 fully masked so
// that every random case also exercises the defined all-masked row.
Mask RandomMask(int n, int m, TestRng& rng) {
  Mask mask(n, m);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) mask(i, j) = i != n / 2 && rng.Uniform(0, 1) < 0.6;
  }
  return mask;
}

// The allowed pattern of a case, computed here from the definitions (not with the engine's).
std::vector<std::vector<bool>> Allowed(MaskKind kind, const Mask& explicit_mask, int n, int m) {
  std::vector<std::vector<bool>> a(static_cast<std::size_t>(n),
                                   std::vector<bool>(static_cast<std::size_t>(m), true));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      bool ok = true;
      if (kind == MaskKind::kCausal || kind == MaskKind::kCausalAndRandom) ok = ok && j <= i;
      if (kind == MaskKind::kRandom || kind == MaskKind::kCausalAndRandom) {
        ok = ok && explicit_mask(i, j);
      }
      a[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = ok;
    }
  }
  return a;
}

// ---- the reference: plain loops in double, straight from the formulas ---------------------

MatD RefMatMul(const MatD& a, const MatD& b) {  // a b
  MatD out = MatD::Zero(a.rows(), b.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index j = 0; j < b.cols(); ++j) {
      for (Eigen::Index k = 0; k < a.cols(); ++k) out(i, j) += a(i, k) * b(k, j);
    }
  }
  return out;
}

// One row of weights; `tau` gets sparsemax's threshold (found by bisection, independently of
// the engine's sort), `mx` the max over allowed keys.
std::vector<double> RefNormalizeRow(const std::vector<double>& s, const std::vector<bool>& allowed,
                                    Normalizer n, double* tau_out = nullptr) {
  const std::size_t m = s.size();
  std::vector<double> p(m, 0.0);
  double mx = -std::numeric_limits<double>::infinity();
  int count = 0;
  for (std::size_t j = 0; j < m; ++j) {
    if (allowed[j]) {
      mx = std::max(mx, s[j]);
      ++count;
    }
  }
  if (count == 0) return p;  // fully masked: zeros
  switch (n) {
    case Normalizer::kSoftmax: {
      double z = 0;
      for (std::size_t j = 0; j < m; ++j) z += allowed[j] ? std::exp(s[j] - mx) : 0.0;
      for (std::size_t j = 0; j < m; ++j) p[j] = allowed[j] ? std::exp(s[j] - mx) / z : 0.0;
      break;
    }
    case Normalizer::kSparsemax: {
      // sum_j max(s_j - tau, 0) = 1 is decreasing in tau; it is >= 1 at max - 1, 0 at max.
      double lo = mx - 1, hi = mx;
      for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        double f = 0;
        for (std::size_t j = 0; j < m; ++j) f += allowed[j] ? std::max(s[j] - mid, 0.0) : 0.0;
        (f >= 1 ? lo : hi) = mid;
      }
      const double tau = 0.5 * (lo + hi);
      if (tau_out) *tau_out = tau;
      for (std::size_t j = 0; j < m; ++j) p[j] = allowed[j] ? std::max(s[j] - tau, 0.0) : 0.0;
      break;
    }
    case Normalizer::kReluNorm: {
      double z = 0;
      for (std::size_t j = 0; j < m; ++j) z += allowed[j] && s[j] > 0 ? s[j] : 0.0;
      for (std::size_t j = 0; j < m; ++j) {
        if (!allowed[j]) continue;
        p[j] = z > 0 ? std::max(s[j], 0.0) / z : 1.0 / count;
      }
      break;
    }
    case Normalizer::kSigmoid:
      for (std::size_t j = 0; j < m; ++j) p[j] = allowed[j] ? 1.0 / (1.0 + std::exp(-s[j])) : 0.0;
      break;
    case Normalizer::kNone:
      for (std::size_t j = 0; j < m; ++j) p[j] = allowed[j] ? s[j] : 0.0;
      break;
    case Normalizer::kHardmax: {
      int k = 0;
      for (std::size_t j = 0; j < m; ++j) k += allowed[j] && s[j] == mx;
      for (std::size_t j = 0; j < m; ++j) p[j] = allowed[j] && s[j] == mx ? 1.0 / k : 0.0;
      break;
    }
  }
  return p;
}

double RefEntropy(const std::vector<double>& w, Normalizer n) {
  double total = 1;
  if (n == Normalizer::kSigmoid || n == Normalizer::kNone) {
    total = 0;
    for (const double x : w) total += std::max(x, 0.0);
    if (total <= 0) return 0;
  }
  double h = 0;
  for (const double x : w) {
    const double p = x / total;
    if (p > 0) h -= p * std::log(p);
  }
  return std::max(h, 0.0);
}

struct RefHead {
  MatD Q, K, V, scores, scaled, weights, output;
  VecD entropy;
};

RefHead RefHeadForward(const MatD& Q, const MatD& K, const MatD& V,
                       const std::vector<std::vector<bool>>& allowed, Normalizer n, double scale,
                       double temperature) {
  RefHead r;
  r.Q = Q;
  r.K = K;
  r.V = V;
  const Eigen::Index rows = Q.rows(), m = K.rows();
  r.scores = MatD::Zero(rows, m);
  r.scaled = MatD::Zero(rows, m);
  r.weights = MatD::Zero(rows, m);
  r.entropy = VecD::Zero(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    std::vector<double> s(static_cast<std::size_t>(m));
    for (Eigen::Index j = 0; j < m; ++j) {
      for (Eigen::Index c = 0; c < Q.cols(); ++c) r.scores(i, j) += Q(i, c) * K(j, c);
      r.scaled(i, j) = r.scores(i, j) * scale / temperature;
      s[static_cast<std::size_t>(j)] = r.scaled(i, j);
    }
    const std::vector<double> p = RefNormalizeRow(s, allowed[static_cast<std::size_t>(i)], n);
    for (Eigen::Index j = 0; j < m; ++j) r.weights(i, j) = p[static_cast<std::size_t>(j)];
    r.entropy(i) = RefEntropy(p, n);
  }
  r.output = RefMatMul(r.weights, V);
  return r;
}

// Normalized max difference: max |a - b| / max(1, max |b|), b being the reference.
template <typename A>
double Err(const A& a, const MatD& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return std::numeric_limits<double>::infinity();
  double diff = 0, scale = 1;
  for (Eigen::Index r = 0; r < b.rows(); ++r) {
    for (Eigen::Index c = 0; c < b.cols(); ++c) {
      const double x = static_cast<double>(a(r, c));
      if (!std::isfinite(x)) return std::numeric_limits<double>::infinity();
      diff = std::max(diff, std::abs(x - b(r, c)));
      scale = std::max(scale, std::abs(b(r, c)));
    }
  }
  return diff / scale;
}

// Relative error of a gradient: max |a - b| / max(max |a|, max |b|); a gradient below 1e-8
// everywhere (a flat loss) is compared absolutely, at the level of the loss's rounding.
double GradErr(const MatD& a, const MatD& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return std::numeric_limits<double>::infinity();
  double diff = 0, scale = 1e-8;
  for (Eigen::Index k = 0; k < a.size(); ++k) {
    if (!std::isfinite(a.data()[k])) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::abs(a.data()[k] - b.data()[k]));
    scale = std::max({scale, std::abs(a.data()[k]), std::abs(b.data()[k])});
  }
  return diff / scale;
}

template <typename T>
bool AnyNaN(const Mat<T>& m) {
  for (Eigen::Index k = 0; k < m.size(); ++k) {
    if (std::isnan(m.data()[k])) return true;
  }
  return false;
}

// True when a row of `scaled` lies within `margin` of a point where the normalizer is not
// differentiable (sparsemax: s_j = tau; relunorm: s_j = 0; hardmax: a tie for the max), so
// that a finite difference or a float rounding could cross it.
bool NearKink(const MatD& scaled, const std::vector<std::vector<bool>>& allowed, Normalizer n,
              double margin) {
  for (Eigen::Index i = 0; i < scaled.rows(); ++i) {
    const std::vector<bool>& a = allowed[static_cast<std::size_t>(i)];
    std::vector<double> s;
    for (Eigen::Index j = 0; j < scaled.cols(); ++j) {
      if (a[static_cast<std::size_t>(j)]) s.push_back(scaled(i, j));
    }
    if (s.empty()) continue;
    if (n == Normalizer::kSparsemax) {
      double tau = 0;
      RefNormalizeRow(s, std::vector<bool>(s.size(), true), n, &tau);
      for (const double x : s) {
        if (std::abs(x - tau) < margin) return true;
      }
    } else if (n == Normalizer::kReluNorm) {
      for (const double x : s) {
        if (std::abs(x) < margin) return true;
      }
    } else if (n == Normalizer::kHardmax && s.size() > 1) {
      std::sort(s.begin(), s.end(), std::greater<double>());
      if (s[0] - s[1] < margin) return true;
    }
  }
  return false;
}

// One multi-head case: inputs, weights and config, all in double (float runs cast them).
struct Problem {
  MatD X, Y;  // (N, D) (M, D); Y unused for self-attention
  MultiHeadWeights<double> w;
  MultiHeadConfig cfg;
  bool cross = false;
  std::vector<std::vector<bool>> allowed;  // (N, M) from the definitions
  double scale = 1;                        // the factor the reference uses
};

struct Shape {
  int n, m, d, dk, dv, heads;  // m is ignored for self-attention (m = n)
};

std::string Describe(const Shape& sh, bool cross, MaskKind mk, Normalizer nz, double temp,
                     const char* scale_mode) {
  std::ostringstream o;
  o << (cross ? "cross" : "self") << " N=" << sh.n << " M=" << (cross ? sh.m : sh.n)
    << " D=" << sh.d << " Dk=" << sh.dk << " Dv=" << sh.dv << " H=" << sh.heads
    << " mask=" << MaskName(mk) << " " << attn::NormalizerName(nz) << " T=" << temp
    << " scale=" << scale_mode;
  return o.str();
}

Problem MakeProblem(const Shape& sh, bool cross, MaskKind mk, Normalizer nz, double temp,
                    int scale_mode, TestRng& rng) {
  Problem p;
  p.cross = cross;
  const int m = cross ? sh.m : sh.n;
  p.X = RandomMatrix(sh.n, sh.d, rng);
  if (cross) p.Y = RandomMatrix(m, sh.d, rng);
  for (int h = 0; h < sh.heads; ++h) {
    p.w.W_Q.push_back(RandomMatrix(sh.d, sh.dk, rng));
    p.w.W_K.push_back(RandomMatrix(sh.d, sh.dk, rng));
    p.w.W_V.push_back(RandomMatrix(sh.d, sh.dv, rng));
  }
  p.w.W_O = RandomMatrix(sh.heads * sh.dv, sh.d, rng);
  p.cfg.head.normalizer = nz;
  p.cfg.head.temperature = temp;
  p.cfg.causal = mk == MaskKind::kCausal || mk == MaskKind::kCausalAndRandom;
  if (mk == MaskKind::kRandom || mk == MaskKind::kCausalAndRandom)
    p.cfg.mask = RandomMask(sh.n, m, rng);
  p.allowed = Allowed(mk, p.cfg.mask, sh.n, m);
  // scale modes: 0 = 1/sqrt(Dk), 1 = unscaled, 2 = an explicit factor
  if (scale_mode == 0) {
    p.scale = 1.0 / std::sqrt(static_cast<double>(sh.dk));
  } else if (scale_mode == 1) {
    p.cfg.head.scaled = false;
    p.scale = 1;
  } else {
    p.cfg.head.scale = 0.8;
    p.scale = 0.8;
  }
  return p;
}

const char* kScaleModes[] = {"1/sqrt(dk)", "1", "0.8"};

template <typename T>
MultiHeadWeights<T> CastWeights(const MultiHeadWeights<double>& w) {
  MultiHeadWeights<T> out;
  for (const MatD& m : w.W_Q) out.W_Q.push_back(m.cast<T>());
  for (const MatD& m : w.W_K) out.W_K.push_back(m.cast<T>());
  for (const MatD& m : w.W_V) out.W_V.push_back(m.cast<T>());
  out.W_O = w.W_O.cast<T>();
  return out;
}

MultiHeadWeights<double> Uncast(const MultiHeadWeights<float>& w) {
  MultiHeadWeights<double> out;
  for (const Mat<float>& m : w.W_Q) out.W_Q.push_back(m.cast<double>());
  for (const Mat<float>& m : w.W_K) out.W_K.push_back(m.cast<double>());
  for (const Mat<float>& m : w.W_V) out.W_V.push_back(m.cast<double>());
  out.W_O = w.W_O.cast<double>();
  return out;
}

struct RefMulti {
  std::vector<RefHead> heads;
  MatD concat, output;
};

RefMulti RefMultiHead(const MatD& X, const MatD& Ykv, const MultiHeadWeights<double>& w,
                      const Problem& p) {
  RefMulti r;
  const Eigen::Index heads = static_cast<Eigen::Index>(w.W_Q.size());
  Eigen::Index width = 0;
  for (const MatD& wv : w.W_V) width += wv.cols();
  r.concat = MatD::Zero(X.rows(), width);
  Eigen::Index off = 0;
  for (Eigen::Index h = 0; h < heads; ++h) {
    const std::size_t hs = static_cast<std::size_t>(h);
    r.heads.push_back(RefHeadForward(RefMatMul(X, w.W_Q[hs]), RefMatMul(Ykv, w.W_K[hs]),
                                     RefMatMul(Ykv, w.W_V[hs]), p.allowed, p.cfg.head.normalizer,
                                     p.scale, p.cfg.head.temperature));
    const MatD& o = r.heads.back().output;
    for (Eigen::Index i = 0; i < o.rows(); ++i) {
      for (Eigen::Index c = 0; c < o.cols(); ++c) r.concat(i, off + c) = o(i, c);
    }
    off += o.cols();
  }
  r.output = RefMatMul(r.concat, w.W_O);
  return r;
}

// The worst error of one kind over a table, with the case that produced it.
struct Worst {
  double err = 0;
  std::string where;
  void Add(double e, const std::string& w) {
    if (!(e <= err)) {  // NaN counts as worst
      err = e;
      where = w;
    }
  }
};

// Runs MultiHeadForward<T> on the problem (cast to T) and returns the worst normalized error of
// every field against the reference fed with the same (rounded) inputs.
template <typename T>
double ForwardError(const Problem& p, std::string* what) {
  const Mat<T> X = p.X.template cast<T>();
  const Mat<T> Y = p.Y.template cast<T>();
  const MultiHeadWeights<T> w = CastWeights<T>(p.w);
  MultiHeadTrace<T> tr;
  std::string error;
  if (!attn::MultiHeadForward<T>(tr, X, p.cross ? &Y : nullptr, w, p.cfg, &error)) {
    *what = "forward failed: " + error;
    return std::numeric_limits<double>::infinity();
  }
  const MatD Xd = X.template cast<double>();
  const MatD Yd = p.cross ? MatD(Y.template cast<double>()) : Xd;
  // the reference reads the very inputs the engine got: rounded to T, back in double
  const MultiHeadWeights<double> wd =
      std::is_same<T, float>::value ? Uncast(CastWeights<float>(p.w)) : p.w;
  const RefMulti ref = RefMultiHead(Xd, Yd, wd, p);
  double worst = 0;
  auto take = [&](double e, const char* name) {
    if (!(e <= worst)) {
      worst = e;
      *what = name;
    }
  };
  if (tr.heads.size() != ref.heads.size()) return std::numeric_limits<double>::infinity();
  for (std::size_t h = 0; h < ref.heads.size(); ++h) {
    const HeadTrace<T>& t = tr.heads[h];
    const RefHead& r = ref.heads[h];
    take(Err(t.Q, r.Q), "Q");
    take(Err(t.K, r.K), "K");
    take(Err(t.V, r.V), "V");
    take(Err(t.scores, r.scores), "scores");
    take(Err(t.scaled, r.scaled), "scaled");
    take(Err(t.weights, r.weights), "weights");
    take(Err(t.output, r.output), "output");
    take(Err(t.entropy, MatD(r.entropy)), "entropy");
    // weight = numerator / denominator, to the last bit, and 0 where masked
    for (Eigen::Index i = 0; i < t.weights.rows(); ++i) {
      for (Eigen::Index j = 0; j < t.weights.cols(); ++j) {
        if (t.weights(i, j) != t.numerator(i, j) / t.denominator(i)) {
          take(std::numeric_limits<double>::infinity(), "weight != numerator / denominator");
        }
        if (!p.allowed[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] &&
            (t.weights(i, j) != 0 || t.numerator(i, j) != 0)) {
          take(std::numeric_limits<double>::infinity(), "masked weight != 0");
        }
      }
    }
  }
  take(Err(tr.concat, ref.concat), "concat");
  take(Err(tr.output, ref.output), "final output");
  return worst;
}

}  // namespace

// ============================================================================================
// 1. forwards against the reference
// ============================================================================================

TEST_CASE(
    "forward: NormalizeRows against the reference, every normalizer and mask, float and double") {
  TestRng rng{11};
  Worst worst_d, worst_f;
  int cases = 0;
  const int sizes[][2] = {{1, 1}, {1, 5}, {4, 4}, {6, 3}, {5, 9}};
  for (const auto& nm : sizes) {
    for (const MaskKind mk : kAllMasks) {
      for (const Normalizer nz : kAllNormalizers) {
        for (const double range : {1.0, 6.0, 60.0}) {
          const int n = nm[0], m = nm[1];
          Mask mask = (mk == MaskKind::kRandom || mk == MaskKind::kCausalAndRandom)
                          ? RandomMask(n, m, rng)
                          : Mask();
          const auto allowed = Allowed(mk, mask, n, m);
          const Mask used = attn::CombineMasks(
              n, m, mk == MaskKind::kCausal || mk == MaskKind::kCausalAndRandom, mask);
          MatD s = RandomMatrix(n, m, rng, -range, range);
          // Float rounding must not cross a discontinuity (hardmax ties, relunorm at 0).
          for (int tries = 0;
               NearKink(s.cast<float>().cast<double>(), allowed, nz, 1e-3) && tries < 50; ++tries) {
            s = RandomMatrix(n, m, rng, -range, range);
          }
          std::ostringstream where;
          where << n << "x" << m << " mask=" << MaskName(mk) << " " << attn::NormalizerName(nz)
                << " range=" << range;
          const MatD sf = s.cast<float>().cast<double>();
          MatD ref_d(n, m), ref_f(n, m);
          for (int i = 0; i < n; ++i) {
            std::vector<double> row(static_cast<std::size_t>(m)), rowf(static_cast<std::size_t>(m));
            for (int j = 0; j < m; ++j) {
              row[static_cast<std::size_t>(j)] = s(i, j);
              rowf[static_cast<std::size_t>(j)] = sf(i, j);
            }
            const auto pd = RefNormalizeRow(row, allowed[static_cast<std::size_t>(i)], nz);
            const auto pf = RefNormalizeRow(rowf, allowed[static_cast<std::size_t>(i)], nz);
            for (int j = 0; j < m; ++j) {
              ref_d(i, j) = pd[static_cast<std::size_t>(j)];
              ref_f(i, j) = pf[static_cast<std::size_t>(j)];
            }
          }
          const double ed = Err(attn::NormalizeRows<double>(s, used, nz), ref_d);
          const double ef = Err(attn::NormalizeRows<float>(s.cast<float>(), used, nz), ref_f);
          CHECK_MESSAGE(ed <= 1e-13, where.str() << ": double error " << ed);
          CHECK_MESSAGE(ef <= 2e-6, where.str() << ": float error " << ef);
          worst_d.Add(ed, where.str());
          worst_f.Add(ef, where.str());
          ++cases;
        }
      }
    }
  }
  MESSAGE("NormalizeRows, " << cases << " cases: worst double " << worst_d.err << " ("
                            << worst_d.where << "), worst float " << worst_f.err << " ("
                            << worst_f.where << ")");
}

TEST_CASE("forward: MultiHeadForward against the reference, shapes x heads x masks x normalizers") {
  const Shape shapes[] = {
      {1, 1, 1, 1, 1, 1},  // the smallest
      {3, 5, 4, 2, 3, 1},  // N != M, Dk != Dv
      {5, 3, 6, 4, 2, 2},  // N > M
      {4, 6, 5, 3, 5, 3},  // three heads, Dv > Dk
      {8, 8, 8, 8, 8, 2},  // square
  };
  TestRng rng{2025};
  Worst worst_d, worst_f;
  int cases = 0, redraws = 0;
  for (const Shape& sh : shapes) {
    for (const bool cross : {false, true}) {
      for (const MaskKind mk : kAllMasks) {
        for (const Normalizer nz : kAllNormalizers) {
          const double temp = cases % 3 == 0 ? 0.7 : (cases % 3 == 1 ? 1.0 : 2.5);
          const int scale_mode = cases % 3;
          const std::string where = Describe(sh, cross, mk, nz, temp, kScaleModes[scale_mode]);
          Problem p = MakeProblem(sh, cross, mk, nz, temp, scale_mode, rng);
          // Float must not cross a discontinuity of the normalizer: redraw such inputs.
          for (int tries = 0; tries < 50; ++tries) {
            const MatD Xd = p.X.cast<float>().cast<double>();
            const MatD Yd = cross ? MatD(p.Y.cast<float>().cast<double>()) : Xd;
            const RefMulti ref = RefMultiHead(Xd, Yd, Uncast(CastWeights<float>(p.w)), p);
            bool near = false;
            for (const RefHead& h : ref.heads)
              near = near || NearKink(h.scaled, p.allowed, nz, 1e-3);
            if (!near) break;
            p = MakeProblem(sh, cross, mk, nz, temp, scale_mode, rng);
            ++redraws;
          }
          std::string what_d, what_f;
          const double ed = ForwardError<double>(p, &what_d);
          const double ef = ForwardError<float>(p, &what_f);
          CHECK_MESSAGE(ed <= 1e-12, where << ": double error " << ed << " in " << what_d);
          CHECK_MESSAGE(ef <= 1e-5, where << ": float error " << ef << " in " << what_f);
          worst_d.Add(ed, where + " [" + what_d + "]");
          worst_f.Add(ef, where + " [" + what_f + "]");
          ++cases;
        }
      }
    }
  }
  MESSAGE("MultiHeadForward, " << cases << " cases (" << redraws
                               << " redraws away from discontinuities): worst double "
                               << worst_d.err << " (" << worst_d.where << "), worst float "
                               << worst_f.err << " (" << worst_f.where << ")");
}

// Grouped-query attention: heads sharing one W_K, W_V (the same bits) copy the first such head's
// product; the result must equal each head's own product, and a hook on one head's K or V must
// not reach the heads that share its matrix.
TEST_CASE("forward: heads sharing W_K and W_V give each head's own product, hooks stay per head") {
  const int d = 6, n = 5, heads = 4;
  MultiHeadWeights<float> w = attn::RandomWeights<float>(d, heads, 3, 3, 11);
  w.W_K[2] = w.W_K[0];  // heads 0, 2 share keys; 1, 3 share keys and values
  w.W_K[3] = w.W_K[1];
  w.W_V[3] = w.W_V[1];
  const Mat<float> X = attn::RandomProjection<float>(n, d, 5, 0) * 3.0f;  // (N, D)
  MultiHeadConfig cfg;
  cfg.causal = true;
  attn::Hooks<float> hooks;
  hooks.Add(attn::HookPoint::kK, 0, 1, [](const attn::HookSite&, Mat<float>& k, std::string*) {
    k *= 2.0f;  // head 1 only
    return true;
  });
  MultiHeadTrace<float> out;
  std::string error;
  REQUIRE(attn::MultiHeadForward<float>(out, X, nullptr, w, cfg, &error, &hooks, 0));
  for (int h = 0; h < heads; ++h) {
    const std::size_t hh = static_cast<std::size_t>(h);
    Mat<float> k = attn::linalg::MatMul<float>(X, w.W_K[hh]);  // (N, Dk)
    if (h == 1) k *= 2.0f;
    const Mat<float> v = attn::linalg::MatMul<float>(X, w.W_V[hh]);  // (N, Dv)
    CHECK_MESSAGE(out.heads[hh].K == k, "head " << h);
    CHECK_MESSAGE(out.heads[hh].V == v, "head " << h);
  }
  CHECK(out.heads[3].K != out.heads[1].K);  // head 1's hook stayed on head 1
  CHECK(out.heads[3].V == out.heads[1].V);
}

// ============================================================================================
// 2. backwards against central finite differences (double)
// ============================================================================================

namespace {

constexpr double kFdTolerance = 1e-6;
// No input within this distance (in scaled-score units) of a kink of the normalizer: the
// stencil moves a scaled score by at most 2h |d scaled / d input| ~ 2e-4 * 5 here.
constexpr double kKinkMargin = 5e-3;

// Central difference of loss() with respect to every entry of m, with a relative step h:
// the five-point stencil (f(x-2h) - 8 f(x-h) + 8 f(x+h) - f(x+2h)) / 12h, whose truncation
// error is O(h^4), so that h can be large enough (1e-4) for the rounding of the loss
// (~1e-16 |L| / h) to stay far below the 1e-6 asked for.
constexpr double kFdStep = 1e-4;
MatD FiniteDifference(MatD& m, const std::function<double()>& loss) {
  MatD g(m.rows(), m.cols());
  for (Eigen::Index k = 0; k < m.size(); ++k) {
    const double x = m.data()[k];
    const double h = kFdStep * std::max(1.0, std::abs(x));
    double f[4];  // at x - 2h, x - h, x + h, x + 2h
    const double at[4] = {-2, -1, 1, 2};
    for (int s = 0; s < 4; ++s) {
      m.data()[k] = x + at[s] * h;
      f[s] = loss();
    }
    m.data()[k] = x;
    g.data()[k] = (8 * (f[2] - f[1]) - (f[3] - f[0])) / (12 * h);  // exactly 0 for a flat loss
  }
  return g;
}

double Dot(const MatD& a, const MatD& b) {  // sum_ij a_ij b_ij
  double s = 0;
  for (Eigen::Index r = 0; r < a.rows(); ++r) {
    for (Eigen::Index c = 0; c < a.cols(); ++c) s += a(r, c) * b(r, c);
  }
  return s;
}

bool IsZero(const MatD& m) {
  for (Eigen::Index k = 0; k < m.size(); ++k) {
    if (m.data()[k] != 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("backward: NormalizeRowsBackward against finite differences") {
  TestRng rng{5};
  Worst worst;
  int cases = 0, redraws = 0;
  const int sizes[][2] = {{1, 1}, {1, 4}, {3, 3}, {4, 6}, {5, 2}};
  for (const auto& nm : sizes) {
    for (const MaskKind mk : kAllMasks) {
      for (const Normalizer nz : kAllNormalizers) {
        const int n = nm[0], m = nm[1];
        const Mask mask = (mk == MaskKind::kRandom || mk == MaskKind::kCausalAndRandom)
                              ? RandomMask(n, m, rng)
                              : Mask();
        const auto allowed = Allowed(mk, mask, n, m);
        const Mask used = attn::CombineMasks(
            n, m, mk == MaskKind::kCausal || mk == MaskKind::kCausalAndRandom, mask);
        MatD s = RandomMatrix(n, m, rng, -2, 2);
        for (int tries = 0; NearKink(s, allowed, nz, kKinkMargin) && tries < 100; ++tries) {
          s = RandomMatrix(n, m, rng, -2, 2);
          ++redraws;
        }
        REQUIRE_FALSE(NearKink(s, allowed, nz, kKinkMargin));
        const MatD dP = RandomMatrix(n, m, rng);
        const MatD P = attn::NormalizeRows<double>(s, used, nz);
        const MatD analytic = attn::NormalizeRowsBackward<double>(dP, P, s, used, nz);
        const MatD fd =
            FiniteDifference(s, [&] { return Dot(dP, attn::NormalizeRows<double>(s, used, nz)); });
        std::ostringstream where;
        where << n << "x" << m << " mask=" << MaskName(mk) << " " << attn::NormalizerName(nz);
        const double e = GradErr(analytic, fd);
        CHECK_MESSAGE(e <= kFdTolerance, where.str() << ": relative error " << e);
        if (nz == Normalizer::kHardmax) CHECK(IsZero(analytic));
        CHECK_FALSE(AnyNaN(analytic));
        worst.Add(e, where.str());
        ++cases;
      }
    }
  }
  MESSAGE("NormalizeRowsBackward, " << cases << " cases (" << redraws << " redraws): worst "
                                    << worst.err << " (" << worst.where << ")");
}

TEST_CASE("backward: HeadBackward against finite differences (dQ, dK, dV, dweights, dscores)") {
  struct HeadShape {
    int n, m, dk, dv;
  };
  const HeadShape shapes[] = {{1, 1, 1, 1}, {3, 3, 2, 2}, {2, 5, 3, 1}, {5, 3, 2, 4}};
  TestRng rng{77};
  Worst worst;
  int cases = 0, redraws = 0;
  for (const HeadShape& sh : shapes) {
    for (const MaskKind mk : kAllMasks) {
      for (const Normalizer nz : kAllNormalizers) {
        HeadConfig cfg;
        cfg.normalizer = nz;
        cfg.temperature = cases % 2 == 0 ? 0.8 : 1.6;
        if (cases % 3 == 2) cfg.scale = -0.6;  // any finite factor, even negative
        const Mask mask = (mk == MaskKind::kRandom || mk == MaskKind::kCausalAndRandom)
                              ? RandomMask(sh.n, sh.m, rng)
                              : Mask();
        const auto allowed = Allowed(mk, mask, sh.n, sh.m);
        const Mask used = attn::CombineMasks(
            sh.n, sh.m, mk == MaskKind::kCausal || mk == MaskKind::kCausalAndRandom, mask);
        MatD Q, K, V;
        HeadTrace<double> tr;
        for (int tries = 0; tries < 100; ++tries) {
          Q = RandomMatrix(sh.n, sh.dk, rng, -1.5, 1.5);
          K = RandomMatrix(sh.m, sh.dk, rng, -1.5, 1.5);
          V = RandomMatrix(sh.m, sh.dv, rng);
          REQUIRE(attn::HeadForward<double>(tr, Q, K, V, used, cfg));
          if (!NearKink(tr.scaled, allowed, nz, kKinkMargin)) break;
          ++redraws;
        }
        REQUIRE_FALSE(NearKink(tr.scaled, allowed, nz, kKinkMargin));
        const MatD G = RandomMatrix(sh.n, sh.dv, rng);  // dL/d output
        HeadGrads<double> g;
        REQUIRE(attn::HeadBackward<double>(g, G, tr, used, cfg));

        auto loss_qkv = [&] {
          HeadTrace<double> t;
          REQUIRE(attn::HeadForward<double>(t, Q, K, V, used, cfg));
          return Dot(G, t.output);
        };
        MatD scores = tr.scores, weights = tr.weights;
        auto loss_scores = [&] {  // scaled = scores * scale / T, then the head from there
          const MatD s = scores * tr.scale / tr.temperature;
          return Dot(G, RefMatMul(attn::NormalizeRows<double>(s, used, nz), V));
        };
        auto loss_weights = [&] { return Dot(G, RefMatMul(weights, V)); };

        std::ostringstream where;
        where << "N=" << sh.n << " M=" << sh.m << " Dk=" << sh.dk << " Dv=" << sh.dv
              << " mask=" << MaskName(mk) << " " << attn::NormalizerName(nz)
              << " T=" << cfg.temperature << " scale=" << tr.scale;
        const struct {
          const char* name;
          double err;
        } errs[] = {
            {"dQ", GradErr(g.dQ, FiniteDifference(Q, loss_qkv))},
            {"dK", GradErr(g.dK, FiniteDifference(K, loss_qkv))},
            {"dV", GradErr(g.dV, FiniteDifference(V, loss_qkv))},
            {"dscores", GradErr(g.dscores, FiniteDifference(scores, loss_scores))},
            {"dweights", GradErr(g.dweights, FiniteDifference(weights, loss_weights))},
        };
        for (const auto& e : errs) {
          CHECK_MESSAGE(e.err <= kFdTolerance,
                        where.str() << ": " << e.name << " relative error " << e.err);
          worst.Add(e.err, where.str() + " [" + e.name + "]");
        }
        if (nz == Normalizer::kHardmax) {
          CHECK(IsZero(g.dQ));
          CHECK(IsZero(g.dK));
          CHECK(IsZero(g.dscaled));
          CHECK(IsZero(g.dscores));
        }
        for (const MatD* m : {&g.dQ, &g.dK, &g.dV, &g.dweights, &g.dscaled, &g.dscores}) {
          CHECK_FALSE(AnyNaN(*m));
        }
        ++cases;
      }
    }
  }
  MESSAGE("HeadBackward, " << cases << " cases (" << redraws << " redraws): worst " << worst.err
                           << " (" << worst.where << ")");
}

TEST_CASE("backward: MultiHeadBackward against finite differences (dX, dY, dW_Q/K/V/O)") {
  const Shape shapes[] = {
      {1, 1, 1, 1, 1, 1},
      {3, 4, 3, 2, 2, 1},
      {4, 3, 3, 2, 3, 2},
      {3, 5, 4, 3, 2, 3},
  };
  TestRng rng{31337};
  Worst worst;
  int cases = 0, redraws = 0;
  for (const Shape& sh : shapes) {
    for (const bool cross : {false, true}) {
      for (const MaskKind mk : kAllMasks) {
        for (const Normalizer nz : kAllNormalizers) {
          const double temp = cases % 2 == 0 ? 0.9 : 1.7;
          const int scale_mode = cases % 3;
          const std::string where = Describe(sh, cross, mk, nz, temp, kScaleModes[scale_mode]);
          Problem p;
          MultiHeadTrace<double> tr;
          for (int tries = 0; tries < 100; ++tries) {
            p = MakeProblem(sh, cross, mk, nz, temp, scale_mode, rng);
            REQUIRE(attn::MultiHeadForward<double>(tr, p.X, cross ? &p.Y : nullptr, p.w, p.cfg));
            bool near = false;
            for (const HeadTrace<double>& h : tr.heads) {
              near = near || NearKink(h.scaled, p.allowed, nz, kKinkMargin);
            }
            if (!near) break;
            ++redraws;
          }
          const MatD G = RandomMatrix(tr.output.rows(), tr.output.cols(), rng);
          MultiHeadGrads<double> g;
          REQUIRE(
              attn::MultiHeadBackward<double>(g, G, tr, p.X, cross ? &p.Y : nullptr, p.w, p.cfg));
          CHECK(g.dY.size() == (cross ? p.Y.size() : 0));

          auto loss = [&] {
            MultiHeadTrace<double> t;
            REQUIRE(attn::MultiHeadForward<double>(t, p.X, cross ? &p.Y : nullptr, p.w, p.cfg));
            return Dot(G, t.output);
          };
          Worst here;
          auto check = [&](const std::string& name, const MatD& analytic, MatD& param) {
            const double e = GradErr(analytic, FiniteDifference(param, loss));
            CHECK_MESSAGE(e <= kFdTolerance, where << ": " << name << " relative error " << e);
            here.Add(e, name);
            CHECK_FALSE(AnyNaN(analytic));
          };
          check("dX", g.dX, p.X);
          if (cross) check("dY", g.dY, p.Y);
          for (std::size_t h = 0; h < p.w.W_Q.size(); ++h) {
            const std::string hs = "[" + std::to_string(h) + "]";
            check("dW_Q" + hs, g.dW_Q[h], p.w.W_Q[h]);
            check("dW_K" + hs, g.dW_K[h], p.w.W_K[h]);
            check("dW_V" + hs, g.dW_V[h], p.w.W_V[h]);
            if (nz == Normalizer::kHardmax) {
              CHECK(IsZero(g.dW_Q[h]));
              CHECK(IsZero(g.dW_K[h]));
              CHECK(IsZero(g.heads[h].dscores));
            }
          }
          check("dW_O", g.dW_O, p.w.W_O);
          worst.Add(here.err, where + " [" + here.where + "]");
          ++cases;
        }
      }
    }
  }
  MESSAGE("MultiHeadBackward, " << cases << " cases (" << redraws << " redraws): worst "
                                << worst.err << " (" << worst.where << ")");
}

// ============================================================================================
// 3. analytic cases
// ============================================================================================

namespace {

template <typename T>
Mat<T> Row(std::initializer_list<double> values) {
  Mat<T> m(1, static_cast<Eigen::Index>(values.size()));
  Eigen::Index k = 0;
  for (const double v : values) m(0, k++) = static_cast<T>(v);
  return m;
}

}  // namespace

TEST_CASE_TEMPLATE("sparsemax on known vectors", T, float, double) {
  const double tol = std::is_same<T, float>::value ? 1e-6 : 1e-15;
  struct Case {
    std::vector<double> s, expected;
    double tau;
  };
  const Case cases[] = {
      {{1, 0.5, -1}, {0.75, 0.25, 0}, 0.25},
      {{1, 1, 0}, {0.5, 0.5, 0}, 0.5},                          // ties enter the support together
      {{0.2, 0.2, 0.2, 0.2}, {0.25, 0.25, 0.25, 0.25}, -0.05},  // all tied: uniform
      {{3, 0, -0.5}, {1, 0, 0}, 2},                             // one dominant score: one-hot
      {{1e6, 1e6 - 0.5, 0}, {0.75, 0.25, 0}, 1e6 - 0.75},       // large scores keep their digits
      {{0.4}, {1}, -0.6},                                       // a single key
  };
  for (const Case& c : cases) {
    CAPTURE(c.s.size());
    CAPTURE(c.s[0]);
    Mat<T> s(1, static_cast<Eigen::Index>(c.s.size()));
    for (std::size_t j = 0; j < c.s.size(); ++j)
      s(0, static_cast<Eigen::Index>(j)) = static_cast<T>(c.s[j]);
    Mat<T> w, num;
    Vec<T> shift, den;
    attn::NormalizeRowsParts<T>(w, shift, num, den, s, Mask(), Normalizer::kSparsemax);
    for (std::size_t j = 0; j < c.s.size(); ++j) {
      CHECK(std::abs(double(w(0, static_cast<Eigen::Index>(j))) - c.expected[j]) <= tol);
      CHECK(w(0, static_cast<Eigen::Index>(j)) == num(0, static_cast<Eigen::Index>(j)));
      if (c.expected[j] == 0) CHECK(w(0, static_cast<Eigen::Index>(j)) == 0);  // exact zeros
    }
    CHECK(den(0) == 1);
    CHECK(std::abs(double(shift(0)) - c.tau) <= tol * std::max(1.0, std::abs(c.tau)));
  }
  // Masked keys take no part: [1, (0.5), -1] -> [1, 0, 0].
  Mask mask(1, 3);
  mask << true, false, true;
  const Mat<T> w = attn::NormalizeRows<T>(Row<T>({1, 0.5, -1}), mask, Normalizer::kSparsemax);
  CHECK(w(0, 0) == 1);
  CHECK(w(0, 1) == 0);
  CHECK(w(0, 2) == 0);
  // Its gradient: on the support {0, 1} of [1, 0.5, -1], ds = dp - mean_S dp.
  const Mat<double> s = Row<double>({1, 0.5, -1});
  const Mat<double> P = attn::NormalizeRows<double>(s, Mask(), Normalizer::kSparsemax);
  const Mat<double> ds = attn::NormalizeRowsBackward<double>(Row<double>({1, 3, 7}), P, s, Mask(),
                                                             Normalizer::kSparsemax);
  CHECK(ds(0, 0) == -1);
  CHECK(ds(0, 1) == 1);
  CHECK(ds(0, 2) == 0);
}

TEST_CASE_TEMPLATE("hardmax: ties split equally, gradient exactly zero", T, float, double) {
  const Mat<T> w = attn::NormalizeRows<T>(Row<T>({1, 1, 0, -3}), Mask(), Normalizer::kHardmax);
  CHECK(w(0, 0) == T(0.5));
  CHECK(w(0, 1) == T(0.5));
  CHECK(w(0, 2) == 0);
  CHECK(w(0, 3) == 0);
  const Mat<T> third = attn::NormalizeRows<T>(Row<T>({2, 2, 2}), Mask(), Normalizer::kHardmax);
  CHECK(third(0, 1) == T(1) / T(3));
  CHECK_FALSE(attn::NormalizerHasGradient(Normalizer::kHardmax));
  const Mat<T> ds = attn::NormalizeRowsBackward<T>(Row<T>({1, 2, 3, 4}), w, Row<T>({1, 1, 0, -3}),
                                                   Mask(), Normalizer::kHardmax);
  CHECK(ds.isZero(0));
}

TEST_CASE_TEMPLATE("relunorm: the all-non-positive row is uniform over allowed keys, zero gradient",
                   T, float, double) {
  Mat<T> w, num;
  Vec<T> shift, den;
  attn::NormalizeRowsParts<T>(w, shift, num, den, Row<T>({-1, -2, -0.5}), Mask(),
                              Normalizer::kReluNorm);
  for (int j = 0; j < 3; ++j) {
    CHECK(w(0, j) == T(1) / T(3));
    CHECK(num(0, j) == 1);
  }
  CHECK(den(0) == 3);
  CHECK(shift(0) == 0);
  // Zero counts as non-positive; a masked key is left out of the count.
  Mask mask(1, 3);
  mask << true, true, false;
  attn::NormalizeRowsParts<T>(w, shift, num, den, Row<T>({0, -1, 5}), mask, Normalizer::kReluNorm);
  CHECK(w(0, 0) == T(0.5));
  CHECK(w(0, 1) == T(0.5));
  CHECK(w(0, 2) == 0);
  CHECK(den(0) == 2);
  const Mat<T> ds = attn::NormalizeRowsBackward<T>(Row<T>({1, -2, 3}), w, Row<T>({0, -1, 5}), mask,
                                                   Normalizer::kReluNorm);
  CHECK(ds.isZero(0));
  // The usual case: relu(s) / sum relu(s).
  attn::NormalizeRowsParts<T>(w, shift, num, den, Row<T>({3, -1, 1}), Mask(),
                              Normalizer::kReluNorm);
  CHECK(w(0, 0) == T(0.75));
  CHECK(w(0, 1) == 0);
  CHECK(w(0, 2) == T(0.25));
  CHECK(den(0) == 4);
}

TEST_CASE_TEMPLATE("sigmoid and none: no normalization across keys, stable at the extremes", T,
                   float, double) {
  const Mat<T> s = Row<T>({0, 2, -800, 800});
  const Mat<T> w = attn::NormalizeRows<T>(s, Mask(), Normalizer::kSigmoid);
  CHECK(w(0, 0) == T(0.5));
  CHECK(std::abs(double(w(0, 1)) - 1 / (1 + std::exp(-2.0))) < 1e-7);
  CHECK(w(0, 2) == 0);
  CHECK(w(0, 3) == 1);
  CHECK_FALSE(AnyNaN(w));
  const Mat<T> raw = attn::NormalizeRows<T>(s, Mask(), Normalizer::kNone);
  CHECK(raw == s);
}

TEST_CASE("masks: causal structure, top-left aligned as SDPA, and combination") {
  const Mask c = attn::CausalMask(4, 4);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) CHECK(c(i, j) == (j <= i));
  }
  // torch.tril(torch.ones(3, 4)): [[1,0,0,0],[1,1,0,0],[1,1,1,0]]
  const Mask wide = attn::CausalMask(3, 4);
  Mask expected(3, 4);
  expected << 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0;
  CHECK(wide == expected);
  const Mask tall = attn::CausalMask(4, 2);  // rows 1.. see both keys
  CHECK(tall.row(3).all());
  CHECK_FALSE(tall(0, 1));
  CHECK(attn::FullMask(2, 3).all());
  Mask ex(3, 4);
  ex << 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1;
  Mask both(3, 4);
  both << 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0;
  CHECK(attn::CombineMasks(3, 4, true, ex) == both);
  CHECK(attn::CombineMasks(3, 4, false, ex) == ex);
  CHECK(attn::CombineMasks(3, 4, false, Mask()).all());

  // Through the forward: upper triangle zero, the first row one-hot on key 0 for every
  // normalizer whose rows sum to 1.
  TestRng rng{8};
  const MatD X = RandomMatrix(5, 4, rng);
  const MultiHeadWeights<double> w = attn::RandomWeights<double>(4, 2, 3, 3, 9);
  for (const Normalizer nz : kAllNormalizers) {
    CAPTURE(attn::NormalizerName(nz));
    MultiHeadConfig cfg;
    cfg.causal = true;
    cfg.head.normalizer = nz;
    MultiHeadTrace<double> tr;
    REQUIRE(attn::MultiHeadForward<double>(tr, X, nullptr, w, cfg));
    CHECK(tr.mask == attn::CausalMask(5, 5));
    for (const HeadTrace<double>& h : tr.heads) {
      for (int i = 0; i < 5; ++i) {
        for (int j = i + 1; j < 5; ++j) CHECK(h.weights(i, j) == 0);
      }
      if (nz != Normalizer::kSigmoid && nz != Normalizer::kNone) {
        CHECK(h.weights(0, 0) == 1);
        CHECK(h.entropy(0) == 0);
      }
      // Query 0 sees only key 0: its output is weight(0, 0) v_0.
      for (int col = 0; col < h.V.cols(); ++col) {
        CHECK(h.output(0, col) == h.weights(0, 0) * h.V(0, col));
      }
    }
  }
}

TEST_CASE("fully masked rows: zeros forward, zero and finite gradients, for every normalizer") {
  TestRng rng{123};
  const MatD X = RandomMatrix(4, 3, rng), Y = RandomMatrix(5, 3, rng);
  const MultiHeadWeights<double> w = attn::RandomWeights<double>(3, 2, 2, 3, 4);
  for (const bool everything : {false, true}) {
    for (const bool cross : {false, true}) {
      for (const Normalizer nz : kAllNormalizers) {
        CAPTURE(attn::NormalizerName(nz));
        CAPTURE(cross);
        CAPTURE(everything);
        const int m = cross ? 5 : 4;
        MultiHeadConfig cfg;
        cfg.head.normalizer = nz;
        cfg.mask = Mask::Constant(4, m, !everything);
        cfg.mask.row(2).setConstant(false);  // query 2 may attend to nothing
        MultiHeadTrace<double> tr;
        REQUIRE(attn::MultiHeadForward<double>(tr, X, cross ? &Y : nullptr, w, cfg));
        for (const HeadTrace<double>& h : tr.heads) {
          CHECK(h.weights.row(2).isZero(0));
          CHECK(h.numerator.row(2).isZero(0));
          CHECK(h.denominator(2) == 1);
          CHECK(h.shift(2) == 0);
          CHECK(h.output.row(2).isZero(0));
          CHECK(h.entropy(2) == 0);
          CHECK_FALSE(AnyNaN(h.weights));
        }
        CHECK(tr.output.row(2).isZero(0));
        MultiHeadGrads<double> g;
        REQUIRE(attn::MultiHeadBackward<double>(g, MatD::Ones(4, 3), tr, X, cross ? &Y : nullptr, w,
                                                cfg));
        for (const MatD* m2 : {&g.dX, &g.dY, &g.dW_O, &g.dconcat}) CHECK_FALSE(AnyNaN(*m2));
        for (std::size_t h = 0; h < 2; ++h) {
          CHECK_FALSE(AnyNaN(g.dW_Q[h]));
          CHECK_FALSE(AnyNaN(g.dW_K[h]));
          CHECK_FALSE(AnyNaN(g.dW_V[h]));
          CHECK(g.heads[h].dscaled.row(2).isZero(0));
          CHECK(g.heads[h].dQ.row(2).isZero(0));  // nothing flows back through the row
        }
        if (everything) {
          CHECK(tr.output.isZero(0));
          for (std::size_t h = 0; h < 2; ++h) {
            CHECK(g.dW_Q[h].isZero(0));
            CHECK(g.dW_K[h].isZero(0));
            CHECK(g.dW_V[h].isZero(0));
          }
          CHECK(g.dX.isZero(0));
        }
      }
    }
  }
}

TEST_CASE("temperature -> 0: softmax approaches hardmax (ties included)") {
  TestRng rng{99};
  const MatD Q = RandomMatrix(6, 4, rng), K = RandomMatrix(7, 4, rng), V = RandomMatrix(7, 2, rng);
  HeadConfig hard;
  hard.normalizer = Normalizer::kHardmax;
  HeadTrace<double> h;
  REQUIRE(attn::HeadForward<double>(h, Q, K, V, Mask(), hard));
  // the smallest gap between the two best scaled scores of a row, at T = 1
  double gap = 1e9;
  for (int i = 0; i < 6; ++i) {
    std::vector<double> row;
    for (int j = 0; j < 7; ++j) row.push_back(h.scaled(i, j));
    std::sort(row.begin(), row.end(), std::greater<double>());
    gap = std::min(gap, row[0] - row[1]);
  }
  REQUIRE(gap > 1e-3);
  double previous = 1;
  for (const double t : {1.0, 0.3, 0.1, 0.03, 0.01, 1e-3, 1e-4}) {
    HeadConfig soft;
    soft.temperature = t;
    HeadTrace<double> s;
    REQUIRE(attn::HeadForward<double>(s, Q, K, V, Mask(), soft));
    const double dist = (s.weights - h.weights).cwiseAbs().maxCoeff();
    CAPTURE(t);
    CHECK(dist <= previous);
    previous = dist;
    CHECK(dist <= std::exp(-gap / t) * 7 + 1e-15);  // the textbook bound (M - 1) e^{-gap/T}
  }
  CHECK(previous < 1e-12);
  // Exact ties: softmax at a tiny temperature splits like hardmax does.
  const Mat<double> tied = Row<double>({2, 2, 1});
  const Mat<double> cold = attn::NormalizeRows<double>(tied / 1e-4, Mask(), Normalizer::kSoftmax);
  CHECK(cold(0, 0) == 0.5);
  CHECK(cold(0, 1) == 0.5);
  CHECK(cold(0, 2) == 0);
  // And the entropy falls from log(M) (hot) to 0 (cold).
  HeadConfig hot;
  hot.temperature = 1e6;
  HeadTrace<double> warm;
  REQUIRE(attn::HeadForward<double>(warm, Q, K, V, Mask(), hot));
  for (int i = 0; i < 6; ++i)
    CHECK(warm.entropy(i) == doctest::Approx(std::log(7.0)).epsilon(1e-6));
}

TEST_CASE("IdentityWeights with H heads reproduces the single-head AttentionForward output") {
  TestRng rng{4};
  const MatD Xd = RandomMatrix(6, 5, rng, -2, 2);
  const Mat<float> X = Xd.cast<float>();
  attn::AttentionTrace<float> single;
  attn::AttentionConfig acfg;  // identity, scaled, T = 1
  acfg.temperature = 0.6;
  REQUIRE(attn::AttentionForward<float>(single, X, acfg));
  for (int heads = 1; heads <= 8; ++heads) {
    CAPTURE(heads);
    const MultiHeadWeights<float> w = attn::IdentityWeights<float>(5, heads);
    REQUIRE(w.W_Q.size() == static_cast<std::size_t>(heads));
    CHECK(w.W_O.rows() == 5 * heads);
    CHECK(w.W_O.cols() == 5);
    MultiHeadConfig cfg;
    cfg.head.temperature = 0.6;
    MultiHeadTrace<float> tr;
    REQUIRE(attn::MultiHeadForward<float>(tr, X, nullptr, w, cfg));
    for (const HeadTrace<float>& h : tr.heads) {
      CHECK(h.Q == X);  // x I = x
      CHECK(h.weights == single.weights);
      CHECK(h.output == single.output);  // every head: the seed's account, to the bit
    }
    // The average o/H + ... + o/H is exact for H = 1, 2 only: for H = 4, say, the partial sum
    // 3o/4 may need one more bit than o has.
    if (heads <= 2) {
      CHECK(tr.output == single.output);
    } else {
      const double e = (tr.output - single.output).cwiseAbs().maxCoeff();
      CHECK(e <= 1e-6 * std::max(1.0f, single.output.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("RandomWeights: head 0 is AttentionForward's projections, every head and matrix its own stream") {
  const MultiHeadWeights<float> w = attn::RandomWeights<float>(6, 3, 4, 2, 17);
  REQUIRE(w.W_Q.size() == 3);
  CHECK(w.W_Q[0] == attn::RandomProjection<float>(6, 4, 17, 0));
  CHECK(w.W_K[0] == attn::RandomProjection<float>(6, 4, 17, 1));
  CHECK(w.W_V[0] == attn::RandomProjection<float>(6, 2, 17, 2));
  CHECK(w.W_O == attn::RandomProjection<float>(6, 6, 17, 3));
  CHECK(w.W_O.rows() == 6);  // H * Dv
  CHECK(w.W_O.cols() == 6);  // D
  CHECK(w.W_Q[2] == attn::RandomProjection<float>(6, 4, 17, 8));
  CHECK(w.W_V[1] == attn::RandomProjection<float>(6, 2, 17, 6));
  for (std::size_t a = 0; a < 3; ++a) {
    CHECK(w.W_Q[a] != w.W_K[a]);
    for (std::size_t b = a + 1; b < 3; ++b) {
      CHECK(w.W_Q[a] != w.W_Q[b]);
      CHECK(w.W_K[a] != w.W_K[b]);
      CHECK(w.W_V[a] != w.W_V[b]);
    }
  }
  const MultiHeadWeights<float> again = attn::RandomWeights<float>(6, 3, 4, 2, 17);
  CHECK(again.W_V[2] == w.W_V[2]);
  CHECK(attn::RandomWeights<float>(6, 3, 4, 2, 18).W_Q[1] != w.W_Q[1]);
  CHECK(attn::RandomWeights<double>(6, 3, 4, 2, 17).W_O.cast<float>() == w.W_O);
}

TEST_CASE("normalizer names") {
  for (const Normalizer nz : kAllNormalizers) {
    Normalizer back = Normalizer::kSoftmax;
    CHECK(attn::ParseNormalizer(attn::NormalizerName(nz), &back));
    CHECK(back == nz);
    CHECK(attn::NormalizerHasGradient(nz) == (nz != Normalizer::kHardmax));
  }
  CHECK(std::string(attn::NormalizerName(Normalizer::kReluNorm)) == "relunorm");
  Normalizer n = Normalizer::kSigmoid;
  CHECK_FALSE(attn::ParseNormalizer("Softmax", &n));
  CHECK_FALSE(attn::ParseNormalizer("", &n));
  CHECK(n == Normalizer::kSigmoid);  // untouched on failure
}

TEST_CASE("refusals: shapes, temperature, scale, non-finite values, one-line messages") {
  TestRng rng{6};
  const MatD X = RandomMatrix(3, 4, rng);
  const MultiHeadWeights<double> w = attn::RandomWeights<double>(4, 2, 3, 2, 1);
  MultiHeadTrace<double> tr;
  std::string error;
  auto refused = [&](const MatD& x, const MatD* y, const MultiHeadWeights<double>& ww,
                     const MultiHeadConfig& cfg) {
    error.clear();
    const bool ok = attn::MultiHeadForward<double>(tr, x, y, ww, cfg, &error);
    return !ok && !error.empty() && error.find('\n') == std::string::npos;
  };
  const MultiHeadConfig fine;
  REQUIRE(attn::MultiHeadForward<double>(tr, X, nullptr, w, fine, &error));
  const MatD Y = RandomMatrix(5, 3, rng);  // the wrong width
  CHECK(refused(X, &Y, w, fine));
  MultiHeadWeights<double> bad = w;
  bad.W_K.pop_back();
  CHECK(refused(X, nullptr, bad, fine));
  bad = w;
  bad.W_Q[1] = RandomMatrix(4, 2, rng);  // d_k 2 against W_K's 3
  CHECK(refused(X, nullptr, bad, fine));
  bad = w;
  bad.W_O = RandomMatrix(3, 4, rng);  // 4 rows needed
  CHECK(refused(X, nullptr, bad, fine));
  bad = w;
  bad.W_V[0](0, 0) = std::numeric_limits<double>::infinity();
  CHECK(refused(X, nullptr, bad, fine));
  CHECK(refused(X, nullptr, MultiHeadWeights<double>(), fine));
  MultiHeadConfig cfg;
  cfg.mask = Mask::Constant(3, 2, true);
  CHECK(refused(X, nullptr, w, cfg));
  cfg = MultiHeadConfig();
  cfg.head.temperature = 0;
  CHECK(refused(X, nullptr, w, cfg));
  cfg.head.temperature = std::numeric_limits<double>::quiet_NaN();
  CHECK(refused(X, nullptr, w, cfg));
  cfg = MultiHeadConfig();
  cfg.head.scale = std::numeric_limits<double>::infinity();
  CHECK(refused(X, nullptr, w, cfg));
  MatD nan_x = X;
  nan_x(1, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK(refused(nan_x, nullptr, w, fine));

  // float: a temperature that is 0 once rounded, and scores that overflow
  const Mat<float> Xf = X.cast<float>();
  const MultiHeadWeights<float> wf = attn::RandomWeights<float>(4, 1, 3, 2, 1);
  MultiHeadTrace<float> trf;
  cfg = MultiHeadConfig();
  cfg.head.temperature = 1e-60;
  error.clear();
  CHECK_FALSE(attn::MultiHeadForward<float>(trf, Xf, nullptr, wf, cfg, &error));
  CHECK(error.rfind("head 0: temperature", 0) == 0);
  const Mat<float> huge = Mat<float>::Constant(3, 4, 1e20f);
  CHECK_FALSE(attn::MultiHeadForward<float>(trf, huge, nullptr, wf, MultiHeadConfig(), &error));

  // HeadForward and the backwards refuse bad shapes too
  HeadTrace<double> h;
  CHECK_FALSE(attn::HeadForward<double>(h, RandomMatrix(2, 3, rng), RandomMatrix(4, 2, rng),
                                        RandomMatrix(4, 2, rng), Mask(), HeadConfig(), &error));
  CHECK_FALSE(attn::HeadForward<double>(h, RandomMatrix(2, 3, rng), RandomMatrix(4, 3, rng),
                                        RandomMatrix(5, 2, rng), Mask(), HeadConfig(), &error));
  CHECK_FALSE(attn::HeadForward<double>(h, RandomMatrix(2, 3, rng), RandomMatrix(4, 3, rng),
                                        RandomMatrix(4, 2, rng), Mask::Constant(4, 2, true),
                                        HeadConfig(), &error));
  REQUIRE(attn::HeadForward<double>(h, RandomMatrix(2, 3, rng), RandomMatrix(4, 3, rng),
                                    RandomMatrix(4, 2, rng), Mask(), HeadConfig(), &error));
  HeadGrads<double> hg;
  CHECK_FALSE(attn::HeadBackward<double>(hg, MatD::Ones(2, 3), h, Mask(), HeadConfig(), &error));
  CHECK(attn::HeadBackward<double>(hg, MatD::Ones(2, 2), h, Mask(), HeadConfig(), &error));
  REQUIRE(attn::MultiHeadForward<double>(tr, X, nullptr, w, fine));
  MultiHeadGrads<double> g;
  CHECK_FALSE(
      attn::MultiHeadBackward<double>(g, MatD::Ones(3, 3), tr, X, nullptr, w, fine, &error));
  CHECK(attn::MultiHeadBackward<double>(g, MatD::Ones(3, 4), tr, X, nullptr, w, fine, &error));
}

TEST_CASE("entropy per row as documented") {
  HeadTrace<double> h;
  const MatD Q = MatD::Zero(1, 2), K = MatD::Zero(4, 2), V = MatD::Ones(4, 1);
  HeadConfig cfg;  // all scores 0
  REQUIRE(attn::HeadForward<double>(h, Q, K, V, Mask(), cfg));
  CHECK(h.entropy(0) == doctest::Approx(std::log(4.0)).epsilon(1e-15));  // uniform softmax
  cfg.normalizer = Normalizer::kSigmoid;  // 0.5 each, renormalized: uniform again
  REQUIRE(attn::HeadForward<double>(h, Q, K, V, Mask(), cfg));
  CHECK(h.entropy(0) == doctest::Approx(std::log(4.0)).epsilon(1e-15));
  cfg.normalizer = Normalizer::kNone;  // all weights 0: no positive part
  REQUIRE(attn::HeadForward<double>(h, Q, K, V, Mask(), cfg));
  CHECK(h.entropy(0) == 0);
  cfg.normalizer = Normalizer::kHardmax;  // four-way tie: log 4
  REQUIRE(attn::HeadForward<double>(h, Q, K, V, Mask(), cfg));
  CHECK(h.entropy(0) == doctest::Approx(std::log(4.0)).epsilon(1e-15));
}
