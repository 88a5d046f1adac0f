// The model's forward with hooks (model/arch/model.h, engine/attention/hooks.h): every named point
// fires once, in the documented order, with its shape, and sees what Activation() reads from the
// cache afterwards; no-op hooks keep the plain forward's bits; what follows a hook is computed
// from what the hook left (activation patching gives the clean run back, bit for bit); a failing
// hook stops the run with its point's name.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/attention/hooks.h"
#include "model/arch/model.h"

using namespace attn;
using namespace attn::model;

namespace {

ModelConfig HooksTiny() {
  ModelConfig c;
  c.vocab = 11;
  c.d_model = 8;
  c.layers = 2;
  c.heads = 2;
  c.context = 8;
  c.mlp = 12;
  return c;
}

Sequence HooksSeq(std::vector<int> tokens) {
  Sequence s;
  s.targets.assign(tokens.size(), -1);
  s.targets.back() = 3;
  s.tokens = std::move(tokens);
  return s;
}

bool HooksSameBits(const MatF& a, const MatF& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0);
}


}  // namespace

TEST_CASE("model hooks: every point fires once, in order, with its shape, and is what the cache keeps") {
  const ModelConfig c = HooksTiny();
  const Params<float> p = InitParams<float>(c, 5);
  const Sequence s = HooksSeq({1, 4, 2, 9, 7});
  struct Seen {
    std::string name;
    int head;
    MatF act;
  };
  std::vector<Seen> seen;
  Hooks<float> hooks;
  for (HookPoint point : kHookPoints)
    hooks.Add(point, -1, -1, [&seen](const HookSite& site, MatF& act, std::string*) {
      seen.push_back({HookName(site.point, site.layer), site.head, act});
      return true;
    });
  SequenceActs<float> plain, hooked;
  REQUIRE(Forward(plain, p, c, s));
  REQUIRE(Forward(hooked, p, c, s, nullptr, false, &hooks));
  CHECK(HooksSameBits(plain.logits, hooked.logits));
  CHECK(HooksSameBits(plain.probs, hooked.probs));
  CHECK(plain.loss_sum == hooked.loss_sum);

  // the order: embed, pos_embed, each block's points (heads in turn), ln_final
  std::vector<std::string> want = {"hook_embed[-1] 5x8", "hook_pos_embed[-1] 5x8"};
  for (int l = 0; l < 2; ++l) {
    const std::string b = "blocks." + std::to_string(l) + ".";
    want.push_back(b + "hook_resid_pre[-1] 5x8");
    want.push_back(b + "ln1.hook_normalized[-1] 5x8");
    for (int h = 0; h < 2; ++h) {
      const std::string at = "[" + std::to_string(h) + "] ";
      for (const char* name : {"attn.hook_q", "attn.hook_k", "attn.hook_v"}) want.push_back(b + name + at + "5x4");
      want.push_back(b + "attn.hook_attn_scores" + at + "5x5");
      want.push_back(b + "attn.hook_pattern" + at + "5x5");
      want.push_back(b + "attn.hook_z" + at + "5x4");
    }
    for (const char* name : {"hook_attn_out", "hook_resid_mid", "ln2.hook_normalized"}) want.push_back(b + name + "[-1] 5x8");
    want.push_back(b + "mlp.hook_pre[-1] 5x12");
    want.push_back(b + "mlp.hook_post[-1] 5x12");
    want.push_back(b + "hook_mlp_out[-1] 5x8");
    want.push_back(b + "hook_resid_post[-1] 5x8");
  }
  want.push_back("ln_final.hook_normalized[-1] 5x8");
  std::vector<std::string> got;
  for (const Seen& x : seen)
    got.push_back(x.name + "[" + std::to_string(x.head) + "] " + std::to_string(x.act.rows()) + "x" +
                  std::to_string(x.act.cols()));
  CHECK(got == want);

  // each hook saw what the cache keeps at its point (the embeddings' two parts are not kept)
  for (const Seen& x : seen) {
    HookPoint point;
    int layer;
    REQUIRE(ParseHookName(x.name, &point, &layer));
    const MatF* cached = Activation(hooked, point, layer, x.head);
    CAPTURE(x.name);
    if (point == HookPoint::kEmbed || point == HookPoint::kPosEmbed) {
      CHECK(cached == nullptr);
      continue;
    }
    REQUIRE(cached != nullptr);
    CHECK(HooksSameBits(*cached, x.act));
  }
  // the two embedding parts add up to the stream entering block 0, bit for bit
  CHECK(HooksSameBits(MatF(seen[0].act + seen[1].act), hooked.blocks[0].x));
  CHECK(Activation(hooked, HookPoint::kResidPre, 2) == nullptr);
  CHECK(Activation(hooked, HookPoint::kPattern, 0, 2) == nullptr);
}

