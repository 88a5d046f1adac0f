// Token streams of held-out text, the model's score on them and the n-gram baselines.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "model/corpus/evaluate.h"

#include "engine/linalg/linalg.h"
#include "model/arch/parallel.h"

#include <cmath>

namespace attn {
namespace model {

namespace {
std::int64_t CodePoints(const std::string& s) {
  std::int64_t n = 0;
  for (const char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}
}  // namespace

bool EncodeEntries(const Tokenizer& tokenizer, const std::vector<CorpusEntry>& entries, Lang lang, bool all,
                   TokenStream* out, std::string* error, std::optional<Source> only) {
  TokenStream s;
  std::vector<int> ids;
  for (const CorpusEntry& e : entries) {
    if (!all && e.lang != lang) continue;
    if (only && e.source != *only) continue;
    if (!tokenizer.Encode(e.text, &ids, error)) return false;
    if (tokenizer.EndOfText() >= 0) s.ids.push_back(tokenizer.EndOfText());
    s.ids.insert(s.ids.end(), ids.begin(), ids.end());
    s.chars += CodePoints(e.text);
    ++s.entries;
  }
  *out = std::move(s);
  return true;
}

double Score::BitsPerChar() const {
  return chars > 0 ? nats / std::log(2.0) / static_cast<double>(chars) : 0;
}
double Score::NatsPerToken() const {
  return targets > 0 ? nats / static_cast<double>(targets) : 0;
}

bool ScoreModel(const Params<float>& p, const ModelConfig& c, const TokenStream& s, int threads,
                Score* out, std::string* error, std::int64_t max_targets) {
  const std::int64_t n = static_cast<std::int64_t>(s.ids.size());
  std::int64_t targets = n > 0 ? n - 1 : 0;
  if (max_targets > 0 && max_targets < targets) targets = max_targets;
  // windows of the context, at most kScoreMaxWindow tokens (GPT-2's 1024; a Llama-family
  // context runs to 131 072, whose T x T scores no memory holds)
  const std::int64_t P = std::min(c.context, kScoreMaxWindow), S = std::max<std::int64_t>(1, P / 2);
  // Window k scores targets from first(k) on: 0 for the first window, P - S after.
  auto first = [&](std::int64_t k) { return k == 0 ? 0 : k * S + (P - S); };
  int windows = 0;
  while (first(windows) < targets) ++windows;
  std::vector<double> sums(static_cast<std::size_t>(windows), 0);
  std::vector<std::string> errors(static_cast<std::size_t>(windows));
  std::vector<char> ok(static_cast<std::size_t>(windows), 0);
  ParallelFor(windows, threads, [&](int w) {
    const std::int64_t begin = static_cast<std::int64_t>(w) * S;
    const std::int64_t len = std::min<std::int64_t>(P, targets - begin);
    Sequence seq;
    seq.tokens.assign(s.ids.begin() + begin, s.ids.begin() + begin + len);
    seq.targets.assign(s.ids.begin() + begin + 1, s.ids.begin() + begin + len + 1);
    SequenceActs<float> acts;
    const std::size_t k = static_cast<std::size_t>(w);
    if (!Forward(acts, p, c, seq, &errors[k])) return;
    double sum = 0;
    for (std::int64_t t = first(w) - begin; t < len; ++t) sum += static_cast<double>(acts.losses(t));
    sums[k] = sum;
    ok[k] = std::isfinite(sum) ? 1 : 0;
    if (!ok[k]) errors[k] = "the loss is not finite";
  });
  Score r;
  for (std::size_t k = 0; k < sums.size(); ++k) {
    if (!ok[k]) return linalg::Fail(error, errors[k]);
    r.nats += sums[k];
  }
  r.targets = targets;
  r.chars = s.chars;
  if (max_targets > 0 && targets < n - 1) {  // a prefix: its share of the characters
    r.chars = static_cast<std::int64_t>(std::llround(static_cast<double>(s.chars) *
                                                     static_cast<double>(targets) /
                                                     static_cast<double>(n - 1)));
  }
  *out = r;
  return true;
}

void NgramBaseline::Fit(const std::vector<int>& train, int vocab) {
  vocab_ = vocab;
  const std::size_t V = static_cast<std::size_t>(vocab);
  uni_.assign(V, 0);
  row_.assign(V, 0);
  distinct_.assign(V, 0);
  bi_.assign(V * V, 0);
  total_ = 0;
  for (std::size_t i = 0; i < train.size(); ++i) {
    ++uni_[static_cast<std::size_t>(train[i])];
    ++total_;
    if (i + 1 < train.size()) {
      const std::size_t a = static_cast<std::size_t>(train[i]), b = static_cast<std::size_t>(train[i + 1]);
      std::int64_t& cell = bi_[a * V + b];
      if (cell == 0) ++distinct_[a];
      ++cell;
      ++row_[a];
    }
  }
}

double NgramBaseline::PUni(int b) const {
  return (static_cast<double>(uni_[static_cast<std::size_t>(b)]) + 1.0) /
         (static_cast<double>(total_) + static_cast<double>(vocab_));
}

Score NgramBaseline::Unigram(const TokenStream& s) const {
  Score r;
  for (std::size_t i = 1; i < s.ids.size(); ++i) r.nats += -std::log(PUni(s.ids[i]));
  r.targets = s.ids.empty() ? 0 : static_cast<std::int64_t>(s.ids.size()) - 1;
  r.chars = s.chars;
  return r;
}

Score NgramBaseline::Bigram(const TokenStream& s) const {
  const std::size_t V = static_cast<std::size_t>(vocab_);
  Score r;
  for (std::size_t i = 1; i < s.ids.size(); ++i) {
    const std::size_t a = static_cast<std::size_t>(s.ids[i - 1]);
    const int b = s.ids[i];
    const double pu = PUni(b);
    double pr = pu;
    if (row_[a] > 0) {
      const double d = static_cast<double>(distinct_[a]);
      pr = (static_cast<double>(bi_[a * V + static_cast<std::size_t>(b)]) + d * pu) /
           (static_cast<double>(row_[a]) + d);
    }
    r.nats += -std::log(pr);
  }
  r.targets = s.ids.empty() ? 0 : static_cast<std::int64_t>(s.ids.size()) - 1;
  r.chars = s.chars;
  return r;
}

}  // namespace model
}  // namespace attn
