// GPT-2's tensors (hf_gpt2_loader.h).
#include "model/format/hf_gpt2_loader.h"

namespace attn {
namespace model {

std::string Gpt2Loader::Key(const std::string& name) const {
  return name.rfind("transformer.", 0) == 0 ? name.substr(12) : name;
}

std::vector<std::string> Gpt2Loader::Wanted() const {
  std::vector<std::string> wanted = {"wte.weight", "wpe.weight"};
  for (int l = 0; l < c_.layers; ++l)
    for (const char* part : {"ln_1.weight", "ln_1.bias", "attn.c_attn.weight", "attn.c_attn.bias", "attn.c_proj.weight",
                             "attn.c_proj.bias", "ln_2.weight", "ln_2.bias", "mlp.c_fc.weight", "mlp.c_fc.bias",
                             "mlp.c_proj.weight", "mlp.c_proj.bias"})
      wanted.push_back("h." + std::to_string(l) + "." + part);
  wanted.push_back("ln_f.weight");
  wanted.push_back("ln_f.bias");
  if (!c_.tied) wanted.push_back("lm_head.weight");
  return wanted;
}

bool Gpt2Loader::TargetOf(const std::string& name, Target* t) const {
  const std::int64_t C = c_.d_model, F = c_.mlp, V = c_.vocab, P = c_.context;
  *t = Target{};
  if (name == "wte.weight") *t = {kStored, -1, {V, C}, true, true};
  else if (name == "wpe.weight") *t = {kDense, -1, {P, C}, true, false};
  else if (name == "ln_f.weight" || name == "ln_f.bias") *t = {kVector, -1, {C}, true, false};
  else if (name == "lm_head.weight") *t = {c_.tied ? kSkip : kStored, -1, {V, C}, !c_.tied, true};
  else {
    int l = -1;
    std::string part;
    if (!SplitBlockName(name, "h.", c_.layers, &l, &part)) return false;
    if (part == "attn.bias" || part == "attn.masked_bias") *t = {kSkip, l, {}, false, false};  // the old causal-mask buffers
    else if (part == "ln_1.weight" || part == "ln_1.bias" || part == "ln_2.weight" || part == "ln_2.bias" ||
             part == "attn.c_proj.bias" || part == "mlp.c_proj.bias")
      *t = {kVector, l, {C}, true, false};
    else if (part == "attn.c_attn.weight") *t = {kQkv, l, {C, 3 * C}, true, true};
    else if (part == "attn.c_attn.bias") *t = {kQkvBias, l, {3 * C}, true, false};
    else if (part == "attn.c_proj.weight") *t = {kStored, l, {C, C}, true, true};
    else if (part == "mlp.c_fc.weight") *t = {kStored, l, {C, F}, true, true};
    else if (part == "mlp.c_fc.bias") *t = {kVector, l, {F}, true, false};
    else if (part == "mlp.c_proj.weight") *t = {kStored, l, {F, C}, true, true};
    else return false;
  }
  return true;
}

void Gpt2Loader::Allocate(const std::string& name, const Target& t, StoredType type) {
  const Eigen::Index C = c_.d_model, H = c_.heads, Dh = C / H;
  if (t.kind == kStored) {
    const StoredMatrix m(type, t.shape[0], t.shape[1]);
    if (t.layer < 0) (name == "wte.weight" ? stored_->wte : stored_->lm_head) = m;
    else {
      StoredBlock& b = stored_->blocks[static_cast<std::size_t>(t.layer)];
      const std::string part = name.substr(name.find('.', 2) + 1);
      (part == "attn.c_proj.weight" ? b.wo : part == "mlp.c_fc.weight" ? b.fc_w : b.proj_w) = m;
    }
  } else if (t.kind == kQkv) {
    StoredBlock& b = stored_->blocks[static_cast<std::size_t>(t.layer)];
    b.wq.assign(static_cast<std::size_t>(H), StoredMatrix(type, C, Dh));
    b.wk = b.wq;
    b.wv = b.wq;
  }
}

void Gpt2Loader::Scatter(const std::string& key, const StEntry& e, const Target& t, const unsigned char* bytes) {
  const std::size_t size = e.size;
  const Eigen::Index C = c_.d_model, H = c_.heads, Dh = C / H;
  auto value = [&](std::size_t i) { return StValue(e.dtype, bytes + i * size); };
  if (t.kind == kVector || t.kind == kQkvBias) {
    const Eigen::Index n = static_cast<Eigen::Index>(t.shape[0]);
    if (t.kind == kQkvBias) {
      // c_attn.bias (3C): [q | k | v], each H heads of Dh
      BlockParams<float>& b = p_.blocks[static_cast<std::size_t>(t.layer)];
      for (auto* list : {&b.bq, &b.bk, &b.bv}) list->assign(static_cast<std::size_t>(H), Vec<float>(Dh));
      for (Eigen::Index j = 0; j < n; ++j) {
        std::vector<Vec<float>>& part = j < C ? b.bq : j < 2 * C ? b.bk : b.bv;
        part[static_cast<std::size_t>((j % C) / Dh)](j % Dh) = value(static_cast<std::size_t>(j));
      }
      return;
    }
    Vec<float>* v = nullptr;
    if (t.layer < 0) v = key == "ln_f.weight" ? &p_.lnf_w : &p_.lnf_b;
    else {
      BlockParams<float>& b = p_.blocks[static_cast<std::size_t>(t.layer)];
      const std::string part = key.substr(key.find('.', 2) + 1);
      v = part == "ln_1.weight" ? &b.ln1_w : part == "ln_1.bias" ? &b.ln1_b : part == "ln_2.weight" ? &b.ln2_w
          : part == "ln_2.bias" ? &b.ln2_b : part == "attn.c_proj.bias" ? &b.bo : part == "mlp.c_fc.bias" ? &b.fc_b
          : &b.proj_b;
    }
    v->resize(n);
    for (Eigen::Index j = 0; j < n; ++j) (*v)(j) = value(static_cast<std::size_t>(j));
    return;
  }
  const Eigen::Index rows = static_cast<Eigen::Index>(t.shape[0]), cols = static_cast<Eigen::Index>(t.shape[1]);
  if (t.kind == kDense) {  // wpe (P, C): row-major in the file
    p_.wpe.resize(rows, cols);
    for (Eigen::Index r = 0; r < rows; ++r)
      for (Eigen::Index k = 0; k < cols; ++k) p_.wpe(r, k) = value(static_cast<std::size_t>(r * cols + k));
    return;
  }
  if (t.kind == kQkv) {  // c_attn.weight (C, 3C): columns [q | k | v], each H heads of Dh
    StoredBlock& b = stored_->blocks[static_cast<std::size_t>(t.layer)];
    for (Eigen::Index r = 0; r < rows; ++r)
      for (Eigen::Index j = 0; j < cols; ++j) {
        std::vector<StoredMatrix>& part = j < C ? b.wq : j < 2 * C ? b.wk : b.wv;
        part[static_cast<std::size_t>((j % C) / Dh)].SetRaw(r, j % Dh, bytes + static_cast<std::size_t>(r * cols + j) * size);
      }
    return;
  }
  StoredMatrix* m = nullptr;  // kStored: GPT-2's Conv1D (in, out) is the lab's x W as it is
  if (t.layer < 0) m = key == "wte.weight" ? &stored_->wte : &stored_->lm_head;
  else {
    StoredBlock& b = stored_->blocks[static_cast<std::size_t>(t.layer)];
    const std::string part = key.substr(key.find('.', 2) + 1);
    m = part == "attn.c_proj.weight" ? &b.wo : part == "mlp.c_fc.weight" ? &b.fc_w : &b.proj_w;
  }
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index k = 0; k < cols; ++k) m->SetRaw(r, k, bytes + static_cast<std::size_t>(r * cols + k) * size);
}

}  // namespace model
}  // namespace attn
