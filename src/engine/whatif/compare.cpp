// "What if": the edited run against the plain one (whatif.h): Δα, ΔA, the verdict.
// No FMA contraction (linalg.h's rules): the same bits natively and in wasm.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/whatif/whatif.h"

#include "engine/base/format.h"
#include "engine/linalg/linalg.h"
#include "engine/text/embedding.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace attn {

// ---- the comparison -------------------------------------------------------------------------------

Verdict VerdictOf(const InformationReport& info) {
  Verdict v;
  v.recoverable = info.info.recoverable;
  v.unique = info.collision.unique;
  v.affine_rank = info.info.affine_rank;
  v.same_output_dim = info.info.same_output_dim;
  return v;
}

LabComparison CompareLab(const LabConfig& cfg) {
  LabResult edited = ComputeLab(cfg);
  if (!edited.error.ok()) {  // the plain run is not needed to say why
    LabComparison c;
    c.error = edited.error;
    c.edited = std::move(edited);
    return c;
  }
  return CompareRuns(cfg, ComputeLab(WithoutEdits(cfg)), std::move(edited));
}

namespace {

// The shuffle's check in double (LabComparison::shuffle_double_max_diff): the lab's two runs
// again through MultiHeadForward<double>, on the plain run's weights (cast) and each run's own
// embedding (positions, if on, are those of the new order).
double ShuffleDoubleMaxDiff(const LabConfig& cfg, const LabResult& plain, const LabResult& edited,
                            const std::vector<int>& to_edited) {
  auto embed = [&](const std::vector<Token>& tokens) {
    std::vector<std::string> texts;
    for (const Token& t : tokens) texts.push_back(t.text);
    return MatD(EmbedTokens(texts, cfg.d_model, cfg.seed, cfg.positional).cast<double>());  // (N, D)
  };
  MultiHeadWeights<double> w;
  for (const MatF& m : plain.projections.W_Q) w.W_Q.push_back(m.cast<double>());
  for (const MatF& m : plain.projections.W_K) w.W_K.push_back(m.cast<double>());
  for (const MatF& m : plain.projections.W_V) w.W_V.push_back(m.cast<double>());
  w.W_O = plain.projections.W_O.cast<double>();
  MultiHeadConfig mcfg;
  mcfg.head.normalizer = cfg.normalizer;
  mcfg.head.temperature = cfg.temperature;
  mcfg.head.scaled = cfg.scaled;
  mcfg.causal = cfg.causal;
  MultiHeadTrace<double> a, b;
  if (!MultiHeadForward<double>(a, embed(plain.tokens), nullptr, w, mcfg) ||
      !MultiHeadForward<double>(b, embed(edited.tokens), nullptr, w, mcfg))
    return -1;
  const int n = static_cast<int>(to_edited.size());
  double worst = 0;
  for (std::size_t h = 0; h < a.heads.size(); ++h)
    for (int i = 0; i < n; ++i) {
      const int ie = to_edited[static_cast<std::size_t>(i)];
      for (int j = 0; j < n; ++j)
        worst = std::max(worst, std::abs(b.heads[h].weights(ie, to_edited[static_cast<std::size_t>(j)]) - a.heads[h].weights(i, j)));
      for (Eigen::Index k = 0; k < a.heads[h].output.cols(); ++k)
        worst = std::max(worst, std::abs(b.heads[h].output(ie, k) - a.heads[h].output(i, k)));
    }
  return worst;
}

}  // namespace

