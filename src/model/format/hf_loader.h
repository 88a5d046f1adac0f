// A Hugging Face checkpoint's weights read tensor by tensor, never a whole file at once, for
// every family the lab opens (GPT-2: hf_gpt2_loader.h; the Llama family: hf_llama_loader.h). The
// page fetches each tensor's byte range as it needs it (HTTP Range) and natively each is read from
// its file in turn, so the memory a load needs is the stored weights plus one tensor:
//   1. AddFile(name, its size, its header's JSON) for every weight file: each tensor's name
//      (the family's prefix removed) recorded, none repeated across files;
//   2. Check(): every weight the config needs there with its shape and dtype, nothing unknown,
//      nothing allocated yet, and what the weights will take in memory (WeightBytes: the page
//      refuses a model that will not fit before it downloads anything); Plan(): the parameters
//      allocated (the big matrices at the file's precision: stored.h), and the pieces to read,
//      file by file in offset order (a tied lm_head copy and the old attn.bias buffers are
//      checked and skipped: never read);
//   3. Take(k, bytes) for each piece: every value finite, then scattered where the family puts it;
//   4. Finish(): every piece taken; the parameters.
// Any refusal is one line naming the tensor (the caller adds the file); after one, the loader is
// spent. A family says only what its names mean (Target) and where their numbers go (Scatter).
#pragma once

#include "model/arch/model.h"
#include "model/format/safetensors.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attn {
namespace model {

struct WeightPiece {
  std::size_t file = 0;             // the index of its AddFile call
  std::string name;                 // the tensor's name in the file
  std::uint64_t begin = 0, end = 0; // bytes of the file: [begin, end)
};
using Gpt2Piece = WeightPiece;  // (the GPT-2 tests' name)

class HfLoader {
 public:
  explicit HfLoader(const ModelConfig& c);
  virtual ~HfLoader() = default;

  // A weight file's size and its header (the JSON after the first 8 bytes; that length read
  // with HeaderLength from safetensors.h).
  bool AddFile(const std::string& name, std::uint64_t file_size, std::string_view header, std::string* error);
  // The same from entries a caller already has (their offsets from the data's start at
  // data_start): the tests and the fuzz target feed float values through it.
  bool AddEntries(const std::string& name, const std::vector<StEntry>& entries, std::uint64_t data_start,
                  std::string* error);
  bool Check(std::string* error);            // Plan calls it when it was not called before
  std::uint64_t WeightBytes() const { return weight_bytes_; }    // after Check: in memory
  std::uint64_t LargestPiece() const { return largest_piece_; }  // after Check: one tensor's bytes
  bool Plan(std::string* error);
  const std::vector<WeightPiece>& pieces() const { return pieces_; }
  std::uint64_t PieceBytes() const;  // what Take will be given in all
  bool Take(std::size_t k, const unsigned char* bytes, std::size_t size, std::string* error);
  bool Finish(Params<float>* out, std::string* dtype, std::string* error);

 protected:
  // What one tensor is to the family: `kind` is the family's own code (kSkip: checked, never
  // read), `shape` what the config needs (empty for a buffer of any shape), `needed` whether it
  // must be there, `stored` whether it stays at the file's precision in memory.
  static constexpr int kSkip = 0;
  struct Target {
    int kind = kSkip;
    int layer = -1;
    std::vector<std::int64_t> shape;
    bool needed = true;
    bool stored = false;
  };
  virtual const char* Family() const = 0;                        // "GPT-2": "... is not part of a GPT-2 model"
  virtual std::string Key(const std::string& name) const = 0;    // the name without the family's prefix
  virtual std::vector<std::string> Wanted() const = 0;           // every needed key, in the model's order
  virtual bool TargetOf(const std::string& key, Target* t) const = 0;  // false: not the family's
  // After p_ and stored_ have their blocks: room for one stored tensor of the file's type.
  virtual void Allocate(const std::string& key, const Target& t, StoredType type) = 0;
  // One tensor's values (the file's row-major bytes, e.size each) where they belong.
  virtual void Scatter(const std::string& key, const StEntry& e, const Target& t, const unsigned char* bytes) = 0;

  ModelConfig c_;
  Params<float> p_;
  std::shared_ptr<StoredWeights> stored_;

 private:
  struct Found {
    std::size_t file;
    StEntry entry;
    std::uint64_t data_start;
  };
  bool Fail(std::string* error, const std::string& message);

  bool spent_ = false, checked_ = false, planned_ = false;
  std::uint64_t weight_bytes_ = 0, largest_piece_ = 0;
  std::map<std::string, Found> found_;     // by key
  std::vector<std::string> files_;
  std::vector<WeightPiece> pieces_;
  std::vector<std::string> piece_key_;     // found_'s key of each piece
  std::vector<char> taken_;
};

// The loader of the config's family: Llama's for a rotary config, else GPT-2's.
std::unique_ptr<HfLoader> MakeHfLoader(const ModelConfig& c);

// Helpers the families share.
StoredType StoredOf(Dtype d);
// "h.12.mlp.c_fc.weight" with prefix "h." -> 12 and "mlp.c_fc.weight"; false for a name
// outside the blocks or a layer the config does not have.
bool SplitBlockName(const std::string& name, const std::string& prefix, int layers, int* layer, std::string* part);

}  // namespace model
}  // namespace attn
