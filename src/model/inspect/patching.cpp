// Activation patching (patching.h): the corrupted prompt's forward with hooks that copy the clean
// run's activation in, from the first patched layer on (the layers below it are the corrupted
// run's, kept from Start), a step's runs together (model.h ForwardFrom).
#include "model/inspect/patching.h"

#include "engine/attention/hooks.h"
#include "engine/linalg/linalg.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {
namespace model {

namespace {

constexpr PatchWhat kWhats[] = {PatchWhat::kResid, PatchWhat::kAttn, PatchWhat::kMlp, PatchWhat::kHead, PatchWhat::kPattern};
constexpr const char* kWhatNames[] = {"resid", "attn", "mlp", "head", "pattern"};

// The last position's logit difference of a forward (last_only: one row of logits).
double Difference(const SequenceActs<float>& a, int target, int foil) {
  const Eigen::Index r = a.logits.rows() - 1;
  return static_cast<double>(a.logits(r, target)) - static_cast<double>(a.logits(r, foil));
}

// The likeliest token of the last row, and the second likeliest (lower id first on ties).
void TopTwo(const SequenceActs<float>& a, int* first, int* second) {
  const Eigen::Index r = a.logits.rows() - 1;
  int b1 = -1, b2 = -1;
  for (Eigen::Index v = 0; v < a.logits.cols(); ++v) {
    const int id = static_cast<int>(v);
    if (b1 < 0 || a.logits(r, v) > a.logits(r, b1)) {
      b2 = b1;
      b1 = id;
    } else if (b2 < 0 || a.logits(r, v) > a.logits(r, b2)) {
      b2 = id;
    }
  }
  *first = b1;
  *second = b2;
}

}  // namespace

const char* PatchWhatName(PatchWhat w) { return kWhatNames[static_cast<int>(w)]; }

bool ParsePatchWhat(const std::string& name, PatchWhat* out) {
  for (int k = 0; k < 5; ++k) {
    if (name == kWhatNames[k]) {
      *out = kWhats[k];
      return true;
    }
  }
  return false;
}

bool PatchRun::Start(const Params<float>& p, const ModelConfig& c, const PatchSpec& spec, std::string* error, int threads) {
  const std::size_t n = spec.clean.size();
  if (n == 0 || spec.corrupted.empty()) return linalg::Fail(error, "the clean and the corrupted prompts must not be empty");
  if (spec.corrupted.size() != n)
    return linalg::Fail(error, "the clean and the corrupted prompts must have the same length in tokens (clean " + std::to_string(n) +
                           ", corrupted " + std::to_string(spec.corrupted.size()) + ")");
  if (static_cast<int>(n) > c.context)
    return linalg::Fail(error, "the prompts are " + std::to_string(n) + " tokens, longer than the model's context (" +
                           std::to_string(c.context) + ")");
  const std::string ids = "a token id from 0 to " + std::to_string(c.vocab - 1);
  if (spec.target < -1 || spec.target >= c.vocab) return linalg::Fail(error, "target: expected " + ids + ", got " + std::to_string(spec.target));
  if (spec.foil < -1 || spec.foil >= c.vocab) return linalg::Fail(error, "foil: expected " + ids + ", got " + std::to_string(spec.foil));
  p_ = &p;
  c_ = &c;
  spec_ = spec;
  threads_ = threads;
  Sequence s;
  s.tokens = spec.clean;
  s.targets.assign(n, -1);
  s.threads = threads;
  if (!Forward(clean_, p, c, s, error, /*last_only=*/true)) return false;  // every block's rows kept
  s.tokens = spec.corrupted;
  if (!Forward(corrupted_, p, c, s, error, true)) return false;
  int clean_top = 0, clean_second = 0, corrupted_top = 0, corrupted_second = 0;
  TopTwo(clean_, &clean_top, &clean_second);
  TopTwo(corrupted_, &corrupted_top, &corrupted_second);
  if (spec_.target < 0) spec_.target = clean_top;
  if (spec_.foil < 0) spec_.foil = corrupted_top != spec_.target ? corrupted_top : clean_second;
  if (spec_.foil == spec_.target) return linalg::Fail(error, "foil: the foil must differ from the target (" + std::to_string(spec_.foil) + ")");
  ld_clean_ = Difference(clean_, spec_.target, spec_.foil);
  ld_corrupted_ = Difference(corrupted_, spec_.target, spec_.foil);
  if (!(std::abs(ld_clean_ - ld_corrupted_) > 1e-6))
    return linalg::Fail(error, "the clean and the corrupted prompts give the same logit difference (" + std::to_string(ld_clean_) +
                           "): nothing to restore; choose prompts, or a target and foil, that they disagree on");
  const bool per_head = spec_.what == PatchWhat::kHead || spec_.what == PatchWhat::kPattern;
  rows_ = c.layers;
  cols_ = per_head ? c.heads : static_cast<int>(n);
  next_ = 0;
  metric_.assign(static_cast<std::size_t>(rows_ * cols_), std::numeric_limits<double>::quiet_NaN());
  return true;
}

Hooks<float> PatchRun::PatchHooks(const std::vector<std::pair<int, int>>& cells, int* first) const {
  Hooks<float> hooks;
  *first = cells.empty() ? 0 : c_->layers - 1;  // the lowest patched layer
  for (const auto& [layer, col] : cells) {
    *first = std::min(*first, layer);
    const BlockActs<float>& clean = clean_.blocks[static_cast<std::size_t>(layer)];
    switch (spec_.what) {
      case PatchWhat::kResid:
      case PatchWhat::kAttn:
      case PatchWhat::kMlp: {
        const HookPoint point = spec_.what == PatchWhat::kResid ? HookPoint::kResidPre
                                : spec_.what == PatchWhat::kAttn ? HookPoint::kAttnOut : HookPoint::kMlpOut;
        const Mat<float>* from = spec_.what == PatchWhat::kResid ? &clean.x
                                 : spec_.what == PatchWhat::kAttn ? &clean.attn.output : &clean.proj;  // (T, C)
        const int t = col;
        hooks.Add(point, layer, -1, [from, t](const HookSite&, Mat<float>& act, std::string*) {
          act.row(t) = from->row(t);
          return true;
        });
        break;
      }
      case PatchWhat::kHead:
      case PatchWhat::kPattern: {
        const HeadTrace<float>& head = clean.attn.heads[static_cast<std::size_t>(col)];
        const Mat<float>* from = spec_.what == PatchWhat::kHead ? &head.output : &head.weights;  // (T, Dh) / (T, T)
        hooks.Add(spec_.what == PatchWhat::kHead ? HookPoint::kZ : HookPoint::kPattern, layer, col,
                  [from](const HookSite&, Mat<float>& act, std::string*) {
                    act = *from;
                    return true;
                  });
        break;
      }
    }
  }
  return hooks;
}

bool PatchRun::PatchedDifferences(const std::vector<std::vector<std::pair<int, int>>>& runs, std::vector<double>* lds,
                                  std::string* error) const {
  const std::size_t n = runs.size();
  std::vector<Hooks<float>> hooks(n);
  std::vector<SequenceActs<float>> patched(n);
  std::vector<RunFrom<float>> from(n);
  for (std::size_t i = 0; i < n; ++i) {
    int first = 0;
    hooks[i] = PatchHooks(runs[i], &first);
    // the layers below the first patched one are the corrupted run's: start there, from its input
    patched[i].blocks.resize(corrupted_.blocks.size());
    patched[i].blocks[static_cast<std::size_t>(first)].x = corrupted_.blocks[static_cast<std::size_t>(first)].x;
    from[i] = {&patched[i], first, &hooks[i]};
  }
  Sequence s;
  s.tokens = spec_.corrupted;
  s.targets.assign(s.tokens.size(), -1);
  s.threads = threads_;
  if (!ForwardFrom(from, *p_, *c_, s, error, /*last_only=*/true)) return false;
  lds->resize(n);
  for (std::size_t i = 0; i < n; ++i) (*lds)[i] = Difference(patched[i], spec_.target, spec_.foil);
  return true;
}

bool PatchRun::PatchedDifference(const std::vector<std::pair<int, int>>& cells, double* ld, std::string* error) const {
  std::vector<double> lds;
  if (!PatchedDifferences({cells}, &lds, error)) return false;
  *ld = lds[0];
  return true;
}

bool PatchRun::Step(int runs, std::string* error) {
  // the step's cells together: each block taken once for all of them (ForwardFrom's lockstep)
  std::vector<std::vector<std::pair<int, int>>> cells;
  for (int k = next_; k < total() && k < next_ + runs; ++k) cells.push_back({{k / cols_, k % cols_}});
  std::vector<double> lds;
  if (!PatchedDifferences(cells, &lds, error)) {
    next_ = total();  // stopped
    return false;
  }
  for (double ld : lds) metric_[static_cast<std::size_t>(next_++)] = (ld - ld_corrupted_) / (ld_clean_ - ld_corrupted_);
  return true;
}

}  // namespace model
}  // namespace attn
