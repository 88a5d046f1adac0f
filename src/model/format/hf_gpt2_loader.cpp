// A GPT-2 checkpoint's weights, tensor by tensor (hf_gpt2_loader.h).
#include "model/format/hf_gpt2_loader.h"

#include "engine/linalg/linalg.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace attn {
namespace model {

namespace {

StoredType StoredOf(Dtype d) {
  return d == Dtype::kF16 ? StoredType::kF16 : d == Dtype::kBF16 ? StoredType::kBF16 : StoredType::kF32;
}

// "h.12.mlp.c_fc.weight" -> 12 and "mlp.c_fc.weight"; false for a name outside the blocks.
bool SplitBlockName(const std::string& name, int layers, int* layer, std::string* part) {
  if (name.rfind("h.", 0) != 0) return false;
  std::size_t at = 2, value = 0;
  while (at < name.size() && name[at] >= '0' && name[at] <= '9' && at < 9) value = value * 10 + static_cast<std::size_t>(name[at++] - '0');
  if (at == 2 || at >= name.size() || name[at] != '.' || (name[2] == '0' && at > 3)) return false;
  if (value >= static_cast<std::size_t>(layers)) return false;
  *layer = static_cast<int>(value);
  *part = name.substr(at + 1);
  return true;
}

}  // namespace

Gpt2Loader::Gpt2Loader(const ModelConfig& c) : c_(c) {}

bool Gpt2Loader::Fail(std::string* error, const std::string& message) {
  spent_ = true;
  return linalg::Fail(error, message);
}

bool Gpt2Loader::TargetOf(const std::string& name, Target* t) const {
  const std::int64_t C = c_.d_model, F = c_.mlp, V = c_.vocab, P = c_.context;
  *t = Target{};
  if (name == "wte.weight") *t = {Kind::kStored, -1, {V, C}, true};
  else if (name == "wpe.weight") *t = {Kind::kDense, -1, {P, C}, true};
  else if (name == "ln_f.weight" || name == "ln_f.bias") *t = {Kind::kVector, -1, {C}, true};
  else if (name == "lm_head.weight") *t = {c_.tied ? Kind::kSkip : Kind::kStored, -1, {V, C}, !c_.tied};
  else {
    int l = -1;
    std::string part;
    if (!SplitBlockName(name, c_.layers, &l, &part)) return false;
    if (part == "attn.bias" || part == "attn.masked_bias") *t = {Kind::kSkip, l, {}, false};  // the old causal-mask buffers
    else if (part == "ln_1.weight" || part == "ln_1.bias" || part == "ln_2.weight" || part == "ln_2.bias" ||
             part == "attn.c_proj.bias" || part == "mlp.c_proj.bias")
      *t = {Kind::kVector, l, {C}, true};
    else if (part == "attn.c_attn.weight") *t = {Kind::kQkv, l, {C, 3 * C}, true};
    else if (part == "attn.c_attn.bias") *t = {Kind::kQkvBias, l, {3 * C}, true};
    else if (part == "attn.c_proj.weight") *t = {Kind::kStored, l, {C, C}, true};
    else if (part == "mlp.c_fc.weight") *t = {Kind::kStored, l, {C, F}, true};
    else if (part == "mlp.c_fc.bias") *t = {Kind::kVector, l, {F}, true};
    else if (part == "mlp.c_proj.weight") *t = {Kind::kStored, l, {F, C}, true};
    else return false;
  }
  return true;
}

bool Gpt2Loader::AddFile(const std::string& name, std::uint64_t file_size, std::string_view header, std::string* error) {
  StHeader h;
  const std::uint64_t data_start = 8 + header.size();
  if (file_size < data_start) return Fail(error, "the file ends inside its header");
  std::string why;
  if (!ReadSafetensorsHeader(header, file_size - data_start, &h, &why)) return Fail(error, why);
  return AddEntries(name, h.entries, data_start, error);
}

bool Gpt2Loader::AddEntries(const std::string& name, const std::vector<StEntry>& entries, std::uint64_t data_start,
                            std::string* error) {
  if (spent_ || planned_) return Fail(error, "the loader cannot take another file now");
  const std::size_t file = files_.size();
  files_.push_back(name);
  for (const StEntry& e : entries) {
    const std::string key = e.name.rfind("transformer.", 0) == 0 ? e.name.substr(12) : e.name;
    if (found_.count(key)) return Fail(error, "tensor '" + Shown(key) + "' appears twice");
    found_.emplace(key, Found{file, e, data_start});
  }
  return true;
}

bool Gpt2Loader::Check(std::string* error) {
  if (spent_ || planned_ || checked_) return Fail(error, "the loader cannot check now");
  // 1. every weight the config needs, by name, in the model's order; then nothing else
  std::vector<std::string> wanted = {"wte.weight", "wpe.weight"};
  for (int l = 0; l < c_.layers; ++l)
    for (const char* part : {"ln_1.weight", "ln_1.bias", "attn.c_attn.weight", "attn.c_attn.bias", "attn.c_proj.weight",
                             "attn.c_proj.bias", "ln_2.weight", "ln_2.bias", "mlp.c_fc.weight", "mlp.c_fc.bias",
                             "mlp.c_proj.weight", "mlp.c_proj.bias"})
      wanted.push_back("h." + std::to_string(l) + "." + part);
  wanted.push_back("ln_f.weight");
  wanted.push_back("ln_f.bias");
  if (!c_.tied) wanted.push_back("lm_head.weight");
  for (const std::string& name : wanted)
    if (!found_.count(name)) return Fail(error, "tensor '" + Shown(name) + "' is missing");
  for (const auto& [name, f] : found_) {
    Target t;
    if (!TargetOf(name, &t)) return Fail(error, "tensor '" + Shown(name) + "' is not part of a GPT-2 model");
    if (t.kind == Kind::kSkip && !t.needed && t.shape.empty()) continue;  // a buffer: any dtype, any shape
    if (f.entry.dtype == Dtype::kOther)
      return Fail(error, "tensor '" + Shown(name) + "' is " + Shown(f.entry.stored) + "; the weights must be F32, F16 or BF16");
    if (f.entry.shape != t.shape)
      return Fail(error, "tensor '" + Shown(name) + "' has shape " + ShapeText(f.entry.shape) + ", the config needs " +
                             ShapeText(t.shape));
    if (t.kind == Kind::kSkip) continue;
    // In memory: the big matrices at the file's precision (stored.h), the rest in float
    std::uint64_t n = 1;
    for (const std::int64_t d : t.shape) n *= static_cast<std::uint64_t>(d);
    const bool stored = t.kind == Kind::kStored || t.kind == Kind::kQkv;
    weight_bytes_ += n * (stored ? f.entry.size : sizeof(float));
    largest_piece_ = std::max<std::uint64_t>(largest_piece_, f.entry.end - f.entry.begin);
  }
  checked_ = true;
  return true;
}

bool Gpt2Loader::Plan(std::string* error) {
  if (spent_ || planned_) return Fail(error, "the loader cannot plan now");
  if (!checked_ && !Check(error)) return false;
  // 2. the parameters: the small ones in float, the big matrices at their file's precision.
  //    Every shape above is the config's, and the files hold those bytes: nothing here is
  //    larger than what was found.
  const Eigen::Index C = c_.d_model, H = c_.heads, Dh = C / H;
  p_ = Params<float>{};
  p_.blocks.resize(static_cast<std::size_t>(c_.layers));
  stored_ = std::make_shared<StoredWeights>();
  stored_->blocks.resize(static_cast<std::size_t>(c_.layers));
  for (const auto& [name, f] : found_) {
    Target t;
    TargetOf(name, &t);
    const StoredType type = StoredOf(f.entry.dtype);
    if (t.kind == Kind::kStored) {
      const StoredMatrix m(type, t.shape[0], t.shape[1]);
      if (t.layer < 0) (name == "wte.weight" ? stored_->wte : stored_->lm_head) = m;
      else {
        StoredBlock& b = stored_->blocks[static_cast<std::size_t>(t.layer)];
        const std::string part = name.substr(name.find('.', 2) + 1);
        (part == "attn.c_proj.weight" ? b.wo : part == "mlp.c_fc.weight" ? b.fc_w : b.proj_w) = m;
      }
    } else if (t.kind == Kind::kQkv) {
      StoredBlock& b = stored_->blocks[static_cast<std::size_t>(t.layer)];
      b.wq.assign(static_cast<std::size_t>(H), StoredMatrix(type, C, Dh));
      b.wk = b.wq;
      b.wv = b.wq;
    }
  }
  // 3. the pieces to read: file by file, in offset order (found_ is by name: sort)
  for (const auto& [name, f] : found_) {
    Target t;
    TargetOf(name, &t);
    if (t.kind == Kind::kSkip) continue;
    pieces_.push_back({f.file, f.entry.name, f.data_start + f.entry.begin, f.data_start + f.entry.end});
    piece_key_.push_back(name);
  }
  std::vector<std::size_t> order(pieces_.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return pieces_[a].file != pieces_[b].file ? pieces_[a].file < pieces_[b].file : pieces_[a].begin < pieces_[b].begin;
  });
  std::vector<Gpt2Piece> pieces;
  std::vector<std::string> keys;
  for (std::size_t k : order) {
    pieces.push_back(pieces_[k]);
    keys.push_back(piece_key_[k]);
  }
  pieces_ = std::move(pieces);
  piece_key_ = std::move(keys);
  taken_.assign(pieces_.size(), 0);
  planned_ = true;
  return true;
}

