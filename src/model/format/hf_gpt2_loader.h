// A GPT-2 checkpoint's weights read tensor by tensor, never a whole file at once (hf_gpt2.h has
// the names and the layout). The page fetches each tensor's byte range as it needs it (HTTP
// Range) and natively each is read from its file in turn, so the memory a load needs is the
// stored weights plus one tensor:
//   1. AddFile(name, its size, its header's JSON) for every weight file: each tensor checked
//      by name (any "transformer." prefix removed), dtype and shape against the config, none
//      repeated across files;
//   2. Check(): every weight there with its shape and dtype, nothing allocated yet, and what the
//      weights will take in memory (WeightBytes: the page refuses a model that will not fit
//      before it downloads anything); Plan(): the parameters allocated (the big matrices at the
//      file's precision: stored.h), and the pieces to read, file by file in offset order (a
//      tied lm_head copy and the old attn.bias buffers are checked and skipped: never read);
//   3. Take(k, bytes) for each piece;
//   4. Finish(): every piece taken, every value finite; the parameters.
// Any refusal is one line naming the tensor (the caller adds the file); after one, the loader
// is spent.
#pragma once

#include "model/arch/model.h"
#include "model/format/safetensors.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attn {
namespace model {

struct Gpt2Piece {
  std::size_t file = 0;             // the index of its AddFile call
  std::string name;                 // the tensor's name in the file
  std::uint64_t begin = 0, end = 0; // bytes of the file: [begin, end)
};

class Gpt2Loader {
 public:
  explicit Gpt2Loader(const ModelConfig& c);

  // A weight file's size and its header (the JSON after the first 8 bytes; that length read
  // with HeaderLength from safetensors.h).
  bool AddFile(const std::string& name, std::uint64_t file_size, std::string_view header, std::string* error);
  // The same from entries a caller already has (their offsets from the data's start at
  // data_start): Gpt2FromTensors feeds float values through it.
  bool AddEntries(const std::string& name, const std::vector<StEntry>& entries, std::uint64_t data_start,
                  std::string* error);
  bool Check(std::string* error);            // Plan calls it when it was not called before
  std::uint64_t WeightBytes() const { return weight_bytes_; }    // after Check: in memory
  std::uint64_t LargestPiece() const { return largest_piece_; }  // after Check: one tensor's bytes
  bool Plan(std::string* error);
  const std::vector<Gpt2Piece>& pieces() const { return pieces_; }
  std::uint64_t PieceBytes() const;  // what Take will be given in all
  bool Take(std::size_t k, const unsigned char* bytes, std::size_t size, std::string* error);
  bool Finish(Params<float>* out, std::string* dtype, std::string* error);

 private:
  enum class Kind { kVector, kDense, kStored, kQkv, kQkvBias, kSkip };
  struct Target {
    Kind kind = Kind::kSkip;
    int layer = -1;
    std::vector<std::int64_t> shape;  // what the config needs
    bool needed = true;               // false: may be absent (buffers, a tied lm_head)
  };
  struct Found {
    std::size_t file;
    StEntry entry;
    std::uint64_t data_start;
  };
  bool Fail(std::string* error, const std::string& message);
  bool TargetOf(const std::string& name, Target* t) const;
  void Scatter(const Found& f, const Target& t, const unsigned char* bytes);

  ModelConfig c_;
  bool spent_ = false, checked_ = false, planned_ = false;
  std::uint64_t weight_bytes_ = 0, largest_piece_ = 0;
  std::map<std::string, Found> found_;     // by name without the prefix
  std::vector<std::string> files_;
  std::vector<Gpt2Piece> pieces_;
  std::vector<std::string> piece_key_;     // found_'s key of each piece
  std::vector<char> taken_;
  Params<float> p_;
  std::shared_ptr<StoredWeights> stored_;
};

}  // namespace model
}  // namespace attn
