// What each attention head of the trained model does, measured rather than assumed.
//
// On validation text (windows of the context, as evaluate.h reads them), for every layer l and
// head h, averaged over the query positions t >= 1 of every window (t = 0 can only attend to
// itself):
//   previous  A[t, t-1]     attention on the token just before
//   first     A[t, 0]       attention on the window's first token (an "attention sink")
//   self      A[t, t]
//   entropy   -sum_s A[t, s] ln A[t, s], in nats (ln(t + 1) would be uniform)
// Induction (Olsson et al. 2022): on sequences of R random tokens repeated once,
// r_0 .. r_{R-1} r_0 .. r_{R-1} (2R <= P), the mean over the second copy's positions t >= R of
// A[t, t - R + 1]: the token that followed the current token's earlier occurrence. The same
// sequences also give the loss on the first and on the second copy: a model that copies in
// context predicts the second copy far better.
#pragma once

#include "model/corpus/evaluate.h"
#include "model/arch/model.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace attn {
namespace model {

struct HeadScores {
  int layer = 0, head = 0;
  double previous = 0, first = 0, self = 0, entropy = 0, induction = 0;
};

// What a head is called (the gallery's label): the kind whose score is at least `at`, induction
// first. An induction head rests on the first token whenever nothing repeats, so its first-token
// score is often the larger one; the induction score is the rarer, more specific signature.
// Then previous-token, sink (first), self; kSpread when none reaches `at`.
enum class HeadKind { kSpread, kInduction, kPrevious, kSink, kSelf };
inline HeadKind KindOf(const HeadScores& h, double at) {
  if (h.induction >= at) return HeadKind::kInduction;
  const double best = std::max({h.previous, h.first, h.self});
  if (best < at) return HeadKind::kSpread;
  if (best == h.previous) return HeadKind::kPrevious;
  if (best == h.first) return HeadKind::kSink;
  return HeadKind::kSelf;
}

struct HeadReport {
  std::vector<HeadScores> heads;  // layer-major
  int windows = 0;                // validation windows used
  int repeats = 0, repeat_length = 0;
  double loss_first_copy = 0, loss_second_copy = 0;  // nats per token on the repeated sequences
};

// `windows` validation windows from the start of each stream given (in order), `repeats`
// random repeated sequences of length R = context / 2 (ids drawn uniformly from
// [first_id, vocab) by rng::SplitMix64(seed)). Sums run in a fixed order whatever `threads`.
// The validation windows: the model's context, at most this many tokens (the induction test's
// repeats then half of it): a window's scores are T x T per head and layer.
constexpr int kHeadsMaxWindow = 512;

bool AnalyzeHeads(const Params<float>& p, const ModelConfig& c,
                  const std::vector<const TokenStream*>& streams, int windows, int repeats,
                  int first_id, std::uint64_t seed, int threads, HeadReport* out,
                  std::string* error = nullptr);

}  // namespace model
}  // namespace attn
