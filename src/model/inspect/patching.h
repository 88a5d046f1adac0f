// Activation patching (issue 40; TransformerLens's patching.get_act_patch_*): run a corrupted
// prompt with one activation taken from a clean prompt of the same token length, and measure how
// much of the clean behaviour it brings back:
//
//   LD = logit[target] - logit[foil] at the last position
//   metric = (LD_patched - LD_corrupted) / (LD_clean - LD_corrupted)     (1: all of it, 0: none)
//
// What is patched, one run each:
//   kResid    resid_pre of block l at position t        (L x T)   get_act_patch_resid_pre
//   kAttn     the attention's output (after W_O, with b_O) at (l, t)  (L x T)  get_act_patch_attn_out
//   kMlp      the MLP's output at (l, t)                (L x T)   get_act_patch_mlp_out
//   kHead     head h's z (its weighted values, every position)   (L x H)   ..._attn_head_out_all_pos
//   kPattern  head h's attention weights (every position)        (L x H)   ..._attn_head_pattern_all_pos
//
// Patching every head of GPT-2 small is 144+ forwards: a PatchRun runs them a few at a time
// (Step), so that the page draws frames (a progress bar, Cancel) between the steps; its grid holds
// what is done (NaN where it is not yet). Each patched run starts at its patch's layer from the
// corrupted run's input there (the layers below are unchanged), and a step's runs go through the
// blocks together, each block's weights widened once for them all: the same numbers as a whole
// forward per patch (tests/model/test_inspect_fast.cpp).
#pragma once

#include "model/arch/model.h"

#include <string>
#include <vector>

namespace attn {
namespace model {

enum class PatchWhat { kResid, kAttn, kMlp, kHead, kPattern };
// "resid", "attn", "mlp", "head", "pattern"
const char* PatchWhatName(PatchWhat w);
bool ParsePatchWhat(const std::string& name, PatchWhat* out);

struct PatchSpec {
  std::vector<int> clean, corrupted;  // the two prompts' ids, the same length
  int target = -1;  // -1: the clean run's prediction at the last position
  int foil = -1;    // -1: the corrupted run's (its second likeliest when the two agree)
  PatchWhat what = PatchWhat::kResid;
};

class PatchRun {
 public:
  // Checks the spec (lengths, ids, target and foil) and runs the clean and corrupted prompts.
  // False with an English one-line message (two lengths: both named).
  bool Start(const Params<float>& p, const ModelConfig& c, const PatchSpec& spec, std::string* error = nullptr,
             int threads = 1);
  // Up to `runs` more patched forwards; false on an error (the run stops).
  bool Step(int runs, std::string* error = nullptr);
  bool done() const { return next_ >= total(); }
  int finished() const { return next_; }
  int total() const { return rows_ * cols_; }
  int rows() const { return rows_; }  // L
  int cols() const { return cols_; }  // T (resid, attn, mlp) or H (head, pattern)
  // metric[r * cols + c], NaN where not run yet
  const std::vector<double>& metric() const { return metric_; }
  const PatchSpec& spec() const { return spec_; }  // target and foil resolved
  double ld_clean() const { return ld_clean_; }
  double ld_corrupted() const { return ld_corrupted_; }

  // The logit difference of one patched run (tests: nothing patched gives LD_corrupted's metric
  // 0, every resid_pre[0] row patched gives 1). rows/cols: the cells patched together.
  bool PatchedDifference(const std::vector<std::pair<int, int>>& cells, double* ld, std::string* error = nullptr) const;
  // The same for several runs at once, each with its cells (Step's runs): lds (runs).
  bool PatchedDifferences(const std::vector<std::vector<std::pair<int, int>>>& runs, std::vector<double>* lds,
                          std::string* error = nullptr) const;

 private:
  // The hooks that copy the clean run's activations at `cells` in; *first: the lowest layer.
  Hooks<float> PatchHooks(const std::vector<std::pair<int, int>>& cells, int* first) const;

  const Params<float>* p_ = nullptr;
  const ModelConfig* c_ = nullptr;
  PatchSpec spec_;
  int threads_ = 1;
  SequenceActs<float> clean_;
  SequenceActs<float> corrupted_;  // the unpatched run: every patched run starts from its resid_pre
  double ld_clean_ = 0, ld_corrupted_ = 0;
  int rows_ = 0, cols_ = 0, next_ = 0;
  std::vector<double> metric_;
};

}  // namespace model
}  // namespace attn