std::uint64_t Gpt2Loader::PieceBytes() const {
  std::uint64_t n = 0;
  for (const Gpt2Piece& p : pieces_) n += p.end - p.begin;
  return n;
}

void Gpt2Loader::Scatter(const Found& f, const Target& t, const unsigned char* bytes) {
  const StEntry& e = f.entry;
  const std::size_t size = e.size;
  const std::string key = f.entry.name.rfind("transformer.", 0) == 0 ? f.entry.name.substr(12) : f.entry.name;
  const Eigen::Index C = c_.d_model, H = c_.heads, Dh = C / H;
  auto value = [&](std::size_t i) { return StValue(e.dtype, bytes + i * size); };
  if (t.kind == Kind::kVector || t.kind == Kind::kQkvBias) {
    const Eigen::Index n = static_cast<Eigen::Index>(t.shape[0]);
    if (t.kind == Kind::kQkvBias) {
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
  if (t.kind == Kind::kDense) {  // wpe (P, C): row-major in the file
    p_.wpe.resize(rows, cols);
    for (Eigen::Index r = 0; r < rows; ++r)
      for (Eigen::Index k = 0; k < cols; ++k) p_.wpe(r, k) = value(static_cast<std::size_t>(r * cols + k));
    return;
  }
  if (t.kind == Kind::kQkv) {  // c_attn.weight (C, 3C): columns [q | k | v], each H heads of Dh
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

bool Gpt2Loader::Take(std::size_t k, const unsigned char* bytes, std::size_t size, std::string* error) {
  if (spent_ || !planned_ || k >= pieces_.size()) return Fail(error, "no such piece to take");
  const Gpt2Piece& piece = pieces_[k];
  if (size != piece.end - piece.begin)
    return Fail(error, "tensor '" + Shown(piece.name) + "': " + std::to_string(size) + " bytes arrived, expected " +
                           std::to_string(piece.end - piece.begin));
  if (taken_[k]) return Fail(error, "tensor '" + Shown(piece.name) + "' arrived twice");
  const Found& f = found_.at(piece_key_[k]);
  Target t;
  TargetOf(piece_key_[k], &t);
  Scatter(f, t, bytes);
  taken_[k] = 1;
  return true;
}

bool Gpt2Loader::Finish(Params<float>* out, std::string* dtype, std::string* error) {
  if (spent_ || !planned_) return Fail(error, "the loader has no plan");
  for (std::size_t k = 0; k < pieces_.size(); ++k)
    if (!taken_[k]) return Fail(error, "tensor '" + Shown(pieces_[k].name) + "' never arrived");
  for (const TensorRef<float>& t : Tensors(p_))
    if (t.size() > 0 && !linalg::AllFinite(Eigen::Map<const Mat<float>>(t.data, t.rows, t.cols)))
      return Fail(error, "tensor " + t.name + " holds a NaN or an infinity");
  auto check = [&](const StoredMatrix& m, const std::string& name) {
    return m.empty() || m.AllFinite() || Fail(error, "tensor " + name + " holds a NaN or an infinity");
  };
  if (!check(stored_->wte, "wte.weight") || !check(stored_->lm_head, "lm_head.weight")) return false;
  for (std::size_t l = 0; l < stored_->blocks.size(); ++l) {
    const StoredBlock& b = stored_->blocks[l];
    const std::string h = "h." + std::to_string(l) + ".";
    for (const auto* list : {&b.wq, &b.wk, &b.wv})
      for (const StoredMatrix& m : *list)
        if (!check(m, h + "attn.c_attn.weight")) return false;
    if (!check(b.wo, h + "attn.c_proj.weight") || !check(b.fc_w, h + "mlp.c_fc.weight") ||
        !check(b.proj_w, h + "mlp.c_proj.weight"))
      return false;
  }
  std::set<std::string> types;
  for (const auto& [name, f] : found_)
    if (f.entry.dtype != Dtype::kOther) types.insert(DtypeName(f.entry.dtype));
  *dtype = types.size() == 1 ? *types.begin() : "mixed";
  p_.stored = stored_;
  *out = std::move(p_);
  spent_ = true;
  return true;
}

}  // namespace model
}  // namespace attn
