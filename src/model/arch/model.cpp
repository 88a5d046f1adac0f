// The transformer's forward and backward over the layers of layers.h and the engine's attention.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "model/arch/model.h"

#include "engine/base/rng.h"
#include "model/arch/layers.h"
#include "model/arch/llama_layers.h"
#include "model/arch/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace attn {
namespace model {

std::string CheckModelConfig(const ModelConfig& c) {
  if (c.vocab < 2) return "vocab must be at least 2";
  if (c.d_model < 1 || c.layers < 1 || c.heads < 1 || c.context < 1 || c.mlp < 1)
    return "d_model, layers, heads, context and mlp must be at least 1";
  if (c.head_dim < 0 || c.kv_heads < 0 || c.sliding_window < 0) return "head_dim, kv_heads and sliding_window must not be negative";
  if (c.head_dim == 0 && c.d_model % c.heads != 0) return "heads must divide d_model";
  if (c.heads % KvHeads(c) != 0) return "the key/value heads must divide the heads";
  if (c.rotary && (HeadDim(c) % 2 != 0 || !(c.rope_theta > 1) || !(c.rope_factor >= 1) ||
                   !(c.rope_high_freq > c.rope_low_freq && c.rope_low_freq > 0) || c.rope_original_context < 1))
    return "rotary positions need an even head width, a theta above 1 and a scaling factor of at least 1";
  if (!(c.ln_eps > 0 && c.ln_eps < 1)) return "the LayerNorm epsilon must be in (0, 1)";
  return "";
}

MultiHeadConfig BlockAttentionConfig() {
  MultiHeadConfig cfg;
  cfg.head.normalizer = Normalizer::kSoftmax;
  cfg.head.scaled = true;  // 1 / sqrt(Dh)
  cfg.causal = true;
  return cfg;
}

MultiHeadConfig BlockAttentionConfig(const ModelConfig& c, int n) {
  MultiHeadConfig cfg = BlockAttentionConfig();
  if (c.sliding_window > 0 && n > c.sliding_window) {  // query i sees keys i - window + 1 .. i
    cfg.mask = Mask::Constant(n, n, false);
    for (int i = 0; i < n; ++i)
      for (int j = std::max(0, i - c.sliding_window + 1); j <= i; ++j) cfg.mask(i, j) = true;
  }
  return cfg;
}

namespace {

// The block a forward reads: the parameters' own, or widened from stored weights into scratch.
template <typename T>
const BlockParams<T>& BlockFor(const Params<T>& p, std::size_t l, BlockParams<T>* scratch) {
  if constexpr (std::is_same<T, float>::value) return BlockOf(p, static_cast<int>(l), scratch);
  return p.blocks[l];
}

// Row `id` of the token embedding (C), from p.wte or the stored one.
template <typename T>
void TokenRow(const Params<T>& p, int id, Eigen::Index c, T* out, Eigen::Index stride) {
  if constexpr (std::is_same<T, float>::value) {
    if (p.stored) {
      for (Eigen::Index k = 0; k < c; ++k) out[k * stride] = p.stored->wte.At(id, k);
      return;
    }
  }
  for (Eigen::Index k = 0; k < c; ++k) out[k * stride] = p.wte(id, k);
}

// logits = h out^T (T, V) for the output matrix (wte, or lm_head when untied). Stored weights
// are widened a slice of rows at a time: each logit is still one product over C in the same
// order, so the same bits as on the widened matrix.
template <typename T>
void OutputLogits(Mat<T>& logits, const Mat<T>& h, const Params<T>& p, const ModelConfig& c, int threads) {
  if constexpr (std::is_same<T, float>::value) {
    if (p.stored) {
      const StoredMatrix& out = c.tied ? p.stored->wte : p.stored->lm_head;  // (V, C)
      logits.resize(h.rows(), out.rows());
      const Eigen::Index slices = (out.rows() + kStoredRowSlice - 1) / kStoredRowSlice;
      const int workers = threads > 1 ? threads : 1;
      // thread t takes slices t, t + workers, ...: each logit is one product, wherever it runs
      ParallelFor(workers, workers, [&](int t) {
        Mat<float> slice;  // (n, C)
        for (Eigen::Index k = t; k < slices; k += workers) {
          const Eigen::Index v = k * kStoredRowSlice, n = std::min<Eigen::Index>(kStoredRowSlice, out.rows() - v);
          out.WidenRows(v, n, &slice);
          logits.middleCols(v, n) = linalg::MatMulTransposed(h, slice);
        }
      });
      return;
    }
  }
  TiedLogitsForward(logits, h, c.tied ? p.wte : p.lm_head);
}

// Its gradient: the column sums, rows in order.
template <typename T>
void AddColumnSums(Vec<T>& out, const Mat<T>& m) {  // (K) += (T, K)
  for (Eigen::Index k = 0; k < m.cols(); ++k)
    for (Eigen::Index r = 0; r < m.rows(); ++r) out(k) += m(r, k);
}

// The hooks a forward runs: the architecture's own at hook_q, _k, _v first -- the attention
// biases (GPT-2, Qwen2), Qwen3's q/k norm, then RoPE's rotation (keeping the unrotated q and k in
// acts) -- then the caller's. Null when there are none.
template <typename T>
const Hooks<T>* WithArchitectureHooks(Hooks<T>& all, const Params<T>& p, const ModelConfig& c, SequenceActs<T>& acts,
                                      const RopeTable<T>* rope, const Hooks<T>* caller) {
  const bool biases = !p.blocks.empty() && !p.blocks[0].bq.empty();
  if (!biases && !c.qk_norm && !rope) return caller;
  const HookPoint points[] = {HookPoint::kQ, HookPoint::kK, HookPoint::kV};
  for (int k = 0; k < 3; ++k) {
    if (k == 2 && !biases) break;
    all.Add(points[k], -1, -1, [&p, &c, &acts, rope, biases, k](const HookSite& site, Mat<T>& act, std::string*) {
      const BlockParams<T>& b = p.blocks[static_cast<std::size_t>(site.layer)];
      const std::size_t h = static_cast<std::size_t>(site.head);
      if (biases) AddRowBias(act, (k == 0 ? b.bq : k == 1 ? b.bk : b.bv)[h]);
      if (k == 2) return true;
      if (c.qk_norm) RmsNormRows(act, k == 0 ? b.q_norm : b.k_norm, c.ln_eps);
      if (rope) {
        BlockActs<T>& kept = acts.blocks[static_cast<std::size_t>(site.layer)];
        std::vector<Mat<T>>& unrotated = k == 0 ? kept.q_unrotated : kept.k_unrotated;
        if (unrotated.size() <= h) unrotated.resize(h + 1);
        unrotated[h] = act;
        RopeRotate(act, *rope);
      }
      return true;
    });
  }
  if (caller) all.Append(*caller);
  return &all;
}

// Token and position embeddings: out = wte[tokens] + wpe[0..T). With a hook at hook_embed or
// hook_pos_embed the two parts are made apart, hooked, then added: the same one addition per
// entry, so the same bits when the hooks change nothing.
// Rotary models have no position table: the token rows alone, hook_embed only.
template <typename T>
bool EmbedWithHooks(Mat<T>& out, const std::vector<int>& tokens, const Params<T>& p, const ModelConfig& cfg,
                    const Hooks<T>* hooks, std::string* error) {
  const Eigen::Index n = static_cast<Eigen::Index>(tokens.size()), c = cfg.d_model;
  if (!cfg.rotary && !p.stored && (!hooks || (!hooks->Wants(HookPoint::kEmbed, -1) && !hooks->Wants(HookPoint::kPosEmbed, -1)))) {
    EmbeddingForward(out, tokens, p.wte, p.wpe);
    return true;
  }
  Mat<T> tok(n, c);  // (T, C)
  for (Eigen::Index t = 0; t < n; ++t) TokenRow(p, tokens[static_cast<std::size_t>(t)], c, &tok(t, 0), n);
  if (!RunHooks(hooks, HookPoint::kEmbed, -1, -1, tok, error)) return false;
  if (cfg.rotary) {
    out = std::move(tok);
    return true;
  }
  Mat<T> pos = p.wpe.topRows(n);  // (T, C)
  if (!RunHooks(hooks, HookPoint::kPosEmbed, -1, -1, pos, error)) return false;
  out.resize(n, c);
  for (Eigen::Index t = 0; t < n; ++t)
    for (Eigen::Index k = 0; k < c; ++k) out(t, k) = tok(t, k) + pos(t, k);
  return true;
}

// One pre-LN block, every hook point of it in order (hooks.h); drop_attn and drop_mlp are the
// branches' dropout masks (empty: none).
template <typename T>
bool BlockForward(BlockActs<T>& b, const BlockParams<T>& w, const ModelConfig& c, int l, const Hooks<T>* hooks,
                  std::string* error, int threads) {
  const MultiHeadConfig attn_cfg = BlockAttentionConfig(c, static_cast<int>(b.x.rows()));
  if (!RunHooks(hooks, HookPoint::kResidPre, l, -1, b.x, error)) return false;
  Norm(b.ln1, b.ln1_mean, b.ln1_rstd, b.x, w.ln1_w, w.ln1_b, c);
  if (!RunHooks(hooks, HookPoint::kLn1, l, -1, b.ln1, error)) return false;
  if (!MultiHeadForward<T>(b.attn, b.ln1, nullptr, w.attn, attn_cfg, error, hooks, l)) return false;
  if (w.bo.size() != 0) AddRowBias(b.attn.output, w.bo);
  DropoutForward(b.attn.output, b.drop_attn);
  if (!RunHooks(hooks, HookPoint::kAttnOut, l, -1, b.attn.output, error)) return false;
  ResidualForward(b.res1, b.x, b.attn.output);
  if (!RunHooks(hooks, HookPoint::kResidMid, l, -1, b.res1, error)) return false;
  Norm(b.ln2, b.ln2_mean, b.ln2_rstd, b.res1, w.ln2_w, w.ln2_b, c);
  if (!RunHooks(hooks, HookPoint::kLn2, l, -1, b.ln2, error)) return false;
  if (c.swiglu) {  // down(SiLU(x W_gate) * (x W_up)), no biases
    b.fc = MatMulByColumns(b.ln2, w.gate_w, threads);
    b.up = MatMulByColumns(b.ln2, w.fc_w, threads);
    if (!RunHooks(hooks, HookPoint::kMlpPre, l, -1, b.fc, error)) return false;
    SwiGluForward(b.gelu, b.fc, b.up);
    if (!RunHooks(hooks, HookPoint::kMlpPost, l, -1, b.gelu, error)) return false;
    b.proj = MatMulByColumns(b.gelu, w.proj_w, threads);
  } else {
    LinearForward(b.fc, b.ln2, w.fc_w, w.fc_b, threads);
    if (!RunHooks(hooks, HookPoint::kMlpPre, l, -1, b.fc, error)) return false;
    if (c.gelu_erf) GeluErfForward(b.gelu, b.fc);
    else GeluForward(b.gelu, b.fc);
    if (!RunHooks(hooks, HookPoint::kMlpPost, l, -1, b.gelu, error)) return false;
    LinearForward(b.proj, b.gelu, w.proj_w, w.proj_b, threads);
  }
  DropoutForward(b.proj, b.drop_mlp);
  if (!RunHooks(hooks, HookPoint::kMlpOut, l, -1, b.proj, error)) return false;
  ResidualForward(b.res2, b.res1, b.proj);
  return RunHooks(hooks, HookPoint::kResidPost, l, -1, b.res2, error);
}

// The last LayerNorm (and its hook) of a run.
template <typename T>
bool FinalNormForward(SequenceActs<T>& a, const Params<T>& p, const ModelConfig& c, const Hooks<T>* hooks, std::string* error) {
  Norm(a.lnf, a.lnf_mean, a.lnf_rstd, a.blocks.back().res2, p.lnf_w, p.lnf_b, c);
  return RunHooks(hooks, HookPoint::kLnFinal, -1, -1, a.lnf, error);
}

}  // namespace

namespace {

// The sequence's checks, Forward's and ForwardFrom's.
bool CheckSequence(const ModelConfig& c, const Sequence& s, std::string* error) {
  const int n = static_cast<int>(s.tokens.size());
  if (n < 1 || n > c.context) return linalg::Fail(error, "sequence length must be 1 to context");
  if (s.targets.size() != s.tokens.size())
    return linalg::Fail(error, "targets and tokens differ in length");
  for (int t = 0; t < n; ++t) {
    if (s.tokens[t] < 0 || s.tokens[t] >= c.vocab || s.targets[t] >= c.vocab)
      return linalg::Fail(error, "token id out of the vocabulary");
  }
  if (!(s.dropout >= 0 && s.dropout < 1)) return linalg::Fail(error, "dropout must be in [0, 1)");
  return true;
}

// The dropout mask of one site: 0 the embeddings, then each block's attention and MLP branches
// (1 + 2 l, 2 + 2 l); empty without dropout.
template <typename T>
void SiteMask(Mat<T>& m, const Sequence& s, const ModelConfig& c, std::uint64_t site) {
  const Eigen::Index n = static_cast<Eigen::Index>(s.tokens.size());
  if (s.dropout > 0) DropoutMask(m, n, c.d_model, s.dropout, rng::Mix64(s.dropout_seed + site * 0x9E3779B97F4A7C15ULL));
  else m.resize(0, 0);
}

// Checks a run of ForwardFrom: a block of the model to start at, and its input's shape.
template <typename T>
bool CheckRunFrom(const RunFrom<T>& r, const Params<T>& p, const ModelConfig& c, const Sequence& s, std::string* error) {
  if (r.from < 0 || r.from >= static_cast<int>(p.blocks.size()) || !r.acts || r.acts->blocks.size() != p.blocks.size())
    return linalg::Fail(error, "the forward must start at a block of the model (0 to " + std::to_string(p.blocks.size() - 1) + ")");
  const Mat<T>& x = r.acts->blocks[static_cast<std::size_t>(r.from)].x;
  if (x.rows() != static_cast<Eigen::Index>(s.tokens.size()) || x.cols() != c.d_model)
    return linalg::Fail(error, "the block's input must have one row per token and d_model columns");
  return true;
}

// The runs' blocks from each one's `from` to L - 1 (its acts->blocks[from].x is block from's
// input), in lockstep -- each block taken (widened, for stored weights) once for all the runs
// that reach it, the runs over s.threads, or one run with s.threads of its own -- then their final
// norms and the logits of all their rows as one product: the rest of Forward, and ForwardFrom.
template <typename T>
bool ForwardRuns(const std::vector<RunFrom<T>>& runs, const Params<T>& p, const ModelConfig& c, const Sequence& s,
                 std::string* error, bool last_only) {
  const std::size_t R = runs.size();
  RopeTable<T> rope;
  if (c.rotary) rope = MakeRopeTable<T>(c, static_cast<int>(s.tokens.size()));
  std::vector<Hooks<T>> all(R);
  std::vector<const Hooks<T>*> hooks(R);
  int first = static_cast<int>(p.blocks.size());
  for (std::size_t i = 0; i < R; ++i) {
    const Hooks<T>* own = runs[i].hooks && !runs[i].hooks->empty() ? runs[i].hooks : nullptr;
    hooks[i] = WithArchitectureHooks(all[i], p, c, *runs[i].acts, c.rotary ? &rope : nullptr, own);
    first = std::min(first, runs[i].from);
  }
  std::vector<std::string> errors(R);
  std::vector<char> ok(R, 1);
  auto failed = [&] {  // the first run's error that failed, in run order
    for (std::size_t i = 0; i < R; ++i)
      if (!ok[i]) return linalg::Fail(error, errors[i]);
    return true;
  };
  BlockParams<T> widened;  // stored weights: one block at a time, the storage reused
  std::vector<std::size_t> active;
  for (std::size_t l = static_cast<std::size_t>(std::max(first, 0)); l < p.blocks.size(); ++l) {
    const BlockParams<T>& w = BlockFor(p, l, &widened);
    active.clear();
    for (std::size_t i = 0; i < R; ++i)
      if (static_cast<std::size_t>(runs[i].from) <= l) active.push_back(i);
    const int n = static_cast<int>(active.size());
    const bool one = n == 1;
    ParallelFor(n, one ? 1 : s.threads, [&](int k) {
      const std::size_t i = active[static_cast<std::size_t>(k)];
      SequenceActs<T>& a = *runs[i].acts;
      BlockActs<T>& b = a.blocks[l];
      if (l > static_cast<std::size_t>(runs[i].from)) b.x = a.blocks[l - 1].res2;
      b.q_unrotated.clear();  // refilled by the rotation's hooks (rotary models only)
      b.k_unrotated.clear();
      if (!c.swiglu) b.up.resize(0, 0);
      SiteMask(b.drop_attn, s, c, 1 + 2 * l);
      SiteMask(b.drop_mlp, s, c, 2 + 2 * l);
      ok[i] = BlockForward(b, w, c, static_cast<int>(l), hooks[i], &errors[i], one ? s.threads : 1);
    });
    if (!failed()) return false;
  }
  for (std::size_t i = 0; i < R; ++i) ok[i] = FinalNormForward(*runs[i].acts, p, c, hooks[i], &errors[i]);
  if (!failed()) return false;
  // Each row's logits are its own sums (the last row alone: the same bits as in every row's)
  const Eigen::Index rows = last_only ? 1 : static_cast<Eigen::Index>(s.tokens.size());
  const std::vector<int> targets = last_only ? std::vector<int>{s.targets.back()} : s.targets;
  if (R == 1) {
    SequenceActs<T>& a = *runs[0].acts;
    if (last_only) OutputLogits(a.logits, Mat<T>(a.lnf.bottomRows(1)), p, c, s.threads);  // (1, V)
    else OutputLogits(a.logits, a.lnf, p, c, s.threads);                                  // (T, V)
    a.loss_sum = CrossEntropyForward(a.probs, a.losses, a.logits, targets);
    return true;
  }
  Mat<T> h(rows * static_cast<Eigen::Index>(R), c.d_model), logits;  // (R rows, C), (R rows, V)
  for (std::size_t i = 0; i < R; ++i) h.middleRows(static_cast<Eigen::Index>(i) * rows, rows) = runs[i].acts->lnf.bottomRows(rows);
  OutputLogits(logits, h, p, c, s.threads);
  ParallelFor(static_cast<int>(R), s.threads, [&](int k) {
    SequenceActs<T>& a = *runs[static_cast<std::size_t>(k)].acts;
    a.logits = logits.middleRows(static_cast<Eigen::Index>(k) * rows, rows);
    a.loss_sum = CrossEntropyForward(a.probs, a.losses, a.logits, targets);
  });
  return true;
}

}  // namespace

template <typename T>
bool Forward(SequenceActs<T>& a, const Params<T>& p, const ModelConfig& c, const Sequence& s,
             std::string* error, bool last_only, const Hooks<T>* hooks) {
  if (!CheckSequence(c, s, error)) return false;
  if (hooks && hooks->empty()) hooks = nullptr;
  a.blocks.resize(p.blocks.size());
  if (!EmbedWithHooks(a.emb, s.tokens, p, c, hooks, error)) return false;
  SiteMask(a.drop_emb, s, c, 0);
  DropoutForward(a.emb, a.drop_emb);
  a.blocks[0].x = a.emb;
  return ForwardRuns<T>({RunFrom<T>{&a, 0, hooks}}, p, c, s, error, last_only);
}

template <typename T>
bool ForwardFrom(SequenceActs<T>& a, int from, const Params<T>& p, const ModelConfig& c, const Sequence& s,
                 std::string* error, bool last_only, const Hooks<T>* hooks) {
  return ForwardFrom<T>({RunFrom<T>{&a, from, hooks}}, p, c, s, error, last_only);
}

template <typename T>
bool ForwardFrom(const std::vector<RunFrom<T>>& runs, const Params<T>& p, const ModelConfig& c, const Sequence& s,
                 std::string* error, bool last_only) {
  if (!CheckSequence(c, s, error)) return false;
  if (runs.empty()) return true;
  for (const RunFrom<T>& r : runs)
    if (!CheckRunFrom(r, p, c, s, error)) return false;
  return ForwardRuns(runs, p, c, s, error, last_only);
}

template <typename T>
void FinalNormRows(Mat<T>& out, const Mat<T>& x, const Params<T>& p, const ModelConfig& c) {
  Vec<T> mean, rstd;
  Norm(out, mean, rstd, x, p.lnf_w, p.lnf_b, c);
}

template <typename T>
void UnembedRows(Mat<T>& logits, const Mat<T>& h, const Params<T>& p, const ModelConfig& c, int threads) {
  OutputLogits(logits, h, p, c, threads);
}

template <typename T>
Vec<T> TokenEmbedding(const Params<T>& p, const ModelConfig& c, int id) {
  Vec<T> row(c.d_model);  // (C)
  TokenRow(p, id, c.d_model, row.data(), 1);
  return row;
}

template <typename T>
Vec<T> OutputDirection(const Params<T>& p, const ModelConfig& c, int id) {
  Vec<T> u(c.d_model);  // (C): row id of the output matrix (V, C)
  if constexpr (std::is_same<T, float>::value) {
    if (p.stored) {
      const StoredMatrix& out = c.tied ? p.stored->wte : p.stored->lm_head;
      for (Eigen::Index k = 0; k < c.d_model; ++k) u(k) = out.At(id, k);
      return u;
    }
  }
  const Mat<T>& out = c.tied ? p.wte : p.lm_head;
  for (Eigen::Index k = 0; k < c.d_model; ++k) u(k) = out(id, k);
  return u;
}

template <typename T>
const Mat<T>* Activation(const SequenceActs<T>& a, HookPoint point, int layer, int head) {
  if (!InBlock(point)) return point == HookPoint::kLnFinal ? &a.lnf : nullptr;  // embed parts: not kept
  if (layer < 0 || layer >= static_cast<int>(a.blocks.size())) return nullptr;
  const BlockActs<T>& b = a.blocks[static_cast<std::size_t>(layer)];
  if (PerHead(point)) {
    if (head < 0 || head >= static_cast<int>(b.attn.heads.size())) return nullptr;
    const HeadTrace<T>& h = b.attn.heads[static_cast<std::size_t>(head)];
    switch (point) {
      case HookPoint::kQ: return &h.Q;
      case HookPoint::kK: return &h.K;
      case HookPoint::kV: return &h.V;
      case HookPoint::kAttnScores: return &h.scaled;
      case HookPoint::kPattern: return &h.weights;
      default: return &h.output;  // kZ
    }
  }
  switch (point) {
    case HookPoint::kResidPre: return &b.x;
    case HookPoint::kLn1: return &b.ln1;
    case HookPoint::kAttnOut: return &b.attn.output;
    case HookPoint::kResidMid: return &b.res1;
    case HookPoint::kLn2: return &b.ln2;
    case HookPoint::kMlpPre: return &b.fc;
    case HookPoint::kMlpPost: return &b.gelu;
    case HookPoint::kMlpOut: return &b.proj;
    default: return &b.res2;  // kResidPost
  }
}

template <typename T>
bool Backward(Params<T>& g, const SequenceActs<T>& a, const Params<T>& p, const ModelConfig& c,
              const Sequence& s, T scale, std::string* error) {
  if (p.stored) return linalg::Fail(error, "the weights are kept at their stored precision: widen them to train");
  if (!Trainable(c)) return linalg::Fail(error, kNotTrainable);
  const Eigen::Index n = static_cast<Eigen::Index>(s.tokens.size());
  const MultiHeadConfig attn_cfg = BlockAttentionConfig();
  // loss -> logits -> h (the last LayerNorm) -> the residual stream
  Mat<T> dlogits = Mat<T>::Zero(n, c.vocab);
  CrossEntropyBackward(dlogits, a.probs, s.targets, scale);
  Mat<T> dlnf = Mat<T>::Zero(n, c.d_model);
  if (c.tied) TiedLogitsBackward(dlnf, g.wte, dlogits, a.lnf, p.wte);
  else TiedLogitsBackward(dlnf, g.lm_head, dlogits, a.lnf, p.lm_head);
  Mat<T> dres = Mat<T>::Zero(n, c.d_model);  // d x_{l+1}
  LayerNormBackward(dres, g.lnf_w, g.lnf_b, dlnf, a.blocks.back().res2, p.lnf_w, a.lnf_mean,
                    a.lnf_rstd);
  MultiHeadGrads<T> mg;
  for (std::size_t l = p.blocks.size(); l-- > 0;) {
    const BlockParams<T>& w = p.blocks[l];
    BlockParams<T>& gw = g.blocks[l];
    const BlockActs<T>& b = a.blocks[l];
    // res2 = res1 + proj
    Mat<T> dres1 = Mat<T>::Zero(n, c.d_model), dproj = Mat<T>::Zero(n, c.d_model);
    ResidualBackward(dres1, dproj, dres);
    DropoutBackward(dproj, b.drop_mlp);
    // proj = gelu proj_w + proj_b;  gelu = GELU(fc);  fc = ln2 fc_w + fc_b
    Mat<T> dgelu = Mat<T>::Zero(n, c.mlp), dfc = Mat<T>::Zero(n, c.mlp);
    LinearBackward(dgelu, gw.proj_w, gw.proj_b, dproj, b.gelu, w.proj_w);
    if (c.gelu_erf) GeluErfBackward(dfc, dgelu, b.fc);
    else GeluBackward(dfc, dgelu, b.fc);
    Mat<T> dln2 = Mat<T>::Zero(n, c.d_model);
    LinearBackward(dln2, gw.fc_w, gw.fc_b, dfc, b.ln2, w.fc_w);
    // ln2 = LN(res1)
    LayerNormBackward(dres1, gw.ln2_w, gw.ln2_b, dln2, b.res1, w.ln2_w, b.ln2_mean, b.ln2_rstd);
    // res1 = x + attention(ln1)
    Mat<T> dx = Mat<T>::Zero(n, c.d_model), dattn = Mat<T>::Zero(n, c.d_model);
    ResidualBackward(dx, dattn, dres1);
    DropoutBackward(dattn, b.drop_attn);
    if (!MultiHeadBackward<T>(mg, dattn, b.attn, b.ln1, nullptr, w.attn, attn_cfg, error))
      return false;
    for (std::size_t j = 0; j < w.attn.W_Q.size(); ++j) {
      linalg::AddInPlace(gw.attn.W_Q[j], mg.dW_Q[j]);
      linalg::AddInPlace(gw.attn.W_K[j], mg.dW_K[j]);
      linalg::AddInPlace(gw.attn.W_V[j], mg.dW_V[j]);
    }
    linalg::AddInPlace(gw.attn.W_O, mg.dW_O);
    for (std::size_t j = 0; j < w.bq.size(); ++j) {  // each bias was added to every row
      AddColumnSums(gw.bq[j], mg.heads[j].dQ);
      AddColumnSums(gw.bk[j], mg.heads[j].dK);
      AddColumnSums(gw.bv[j], mg.heads[j].dV);
    }
    if (w.bo.size() != 0) AddColumnSums(gw.bo, dattn);
    // ln1 = LN(x)
    LayerNormBackward(dx, gw.ln1_w, gw.ln1_b, mg.dX, b.x, w.ln1_w, b.ln1_mean, b.ln1_rstd);
    dres = std::move(dx);
  }
  DropoutBackward(dres, a.drop_emb);
  EmbeddingBackward(g.wte, g.wpe, dres, s.tokens);
  return true;
}

namespace {
std::size_t CountTargets(const std::vector<Sequence>& batch) {
  std::size_t count = 0;
  for (const Sequence& s : batch) {
    for (int y : s.targets) count += y >= 0 ? 1 : 0;
  }
  return count;
}
}  // namespace

template <typename T>
double LossAndGrad(Params<T>& g, const Params<T>& p, const ModelConfig& c,
                   const std::vector<Sequence>& batch, std::string* error, int threads) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  g = ZeroParams<T>(c);
  const std::size_t count = CountTargets(batch);
  if (count == 0) {
    linalg::Fail(error, "the batch has no targets");
    return nan;
  }
  const T scale = static_cast<T>(1.0 / static_cast<double>(count));
  // One gradient per sequence (any thread), then their sum in sequence order: the same bits
  // for every thread count.
  const int n = static_cast<int>(batch.size());
  std::vector<Params<T>> per(batch.size());
  std::vector<double> losses(batch.size(), 0);
  std::vector<std::string> errors(batch.size());
  std::vector<char> ok(batch.size(), 0);
  ParallelFor(n, threads, [&](int i) {
    const std::size_t k = static_cast<std::size_t>(i);
    SequenceActs<T> acts;
    per[k] = ZeroParams<T>(c);
    if (!Forward(acts, p, c, batch[k], &errors[k])) return;
    losses[k] = acts.loss_sum;
    if (!Backward(per[k], acts, p, c, batch[k], scale, &errors[k])) return;
    ok[k] = 1;
  });
  double total = 0;
  std::vector<TensorRef<T>> gt = Tensors(g);
  for (std::size_t k = 0; k < batch.size(); ++k) {
    if (!ok[k]) {
      linalg::Fail(error, errors[k]);
      return nan;
    }
    total += losses[k];
    std::vector<TensorRef<T>> st = Tensors(per[k]);
    for (std::size_t t = 0; t < gt.size(); ++t) {
      for (Eigen::Index e = 0; e < gt[t].size(); ++e) gt[t].data[e] = gt[t].data[e] + st[t].data[e];
    }
    per[k] = Params<T>();  // memory back early
  }
  return total / static_cast<double>(count);
}

