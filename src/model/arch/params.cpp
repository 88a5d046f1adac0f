// The parameters as tensors (model.h): their fixed order, zeros, GPT-2's initialization, and a
// checkpoint's stored weights widened (stored.h) a block at a time or all at once.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/arch/model.h"

#include "engine/base/rng.h"

#include <cmath>

namespace attn {
namespace model {

template <typename T>
std::vector<TensorRef<T>> Tensors(Params<T>& p) {
  std::vector<TensorRef<T>> out;
  // a part the architecture does not have (a Llama's wpe, biases, RMSNorm's bias) is left out
  auto mat = [&](const std::string& name, Mat<T>& m, bool decay) {
    if (m.size() != 0) out.push_back({name, {m.rows(), m.cols()}, decay, m.data(), m.rows(), m.cols()});
  };
  auto vec = [&](const std::string& name, Vec<T>& v) {
    if (v.size() != 0) out.push_back({name, {v.size()}, false, v.data(), v.size(), 1});
  };
  mat("wte", p.wte, true);
  mat("wpe", p.wpe, true);
  for (std::size_t l = 0; l < p.blocks.size(); ++l) {
    BlockParams<T>& b = p.blocks[l];
    const std::string h = "h." + std::to_string(l) + ".";
    vec(h + "ln1.weight", b.ln1_w);
    vec(h + "ln1.bias", b.ln1_b);
    for (std::size_t j = 0; j < b.attn.W_Q.size(); ++j) {
      mat(h + "attn.w_q." + std::to_string(j), b.attn.W_Q[j], true);
      mat(h + "attn.w_k." + std::to_string(j), b.attn.W_K[j], true);
      mat(h + "attn.w_v." + std::to_string(j), b.attn.W_V[j], true);
    }
    mat(h + "attn.w_o", b.attn.W_O, true);
    for (std::size_t j = 0; j < b.bq.size(); ++j) {
      vec(h + "attn.b_q." + std::to_string(j), b.bq[j]);
      vec(h + "attn.b_k." + std::to_string(j), b.bk[j]);
      vec(h + "attn.b_v." + std::to_string(j), b.bv[j]);
    }
    vec(h + "attn.b_o", b.bo);
    vec(h + "attn.q_norm.weight", b.q_norm);
    vec(h + "attn.k_norm.weight", b.k_norm);
    vec(h + "ln2.weight", b.ln2_w);
    vec(h + "ln2.bias", b.ln2_b);
    mat(h + "mlp.gate.weight", b.gate_w, true);
    mat(h + "mlp.fc.weight", b.fc_w, true);
    vec(h + "mlp.fc.bias", b.fc_b);
    mat(h + "mlp.proj.weight", b.proj_w, true);
    vec(h + "mlp.proj.bias", b.proj_b);
  }
  vec("ln_f.weight", p.lnf_w);
  vec("ln_f.bias", p.lnf_b);
  if (p.lm_head.size() != 0) mat("lm_head", p.lm_head, true);
  return out;
}

std::int64_t ParameterCount(const ModelConfig& c) {
  // As a checkpoint holds them: W_K and W_V once per key/value head (not repeated)
  const std::int64_t C = c.d_model, F = c.mlp, H = c.heads, KV = KvHeads(c), Dh = HeadDim(c);
  const std::int64_t norm = c.rms_norm ? C : 2 * C;
  const std::int64_t attention = C * H * Dh + 2 * C * KV * Dh + H * Dh * C + (c.attn_bias ? (H + 2 * KV) * Dh : 0) +
                                 (c.out_bias ? C : 0) + (c.qk_norm ? 2 * Dh : 0);
  const std::int64_t mlp = c.swiglu ? 3 * C * F : (C * F + F) + (F * C + C);
  const std::int64_t block = 2 * norm + attention + mlp;
  return static_cast<std::int64_t>(c.vocab) * C * (c.tied ? 1 : 2) + (c.rotary ? 0 : static_cast<std::int64_t>(c.context) * C) +
         c.layers * block + norm;
}

// Every query head's W_K and W_V as their own matrices (grouped-query heads repeat them).
template <typename T>
Params<T> ZeroParams(const ModelConfig& c) {
  const int dh = HeadDim(c), C = c.d_model;
  Params<T> p;
  p.wte = Mat<T>::Zero(c.vocab, C);
  if (!c.rotary) p.wpe = Mat<T>::Zero(c.context, C);
  p.blocks.resize(static_cast<std::size_t>(c.layers));
  for (BlockParams<T>& b : p.blocks) {
    b.ln1_w = Vec<T>::Zero(C);
    if (!c.rms_norm) b.ln1_b = Vec<T>::Zero(C);
    b.attn.W_Q.assign(static_cast<std::size_t>(c.heads), Mat<T>::Zero(C, dh));
    b.attn.W_K = b.attn.W_Q;
    b.attn.W_V = b.attn.W_Q;
    b.attn.W_O = Mat<T>::Zero(c.heads * dh, C);
    if (c.attn_bias) {
      b.bq.assign(static_cast<std::size_t>(c.heads), Vec<T>::Zero(dh));
      b.bk = b.bq;
      b.bv = b.bq;
    }
    if (c.out_bias) b.bo = Vec<T>::Zero(C);
    if (c.qk_norm) {
      b.q_norm = Vec<T>::Zero(dh);
      b.k_norm = Vec<T>::Zero(dh);
    }
    b.ln2_w = Vec<T>::Zero(C);
    if (!c.rms_norm) b.ln2_b = Vec<T>::Zero(C);
    b.fc_w = Mat<T>::Zero(C, c.mlp);
    b.proj_w = Mat<T>::Zero(c.mlp, C);
    if (c.swiglu) {
      b.gate_w = Mat<T>::Zero(C, c.mlp);
    } else {
      b.fc_b = Vec<T>::Zero(c.mlp);
      b.proj_b = Vec<T>::Zero(C);
    }
  }
  p.lnf_w = Vec<T>::Zero(C);
  if (!c.rms_norm) p.lnf_b = Vec<T>::Zero(C);
  if (!c.tied) p.lm_head = Mat<T>::Zero(c.vocab, C);
  return p;
}

template <typename T>
Params<T> InitParams(const ModelConfig& c, std::uint64_t seed) {
  Params<T> p = ZeroParams<T>(c);
  const double residual_std = 0.02 / std::sqrt(2.0 * c.layers);
  std::vector<TensorRef<T>> tensors = Tensors(p);
  for (std::size_t k = 0; k < tensors.size(); ++k) {
    TensorRef<T>& t = tensors[k];
    const std::string& n = t.name;
    const bool is_vector = t.shape.size() == 1;
    if (is_vector) {
      const bool ln_weight = n.size() > 7 && n.compare(n.size() - 7, 7, ".weight") == 0;
      for (Eigen::Index i = 0; i < t.size(); ++i) t.data[i] = ln_weight ? T(1) : T(0);
      continue;
    }
    const bool residual = n.find("attn.w_o") != std::string::npos ||
                          n.find("mlp.proj.weight") != std::string::npos;
    const double std_dev = residual ? residual_std : 0.02;
    std::vector<double> z(static_cast<std::size_t>(t.size()));
    rng::SplitMix64 stream(rng::Mix64(seed) + k);
    rng::FillStandardNormal(stream, z.data(), static_cast<int>(z.size()));
    // row-major order: entry (r, c) is draw r * cols + c
    for (Eigen::Index r = 0; r < t.rows; ++r) {
      for (Eigen::Index col = 0; col < t.cols; ++col) {
        t.data[col * t.rows + r] =
            static_cast<T>(std_dev * z[static_cast<std::size_t>(r * t.cols + col)]);
      }
    }
  }
  return p;
}

const BlockParams<float>& BlockOf(const Params<float>& p, int l, BlockParams<float>* scratch) {
  const BlockParams<float>& own = p.blocks[static_cast<std::size_t>(l)];
  if (!p.stored) return own;
  const StoredBlock& s = p.stored->blocks[static_cast<std::size_t>(l)];
  BlockParams<float>& b = *scratch;
  b.ln1_w = own.ln1_w;
  b.ln1_b = own.ln1_b;
  b.bq = own.bq;
  b.bk = own.bk;
  b.bv = own.bv;
  b.bo = own.bo;
  b.q_norm = own.q_norm;
  b.k_norm = own.k_norm;
  b.ln2_w = own.ln2_w;
  b.ln2_b = own.ln2_b;
  b.fc_b = own.fc_b;
  b.proj_b = own.proj_b;
  const std::size_t heads = s.wq.size();
  b.attn.W_Q.resize(heads);
  b.attn.W_K.resize(heads);
  b.attn.W_V.resize(heads);
  const std::size_t group = heads / s.wk.size();  // query heads per key/value head
  for (std::size_t h = 0; h < heads; ++h) {
    s.wq[h].Widen(&b.attn.W_Q[h]);
    s.wk[h / group].Widen(&b.attn.W_K[h]);
    s.wv[h / group].Widen(&b.attn.W_V[h]);
  }
  s.wo.Widen(&b.attn.W_O);
  if (s.gate_w.empty()) b.gate_w.resize(0, 0);
  else s.gate_w.Widen(&b.gate_w);
  s.fc_w.Widen(&b.fc_w);
  s.proj_w.Widen(&b.proj_w);
  return b;
}

Params<float> Widened(const Params<float>& p) {
  Params<float> out = p;
  if (!p.stored) return out;
  out.stored = nullptr;
  p.stored->wte.Widen(&out.wte);
  if (!p.stored->lm_head.empty()) p.stored->lm_head.Widen(&out.lm_head);
  for (std::size_t l = 0; l < out.blocks.size(); ++l) {
    BlockParams<float> scratch;
    out.blocks[l] = BlockOf(p, static_cast<int>(l), &scratch);
  }
  return out;
}

template std::vector<TensorRef<float>> Tensors<float>(Params<float>&);
template std::vector<TensorRef<double>> Tensors<double>(Params<double>&);
template Params<float> ZeroParams<float>(const ModelConfig&);
template Params<double> ZeroParams<double>(const ModelConfig&);
template Params<float> InitParams<float>(const ModelConfig&, std::uint64_t);
template Params<double> InitParams<double>(const ModelConfig&, std::uint64_t);

}  // namespace model
}  // namespace attn
