// Named hook points of the forward pass: where a caller reads or rewrites an activation while the
// forward runs, without a copy of the forward's loop. The names are TransformerLens's, so that a
// learner who knows `blocks.0.attn.hook_pattern` there finds the same thing here.
//
// Every look inside a run and every change of a run goes through these: the what-if edits (a key
// knocked out = its scores set to -inf; a head knocked out = its z set to 0; a dragged value = v
// moved), the contribution of a key (the query's row without it), the model's knock-outs and
// their effect on the next token. Without hooks (a null `Hooks*`) the forward is the plain one,
// and with hooks that change nothing it gives the same bits.
//
// The points, in the order they fire (T = positions, C = d_model, Dk/Dv = a head's widths,
// F = MLP width; per head: one call per head h; L = the block's index):
//   hook_embed                        (T, C)   token embeddings (model)
//   hook_pos_embed                    (T, C)   position embeddings (model)
//   blocks.L.hook_resid_pre           (T, C)   the residual stream entering block L
//   blocks.L.ln1.hook_normalized      (T, C)   what the attention reads: LN1's output, after its
//                                              weight and bias (TransformerLens hooks it before
//                                              them; with its default folded weights the two agree)
//   blocks.L.attn.hook_q / _k / _v    (T, Dk) / (T, Dk) / (T, Dv) per head
//   blocks.L.attn.hook_attn_scores    (T, T)   per head: q.k * scale / temperature, before the
//                                              normalizer. An entry set to -inf is masked out, as
//                                              TransformerLens masks: weight 0, no part in the
//                                              normalization; the record keeps the score as it
//                                              was computed (the lab's convention for masked keys)
//   blocks.L.attn.hook_pattern        (T, T)   per head: the weights (rows = queries)
//   blocks.L.attn.hook_z              (T, Dv)  per head: the head's output, pattern v
//   blocks.L.hook_attn_out            (T, C)   the heads concatenated, times W_O (model)
//   blocks.L.hook_resid_mid           (T, C)   resid_pre + attn_out (model)
//   blocks.L.ln2.hook_normalized      (T, C)   LN2's output (model)
//   blocks.L.mlp.hook_pre             (T, F)   before the activation (model)
//   blocks.L.mlp.hook_post            (T, F)   after it (model)
//   blocks.L.hook_mlp_out             (T, C)   (model)
//   blocks.L.hook_resid_post          (T, C)   the stream leaving block L (model)
//   ln_final.hook_normalized          (T, C)   the last norm's output, before the unembedding
// The lab's one-layer attention fires the per-head points of block 0; the model fires them all.
#pragma once

#include "engine/base/types.h"

#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace attn {

enum class HookPoint {
  kEmbed,
  kPosEmbed,
  kResidPre,
  kLn1,
  kQ,
  kK,
  kV,
  kAttnScores,
  kPattern,
  kZ,
  kAttnOut,
  kResidMid,
  kLn2,
  kMlpPre,
  kMlpPost,
  kMlpOut,
  kResidPost,
  kLnFinal,
};
inline constexpr int kHookPointCount = static_cast<int>(HookPoint::kLnFinal) + 1;
// Every point, in the order a model's forward fires them (per block, per head as listed above).
inline constexpr HookPoint kHookPoints[kHookPointCount] = {
    HookPoint::kEmbed,    HookPoint::kPosEmbed, HookPoint::kResidPre,   HookPoint::kLn1,     HookPoint::kQ,
    HookPoint::kK,        HookPoint::kV,        HookPoint::kAttnScores, HookPoint::kPattern, HookPoint::kZ,
    HookPoint::kAttnOut,  HookPoint::kResidMid, HookPoint::kLn2,        HookPoint::kMlpPre,  HookPoint::kMlpPost,
    HookPoint::kMlpOut,   HookPoint::kResidPost, HookPoint::kLnFinal};

// Where a hook fires: the point, its block (-1 for the points outside the blocks: embed,
// pos_embed, ln_final) and its head (-1 for the points that are not per head).
struct HookSite {
  HookPoint point = HookPoint::kResidPre;
  int layer = -1;
  int head = -1;
};
bool PerHead(HookPoint p);   // q, k, v, attn_scores, pattern, z
bool InBlock(HookPoint p);   // every point but embed, pos_embed and ln_final
// "blocks.0.attn.hook_pattern" (the head is not part of the name: TransformerLens's per-head
// activations carry a head axis); ParseHookName reads one back (false for anything else).
std::string HookName(HookPoint p, int layer);
bool ParseHookName(const std::string& name, HookPoint* point, int* layer);

// Hooks to run during one forward. A hook reads the activation and may rewrite it in place (its
// shape must stay); returning false stops the forward, which fails with "<name>: <error>".
template <typename T>
class Hooks {
 public:
  using Fn = std::function<bool(const HookSite& site, Mat<T>& act, std::string* error)>;

  // Runs `fn` at `point` in block `layer` (-1: every block) for head `head` (-1: every head);
  // several hooks at one site run in the order they were added.
  Hooks& Add(HookPoint point, int layer, int head, Fn fn) {
    entries_.push_back({point, layer, head, std::move(fn)});
    return *this;
  }
  // Adds every hook of `other` after these (an architecture's own hooks, then a caller's).
  Hooks& Append(const Hooks& other) {
    entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
    return *this;
  }
  bool empty() const { return entries_.empty(); }
  // Whether any hook fires at `point` in block `layer` (any head): the forward skips the work a
  // hook would need (a copy, a split sum) when none does.
  bool Wants(HookPoint point, int layer) const {
    for (const Entry& e : entries_)
      if (e.point == point && (e.layer < 0 || e.layer == layer)) return true;
    return false;
  }
  // Runs the hooks of `site` on `act`; true when there are none or all succeed.
  bool Run(const HookSite& site, Mat<T>& act, std::string* error) const {
    for (const Entry& e : entries_) {
      if (e.point != site.point || (e.layer >= 0 && e.layer != site.layer) ||
          (e.head >= 0 && e.head != site.head))
        continue;
      const Eigen::Index rows = act.rows(), cols = act.cols();
      std::string why;
      if (!e.fn(site, act, &why) || act.rows() != rows || act.cols() != cols) {
        if (error) *error = HookName(site.point, site.layer) + ": " + (why.empty() ? "the hook changed the shape" : why);
        return false;
      }
    }
    return true;
  }

 private:
  struct Entry {
    HookPoint point;
    int layer, head;
    Fn fn;
  };
  std::vector<Entry> entries_;
};

// Runs the hooks of one site when there are any (`hooks` may be null).
template <typename T>
bool RunHooks(const Hooks<T>* hooks, HookPoint point, int layer, int head, Mat<T>& act, std::string* error) {
  return hooks == nullptr || hooks->Run(HookSite{point, layer, head}, act, error);
}

// ---- the hooks every edit is made of ------------------------------------------------------------

// Knock-out of keys: their columns of one head's scores set to -inf (masked for every query).
template <typename T>
typename Hooks<T>::Fn MaskKeysHook(std::vector<int> keys) {
  return [keys = std::move(keys)](const HookSite&, Mat<T>& scores, std::string*) {
    for (int j : keys)
      if (j >= 0 && j < scores.cols()) scores.col(j).setConstant(-std::numeric_limits<T>::infinity());
    return true;
  };
}
// Knock-out of a head: its z (the output before W_O) set to 0; its pattern stays as computed.
template <typename T>
typename Hooks<T>::Fn ZeroHook() {
  return [](const HookSite&, Mat<T>& act, std::string*) {
    act.setZero();
    return true;
  };
}

}  // namespace attn
