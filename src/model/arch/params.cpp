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
  auto mat = [&](const std::string& name, Mat<T>& m, bool decay) {
    out.push_back({name, {m.rows(), m.cols()}, decay, m.data(), m.rows(), m.cols()});
  };
  auto vec = [&](const std::string& name, Vec<T>& v) {
    out.push_back({name, {v.size()}, false, v.data(), v.size(), 1});
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
    if (b.bo.size() != 0) vec(h + "attn.b_o", b.bo);
    vec(h + "ln2.weight", b.ln2_w);
    vec(h + "ln2.bias", b.ln2_b);
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
  const std::int64_t C = c.d_model, F = c.mlp;
  const std::int64_t biases = c.attn_bias ? 4 * C : 0;  // q, k, v and the output's
  const std::int64_t block = 2 * C + C * 3 * C + C * C + biases + 2 * C + (C * F + F) + (F * C + C);
  return static_cast<std::int64_t>(c.vocab) * C * (c.tied ? 1 : 2) + static_cast<std::int64_t>(c.context) * C +
         c.layers * block + 2 * C;
}

template <typename T>
Params<T> ZeroParams(const ModelConfig& c) {
  const int dh = c.d_model / c.heads;
  Params<T> p;
  p.wte = Mat<T>::Zero(c.vocab, c.d_model);
  p.wpe = Mat<T>::Zero(c.context, c.d_model);
  p.blocks.resize(static_cast<std::size_t>(c.layers));
  for (BlockParams<T>& b : p.blocks) {
    b.ln1_w = Vec<T>::Zero(c.d_model);
    b.ln1_b = Vec<T>::Zero(c.d_model);
    b.attn.W_Q.assign(static_cast<std::size_t>(c.heads), Mat<T>::Zero(c.d_model, dh));
    b.attn.W_K = b.attn.W_Q;
    b.attn.W_V = b.attn.W_Q;
    b.attn.W_O = Mat<T>::Zero(c.heads * dh, c.d_model);
    if (c.attn_bias) {
      b.bq.assign(static_cast<std::size_t>(c.heads), Vec<T>::Zero(dh));
      b.bk = b.bq;
      b.bv = b.bq;
      b.bo = Vec<T>::Zero(c.d_model);
    }
    b.ln2_w = Vec<T>::Zero(c.d_model);
    b.ln2_b = Vec<T>::Zero(c.d_model);
    b.fc_w = Mat<T>::Zero(c.d_model, c.mlp);
    b.fc_b = Vec<T>::Zero(c.mlp);
    b.proj_w = Mat<T>::Zero(c.mlp, c.d_model);
    b.proj_b = Vec<T>::Zero(c.d_model);
  }
  p.lnf_w = Vec<T>::Zero(c.d_model);
  p.lnf_b = Vec<T>::Zero(c.d_model);
  if (!c.tied) p.lm_head = Mat<T>::Zero(c.vocab, c.d_model);
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
  b.ln2_w = own.ln2_w;
  b.ln2_b = own.ln2_b;
  b.fc_b = own.fc_b;
  b.proj_b = own.proj_b;
  const std::size_t heads = s.wq.size();
  b.attn.W_Q.resize(heads);
  b.attn.W_K.resize(heads);
  b.attn.W_V.resize(heads);
  for (std::size_t h = 0; h < heads; ++h) {
    s.wq[h].Widen(&b.attn.W_Q[h]);
    s.wk[h].Widen(&b.attn.W_K[h]);
    s.wv[h].Widen(&b.attn.W_V[h]);
  }
  s.wo.Widen(&b.attn.W_O);
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
