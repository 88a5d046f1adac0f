// Knock-outs inside the trained model: see model_whatif.h. No FMA contraction (linalg.h's rules).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model_whatif.h"

#include "engine/linalg.h"
#include "engine/whatif.h"
#include "layers.h"

#include <cmath>

namespace attn {
namespace model {

bool ForwardKnockedOut(SequenceActs<float>& a, const Params<float>& p, const ModelConfig& c,
                       const Sequence& s, const ModelKnockout& k, std::string* error) {
  const int n = static_cast<int>(s.tokens.size());
  if (n < 1 || n > c.context) return linalg::Fail(error, "sequence length must be 1 to context");
  for (int t = 0; t < n; ++t)
    if (s.tokens[static_cast<std::size_t>(t)] < 0 || s.tokens[static_cast<std::size_t>(t)] >= c.vocab)
      return linalg::Fail(error, "token id out of the vocabulary");
  const MultiHeadConfig attn_cfg = BlockAttentionConfig();
  EmbeddingForward(a.emb, s.tokens, p.wte, p.wpe);
  a.blocks.resize(p.blocks.size());
  for (std::size_t l = 0; l < p.blocks.size(); ++l) {
    const BlockParams<float>& w = p.blocks[l];
    BlockActs<float>& b = a.blocks[l];
    b.x = l == 0 ? a.emb : a.blocks[l - 1].res2;
    LayerNormForward(b.ln1, b.ln1_mean, b.ln1_rstd, b.x, w.ln1_w, w.ln1_b);
    if (!MultiHeadForward<float>(b.attn, b.ln1, nullptr, w.attn, attn_cfg, error)) return false;
    // the knock-out, on this layer's heads (then passes 4-5 again)
    bool changed = false;
    if (static_cast<int>(l) == k.layer && k.head >= 0 && k.head < c.heads && !k.keys.empty()) {
      HeadTrace<float>& head = b.attn.heads[static_cast<std::size_t>(k.head)];
      const Mask mask = CombineMasks(n, n, attn_cfg.causal, KnockoutMask(n, k.keys));  // (T, T)
      if (!HeadForward<float>(head, head.Q, head.K, head.V, mask, attn_cfg.head, error)) return false;
      changed = true;
    }
    for (const auto& [layer, h] : k.heads)
      if (layer == static_cast<int>(l) && h >= 0 && h < c.heads) {
        b.attn.heads[static_cast<std::size_t>(h)].output.setZero();
        changed = true;
      }
    if (changed && !RecombineHeads(&b.attn, w.attn, error)) return false;
    BlockTailForward(b, w);
  }
  FinalForward(a, p, s, /*last_only=*/true);
  return true;
}

bool KeyNextTokenEffects(const LabModel& m, const LabConfig& cfg, const ModelLabResult& plain,
                         NextTokenEffects* out, std::string* error) {
  *out = NextTokenEffects{};
  const ModelConfig& c = m.config();
  if (plain.next.empty() || plain.ids.empty()) return linalg::Fail(error, "no plain run");
  if (cfg.layer < 0 || cfg.layer >= c.layers || cfg.head < 0 || cfg.head >= c.heads)
    return linalg::Fail(error, "layer or head out of range");
  const int n = static_cast<int>(plain.ids.size());
  Sequence seq;
  seq.tokens = plain.ids;
  seq.targets.assign(plain.ids.size(), -1);
  out->next_id = plain.next[0].id;
  // the plain run's log-probability, in double from its float probability
  out->logp = std::log(static_cast<double>(plain.acts.probs(plain.acts.probs.rows() - 1, out->next_id)));
  SequenceActs<float> acts;
  for (int i = 0; i < n; ++i) {
    ModelKnockout k;
    k.layer = cfg.layer;
    k.head = cfg.head;
    k.keys = {i};
    if (!ForwardKnockedOut(acts, m.params, c, seq, k, error)) return false;
    const double lp = std::log(static_cast<double>(acts.probs(0, out->next_id)));
    out->logp_without.push_back(lp);
    out->delta.push_back(lp - out->logp);
  }
  return true;
}

}  // namespace model
}  // namespace attn
