// GPT-2's names in the loading steps every family shares (hf_loader.h; hf_gpt2.h has the layout):
// "transformer." removed, c_attn's (C, 3C) split into each head's W_Q, W_K, W_V, its bias into
// b_Q, b_K, b_V, the Conv1D matrices (in, out) kept as they are (the lab's x W).
#pragma once

#include "model/format/hf_loader.h"

namespace attn {
namespace model {

class Gpt2Loader final : public HfLoader {
 public:
  explicit Gpt2Loader(const ModelConfig& c) : HfLoader(c) {}

 private:
  enum Kind { kVector = 1, kDense, kStored, kQkv, kQkvBias };
  const char* Family() const override { return "GPT-2"; }
  std::string Key(const std::string& name) const override;
  std::vector<std::string> Wanted() const override;
  bool TargetOf(const std::string& key, Target* t) const override;
  void Allocate(const std::string& key, const Target& t, StoredType type) override;
  void Scatter(const std::string& key, const StEntry& e, const Target& t, const unsigned char* bytes) override;
};

}  // namespace model
}  // namespace attn
