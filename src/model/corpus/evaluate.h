// Held-out text as token streams, and how well a model (or an n-gram baseline) predicts it, in
// bits per character: the measure that compares models with different tokenizers.
//
// A stream: for each entry in order, <|endoftext|> (id 0) and the entry's tokens. Every token
// after the first is a target, the separators included (predicting where a fortune ends is
// part of the task); the characters are the entries' code points. bits/char = the targets'
// total -log2 p / the characters.
//
// The model reads the stream in overlapping windows of its context P with stride S = P / 2
// (a sliding window, as GPT-2's evaluation does): window k holds tokens [k S, k S + P) and
// predicts the token after each of them; window 0 scores all its P predictions, window k >= 1
// only its last P - S (targets k S + P - S + 1 .. k S + P), so every target is scored exactly
// once, and after the first window from at least P - S tokens of context. The last window is
// shorter when the stream ends.
#pragma once

#include "model/tokenizer/tokenizer.h"
#include "model/corpus/corpus.h"
#include "model/arch/model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attn {
namespace model {

struct TokenStream {
  std::vector<int> ids;      // <|endoftext|> entry <|endoftext|> entry ...
  std::int64_t chars = 0;    // code points of the entries
  int entries = 0;
};
// The entries of one language (or all of them: all = true) encoded back to back; with `only`,
// just the entries of that source (the fortunes-only validation row).
bool EncodeEntries(const Tokenizer& tokenizer, const std::vector<CorpusEntry>& entries, Lang lang, bool all,
                   TokenStream* out, std::string* error = nullptr, std::optional<Source> only = std::nullopt);

struct Score {
  double nats = 0;             // sum of -ln p over the targets, in target order
  std::int64_t targets = 0;
  std::int64_t chars = 0;
  double BitsPerChar() const;  // nats / ln 2 / chars
  double NatsPerToken() const;
};

// The model on a stream: windows as above, the scored losses summed in window order, within a
// window in position order (windows may be computed on `threads` threads; the sum does not
// depend on it). max_targets > 0 scores only
// the first max_targets targets (a quick check). False with a message on a bad id or a
// non-finite loss. The windows: the model's context, at most kScoreMaxWindow tokens.
constexpr int kScoreMaxWindow = 1024;
bool ScoreModel(const Params<float>& p, const ModelConfig& c, const TokenStream& s, int threads,
                Score* out, std::string* error = nullptr, std::int64_t max_targets = 0);

// Baselines from the training stream's counts, scored on the same targets:
//   unigram: p(b) = (n(b) + 1) / (N + V)                                       (add-one)
//   bigram:  p(b | a) = (n(a b) + D(a) p_uni(b)) / (n(a) + D(a))   (Witten-Bell: D(a) = the
//            number of different tokens seen after a; an unseen a falls back to p_uni)
// Counts run over consecutive pairs of the training stream, the separators included.
class NgramBaseline {
 public:
  void Fit(const std::vector<int>& train, int vocab);
  Score Unigram(const TokenStream& s) const;
  Score Bigram(const TokenStream& s) const;

 private:
  double PUni(int b) const;
  int vocab_ = 0;
  std::int64_t total_ = 0;
  std::vector<std::int64_t> uni_;       // (V)
  std::vector<std::int64_t> bi_;        // (V, V) row-major: a * V + b
  std::vector<std::int64_t> row_;       // (V) n(a) as a predecessor
  std::vector<std::int64_t> distinct_;  // (V) D(a)
};

}  // namespace model
}  // namespace attn
