// The cached forward of one position (kv_cache.h): the block's steps of model.cpp's BlockForward
// on one row, the architecture's own steps at q, k, v in the same order (biases, Qwen3's q/k norm,
// the rotation), the attention over the kept keys and values.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/arch/kv_cache.h"

#include "engine/attention/multihead.h"
#include "engine/linalg/linalg.h"

namespace attn {
namespace model {

bool Prefill(KvCache* cache, SequenceActs<float>* acts, const Params<float>& p, const ModelConfig& c,
             const std::vector<int>& tokens, int capacity, std::string* error, int threads) {
  const int n = static_cast<int>(tokens.size());
  if (capacity < n || capacity > c.context)
    return linalg::Fail(error, "the cache must hold the prompt and fit the context (" + std::to_string(n) + " to " +
                           std::to_string(c.context) + " positions, got " + std::to_string(capacity) + ")");
  Sequence s;
  s.tokens = tokens;
  s.targets.assign(tokens.size(), -1);
  s.threads = threads;
  if (!Forward(*acts, p, c, s, error, /*last_only=*/true)) return false;
  KvCache k;
  k.length = n;
  k.k.resize(acts->blocks.size());
  k.v.resize(acts->blocks.size());
  for (std::size_t l = 0; l < acts->blocks.size(); ++l) {
    for (const HeadTrace<float>& h : acts->blocks[l].attn.heads) {
      k.k[l].emplace_back(capacity, h.K.cols());  // (capacity, Dh)
      k.v[l].emplace_back(capacity, h.V.cols());
      k.k[l].back().topRows(n) = h.K;
      k.v[l].back().topRows(n) = h.V;
    }
  }
  if (c.rotary) k.rope = MakeRopeTable<float>(c, capacity);
  *cache = std::move(k);
  return true;
}

namespace {

// One product of the step: row (1, K) times the stored matrix, or the float one when the weights
// are not stored; out (1, N) sized here, filled by RowProducts.
RowProduct Times(const Mat<float>& row, const StoredMatrix* stored, const Mat<float>* plain, Mat<float>* out) {
  out->resize(1, stored ? stored->cols() : plain->cols());
  RowProduct r;
  r.x = row.data();
  r.stored = stored;
  r.plain = stored ? nullptr : plain;
  r.out = out->data();
  return r;
}

}  // namespace

bool DecodeStep(KvCache* cache, Mat<float>* logits, const Params<float>& p, const ModelConfig& c, int token,
                std::string* error, int threads) {
  const int t = cache->length;  // the new position
  if (cache->k.empty() || t >= static_cast<int>(cache->k[0][0].rows()))
    return linalg::Fail(error, "the cache is full (" + std::to_string(t) + " positions)");
  if (token < 0 || token >= c.vocab) return linalg::Fail(error, "token id out of the vocabulary");
  const Eigen::Index C = c.d_model;
  // The embedding: the token's row (+ the position's, learned positions): one addition per entry.
  Mat<float> x(1, C);  // (1, C)
  const Vec<float> tok = TokenEmbedding(p, c, token);
  for (Eigen::Index k = 0; k < C; ++k) x(0, k) = c.rotary ? tok(k) : tok(k) + p.wpe(t, k);
  const MultiHeadConfig attn_cfg = BlockAttentionConfig(c, t + 1);
  const Mask full_row = attn_cfg.mask.size() != 0 ? Mask(attn_cfg.mask.bottomRows(1)) : Mask::Constant(1, t + 1, true);
  Mat<float> ln, out, res1, mlp_in, fc, up, act, proj;
  Vec<float> mean, rstd;
  for (std::size_t l = 0; l < cache->k.size(); ++l) {
    const BlockParams<float>& w = p.blocks[l];  // the vectors, and the matrices when nothing is stored
    const StoredBlock* s = p.stored ? &p.stored->blocks[l] : nullptr;
    Norm(ln, mean, rstd, x, w.ln1_w, w.ln1_b, c);  // (1, C)
    // q of every head; k and v of every key/value head (stored: a grouped-query model keeps one
    // W_K, W_V per key/value head, the forward copies its product for the heads that share it)
    const std::size_t H = cache->k[l].size();
    const std::size_t kv = s ? s->wk.size() : H, group = H / kv;
    std::vector<Mat<float>> q(H), k(kv), v(kv);  // (1, Dh) each
    std::vector<RowProduct> products;
    for (std::size_t h = 0; h < H; ++h) products.push_back(s ? Times(ln, &s->wq[h], nullptr, &q[h]) : Times(ln, nullptr, &w.attn.W_Q[h], &q[h]));
    for (std::size_t g = 0; g < kv; ++g) {
      products.push_back(s ? Times(ln, &s->wk[g], nullptr, &k[g]) : Times(ln, nullptr, &w.attn.W_K[g], &k[g]));
      products.push_back(s ? Times(ln, &s->wv[g], nullptr, &v[g]) : Times(ln, nullptr, &w.attn.W_V[g], &v[g]));
    }
    RowProducts(products, threads, &cache->scratch);
    Mat<float> concat(1, 0);
    std::vector<Mat<float>> outputs;
    Eigen::Index width = 0;
    for (std::size_t h = 0; h < H; ++h) {
      Mat<float> qh = q[h], kh = k[h / group], vh = v[h / group];  // (1, Dh)
      if (!w.bq.empty()) {
        AddRowBias(qh, w.bq[h]);
        AddRowBias(kh, w.bk[h]);
        AddRowBias(vh, w.bv[h]);
      }
      if (c.qk_norm) {
        RmsNormRows(qh, w.q_norm, c.ln_eps);
        RmsNormRows(kh, w.k_norm, c.ln_eps);
      }
      if (c.rotary) {
        RopeRotate(qh, cache->rope, t);
        RopeRotate(kh, cache->rope, t);
      }
      Mat<float>& K = cache->k[l][h];
      Mat<float>& V = cache->v[l][h];
      K.row(t) = kh.row(0);
      V.row(t) = vh.row(0);
      HeadTrace<float> head;
      if (!HeadForward<float>(head, qh, K.topRows(t + 1), V.topRows(t + 1), full_row, attn_cfg.head, error))
        return false;
      width += head.output.cols();
      outputs.push_back(std::move(head.output));
    }
    concat.resize(1, width);  // (1, H*Dv)
    Eigen::Index offset = 0;
    for (const Mat<float>& o : outputs) {
      concat.middleCols(offset, o.cols()) = o;
      offset += o.cols();
    }
    RowProducts({Times(concat, s ? &s->wo : nullptr, &w.attn.W_O, &out)}, threads, &cache->scratch);  // (1, C)
    if (w.bo.size() != 0) AddRowBias(out, w.bo);
    ResidualForward(res1, x, out);
    Norm(mlp_in, mean, rstd, res1, w.ln2_w, w.ln2_b, c);
    if (c.swiglu) {
      RowProducts({Times(mlp_in, s ? &s->gate_w : nullptr, &w.gate_w, &fc), Times(mlp_in, s ? &s->fc_w : nullptr, &w.fc_w, &up)},
                  threads, &cache->scratch);
      SwiGluForward(act, fc, up);
      RowProducts({Times(act, s ? &s->proj_w : nullptr, &w.proj_w, &proj)}, threads, &cache->scratch);
    } else {  // LinearForward's product, then its bias
      RowProducts({Times(mlp_in, s ? &s->fc_w : nullptr, &w.fc_w, &fc)}, threads, &cache->scratch);
      AddRowBias(fc, w.fc_b);
      if (c.gelu_erf) GeluErfForward(act, fc);
      else GeluForward(act, fc);
      RowProducts({Times(act, s ? &s->proj_w : nullptr, &w.proj_w, &proj)}, threads, &cache->scratch);
      AddRowBias(proj, w.proj_b);
    }
    ResidualForward(x, res1, proj);
  }
  FinalNormRows(ln, x, p, c);
  UnembedRows(*logits, ln, p, c, threads);
  cache->length = t + 1;
  return true;
}

}  // namespace model
}  // namespace attn
