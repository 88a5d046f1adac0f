// Weights kept at the precision their file stored them (issue 38). GPT-2 small is 250 MB in F16
// and 500 MB widened to float: a browser tab, or a laptop running a larger model, should not pay
// for the second copy. So a checkpoint's big matrices (the embedding, an untied output matrix,
// every block's W_Q, W_K, W_V, W_O and the MLP's two) stay as stored, and the forward widens one
// block at a time into a scratch BlockParams (model.h BlockOf) and the output matrix a slice of
// rows at a time. Widening is exact (every F16 and BF16 value is a float), and each product sums
// its terms in the same order as on widened weights, so the numbers are the same bits as the
// forward on Params<float> of the same values (tests/model/test_hf_gpt2.cpp). One row times a
// block (the cached step) widens a panel of columns at a time instead (row_product.h). On x86
// with F16C, eight halves are widened by one instruction (the same values, chosen at run time).
// Shapes and layout: (rows, cols) as the matching Params matrix, column-major as Eigen's (the
// loader transposes the file's row-major values once), so widening reads and writes in runs.
#pragma once

#include "engine/base/types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn {
namespace model {

enum class StoredType : std::uint8_t { kF32, kF16, kBF16 };
const char* StoredTypeName(StoredType t);  // "F32", "F16", "BF16"

class StoredMatrix {
 public:
  StoredMatrix() = default;
  StoredMatrix(StoredType type, Eigen::Index rows, Eigen::Index cols);  // zeros

  StoredType type() const { return type_; }
  Eigen::Index rows() const { return rows_; }
  Eigen::Index cols() const { return cols_; }
  bool empty() const { return rows_ == 0 || cols_ == 0; }
  std::size_t bytes() const { return type_ == StoredType::kF32 ? f32_.size() * 4 : half_.size() * 2; }

  // Entry (r, c) from the file's little-endian bytes of one value of this type.
  void SetRaw(Eigen::Index r, Eigen::Index c, const unsigned char* value);
  float At(Eigen::Index r, Eigen::Index c) const;
  // Rows [first, first + n) widened: out (n, cols); all of it: out (rows, cols).
  void WidenRows(Eigen::Index first, Eigen::Index n, Mat<float>* out) const;
  void Widen(Mat<float>* out) const { WidenRows(0, rows_, out); }
  // The same into out[r + k * n] (column-major, leading dimension n) for the caller's buffer.
  void WidenRowsTo(Eigen::Index first, Eigen::Index n, float* out) const;
  // Columns [first, first + n) widened k-major: out[k * n + j] = (k, first + j), rows * n
  // numbers: adjacent output columns adjacent in memory, what one row times this matrix reads
  // (row_product.h).
  void WidenColumnsKMajor(Eigen::Index first, Eigen::Index n, float* out) const;
  // Every value finite (a NaN or an infinity in a weight is refused by the reader).
  bool AllFinite() const;

 private:
  StoredType type_ = StoredType::kF32;
  Eigen::Index rows_ = 0, cols_ = 0;
  std::vector<float> f32_;            // kF32
  std::vector<std::uint16_t> half_;   // kF16, kBF16: the stored bits
};

struct StoredBlock {
  std::vector<StoredMatrix> wq;          // H of (C, Dh)
  std::vector<StoredMatrix> wk, wv;      // KV of (C, Dh): a grouped-query model's once per key/value
                                         // head (BlockOf repeats them for the query heads)
  StoredMatrix wo;                       // (H*Dh, C)
  StoredMatrix gate_w;                   // (C, F) SwiGLU's W_gate, else empty
  StoredMatrix fc_w;                     // (C, F) (SwiGLU: W_up)
  StoredMatrix proj_w;                   // (F, C)
};

struct StoredWeights {
  StoredMatrix wte;                  // (V, C)
  StoredMatrix lm_head;              // (V, C) an untied output matrix, else empty
  std::vector<StoredBlock> blocks;   // L
  std::size_t bytes() const;
};

// Tests only: true widens through the portable loops even where the CPU has F16C (x86 with AVX
// and F16C widens eight values an instruction: the same values), so that this machine checks the
// page's path too. Not thread-safe.
void ForceWideningLoops(bool on);

// The rows of the output matrix (wte, or lm_head when untied) widened per slice of this many:
// what the logits' product reads at once.
constexpr Eigen::Index kStoredRowSlice = 2048;

}  // namespace model
}  // namespace attn
