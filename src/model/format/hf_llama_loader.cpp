// The Llama family's tensors (hf_llama_loader.h).
#include "model/format/hf_llama_loader.h"

namespace attn {
namespace model {

namespace {

// The part after "layers.N." of a key, "" outside the blocks.
std::string PartOf(const std::string& key) {
  const std::size_t dot = key.find('.', 7);
  return key.rfind("layers.", 0) == 0 && dot != std::string::npos ? key.substr(dot + 1) : std::string();
}

}  // namespace

std::string LlamaLoader::Key(const std::string& name) const {
  return name.rfind("model.", 0) == 0 ? name.substr(6) : name;
}

std::vector<std::string> LlamaLoader::Wanted() const {
  std::vector<std::string> wanted = {"embed_tokens.weight"};
  for (int l = 0; l < c_.layers; ++l) {
    std::vector<std::string> parts = {"input_layernorm.weight", "self_attn.q_proj.weight", "self_attn.k_proj.weight",
                                      "self_attn.v_proj.weight", "self_attn.o_proj.weight"};
    if (c_.attn_bias)
      for (const char* b : {"self_attn.q_proj.bias", "self_attn.k_proj.bias", "self_attn.v_proj.bias"}) parts.push_back(b);
    if (c_.out_bias) parts.push_back("self_attn.o_proj.bias");
    if (c_.qk_norm)
      for (const char* n : {"self_attn.q_norm.weight", "self_attn.k_norm.weight"}) parts.push_back(n);
    for (const char* m : {"post_attention_layernorm.weight", "mlp.gate_proj.weight", "mlp.up_proj.weight", "mlp.down_proj.weight"})
      parts.push_back(m);
    for (const std::string& part : parts) wanted.push_back("layers." + std::to_string(l) + "." + part);
  }
  wanted.push_back("norm.weight");
  if (!c_.tied) wanted.push_back("lm_head.weight");
  return wanted;
}

bool LlamaLoader::TargetOf(const std::string& name, Target* t) const {
  const std::int64_t C = c_.d_model, F = c_.mlp, V = c_.vocab, H = c_.heads, KV = KvHeads(c_), Dh = HeadDim(c_);
  *t = Target{};
  if (name == "embed_tokens.weight") *t = {kStored, -1, {V, C}, true, true};
  else if (name == "norm.weight") *t = {kVector, -1, {C}, true, false};
  else if (name == "lm_head.weight") *t = {c_.tied ? kSkip : kStored, -1, {V, C}, !c_.tied, true};
  else {
    int l = -1;
    std::string part;
    if (!SplitBlockName(name, "layers.", c_.layers, &l, &part)) return false;
    if (part == "self_attn.rotary_emb.inv_freq") *t = {kSkip, l, {}, false, false};  // an old buffer: recomputed
    else if (part == "input_layernorm.weight" || part == "post_attention_layernorm.weight") *t = {kVector, l, {C}, true, false};
    else if (part == "self_attn.q_proj.weight") *t = {kHeads, l, {H * Dh, C}, true, true};
    else if (part == "self_attn.k_proj.weight" || part == "self_attn.v_proj.weight") *t = {kHeads, l, {KV * Dh, C}, true, true};
    else if (part == "self_attn.o_proj.weight") *t = {kStoredT, l, {C, H * Dh}, true, true};
    else if (c_.attn_bias && part == "self_attn.q_proj.bias") *t = {kHeadBias, l, {H * Dh}, true, false};
    else if (c_.attn_bias && (part == "self_attn.k_proj.bias" || part == "self_attn.v_proj.bias"))
      *t = {kHeadBias, l, {KV * Dh}, true, false};
    else if (c_.out_bias && part == "self_attn.o_proj.bias") *t = {kVector, l, {C}, true, false};
    else if (c_.qk_norm && (part == "self_attn.q_norm.weight" || part == "self_attn.k_norm.weight")) *t = {kVector, l, {Dh}, true, false};
    else if (part == "mlp.gate_proj.weight" || part == "mlp.up_proj.weight") *t = {kStoredT, l, {F, C}, true, true};
    else if (part == "mlp.down_proj.weight") *t = {kStoredT, l, {C, F}, true, true};
    else return false;
  }
  return true;
}

StoredMatrix* LlamaLoader::StoredFor(const std::string& key, int layer) {
  if (layer < 0) return key == "embed_tokens.weight" ? &stored_->wte : &stored_->lm_head;
  StoredBlock& b = stored_->blocks[static_cast<std::size_t>(layer)];
  const std::string part = PartOf(key);
  return part == "self_attn.o_proj.weight" ? &b.wo : part == "mlp.gate_proj.weight" ? &b.gate_w
         : part == "mlp.up_proj.weight" ? &b.fc_w : &b.proj_w;
}

void LlamaLoader::Allocate(const std::string& key, const Target& t, StoredType type) {
  const Eigen::Index C = c_.d_model, Dh = HeadDim(c_);
  if (t.kind == kStored) *StoredFor(key, t.layer) = StoredMatrix(type, t.shape[0], t.shape[1]);
  else if (t.kind == kStoredT) *StoredFor(key, t.layer) = StoredMatrix(type, t.shape[1], t.shape[0]);
  else if (t.kind == kHeads) {
    StoredBlock& b = stored_->blocks[static_cast<std::size_t>(t.layer)];
    const std::string part = PartOf(key);
    std::vector<StoredMatrix>& list = part == "self_attn.q_proj.weight" ? b.wq : part == "self_attn.k_proj.weight" ? b.wk : b.wv;
    list.assign(static_cast<std::size_t>(t.shape[0] / Dh), StoredMatrix(type, C, Dh));
  }
}

void LlamaLoader::Scatter(const std::string& key, const StEntry& e, const Target& t, const unsigned char* bytes) {
  const std::size_t size = e.size;
  const Eigen::Index H = c_.heads, Dh = HeadDim(c_);
  auto value = [&](Eigen::Index i) { return StValue(e.dtype, bytes + static_cast<std::size_t>(i) * size); };
  const std::string part = PartOf(key);
  if (t.kind == kVector) {
    Vec<float>* v = &p_.lnf_w;
    if (t.layer >= 0) {
      BlockParams<float>& b = p_.blocks[static_cast<std::size_t>(t.layer)];
      v = part == "input_layernorm.weight" ? &b.ln1_w : part == "post_attention_layernorm.weight" ? &b.ln2_w
          : part == "self_attn.o_proj.bias" ? &b.bo : part == "self_attn.q_norm.weight" ? &b.q_norm : &b.k_norm;
    }
    v->resize(t.shape[0]);
    for (Eigen::Index j = 0; j < v->size(); ++j) (*v)(j) = value(j);
    return;
  }
  if (t.kind == kHeadBias) {  // (heads * Dh): head g's bias is entries g Dh ..; a key/value
                              // head's is repeated for each query head that reads it
    BlockParams<float>& b = p_.blocks[static_cast<std::size_t>(t.layer)];
    std::vector<Vec<float>>& list = part == "self_attn.q_proj.bias" ? b.bq : part == "self_attn.k_proj.bias" ? b.bk : b.bv;
    const Eigen::Index heads = t.shape[0] / Dh, group = H / heads;
    list.assign(static_cast<std::size_t>(H), Vec<float>(Dh));
    for (Eigen::Index h = 0; h < H; ++h)
      for (Eigen::Index d = 0; d < Dh; ++d) list[static_cast<std::size_t>(h)](d) = value((h / group) * Dh + d);
    return;
  }
  const Eigen::Index rows = t.shape[0], cols = t.shape[1];  // the file's (out, in), row-major
  if (t.kind == kHeads) {  // row h Dh + d of the file is column d of head h's (C, Dh)
    StoredBlock& b = stored_->blocks[static_cast<std::size_t>(t.layer)];
    std::vector<StoredMatrix>& list = part == "self_attn.q_proj.weight" ? b.wq : part == "self_attn.k_proj.weight" ? b.wk : b.wv;
    for (Eigen::Index r = 0; r < rows; ++r) {
      StoredMatrix& m = list[static_cast<std::size_t>(r / Dh)];
      for (Eigen::Index k = 0; k < cols; ++k) m.SetRaw(k, r % Dh, bytes + static_cast<std::size_t>(r * cols + k) * size);
    }
    return;
  }
  StoredMatrix* m = StoredFor(key, t.layer);
  if (t.kind == kStored) {  // the embedding and lm_head: (V, C) as the lab keeps them
    for (Eigen::Index r = 0; r < rows; ++r)
      for (Eigen::Index k = 0; k < cols; ++k) m->SetRaw(r, k, bytes + static_cast<std::size_t>(r * cols + k) * size);
    return;
  }
  for (Eigen::Index r = 0; r < rows; ++r)  // kStoredT: (out, in) -> the lab's (in, out)
    for (Eigen::Index k = 0; k < cols; ++k) m->SetRaw(k, r, bytes + static_cast<std::size_t>(r * cols + k) * size);
}

}  // namespace model
}  // namespace attn
