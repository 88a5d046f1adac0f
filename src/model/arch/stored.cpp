// Weights at their stored precision (stored.h).
#include "model/arch/stored.h"

#include "model/format/fp16.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace attn {
namespace model {

namespace {


// Every half's float, computed once (256 KB): widening a block is a table lookup per value.
const float* HalfTable() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (std::uint32_t h = 0; h < 65536; ++h) t[h] = HalfToFloat(static_cast<std::uint16_t>(h));
    return t;
  }();
  return table.data();
}

float Bf16ToFloat(std::uint16_t b) {
  const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;  // bfloat16 is float's top half
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace

const char* StoredTypeName(StoredType t) {
  switch (t) {
    case StoredType::kF16: return "F16";
    case StoredType::kBF16: return "BF16";
    default: return "F32";
  }
}

StoredMatrix::StoredMatrix(StoredType type, Eigen::Index rows, Eigen::Index cols)
    : type_(type), rows_(rows), cols_(cols) {
  const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (type == StoredType::kF32) f32_.assign(n, 0.0f);
  else half_.assign(n, 0);
}

void StoredMatrix::SetRaw(Eigen::Index r, Eigen::Index c, const unsigned char* value) {
  const std::size_t i = static_cast<std::size_t>(c) * static_cast<std::size_t>(rows_) + static_cast<std::size_t>(r);
  if (type_ == StoredType::kF32) {
    const std::uint32_t bits = static_cast<std::uint32_t>(value[0]) | static_cast<std::uint32_t>(value[1]) << 8 |
                               static_cast<std::uint32_t>(value[2]) << 16 | static_cast<std::uint32_t>(value[3]) << 24;
    std::memcpy(&f32_[i], &bits, sizeof bits);
  } else {
    half_[i] = static_cast<std::uint16_t>(value[0] | value[1] << 8);
  }
}

float StoredMatrix::At(Eigen::Index r, Eigen::Index c) const {
  const std::size_t i = static_cast<std::size_t>(c) * static_cast<std::size_t>(rows_) + static_cast<std::size_t>(r);
  switch (type_) {
    case StoredType::kF16: return HalfTable()[half_[i]];
    case StoredType::kBF16: return Bf16ToFloat(half_[i]);
    default: return f32_[i];
  }
}

void StoredMatrix::WidenRows(Eigen::Index first, Eigen::Index n, Mat<float>* out) const {
  out->resize(n, cols_);  // (n, cols); no reallocation when a scratch already has the shape
  WidenRowsTo(first, n, out->data());
}

void StoredMatrix::WidenRowsTo(Eigen::Index first, Eigen::Index n, float* o) const {
  for (Eigen::Index c = 0; c < cols_; ++c) {  // column-major, as the storage: each column's rows are one run
    const std::size_t from = static_cast<std::size_t>(c * rows_ + first);
    float* to = o + c * n;
    if (type_ == StoredType::kF32) {
      for (Eigen::Index r = 0; r < n; ++r) to[r] = f32_[from + static_cast<std::size_t>(r)];
    } else if (type_ == StoredType::kF16) {
      const float* table = HalfTable();
      for (Eigen::Index r = 0; r < n; ++r) to[r] = table[half_[from + static_cast<std::size_t>(r)]];
    } else {
      for (Eigen::Index r = 0; r < n; ++r) to[r] = Bf16ToFloat(half_[from + static_cast<std::size_t>(r)]);
    }
  }
}

void StoredMatrix::WidenColumnsKMajor(Eigen::Index first, Eigen::Index n, float* out) const {
  // A transpose, kGroup columns at a time: their k-th entries, one read from each of kGroup
  // sequential streams (the panel's columns lie one after another in the storage), written as
  // one run of out's row k.
  constexpr Eigen::Index kGroup = 16;
  const float* table = HalfTable();
  for (Eigen::Index j0 = 0; j0 < n; j0 += kGroup) {
    const Eigen::Index g = std::min(kGroup, n - j0);
    const std::size_t from = static_cast<std::size_t>((first + j0) * rows_), stride = static_cast<std::size_t>(rows_);
    for (Eigen::Index k = 0; k < rows_; ++k) {
      float* to = out + k * n + j0;
      const std::size_t at = from + static_cast<std::size_t>(k);
      if (type_ == StoredType::kF32) {
        for (Eigen::Index j = 0; j < g; ++j) to[j] = f32_[at + static_cast<std::size_t>(j) * stride];
      } else if (type_ == StoredType::kF16) {
        for (Eigen::Index j = 0; j < g; ++j) to[j] = table[half_[at + static_cast<std::size_t>(j) * stride]];
      } else {
        for (Eigen::Index j = 0; j < g; ++j) to[j] = Bf16ToFloat(half_[at + static_cast<std::size_t>(j) * stride]);
      }
    }
  }
}

bool StoredMatrix::AllFinite() const {
  if (type_ == StoredType::kF32) {
    for (float v : f32_)
      if (!std::isfinite(v)) return false;
    return true;
  }
  // F16: exponent 0x1F is inf or NaN; BF16: exponent 0xFF
  const std::uint16_t mask = type_ == StoredType::kF16 ? 0x7C00u : 0x7F80u;
  for (std::uint16_t h : half_)
    if ((h & mask) == mask) return false;
  return true;
}

std::size_t StoredWeights::bytes() const {
  std::size_t n = wte.bytes() + lm_head.bytes();
  for (const StoredBlock& b : blocks) {
    for (const auto* list : {&b.wq, &b.wk, &b.wv})
      for (const StoredMatrix& m : *list) n += m.bytes();
    n += b.wo.bytes() + b.gate_w.bytes() + b.fc_w.bytes() + b.proj_w.bytes();
  }
  return n;
}

}  // namespace model
}  // namespace attn
