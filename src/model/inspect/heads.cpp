// The head scores of heads.h.
#include "model/inspect/heads.h"

#include <algorithm>

#include "engine/linalg/linalg.h"
#include "engine/base/rng.h"
#include "model/arch/parallel.h"

#include <cmath>

namespace attn {
namespace model {

namespace {

// Per head, the sums of one sequence: [previous, first, self, entropy, induction] and counts.
struct Sums {
  std::vector<double> v;  // (L * H * 5)
  double rows = 0, induction_rows = 0;
  double loss_first = 0, loss_second = 0;
};

void AddRows(const SequenceActs<float>& acts, int from_row, int repeat, Sums* s) {
  std::size_t k = 0;
  for (const BlockActs<float>& b : acts.blocks) {
    for (const HeadTrace<float>& h : b.attn.heads) {
      const Mat<float>& A = h.weights;
      for (Eigen::Index t = from_row; t < A.rows(); ++t) {
        double ent = 0;
        for (Eigen::Index u = 0; u <= t; ++u) {
          const double a = A(t, u);
          if (a > 0) ent -= a * std::log(a);
        }
        if (repeat == 0) {
          s->v[k + 0] += A(t, t - 1);
          s->v[k + 1] += A(t, 0);
          s->v[k + 2] += A(t, t);
          s->v[k + 3] += ent;
        } else {
          s->v[k + 4] += A(t, t - repeat + 1);
        }
      }
      k += 5;
    }
  }
}

}  // namespace

bool AnalyzeHeads(const Params<float>& p, const ModelConfig& c,
                  const std::vector<const TokenStream*>& streams, int windows, int repeats,
                  int first_id, std::uint64_t seed, int threads, HeadReport* out,
                  std::string* error) {
  // windows of the context, at most kHeadsMaxWindow tokens (a Llama-family context runs to 131 072)
  const int P = std::min(c.context, kHeadsMaxWindow), R = P / 2;
  if (R < 2) return linalg::Fail(error, "the context is too short for the induction test");
  if (first_id < 0 || first_id >= c.vocab) return linalg::Fail(error, "first_id out of the vocabulary");
  // The sequences: validation windows (tokens and targets) then the repeated random ones.
  std::vector<Sequence> seqs;
  std::vector<int> kind;  // 0: validation, 1: repeated
  for (const TokenStream* s : streams) {
    for (int w = 0; w < windows; ++w) {
      const std::size_t begin = static_cast<std::size_t>(w) * static_cast<std::size_t>(P);
      if (begin + static_cast<std::size_t>(P) + 1 > s->ids.size()) break;
      Sequence q;
      q.tokens.assign(s->ids.begin() + static_cast<std::ptrdiff_t>(begin), s->ids.begin() + static_cast<std::ptrdiff_t>(begin + P));
      q.targets.assign(s->ids.begin() + static_cast<std::ptrdiff_t>(begin + 1), s->ids.begin() + static_cast<std::ptrdiff_t>(begin + P + 1));
      seqs.push_back(std::move(q));
      kind.push_back(0);
    }
  }
  const int validation = static_cast<int>(seqs.size());
  rng::SplitMix64 draw(rng::Mix64(seed));
  const std::uint64_t span = static_cast<std::uint64_t>(c.vocab - first_id);
  for (int r = 0; r < repeats; ++r) {
    std::vector<int> half(static_cast<std::size_t>(R));
    for (int& id : half) id = first_id + static_cast<int>(draw.Next() % span);
    Sequence q;
    q.tokens = half;
    q.tokens.insert(q.tokens.end(), half.begin(), half.end());
    q.targets.assign(q.tokens.begin() + 1, q.tokens.end());
    q.targets.push_back(-1);
    seqs.push_back(std::move(q));
    kind.push_back(1);
  }
  const std::size_t n = seqs.size();
  const std::size_t cells = static_cast<std::size_t>(c.layers * c.heads * 5);
  std::vector<Sums> sums(n);
  std::vector<std::string> errors(n);
  std::vector<char> ok(n, 0);
  ParallelFor(static_cast<int>(n), threads, [&](int i) {
    const std::size_t k = static_cast<std::size_t>(i);
    SequenceActs<float> acts;
    // the validation windows are read for their attention alone: no logits beyond the last row
    // (a Llama vocabulary's (T, V) product would be most of the time); the repeats' losses need them
    if (!Forward(acts, p, c, seqs[k], &errors[k], /*last_only=*/kind[k] == 0)) return;
    Sums& s = sums[k];
    s.v.assign(cells, 0);
    if (kind[k] == 0) {
      AddRows(acts, 1, 0, &s);
      s.rows = P - 1;
    } else {
      AddRows(acts, R, R, &s);
      s.induction_rows = R;
      for (int t = 0; t + 1 < 2 * R; ++t) {
        if (t + 1 < R) s.loss_first += acts.losses(t);  // predicting tokens 1 .. R-1
        else if (t + 1 > R) s.loss_second += acts.losses(t);  // predicting R+1 .. 2R-1
      }
    }
    ok[k] = 1;
  });
  std::vector<double> total(cells, 0);
  double rows = 0, irows = 0, lf = 0, ls = 0;
  for (std::size_t k = 0; k < n; ++k) {  // in sequence order
    if (!ok[k]) return linalg::Fail(error, errors[k]);
    for (std::size_t j = 0; j < cells; ++j) total[j] += sums[k].v[j];
    rows += sums[k].rows;
    irows += sums[k].induction_rows;
    lf += sums[k].loss_first;
    ls += sums[k].loss_second;
  }
  HeadReport rep;
  rep.windows = validation;
  rep.repeats = repeats;
  rep.repeat_length = R;
  rep.loss_first_copy = repeats > 0 ? lf / (repeats * (R - 1.0)) : 0;
  rep.loss_second_copy = repeats > 0 ? ls / (repeats * (R - 1.0)) : 0;
  std::size_t k = 0;
  for (int l = 0; l < c.layers; ++l) {
    for (int h = 0; h < c.heads; ++h, k += 5) {
      HeadScores s;
      s.layer = l;
      s.head = h;
      const double r = rows > 0 ? rows : 1, ir = irows > 0 ? irows : 1;
      s.previous = total[k + 0] / r;
      s.first = total[k + 1] / r;
      s.self = total[k + 2] / r;
      s.entropy = total[k + 3] / r;
      s.induction = total[k + 4] / ir;
      rep.heads.push_back(s);
    }
  }
  *out = rep;
  return true;
}

}  // namespace model
}  // namespace attn
