// The seed's question on the shipped model's real heads (model/inspect/head_information.h): what the
// concatenation, W_O and the residual add to A, on the seed's sentences (short: everything
// recoverable, d_head = 32 against a handful of keys) and on a sentence longer than d_head + 1
// tokens, where A alone no longer tells the pattern.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "model/format/bundle.h"
#include "model/inspect/head_information.h"
#include "quick.h"

using namespace attn;
using namespace attn::model;

namespace {

const Bundle& ShippedBundle() {
  static Bundle b;
  static bool loaded = false;
  if (!loaded) {
    std::string error;
    REQUIRE_MESSAGE(LoadBundle(std::string(ATTNLAB_SOURCE_DIR) + "/web/model", &b, &error), error);
    loaded = true;
  }
  return b;
}

SequenceActs<float> Run(const Bundle& b, const std::string& text) {
  std::vector<int> ids;
  std::string error;
  REQUIRE(b.tokenizer->Encode(text, &ids, &error));
  ids.insert(ids.begin(), Bpe::kEndOfText);
  Sequence s;
  s.tokens = ids;
  s.targets.assign(ids.size(), -1);
  SequenceActs<float> acts;
  REQUIRE_MESSAGE(Forward(acts, b.params, b.config, s, &error), error);
  return acts;
}

// The (layer, head) pairs a case checks: `all`, or the first only under the sanitizers (quick.h).
std::vector<std::pair<int, int>> Heads(std::vector<std::pair<int, int>> all) {
  if (testing_quick::Quick()) all.resize(1);
  return all;
}

}  // namespace

TEST_CASE("head information: on the seed's sentences every head's pattern is recoverable, at every step") {
  const Bundle& b = ShippedBundle();
  for (const char* text : {"я люблю суши", "I love sushi"}) {
    const SequenceActs<float> acts = Run(b, text);
    const int T = static_cast<int>(acts.emb.rows());
    std::vector<std::pair<int, int>> every;
    for (int layer = 0; layer < b.config.layers; ++layer)
      for (int head = 0; head < b.config.heads; ++head) every.emplace_back(layer, head);
    for (const auto& [layer_, head_] : Heads(every)) {
      const int layer = layer_, head = head_;  // (doctest's CAPTURE takes no structured binding)
      {
        HeadInformation hi;
        std::string error;
        REQUIRE_MESSAGE(AnalyzeHead(b.params, b.config, acts, layer, head, T - 1, -1, &hi, &error), error);
        CAPTURE(text);
        CAPTURE(layer);
        CAPTURE(head);
        CHECK(hi.keys == T);
        CHECK(hi.d_head == 32);
        CHECK(hi.from_a.info.recoverable);
        CHECK(hi.from_concat.recoverable);
        CHECK(hi.from_output.recoverable);
        CHECK(hi.from_residual.recoverable);
        CHECK(hi.w_o.rank == b.config.d_model);
        CHECK(hi.w_v.rank == b.config.d_model);
        CHECK(hi.mlp.rank == b.config.d_model);
        if (layer == 0 && head == 0) {
          MESSAGE(text << ": T = " << T << ", cond W_O " << hi.w_o.condition << ", cond [W_V] "
                       << hi.w_v.condition << ", cond MLP Jacobian " << hi.mlp.condition);
        }
      }
    }
  }
}

