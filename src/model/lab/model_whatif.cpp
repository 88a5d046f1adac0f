// Knock-outs inside the trained model: see model_whatif.h. No FMA contraction (linalg.h's rules).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/lab/model_whatif.h"

#include "engine/lab/validate.h"
#include "engine/linalg/linalg.h"
#include "engine/whatif/whatif.h"
#include "model/arch/layers.h"

#include "engine/text/tokenizer.h"

#include <algorithm>
#include <cmath>

namespace attn {
namespace model {

Hooks<float> KnockoutHooks(const ModelKnockout& k, const ModelConfig& c) {
  Hooks<float> hooks;
  if (k.layer >= 0 && k.layer < c.layers && k.head >= 0 && k.head < c.heads && !k.keys.empty())
    hooks.Add(HookPoint::kAttnScores, k.layer, k.head, MaskKeysHook<float>(k.keys));
  for (const auto& [layer, h] : k.heads)
    if (layer >= 0 && layer < c.layers && h >= 0 && h < c.heads) hooks.Add(HookPoint::kZ, layer, h, ZeroHook<float>());
  return hooks;
}

bool ForwardKnockedOut(SequenceActs<float>& a, const Params<float>& p, const ModelConfig& c,
                       const Sequence& s, const ModelKnockout& k, std::string* error) {
  const Hooks<float> hooks = KnockoutHooks(k, c);
  return Forward(a, p, c, s, error, /*last_only=*/true, &hooks);
}

bool NextKeyNextTokenEffect(const LabModel& m, const LabConfig& cfg, const ModelLabResult& plain,
                            NextTokenEffects* out, std::string* error) {
  const ModelConfig& c = m.config();
  if (plain.next.empty() || plain.ids.empty()) return linalg::Fail(error, "no plain run");
  if (cfg.layer < 0 || cfg.layer >= c.layers || cfg.head < 0 || cfg.head >= c.heads)
    return linalg::Fail(error, "layer or head out of range");
  const int n = static_cast<int>(plain.ids.size());
  const int i = static_cast<int>(out->delta.size());
  if (i >= n) return linalg::Fail(error, "every key is done");
  if (i == 0) {
    out->next_id = plain.next[0].id;
    // the plain run's log-probability, in double from its float probability
    out->logp = std::log(static_cast<double>(plain.acts.probs(plain.acts.probs.rows() - 1, out->next_id)));
  }
  Sequence seq;
  seq.tokens = plain.ids;
  seq.targets.assign(plain.ids.size(), -1);
  seq.threads = m.threads;
  ModelKnockout k;
  k.layer = cfg.layer;
  k.head = cfg.head;
  k.keys = {i};
  SequenceActs<float> acts;
  if (!ForwardKnockedOut(acts, m.params, c, seq, k, error)) return false;
  const double lp = std::log(static_cast<double>(acts.probs(0, out->next_id)));
  out->logp_without.push_back(lp);
  out->delta.push_back(lp - out->logp);
  return true;
}

bool KeyNextTokenEffects(const LabModel& m, const LabConfig& cfg, const ModelLabResult& plain,
                         NextTokenEffects* out, std::string* error) {
  *out = NextTokenEffects{};
  do {
    if (!NextKeyNextTokenEffect(m, cfg, plain, out, error)) return false;
  } while (out->delta.size() < plain.ids.size());
  return true;
}

// ---- the lab's what-if in model mode -----------------------------------------------------------

namespace {

LabError EditRefusal(const char* field, std::string message) {
  return Refuse(ConfigError::kEditInvalid, field, std::move(message));
}

}  // namespace

LabError CheckModelEdits(const LabConfig& cfg, const ModelConfig& c, int n_tokens) {
  if (!cfg.knockout_keys.Fits(n_tokens))
    return EditRefusal("knockoutKeys", "knockoutKeys: expected model token indices from 0 to " + std::to_string(n_tokens - 1) +
                                           " (0 = <|endoftext|>), separated by commas, got \"" + cfg.knockout_keys.text + "\"");
  if (!cfg.knockout_heads.Fits(c.layers, c.heads))
    return EditRefusal("knockoutHeads", "knockoutHeads: expected layer:head pairs with layer from 0 to " + std::to_string(c.layers - 1) +
                                            " and head from 0 to " + std::to_string(c.heads - 1) + ", separated by commas, got \"" +
                                            cfg.knockout_heads.text + "\"");
  return LabError();
}

ModelKnockout KnockoutOf(const LabConfig& cfg, const ModelConfig& /*c*/) {
  ModelKnockout k;
  if (!cfg.knockout_keys.empty()) {
    k.layer = cfg.layer;
    k.head = cfg.head;
    k.keys = cfg.knockout_keys.keys;
  }
  k.heads = cfg.knockout_heads.heads;
  return k;
}

bool CompareModelRuns(const LabModel& m, const LabConfig& cfg, const ModelLabResult& plain,
                      ModelComparison* out, LabError* error) {
  *out = ModelComparison{};
  const ModelConfig& c = m.config();
  const int n = static_cast<int>(plain.ids.size());
  out->next_plain = plain.next;
  const SequenceActs<float>* edited = nullptr;
  SequenceActs<float> knocked;
  ModelLabResult other;
  if (cfg.what_if_token >= 0) {
    // a word edit: the model on the edited sentence (no edit left in its configuration)
    const TokenizeResult typed = Tokenize(cfg.sentence);
    LabConfig e = WithoutEdits(cfg);
    e.sentence = EditedSentence(cfg, typed.tokens);
    e.query = 0;  // a token every run has (<|endoftext|>, or the edited sentence's first)
    e.target = -1;
    LabResult lab;
    if (!ComputeModelLab(m, e, &lab, &other)) {
      *error = lab.error;
      return false;
    }
    out->sentence = e.sentence;
    out->texts = other.texts;
    out->next_edited = other.next;
    edited = &other.acts;
    // plain token -> edited token: <|endoftext|> to itself; a piece of word w to the piece at the
    // same place in w's counterpart (the edited word has none)
    const int w0 = cfg.what_if_token;
    auto word_to = [&](int w) {
      if (cfg.what_if_mode == WhatIfMode::kInsert) return w < w0 ? w : w + 1;
      if (!cfg.what_if_with.empty()) return w == w0 ? -1 : w;  // replaced
      return w < w0 ? w : w == w0 ? -1 : w - 1;                 // deleted
    };
    out->to_edited.assign(static_cast<std::size_t>(n), -1);
    const int first = plain.first;  // the sentence's first token: after <|endoftext|> or 0
    if (first == 1) out->to_edited[0] = 0;
    for (int t = first; t < n; ++t) {
      const int w = plain.word[static_cast<std::size_t>(t)];
      if (w < 0) continue;
      const int we = word_to(w);
      if (we < 0) continue;
      int k = 0;  // t's place among its word's pieces
      for (int u = t - 1; u >= first && plain.word[static_cast<std::size_t>(u)] == w; --u) ++k;
      for (std::size_t u = static_cast<std::size_t>(first); u < other.word.size(); ++u)
        if (other.word[u] == we) {
          const std::size_t at = u + static_cast<std::size_t>(k);
          if (at < other.word.size() && other.word[at] == we && other.texts[at] == plain.texts[static_cast<std::size_t>(t)])
            out->to_edited[static_cast<std::size_t>(t)] = static_cast<int>(at);
          break;
        }
    }
  } else {
    // knock-outs: the plain tokens through ForwardKnockedOut
    Sequence seq;
    seq.tokens = plain.ids;
    seq.targets.assign(plain.ids.size(), -1);
  seq.threads = m.threads;
    std::string why;
    if (!ForwardKnockedOut(knocked, m.params, c, seq, KnockoutOf(cfg, c), &why)) {
      *error = EditRefusal("knockoutHeads", "knockoutHeads: the knocked-out run failed: " + why);
      return false;
    }
    out->sentence = cfg.sentence;
    out->texts = plain.texts;
    out->next_edited = TopNextTokens(m, knocked.probs, knocked.probs.rows() - 1);
    edited = &knocked;
    out->to_edited.resize(static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t) out->to_edited[static_cast<std::size_t>(t)] = t;
  }
  // Δα of every head on the plain run's tokens
  for (int l = 0; l < c.layers; ++l)
    for (int h = 0; h < c.heads; ++h) {
      const MatF& a = plain.acts.blocks[static_cast<std::size_t>(l)].attn.heads[static_cast<std::size_t>(h)].weights;  // (T, T)
      const MatF& b = edited->blocks[static_cast<std::size_t>(l)].attn.heads[static_cast<std::size_t>(h)].weights;    // (T', T')
      MatD d = MatD::Zero(n, n);
      for (int i = 0; i < n; ++i) {
        const int ie = out->to_edited[static_cast<std::size_t>(i)];
        if (ie < 0) continue;
        for (int j = 0; j < n; ++j) {
          const int je = out->to_edited[static_cast<std::size_t>(j)];
          d(i, j) = (je >= 0 ? static_cast<double>(b(ie, je)) : 0.0) - static_cast<double>(a(i, j));
          out->max_abs_d_weight = std::max(out->max_abs_d_weight, std::abs(d(i, j)));
        }
      }
      out->d_weights.push_back(std::move(d));
    }
  return true;
}

}  // namespace model
}  // namespace attn