TEST_CASE("model hooks: activation patching from a clean run gives the clean run back") {
  const ModelConfig c = HooksTiny();
  const Params<float> p = InitParams<float>(c, 8);
  const Sequence clean = HooksSeq({1, 4, 2, 9, 7}), corrupt = HooksSeq({1, 5, 2, 9, 7});
  SequenceActs<float> a_clean, a_corrupt, patched;
  REQUIRE(Forward(a_clean, p, c, clean));
  REQUIRE(Forward(a_corrupt, p, c, corrupt));
  REQUIRE_FALSE(HooksSameBits(a_clean.logits, a_corrupt.logits));
  // the corrupt run with one whole activation taken from the clean run: everything after it is
  // the clean run's (the embeddings' sum, a block's stream, the last norm)
  struct Case {
    HookPoint point;
    int layer;
  };
  for (const Case& k : {Case{HookPoint::kResidPre, 0}, Case{HookPoint::kResidMid, 0}, Case{HookPoint::kResidPost, 0},
                        Case{HookPoint::kResidPre, 1}, Case{HookPoint::kLnFinal, -1}}) {
    CAPTURE(HookName(k.point, k.layer));
    const MatF from = *Activation(a_clean, k.point, k.layer);
    Hooks<float> patch;
    patch.Add(k.point, k.layer, -1, [&from](const HookSite&, MatF& act, std::string*) {
      act = from;
      return true;
    });
    REQUIRE(Forward(patched, p, c, corrupt, nullptr, false, &patch));
    CHECK(HooksSameBits(patched.logits, a_clean.logits));
  }
  // patching one head's z at one position moves the logits, and not to the clean run's
  const MatF z_clean = *Activation(a_clean, HookPoint::kZ, 1, 0);
  Hooks<float> one;
  one.Add(HookPoint::kZ, 1, 0, [&z_clean](const HookSite&, MatF& z, std::string*) {
    z.row(4) = z_clean.row(4);
    return true;
  });
  REQUIRE(Forward(patched, p, c, corrupt, nullptr, false, &one));
  CHECK_FALSE(HooksSameBits(patched.logits, a_corrupt.logits));
  CHECK_FALSE(HooksSameBits(patched.logits, a_clean.logits));
  CHECK(HooksSameBits(patched.logits.topRows(4), a_corrupt.logits.topRows(4)));  // earlier positions: as they were
}

TEST_CASE("model hooks: the logits are read from what ln_final's hook leaves; position embeddings out") {
  const ModelConfig c = HooksTiny();
  const Params<float> p = InitParams<float>(c, 3);
  const Sequence s = HooksSeq({2, 3, 5});
  Hooks<float> hooks;
  hooks.Add(HookPoint::kLnFinal, -1, -1, [](const HookSite&, MatF& x, std::string*) {
    x *= 2.0f;
    return true;
  });
  hooks.Add(HookPoint::kPosEmbed, -1, -1, ZeroHook<float>());
  SequenceActs<float> a;
  REQUIRE(Forward(a, p, c, s, nullptr, false, &hooks));
  for (int t = 0; t < 3; ++t) {
    for (int k = 0; k < c.d_model; ++k) CHECK(a.emb(t, k) == p.wte(s.tokens[static_cast<std::size_t>(t)], k));
    for (int v = 0; v < c.vocab; ++v) {
      double want = 0;
      for (int k = 0; k < c.d_model; ++k) want += double(a.lnf(t, k)) * p.wte(v, k);
      CHECK(a.logits(t, v) == doctest::Approx(want).epsilon(1e-5));
    }
  }
}

TEST_CASE("model hooks: a failing hook stops the run with its point's name") {
  const ModelConfig c = HooksTiny();
  const Params<float> p = InitParams<float>(c, 3);
  SequenceActs<float> a;
  std::string error;
  Hooks<float> hooks;
  hooks.Add(HookPoint::kMlpOut, 1, -1, [](const HookSite&, MatF&, std::string* why) {
    *why = "stop here";
    return false;
  });
  CHECK_FALSE(Forward(a, p, c, HooksSeq({2, 3}), &error, false, &hooks));
  CHECK(error == "blocks.1.hook_mlp_out: stop here");
  Hooks<float> pattern;
  pattern.Add(HookPoint::kPattern, 0, 1, [](const HookSite&, MatF&, std::string* why) {
    *why = "no";
    return false;
  });
  CHECK_FALSE(Forward(a, p, c, HooksSeq({2, 3}), &error, false, &pattern));
  CHECK(error == "head 1: blocks.0.attn.hook_pattern: no");
}