TEST_CASE("head information: past d_head + 1 keys, A loses the pattern; concat and W_O add nothing, the residual's two unknowns can only add") {
  const Bundle& b = ShippedBundle();
  const std::string text =
      "The quick brown fox jumps over the lazy dog, and then the dog wakes up and chases the fox "
      "all the way back to the old farm by the river.";
  const SequenceActs<float> acts = Run(b, text);
  const int T = static_cast<int>(acts.emb.rows());
  REQUIRE(T > 34);
  const int query = T - 1;
  for (const auto& [layer_, head_] : Heads({{0, 0}, {0, 2}, {3, 0}, {3, 2}})) {
    const int layer = layer_, head = head_;
    {
      HeadInformation hi;
      std::string error;
      HeadInformationOptions all;
      all.all_lps = true;
      REQUIRE_MESSAGE(AnalyzeHead(b.params, b.config, acts, layer, head, query, -1, &hi, &error, all), error);
      CAPTURE(layer);
      CAPTURE(head);
      const int lost = hi.from_a.info.same_output_dim;
      CHECK(lost == T - 1 - 32);  // n - 1 - Dh: the values span their whole 32 dimensions
      CHECK_FALSE(hi.from_a.info.recoverable);
      CHECK(hi.from_concat.head_dim == lost);
      CHECK(hi.from_output.head_dim == lost);
      CHECK(hi.from_concat.dim == b.config.heads * lost);  // every head of the layer loses as many
      CHECK(hi.from_output.dim == b.config.heads * lost);
      // The ranges: the same polytope, so the same numbers up to the LPs' rounding.
      CHECK((hi.from_concat.ranges - hi.from_a.ranges).cwiseAbs().maxCoeff() <= 1e-7);
      CHECK((hi.from_output.ranges - hi.from_a.ranges).cwiseAbs().maxCoeff() <= 1e-7);
      // Two more unknowns: the residual's set contains A's.
      CHECK(hi.from_residual.head_dim >= lost);
      CHECK(hi.from_residual.head_dim <= lost + 2);
      for (int i = 0; i < hi.keys; ++i) {
        CHECK(hi.from_residual.ranges(i, 0) <= hi.from_a.ranges(i, 0) + 1e-7);
        CHECK(hi.from_residual.ranges(i, 1) >= hi.from_a.ranges(i, 1) - 1e-7);
      }
      double widest_a = 0, widest_res = 0;
      for (int i = 0; i < hi.keys; ++i) {
        widest_a = std::max(widest_a, hi.from_a.ranges(i, 1) - hi.from_a.ranges(i, 0));
        widest_res = std::max(widest_res, hi.from_residual.ranges(i, 1) - hi.from_residual.ranges(i, 0));
      }
      MESSAGE("layer " << layer << " head " << head << ": T = " << T << ", lost " << lost
                       << ", residual " << hi.from_residual.head_dim << ", widest range A "
                       << widest_a << " residual " << widest_res << ", target " << hi.target
                       << " alpha " << hi.from_a.collision.alpha2(hi.target) << " residual "
                       << hi.from_residual.alpha2(hi.target) << " (was "
                       << acts.blocks[layer].attn.heads[head].weights(query, hi.target) << ")");
    }
  }
}

TEST_CASE("head information: bad layer, head, query or target are refused with a message") {
  const Bundle& b = ShippedBundle();
  const SequenceActs<float> acts = Run(b, "I love sushi");
  HeadInformation hi;
  std::string error;
  CHECK_FALSE(AnalyzeHead(b.params, b.config, acts, 4, 0, 0, -1, &hi, &error));
  CHECK(error == "layer: expected a layer index from 0 to 3, got 4");
  CHECK_FALSE(AnalyzeHead(b.params, b.config, acts, 0, b.config.heads, 0, -1, &hi, &error));
  CHECK_FALSE(AnalyzeHead(b.params, b.config, acts, 0, 0, 99, -1, &hi, &error));
  CHECK_FALSE(AnalyzeHead(b.params, b.config, acts, 0, 0, 1, 2, &hi, &error));
  CHECK(error == "target: out of range");
}

