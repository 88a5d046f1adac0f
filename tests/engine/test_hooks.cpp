// The forward's named hook points (engine/attention/hooks.h) on one multi-head layer:
//   1. the names are TransformerLens's and read back;
//   2. the per-head points fire in order (q, k, v, attn_scores, pattern, z; head by head) with
//      the documented shapes, and hooks that change nothing give the plain forward's bits;
//   3. the edits made of hooks equal the same edit made without them: keys set to -inf in
//      attn_scores = the explicit mask (forward and backward), z set to 0 = a silent head;
//   4. a hook that fails, writes NaN or changes a shape stops the forward with its point's name.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "engine/attention/hooks.h"
#include "engine/attention/multihead.h"

using namespace attn;

namespace {

template <typename T>
bool HooksSameBits(const Mat<T>& a, const Mat<T>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(T) * static_cast<std::size_t>(a.size())) == 0);
}

// A sentence of 5 "embeddings" (5, 6) and 3 heads of widths (4, 3): deterministic, not trivial.
struct HooksLayer {
  MatF x;
  MultiHeadWeights<float> w;
  MultiHeadConfig cfg;
  HooksLayer() {
    w = RandomWeights<float>(6, 3, 4, 3, 17);
    x.resize(5, 6);
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      for (Eigen::Index j = 0; j < x.cols(); ++j) x(i, j) = std::sin(0.7f * static_cast<float>(i * 6 + j) + 0.3f);
  }
};


}  // namespace

TEST_CASE("hook names: TransformerLens's spelling, and every name reads back") {
  CHECK(HookName(HookPoint::kPattern, 0) == "blocks.0.attn.hook_pattern");
  CHECK(HookName(HookPoint::kResidPre, 11) == "blocks.11.hook_resid_pre");
  CHECK(HookName(HookPoint::kZ, 2) == "blocks.2.attn.hook_z");
  CHECK(HookName(HookPoint::kMlpPost, 1) == "blocks.1.mlp.hook_post");
  CHECK(HookName(HookPoint::kEmbed, -1) == "hook_embed");
  CHECK(HookName(HookPoint::kLnFinal, -1) == "ln_final.hook_normalized");
  for (int k = 0; k < kHookPointCount; ++k) CHECK(static_cast<int>(kHookPoints[k]) == k);  // each once, in order
  for (HookPoint p : kHookPoints) {
    for (int layer : {0, 3, 47}) {
      const std::string name = HookName(p, InBlock(p) ? layer : -1);
      HookPoint back = HookPoint::kLnFinal;
      int back_layer = -7;
      CAPTURE(name);
      REQUIRE(ParseHookName(name, &back, &back_layer));
      CHECK(back == p);
      CHECK(back_layer == (InBlock(p) ? layer : -1));
    }
  }
  HookPoint p;
  int l;
  for (const char* bad : {"", "hook_pattern", "blocks.attn.hook_pattern", "blocks.-1.attn.hook_z",
                          "blocks.0.attn.hook_patterns", "blocks.0x1.hook_resid_pre", "blocks.0.hook_embed",
                          "blocks.0.", "ln_final", "blocks.99999999999.hook_resid_pre", "blocks. 1.hook_resid_pre"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseHookName(bad, &p, &l));
  }
}

