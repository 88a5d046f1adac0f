// The loading steps every family shares (hf_loader.h).
#include "model/format/hf_loader.h"

#include "engine/linalg/linalg.h"
#include "model/format/hf_gpt2_loader.h"
#include "model/format/hf_llama_loader.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace attn {
namespace model {

StoredType StoredOf(Dtype d) {
  return d == Dtype::kF16 ? StoredType::kF16 : d == Dtype::kBF16 ? StoredType::kBF16 : StoredType::kF32;
}

bool SplitBlockName(const std::string& name, const std::string& prefix, int layers, int* layer, std::string* part) {
  if (name.rfind(prefix, 0) != 0) return false;
  const std::size_t first = prefix.size();
  std::size_t at = first, value = 0;
  while (at < name.size() && name[at] >= '0' && name[at] <= '9' && at < first + 7)
    value = value * 10 + static_cast<std::size_t>(name[at++] - '0');
  if (at == first || at >= name.size() || name[at] != '.' || (name[first] == '0' && at > first + 1)) return false;
  if (value >= static_cast<std::size_t>(layers)) return false;
  *layer = static_cast<int>(value);
  *part = name.substr(at + 1);
  return true;
}

std::unique_ptr<HfLoader> MakeHfLoader(const ModelConfig& c) {
  if (c.rotary) return std::make_unique<LlamaLoader>(c);
  return std::make_unique<Gpt2Loader>(c);
}

namespace {

// Whether one stored value is a NaN or an infinity: its exponent bits all ones.
bool NonFinite(Dtype d, const unsigned char* v) {
  if (d == Dtype::kF32) return (v[3] & 0x7F) == 0x7F && (v[2] & 0x80) == 0x80;
  if (d == Dtype::kF16) return (v[1] & 0x7C) == 0x7C;
  return (v[1] & 0x7F) == 0x7F && (v[0] & 0x80) == 0x80;  // BF16: float's upper half
}

}  // namespace

HfLoader::HfLoader(const ModelConfig& c) : c_(c) {}

bool HfLoader::Fail(std::string* error, const std::string& message) {
  spent_ = true;
  return linalg::Fail(error, message);
}

bool HfLoader::AddFile(const std::string& name, std::uint64_t file_size, std::string_view header, std::string* error) {
  StHeader h;
  const std::uint64_t data_start = 8 + header.size();
  if (file_size < data_start) return Fail(error, "the file ends inside its header");
  std::string why;
  if (!ReadSafetensorsHeader(header, file_size - data_start, &h, &why)) return Fail(error, why);
  return AddEntries(name, h.entries, data_start, error);
}

bool HfLoader::AddEntries(const std::string& name, const std::vector<StEntry>& entries, std::uint64_t data_start,
                          std::string* error) {
  if (spent_ || planned_) return Fail(error, "the loader cannot take another file now");
  const std::size_t file = files_.size();
  files_.push_back(name);
  for (const StEntry& e : entries) {
    const std::string key = Key(e.name);
    if (found_.count(key)) return Fail(error, "tensor '" + Shown(key) + "' appears twice");
    found_.emplace(key, Found{file, e, data_start});
  }
  return true;
}

bool HfLoader::Check(std::string* error) {
  if (spent_ || planned_ || checked_) return Fail(error, "the loader cannot check now");
  // 1. every weight the config needs, by name, in the model's order; then nothing else
  for (const std::string& name : Wanted())
    if (!found_.count(name)) return Fail(error, "tensor '" + Shown(name) + "' is missing");
  for (const auto& [name, f] : found_) {
    Target t;
    if (!TargetOf(name, &t)) return Fail(error, "tensor '" + Shown(name) + "' is not part of a " + Family() + " model");
    if (t.kind == kSkip && !t.needed && t.shape.empty()) continue;  // a buffer: any dtype, any shape
    if (f.entry.dtype == Dtype::kOther)
      return Fail(error, "tensor '" + Shown(name) + "' is " + Shown(f.entry.stored) + "; the weights must be F32, F16 or BF16");
    if (f.entry.shape != t.shape)
      return Fail(error, "tensor '" + Shown(name) + "' has shape " + ShapeText(f.entry.shape) + ", the config needs " +
                             ShapeText(t.shape));
    if (t.kind == kSkip) continue;
    // In memory: the big matrices at the file's precision (stored.h), the rest in float
    std::uint64_t n = 1;
    for (const std::int64_t d : t.shape) n *= static_cast<std::uint64_t>(d);
    weight_bytes_ += n * (t.stored ? f.entry.size : sizeof(float));
    largest_piece_ = std::max<std::uint64_t>(largest_piece_, f.entry.end - f.entry.begin);
  }
  checked_ = true;
  return true;
}

bool HfLoader::Plan(std::string* error) {
  if (spent_ || planned_) return Fail(error, "the loader cannot plan now");
  if (!checked_ && !Check(error)) return false;
  // 2. the parameters: the small ones in float, the big matrices at their file's precision.
  //    Every shape is the config's, and the files hold those bytes: nothing here is larger
  //    than what was found.
  p_ = Params<float>{};
  p_.blocks.resize(static_cast<std::size_t>(c_.layers));
  stored_ = std::make_shared<StoredWeights>();
  stored_->blocks.resize(static_cast<std::size_t>(c_.layers));
  for (const auto& [name, f] : found_) {
    Target t;
    TargetOf(name, &t);
    if (t.kind != kSkip) Allocate(name, t, StoredOf(f.entry.dtype));
  }
  // 3. the pieces to read: file by file, in offset order (found_ is by name: sort)
  for (const auto& [name, f] : found_) {
    Target t;
    TargetOf(name, &t);
    if (t.kind == kSkip) continue;
    pieces_.push_back({f.file, f.entry.name, f.data_start + f.entry.begin, f.data_start + f.entry.end});
    piece_key_.push_back(name);
  }
  std::vector<std::size_t> order(pieces_.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return pieces_[a].file != pieces_[b].file ? pieces_[a].file < pieces_[b].file : pieces_[a].begin < pieces_[b].begin;
  });
  std::vector<WeightPiece> pieces;
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

std::uint64_t HfLoader::PieceBytes() const {
  std::uint64_t n = 0;
  for (const WeightPiece& p : pieces_) n += p.end - p.begin;
  return n;
}

bool HfLoader::Take(std::size_t k, const unsigned char* bytes, std::size_t size, std::string* error) {
  if (spent_ || !planned_ || k >= pieces_.size()) return Fail(error, "no such piece to take");
  const WeightPiece& piece = pieces_[k];
  if (size != piece.end - piece.begin)
    return Fail(error, "tensor '" + Shown(piece.name) + "': " + std::to_string(size) + " bytes arrived, expected " +
                           std::to_string(piece.end - piece.begin));
  if (taken_[k]) return Fail(error, "tensor '" + Shown(piece.name) + "' arrived twice");
  const std::string& key = piece_key_[k];
  const Found& f = found_.at(key);
  for (std::size_t i = 0; i < size; i += f.entry.size)
    if (NonFinite(f.entry.dtype, bytes + i)) return Fail(error, "tensor '" + Shown(key) + "' holds a NaN or an infinity");
  Target t;
  TargetOf(key, &t);
  Scatter(key, f.entry, t, bytes);
  taken_[k] = 1;
  return true;
}

bool HfLoader::Finish(Params<float>* out, std::string* dtype, std::string* error) {
  if (spent_ || !planned_) return Fail(error, "the loader has no plan");
  for (std::size_t k = 0; k < pieces_.size(); ++k)
    if (!taken_[k]) return Fail(error, "tensor '" + Shown(pieces_[k].name) + "' never arrived");
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