// ResidualMlpJacobian (the Information panel's "after the MLP") against central differences of
// y' = y + MLP(Norm(y)) computed here in double from the definitions, for each family's block:
// LayerNorm + GELU (tanh and erf forms, with biases) and RMSNorm + SwiGLU. The weights are scaled
// up from InitParams' 0.02 so that the MLP's part of the Jacobian is not small beside I.
namespace {

VecD ResidualMlpRow(const BlockParams<float>& b, const ModelConfig& c, const VecD& y) {  // (C) -> (C)
  const int C = static_cast<int>(y.size()), F = static_cast<int>(b.fc_w.cols());
  double mean = 0, var = 0;
  if (!c.rms_norm) {
    for (int k = 0; k < C; ++k) mean += y(k);
    mean /= C;
  }
  for (int k = 0; k < C; ++k) var += (y(k) - mean) * (y(k) - mean);
  const double rstd = 1.0 / std::sqrt(var / C + c.ln_eps);
  VecD z(C);  // Norm(y)
  for (int k = 0; k < C; ++k)
    z(k) = (y(k) - mean) * rstd * b.ln2_w(k) + (c.rms_norm ? 0.0 : static_cast<double>(b.ln2_b(k)));
  VecD h(F);
  for (int f = 0; f < F; ++f) {
    double up = c.swiglu ? 0.0 : static_cast<double>(b.fc_b(f)), gate = 0;
    for (int k = 0; k < C; ++k) up += z(k) * b.fc_w(k, f);
    if (c.swiglu) {
      for (int k = 0; k < C; ++k) gate += z(k) * b.gate_w(k, f);
      h(f) = gate / (1 + std::exp(-gate)) * up;  // SiLU(x W_gate) * (x W_up)
    } else if (c.gelu_erf) {
      h(f) = 0.5 * up * (1 + std::erf(up / std::sqrt(2.0)));
    } else {
      h(f) = 0.5 * up * (1 + std::tanh(std::sqrt(2.0 / M_PI) * (up + 0.044715 * up * up * up)));
    }
  }
  VecD out = y;
  for (int k = 0; k < C; ++k) {
    double sum = c.swiglu ? 0.0 : static_cast<double>(b.proj_b(k));
    for (int f = 0; f < F; ++f) sum += h(f) * b.proj_w(f, k);
    out(k) += sum;
  }
  return out;
}

}  // namespace

TEST_CASE("head information: the MLP's Jacobian matches central differences (LayerNorm + GELU tanh/erf, RMSNorm + SwiGLU)") {
  struct Family { const char* name; bool rms, swiglu, erf; };
  for (const Family fam : {Family{"layernorm-gelu", false, false, false}, Family{"layernorm-gelu-erf", false, false, true},
                           Family{"rmsnorm-swiglu", true, true, false}}) {
    ModelConfig c;
    c.vocab = 40; c.d_model = 16; c.layers = 1; c.heads = 2; c.context = 16; c.mlp = 24;
    c.rms_norm = fam.rms; c.swiglu = fam.swiglu; c.gelu_erf = fam.erf; c.rotary = fam.rms; c.tied = true;
    Params<float> p = InitParams<float>(c, 7);
    BlockParams<float>& b = p.blocks[0];
    b.fc_w *= 15.0f; b.proj_w *= 30.0f;
    if (c.swiglu) b.gate_w *= 15.0f;
    for (int k = 0; k < c.d_model; ++k) b.ln2_w(k) = 0.5f + 0.07f * static_cast<float>(k);
    if (!c.rms_norm) b.fc_b.setConstant(0.3f);
    Sequence s;
    s.tokens = {3, 17, 5, 29, 11, 2};
    s.targets.assign(s.tokens.size(), -1);
    SequenceActs<float> acts;
    std::string error;
    REQUIRE_MESSAGE(Forward(acts, p, c, s, &error), error);
    const BlockActs<float>& a = acts.blocks[0];
    const int t = 4, C = c.d_model;
    const MatD G = ResidualMlpJacobian(b, a, t, c);  // (C, C): row j = d y' / d y_j
    const VecD y0 = a.res1.row(t).transpose().cast<double>();
    double worst = 0, largest_mlp = 0;
    for (int j = 0; j < C; ++j) {
      const double h = 1e-5;
      VecD yp = y0, ym = y0;
      yp(j) += h;
      ym(j) -= h;
      const VecD d = (ResidualMlpRow(b, c, yp) - ResidualMlpRow(b, c, ym)) / (2 * h);
      for (int k = 0; k < C; ++k) {
        worst = std::max(worst, std::abs(d(k) - G(j, k)));
        largest_mlp = std::max(largest_mlp, std::abs(G(j, k) - (j == k ? 1.0 : 0.0)));
      }
    }
    INFO(std::string(fam.name));
    CHECK(largest_mlp > 0.5);  // the MLP's part is not negligible beside I
    CHECK(worst < 1e-6 * largest_mlp);  // the forward's float rounding; the GELU forms differ by ~1e-3
    MESSAGE(std::string(fam.name) << ": largest |G - I| " << largest_mlp << ", worst difference from central differences " << worst);
  }
}
