// Direct logit attribution (attribution.h). The per-key vectors v_j W_O[h] are the engine's float
// products (linalg.h: the same bits everywhere); every dot product and norm after them in
// double, in index order.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/inspect/attribution.h"

#include "engine/linalg/linalg.h"

#include <cmath>

namespace attn {
namespace model {

namespace {

// c . g over C entries, in double, in index order.
template <typename Row>
double Dot(const Row& c, const VecD& g) {
  double s = 0;
  for (Eigen::Index k = 0; k < g.size(); ++k) s += static_cast<double>(c(k)) * g(k);
  return s;
}

int Argmax(const Mat<float>& logits) {  // the last row's likeliest token (the lower id on a tie)
  const Eigen::Index r = logits.rows() - 1;
  int best = 0;
  for (Eigen::Index v = 1; v < logits.cols(); ++v)
    if (logits(r, v) > logits(r, best)) best = static_cast<int>(v);
  return best;
}

}  // namespace

bool ComputeAttribution(const Params<float>& p, const ModelConfig& c, const std::vector<int>& tokens,
                        const SequenceActs<float>& acts, int target, int foil, Attribution* out, std::string* error) {
  const int L = static_cast<int>(acts.blocks.size()), T = static_cast<int>(tokens.size()), C = c.d_model;
  if (L != c.layers || T < 1 || acts.emb.rows() != T || acts.emb.cols() != C || acts.logits.rows() < 1 ||
      acts.logits.cols() != c.vocab)
    return linalg::Fail(error, "the run does not belong to this model and text");
  const std::string ids = "a token id from 0 to " + std::to_string(c.vocab - 1);
  if (target < -1 || target >= c.vocab) return linalg::Fail(error, "target: expected " + ids + ", got " + std::to_string(target));
  if (foil < -1 || foil >= c.vocab) return linalg::Fail(error, "foil: expected " + ids + ", got " + std::to_string(foil));
  Attribution r;
  r.position = T - 1;
  r.target = target >= 0 ? target : Argmax(acts.logits);
  if (foil == r.target) return linalg::Fail(error, "foil: the foil must differ from the target (" + std::to_string(foil) + ")");
  r.foil = foil;
  const Eigen::Index last = acts.logits.rows() - 1;
  r.logit = static_cast<double>(acts.logits(last, r.target)) - (foil >= 0 ? static_cast<double>(acts.logits(last, foil)) : 0.0);

  // The direction u (C) and the frozen scale of the final stream x = resid_post[L-1][T-1].
  VecD u = OutputDirection(p, c, r.target).cast<double>();
  if (foil >= 0) u -= OutputDirection(p, c, foil).cast<double>();
  const Mat<float>& final_stream = acts.blocks.back().res2;  // (T, C)
  double mean = 0, sq = 0;
  if (!c.rms_norm) {
    for (int k = 0; k < C; ++k) mean += final_stream(T - 1, k);
    mean /= C;
  }
  for (int k = 0; k < C; ++k) {
    const double d = static_cast<double>(final_stream(T - 1, k)) - mean;
    sq += d * d;
  }
  r.scale = std::sqrt(sq / C + c.ln_eps);
  // part(c) = c . g_hat: g = w_f (.) u / scale; LayerNorm's centring folded in, g_hat = g - mean(g)
  VecD g(C);
  for (int k = 0; k < C; ++k) g(k) = static_cast<double>(p.lnf_w(k)) * u(k) / r.scale;
  if (!c.rms_norm) {
    double gs = 0;
    for (int k = 0; k < C; ++k) gs += g(k);
    for (int k = 0; k < C; ++k) g(k) -= gs / C;
  }

  auto add = [&r](AttributionPart::Kind kind, int layer, int head, double value) {
    r.parts.push_back({kind, layer, head, value});
  };
  add(AttributionPart::kEmbed, -1, -1, Dot(TokenEmbedding(p, c, tokens.back()), g));
  if (!c.rotary) add(AttributionPart::kPosEmbed, -1, -1, Dot(p.wpe.row(T - 1), g));
  BlockParams<float> widened;
  for (int l = 0; l < L; ++l) {
    const BlockActs<float>& a = acts.blocks[static_cast<std::size_t>(l)];
    const BlockParams<float>& w = BlockOf(p, l, &widened);
    const int H = static_cast<int>(a.attn.heads.size());
    Eigen::Index offset = 0;
    for (int h = 0; h < H; ++h) {
      const HeadTrace<float>& head = a.attn.heads[static_cast<std::size_t>(h)];
      const Eigen::Index dh = head.V.cols();
      const Mat<float> wo = w.attn.W_O.middleRows(offset, dh);  // (Dh, C) head h's rows
      offset += dh;
      const Mat<float> z = head.output.bottomRows(1);                       // (1, Dh)
      add(AttributionPart::kHead, l, h, Dot(linalg::MatMul<float>(z, wo).row(0), g));
      const Mat<float> per_key = linalg::MatMul<float>(head.V, wo);  // (T, C) v_j W_O[h]
      HeadSources s;
      s.layer = l;
      s.head = h;
      for (int j = 0; j < T; ++j) {
        const double alpha = head.weights(T - 1, j);
        double norm2 = 0;
        for (int k = 0; k < C; ++k) {
          const double e = alpha * static_cast<double>(per_key(j, k));
          norm2 += e * e;
        }
        s.weight.push_back(alpha);
        s.contribution.push_back(std::sqrt(norm2));
        s.attribution.push_back(alpha * Dot(per_key.row(j), g));
      }
      r.heads.push_back(std::move(s));
    }
    if (w.bo.size() != 0) add(AttributionPart::kAttnBias, l, -1, Dot(w.bo, g));
    add(AttributionPart::kMlp, l, -1, Dot(a.proj.row(T - 1), g));
  }
  if (!c.rms_norm) add(AttributionPart::kFinalBias, -1, -1, Dot(p.lnf_b, u));
  for (const AttributionPart& part : r.parts) r.sum += part.value;
  *out = std::move(r);
  return true;
}

}  // namespace model
}  // namespace attn
