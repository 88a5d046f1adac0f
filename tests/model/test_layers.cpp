// Every layer's backward (layers.h) against central finite differences, ggml style: one table,
// one error number per case (the largest |analytic - numeric| over every input entry, divided
// by max(1, the largest |numeric|)), printed with the case's name.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "engine/base/rng.h"
#include "model/arch/layers.h"

using namespace attn;
using namespace attn::model;

namespace {

MatD Random(int rows, int cols, std::uint64_t seed, double scale = 1.0) {
  rng::SplitMix64 s(seed);
  std::vector<double> z(static_cast<std::size_t>(rows * cols));
  rng::FillStandardNormal(s, z.data(), static_cast<int>(z.size()));
  MatD m(rows, cols);
  for (int i = 0; i < rows * cols; ++i) m.data()[i] = scale * z[static_cast<std::size_t>(i)];
  return m;
}

double Dot(const MatD& a, const MatD& b) {  // sum a .* b
  double s = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) s += a.data()[i] * b.data()[i];
  return s;
}

using Inputs = std::vector<MatD>;
struct FdCase {
  std::string name;
  Inputs inputs;
  std::function<double(const Inputs&)> loss;    // a scalar of the inputs
  std::function<Inputs(const Inputs&)> grads;   // its gradient for each input (the backward)
};

double FdError(const FdCase& c) {
  const Inputs analytic = c.grads(c.inputs);
  double worst = 0, largest = 0;
  Inputs x = c.inputs;
  const double h = 1e-6;
  for (std::size_t k = 0; k < x.size(); ++k) {
    REQUIRE(analytic[k].rows() == x[k].rows());
    REQUIRE(analytic[k].cols() == x[k].cols());
    for (Eigen::Index i = 0; i < x[k].size(); ++i) {
      const double keep = x[k].data()[i];
      x[k].data()[i] = keep + h;
      const double up = c.loss(x);
      x[k].data()[i] = keep - h;
      const double down = c.loss(x);
      x[k].data()[i] = keep;
      const double numeric = (up - down) / (2 * h);
      worst = std::max(worst, std::abs(numeric - analytic[k].data()[i]));
      largest = std::max(largest, std::abs(numeric));
    }
  }
  return worst / std::max(1.0, largest);
}

VecD AsVec(const MatD& m) { return m.col(0); }
MatD AsMat(const VecD& v) { return v; }

