// The Llama family's names in the loading steps every family shares (hf_loader.h; hf_llama.h has
// the layout): "model." removed; torch's Linear weights (out, in) transposed once into the lab's
// x W (in, out); q_proj's rows split into the query heads' W_Q, k_proj's and v_proj's into the
// key/value heads' W_K, W_V (kept once each: BlockOf repeats them for the query heads that share
// them), their biases likewise (repeated for the query heads, small); Qwen3's q_norm/k_norm.
#pragma once

#include "model/format/hf_loader.h"

namespace attn {
namespace model {

class LlamaLoader final : public HfLoader {
 public:
  explicit LlamaLoader(const ModelConfig& c) : HfLoader(c) {}

 private:
  enum Kind { kVector = 1, kStored, kStoredT, kHeads, kHeadBias };
  const char* Family() const override { return "Llama-family"; }
  std::string Key(const std::string& name) const override;
  std::vector<std::string> Wanted() const override;
  bool TargetOf(const std::string& key, Target* t) const override;
  void Allocate(const std::string& key, const Target& t, StoredType type) override;
  void Scatter(const std::string& key, const StEntry& e, const Target& t, const unsigned char* bytes) override;
  StoredMatrix* StoredFor(const std::string& key, int layer);
};

}  // namespace model
}  // namespace attn