template <typename T>
double Loss(const Params<T>& p, const ModelConfig& c, const std::vector<Sequence>& batch,
            std::string* error, int threads) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t count = CountTargets(batch);
  if (count == 0) {
    linalg::Fail(error, "the batch has no targets");
    return nan;
  }
  std::vector<double> losses(batch.size(), 0);
  std::vector<std::string> errors(batch.size());
  std::vector<char> ok(batch.size(), 0);
  ParallelFor(static_cast<int>(batch.size()), threads, [&](int i) {
    const std::size_t k = static_cast<std::size_t>(i);
    SequenceActs<T> acts;
    if (!Forward(acts, p, c, batch[k], &errors[k])) return;
    losses[k] = acts.loss_sum;
    ok[k] = 1;
  });
  double total = 0;  // in sequence order
  for (std::size_t k = 0; k < batch.size(); ++k) {
    if (!ok[k]) {
      linalg::Fail(error, errors[k]);
      return nan;
    }
    total += losses[k];
  }
  return total / static_cast<double>(count);
}

#define ATTN_MODEL_INSTANTIATE(T)                                                               \
  template bool Forward<T>(SequenceActs<T>&, const Params<T>&, const ModelConfig&,              \
                           const Sequence&, std::string*, bool, const Hooks<T>*);               \
  template bool ForwardFrom<T>(SequenceActs<T>&, int, const Params<T>&, const ModelConfig&,     \
                               const Sequence&, std::string*, bool, const Hooks<T>*);           \
  template bool ForwardFrom<T>(const std::vector<RunFrom<T>>&, const Params<T>&, const ModelConfig&, \
                               const Sequence&, std::string*, bool);                            \
  template const Mat<T>* Activation<T>(const SequenceActs<T>&, HookPoint, int, int);           \
  template void FinalNormRows<T>(Mat<T>&, const Mat<T>&, const Params<T>&, const ModelConfig&); \
  template void UnembedRows<T>(Mat<T>&, const Mat<T>&, const Params<T>&, const ModelConfig&, int); \
  template Vec<T> TokenEmbedding<T>(const Params<T>&, const ModelConfig&, int);                \
  template Vec<T> OutputDirection<T>(const Params<T>&, const ModelConfig&, int);               \
  template bool Backward<T>(Params<T>&, const SequenceActs<T>&, const Params<T>&,               \
                            const ModelConfig&, const Sequence&, T, std::string*);              \
  template double LossAndGrad<T>(Params<T>&, const Params<T>&, const ModelConfig&,              \
                                 const std::vector<Sequence>&, std::string*, int);              \
  template double Loss<T>(const Params<T>&, const ModelConfig&, const std::vector<Sequence>&,   \
                          std::string*, int);
ATTN_MODEL_INSTANTIATE(float)
ATTN_MODEL_INSTANTIATE(double)
#undef ATTN_MODEL_INSTANTIATE

}  // namespace model
}  // namespace attn
