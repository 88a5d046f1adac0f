// Held-out text as token streams, and how well a model (or an n-gram baseline) predicts it, in
// bits per character: the measure that compares models with different tokenizers.
//
// A stream: for each entry in order, <|endoftext|> (id 0) and the entry's tokens. Every token
// after the first is a target, the separators included (predicting where a fortune ends is
// part of the task); the characters are the entries' code points. bits/char = the targets'
// total -log2 p / the characters.
//
// The model reads the stream in windows of its context P: window w holds tokens
// [w P, w P + P] and predicts the P tokens after its first (the last window is shorter), so
// every target is predicted exactly once, from at most P - 1 tokens of its own window.
#pragma once

#include "bpe.h"
#include "corpus.h"
#include "model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {
namespace model {

struct TokenStream {
  std::vector<int> ids;      // <|endoftext|> entry <|endoftext|> entry ...
  std::int64_t chars = 0;    // code points of the entries
  int entries = 0;
};
// The entries of one language (or all of them: all = true) encoded back to back.
bool EncodeEntries(const Bpe& bpe, const std::vector<CorpusEntry>& entries, Lang lang, bool all,
                   TokenStream* out, std::string* error = nullptr);

struct Score {
  double nats = 0;             // sum of -ln p over the targets, in target order
  std::int64_t targets = 0;
  std::int64_t chars = 0;
  double BitsPerChar() const;  // nats / ln 2 / chars
  double NatsPerToken() const;
};

// The model on a stream: windows as above, their losses summed in window order (windows may be
// computed on `threads` threads; the sum does not depend on it). max_targets > 0 scores only
// the first max_targets targets (a quick check). False with a message on a bad id or a
// non-finite loss.
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