TEST_CASE("hooks on one layer: the per-head points fire in order, with their shapes; no-op hooks keep the bits") {
  HooksLayer L;
  MultiHeadTrace<float> plain, hooked;
  REQUIRE(MultiHeadForward<float>(plain, L.x, nullptr, L.w, L.cfg));
  std::vector<std::string> fired;
  Hooks<float> hooks;
  for (HookPoint p : {HookPoint::kQ, HookPoint::kK, HookPoint::kV, HookPoint::kAttnScores, HookPoint::kPattern,
                      HookPoint::kZ}) {
    hooks.Add(p, -1, -1, [&fired](const HookSite& s, MatF& act, std::string*) {
      fired.push_back(HookName(s.point, s.layer) + "[" + std::to_string(s.head) + "] " +
                      std::to_string(act.rows()) + "x" + std::to_string(act.cols()));
      return true;
    });
  }
  REQUIRE(MultiHeadForward<float>(hooked, L.x, nullptr, L.w, L.cfg, nullptr, &hooks, /*layer=*/4));
  std::vector<std::string> want;
  for (int h = 0; h < 3; ++h) {
    const std::string at = "[" + std::to_string(h) + "] ";
    want.push_back("blocks.4.attn.hook_q" + at + "5x4");
    want.push_back("blocks.4.attn.hook_k" + at + "5x4");
    want.push_back("blocks.4.attn.hook_v" + at + "5x3");
    want.push_back("blocks.4.attn.hook_attn_scores" + at + "5x5");
    want.push_back("blocks.4.attn.hook_pattern" + at + "5x5");
    want.push_back("blocks.4.attn.hook_z" + at + "5x3");
  }
  CHECK(fired == want);
  CHECK(HooksSameBits(plain.output, hooked.output));
  for (std::size_t h = 0; h < 3; ++h) {
    CHECK(HooksSameBits(plain.heads[h].weights, hooked.heads[h].weights));
    CHECK(hooked.heads[h].mask.size() == 0);  // nothing was masked by a hook
  }
  // a hook for one layer and head fires there only
  fired.clear();
  Hooks<float> one;
  one.Add(HookPoint::kPattern, 2, 1, [&fired](const HookSite& s, MatF&, std::string*) {
    fired.push_back(std::to_string(s.layer) + ":" + std::to_string(s.head));
    return true;
  });
  REQUIRE(MultiHeadForward<float>(hooked, L.x, nullptr, L.w, L.cfg, nullptr, &one, 1));
  CHECK(fired.empty());
  REQUIRE(MultiHeadForward<float>(hooked, L.x, nullptr, L.w, L.cfg, nullptr, &one, 2));
  CHECK(fired == std::vector<std::string>{"2:1"});
}

TEST_CASE("hooks: keys set to -inf in attn_scores are the explicit mask, forward and backward") {
  for (bool causal : {false, true}) {
    for (Normalizer nz : {Normalizer::kSoftmax, Normalizer::kSparsemax}) {
      CAPTURE(causal);
      CAPTURE(static_cast<int>(nz));
      HooksLayer L;
      L.cfg.causal = causal;
      L.cfg.head.normalizer = nz;
      const std::vector<int> keys = {1, 3};
      MultiHeadConfig masked = L.cfg;
      masked.mask = FullMask(5, 5);
      for (int i = 0; i < 5; ++i)
        for (int j : keys) masked.mask(i, j) = false;
      MultiHeadTrace<float> explicit_mask, hooked;
      REQUIRE(MultiHeadForward<float>(explicit_mask, L.x, nullptr, L.w, masked));
      Hooks<float> hooks;
      hooks.Add(HookPoint::kAttnScores, 0, -1, MaskKeysHook<float>(keys));
      REQUIRE(MultiHeadForward<float>(hooked, L.x, nullptr, L.w, L.cfg, nullptr, &hooks));
      for (std::size_t h = 0; h < 3; ++h) {
        CHECK(HooksSameBits(explicit_mask.heads[h].weights, hooked.heads[h].weights));
        CHECK(HooksSameBits(explicit_mask.heads[h].scaled, hooked.heads[h].scaled));  // the record keeps the scores
        for (int i = 0; i < 5; ++i) CHECK(hooked.heads[h].weights(i, 1) == 0.0f);
      }
      CHECK(HooksSameBits(explicit_mask.output, hooked.output));
      // the backward follows the hooked head's own mask: the same gradients
      MatF dout(5, 6);
      for (Eigen::Index i = 0; i < dout.size(); ++i) dout.data()[i] = std::cos(0.37f * static_cast<float>(i));
      MultiHeadGrads<float> ge, gh;
      REQUIRE(MultiHeadBackward<float>(ge, dout, explicit_mask, L.x, nullptr, L.w, masked));
      REQUIRE(MultiHeadBackward<float>(gh, dout, hooked, L.x, nullptr, L.w, L.cfg));
      CHECK(HooksSameBits(ge.dX, gh.dX));
      for (std::size_t h = 0; h < 3; ++h) CHECK(HooksSameBits(ge.dW_Q[h], gh.dW_Q[h]));
    }
  }
}