std::vector<FdCase> Cases() {
  const int T = 5, C = 6, F = 7, V = 9, P = 8;
  const std::vector<int> tokens = {3, 0, 3, 8, 1};
  const std::vector<int> targets = {1, -1, 8, 0, 3};  // -1: a position without a loss
  const MatD r_tc = Random(T, C, 101), r_tf = Random(T, F, 102), r_tv = Random(T, V, 103);
  std::vector<FdCase> cases;

  cases.push_back({"embedding", {Random(V, C, 1), Random(P, C, 2)},
                   [=](const Inputs& in) {
                     MatD out;
                     EmbeddingForward(out, tokens, in[0], in[1]);
                     return Dot(out, r_tc);
                   },
                   [=](const Inputs& in) {
                     Inputs g = {MatD::Zero(V, C), MatD::Zero(P, C)};
                     EmbeddingBackward(g[0], g[1], r_tc, tokens);
                     return g;
                   }});

  MatD ln_w = Random(C, 1, 4, 0.5);
  ln_w.array() += 1.0;
  cases.push_back({"layernorm", {Random(T, C, 3, 2.0), ln_w, Random(C, 1, 5)},
                   [=](const Inputs& in) {
                     MatD out;
                     VecD mean, rstd;
                     LayerNormForward(out, mean, rstd, in[0], AsVec(in[1]), AsVec(in[2]));
                     return Dot(out, r_tc);
                   },
                   [=](const Inputs& in) {
                     MatD out;
                     VecD mean, rstd, dw = VecD::Zero(C), db = VecD::Zero(C);
                     LayerNormForward(out, mean, rstd, in[0], AsVec(in[1]), AsVec(in[2]));
                     MatD dx = MatD::Zero(T, C);
                     LayerNormBackward(dx, dw, db, r_tc, in[0], AsVec(in[1]), mean, rstd);
                     return Inputs{dx, AsMat(dw), AsMat(db)};
                   }});

  cases.push_back({"linear", {Random(T, C, 6), Random(C, F, 7), Random(F, 1, 8)},
                   [=](const Inputs& in) {
                     MatD out;
                     LinearForward(out, in[0], in[1], AsVec(in[2]));
                     return Dot(out, r_tf);
                   },
                   [=](const Inputs& in) {
                     MatD dx = MatD::Zero(T, C), dw = MatD::Zero(C, F);
                     VecD db = VecD::Zero(F);
                     LinearBackward(dx, dw, db, r_tf, in[0], in[1]);
                     return Inputs{dx, dw, AsMat(db)};
                   }});

  cases.push_back({"gelu (tanh)", {Random(T, F, 9, 2.0)},
                   [=](const Inputs& in) {
                     MatD out;
                     GeluForward(out, in[0]);
                     return Dot(out, r_tf);
                   },
                   [=](const Inputs& in) {
                     MatD dx = MatD::Zero(T, F);
                     GeluBackward(dx, r_tf, in[0]);
                     return Inputs{dx};
                   }});

  cases.push_back({"residual", {Random(T, C, 10), Random(T, C, 11)},
                   [=](const Inputs& in) {
                     MatD out;
                     ResidualForward(out, in[0], in[1]);
                     return Dot(out, r_tc);
                   },
                   [=](const Inputs&) {
                     Inputs g = {MatD::Zero(T, C), MatD::Zero(T, C)};
                     ResidualBackward(g[0], g[1], r_tc);
                     return g;
                   }});

  cases.push_back({"tied logits", {Random(T, C, 12), Random(V, C, 13)},
                   [=](const Inputs& in) {
                     MatD out;
                     TiedLogitsForward(out, in[0], in[1]);
                     return Dot(out, r_tv);
                   },
                   [=](const Inputs& in) {
                     Inputs g = {MatD::Zero(T, C), MatD::Zero(V, C)};
                     TiedLogitsBackward(g[0], g[1], r_tv, in[0], in[1]);
                     return g;
                   }});

  const double scale = 0.25;  // the mean over 4 positions with a target
  cases.push_back({"softmax cross-entropy", {Random(T, V, 14, 3.0)},
                   [=](const Inputs& in) {
                     MatD probs;
                     VecD losses;
                     return scale * CrossEntropyForward(probs, losses, in[0], targets);
                   },
                   [=](const Inputs& in) {
                     MatD probs, d = MatD::Zero(T, V);
                     VecD losses;
                     CrossEntropyForward(probs, losses, in[0], targets);
                     CrossEntropyBackward(d, probs, targets, scale);
                     return Inputs{d};
                   }});
  return cases;
}

}  // namespace

TEST_CASE("model layers: every backward matches central finite differences (one error per case)") {
  for (const FdCase& c : Cases()) {
    const double err = FdError(c);
    std::printf("  fd %-24s max error %.3g\n", c.name.c_str(), err);
    INFO(c.name << ": " << err);
    CHECK(err < 1e-7);
  }
}

TEST_CASE("model layers: cross-entropy of a uniform row is log V, and a row without target is 0") {
  MatD logits = MatD::Zero(2, 4), probs;
  VecD losses;
  const double total = CrossEntropyForward(probs, losses, logits, {2, -1});
  CHECK(total == doctest::Approx(std::log(4.0)).epsilon(1e-15));
  CHECK(losses(1) == 0.0);
  CHECK(probs(1, 3) == 0.25);
}

TEST_CASE("model layers: GELU against its defining formula at a few points") {
  MatD x(1, 4), out;
  x << -3.0, -0.5, 0.0, 1.5;
  GeluForward(out, x);
  for (int j = 0; j < 4; ++j) {
    const double v = x(0, j);
    const double want = 0.5 * v * (1 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    CHECK(out(0, j) == doctest::Approx(want).epsilon(1e-15));
  }
  CHECK(out(0, 2) == 0.0);
}

TEST_CASE("model layers: a large product split by its columns over threads gives every bit of the one-thread product") {
  // (64, 512) x (512, 300): above the split's threshold; 300 columns do not halve into the
  // kernel's blocks evenly, so the second part starts inside one
  const MatF x = Random(64, 512, 11).cast<float>(), w = Random(512, 300, 12).cast<float>();
  const MatF one = linalg::MatMul(x, w);
  for (int threads : {2, 3, 7}) {
    CAPTURE(threads);
    const MatF split = MatMulByColumns(x, w, threads);
    REQUIRE(split.rows() == one.rows());
    REQUIRE(split.cols() == one.cols());
    CHECK(std::memcmp(split.data(), one.data(), sizeof(float) * static_cast<std::size_t>(one.size())) == 0);
  }
}