LabComparison CompareRuns(const LabConfig& cfg, LabResult plain, LabResult edited) {
  LabComparison c;
  c.edited = std::move(edited);
  c.plain = std::move(plain);
  if (!c.edited.error.ok()) {
    c.error = c.edited.error;
    return c;
  }
  if (!c.plain.error.ok()) {
    c.error = c.plain.error;
    return c;
  }
  const int n = static_cast<int>(c.plain.tokens.size());
  c.to_edited = c.edited.edits.to_run;
  c.from_plain = c.edited.edits.from_typed;
  if (c.to_edited.empty()) {  // a run without edits: the identity alignment
    c.to_edited.resize(static_cast<std::size_t>(n));
    std::iota(c.to_edited.begin(), c.to_edited.end(), 0);
    c.from_plain = c.to_edited;
  }
  c.query = cfg.query;
  c.row_present.assign(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i) c.row_present[static_cast<std::size_t>(i)] = c.to_edited[static_cast<std::size_t>(i)] >= 0;
  const int ins = c.edited.edits.inserted;
  // Δα per head, aligned on the plain run's tokens
  const std::size_t heads = c.plain.mha.heads.size();
  for (std::size_t h = 0; h < heads; ++h) {
    const MatF& a = c.plain.mha.heads[h].weights;   // (N, N)
    const MatF& b = c.edited.mha.heads[h].weights;  // (N', N')
    MatD d = MatD::Zero(n, n);
    VecD gained = VecD::Zero(n);
    for (int i = 0; i < n; ++i) {
      const int ie = c.to_edited[static_cast<std::size_t>(i)];
      if (ie < 0) continue;
      for (int j = 0; j < n; ++j) {
        const int je = c.to_edited[static_cast<std::size_t>(j)];
        const double after = je >= 0 ? static_cast<double>(b(ie, je)) : 0.0;
        d(i, j) = after - static_cast<double>(a(i, j));
        c.max_abs_d_weight = std::max(c.max_abs_d_weight, std::abs(d(i, j)));
      }
      if (ins >= 0) gained(i) = b(ie, ins);
    }
    c.d_weights.push_back(std::move(d));
    c.inserted_weight.push_back(std::move(gained));
  }
  // ΔA of the query, chosen head and projected output
  const int qe = c.to_edited[static_cast<std::size_t>(cfg.query)];
  const MatF& o = c.plain.trace.output;   // (N, Dv)
  const MatF& o2 = c.edited.trace.output;  // (N', Dv)
  c.d_output.resize(o.cols());
  for (Eigen::Index k = 0; k < o.cols(); ++k)
    c.d_output(k) = static_cast<double>(o2(qe, k)) - static_cast<double>(o(cfg.query, k));
  const MatF& f = c.plain.mha.output;   // (N, Do)
  const MatF& f2 = c.edited.mha.output;  // (N', Do)
  c.d_final_output.resize(f.cols());
  for (Eigen::Index k = 0; k < f.cols(); ++k)
    c.d_final_output(k) = static_cast<double>(f2(qe, k)) - static_cast<double>(f(cfg.query, k));
  for (Eigen::Index k = 0; k < c.d_output.size(); ++k) c.d_output_norm += c.d_output(k) * c.d_output(k);
  for (Eigen::Index k = 0; k < c.d_final_output.size(); ++k) c.d_final_output_norm += c.d_final_output(k) * c.d_final_output(k);
  c.d_output_norm = std::sqrt(c.d_output_norm);
  c.d_final_output_norm = std::sqrt(c.d_final_output_norm);
  if (cfg.shuffle != ShuffleMode::kOff && cfg.what_if_token < 0 && cfg.knockout_keys.empty() &&
      cfg.knockout_heads.empty() && cfg.value_token < 0)
    c.shuffle_double_max_diff = ShuffleDoubleMaxDiff(cfg, c.plain, c.edited, c.to_edited);
  c.verdict_plain = VerdictOf(c.plain.information);
  c.verdict_edited = VerdictOf(c.edited.information);
  c.verdict_changed = c.verdict_plain.recoverable != c.verdict_edited.recoverable ||
                      c.verdict_plain.unique != c.verdict_edited.unique ||
                      c.verdict_plain.same_output_dim != c.verdict_edited.same_output_dim;
  return c;
}

}  // namespace attn