TEST_CASE("hooks: a head's z set to 0 silences it and only it; a rewritten z is what W_O reads") {
  HooksLayer L;
  MultiHeadTrace<float> plain, hooked;
  REQUIRE(MultiHeadForward<float>(plain, L.x, nullptr, L.w, L.cfg));
  Hooks<float> hooks;
  hooks.Add(HookPoint::kZ, 0, 1, ZeroHook<float>());
  REQUIRE(MultiHeadForward<float>(hooked, L.x, nullptr, L.w, L.cfg, nullptr, &hooks));
  CHECK(hooked.heads[1].output.isZero(0));
  CHECK(HooksSameBits(plain.heads[1].weights, hooked.heads[1].weights));  // its pattern stays
  CHECK(HooksSameBits(plain.heads[0].output, hooked.heads[0].output));
  CHECK(HooksSameBits(plain.heads[2].output, hooked.heads[2].output));
  // output = concat W_O with head 1's 3 columns zero: a plain loop
  for (Eigen::Index i = 0; i < 5; ++i) {
    for (Eigen::Index c = 0; c < 6; ++c) {
      double want = 0;
      for (Eigen::Index k = 0; k < 3; ++k) want += double(plain.heads[0].output(i, k)) * L.w.W_O(k, c);
      for (Eigen::Index k = 0; k < 3; ++k) want += double(plain.heads[2].output(i, k)) * L.w.W_O(6 + k, c);
      CHECK(hooked.output(i, c) == doctest::Approx(want).epsilon(1e-5));
    }
  }
}

TEST_CASE("hooks: a hook that fails, writes NaN or +inf, or changes the shape stops the forward by name") {
  HooksLayer L;
  MultiHeadTrace<float> out;
  std::string error;
  Hooks<float> fails;
  fails.Add(HookPoint::kPattern, -1, 2, [](const HookSite&, MatF&, std::string* why) {
    *why = "no thanks";
    return false;
  });
  CHECK_FALSE(MultiHeadForward<float>(out, L.x, nullptr, L.w, L.cfg, &error, &fails, 3));
  CHECK(error == "head 2: blocks.3.attn.hook_pattern: no thanks");
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    Hooks<float> nan;
    nan.Add(HookPoint::kAttnScores, -1, -1, [bad](const HookSite&, MatF& s, std::string*) {
      s(0, 0) = bad;
      return true;
    });
    error.clear();
    CHECK_FALSE(MultiHeadForward<float>(out, L.x, nullptr, L.w, L.cfg, &error, &nan));
    CHECK(error.find("blocks.0.attn.hook_attn_scores") != std::string::npos);
    CHECK(error.find("NaN or +inf") != std::string::npos);
  }
  Hooks<float> reshape;
  reshape.Add(HookPoint::kV, -1, -1, [](const HookSite&, MatF& v, std::string*) {
    v.resize(2, 2);
    return true;
  });
  error.clear();
  CHECK_FALSE(MultiHeadForward<float>(out, L.x, nullptr, L.w, L.cfg, &error, &reshape));
  CHECK(error == "head 0: blocks.0.attn.hook_v: the hook changed the shape");
  Hooks<float> nan_z;
  nan_z.Add(HookPoint::kZ, -1, -1, [](const HookSite&, MatF& z, std::string*) {
    z(1, 1) = std::numeric_limits<float>::quiet_NaN();
    return true;
  });
  CHECK_FALSE(MultiHeadForward<float>(out, L.x, nullptr, L.w, L.cfg, &error, &nan_z));
  CHECK(error.find("overflowed") != std::string::npos);
}
