// The lab: the one pipeline every front end calls (its checks: validate.cpp).
// Shapes: N = tokens, D = d_model, H = heads, Dv = d_v.
// No FMA contraction, for the same bits natively and in wasm (see linalg.h).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/lab/lab.h"

#include "engine/base/names.h"
#include "engine/lab/validate.h"

#include "engine/base/format.h"
#include "engine/geometry/same_output.h"
#include "engine/whatif/whatif.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attn {

LabResult ComputeLab(const LabConfig& cfg) {
  LabResult result;
  if (cfg.projection == Projection::kModel) {
    result.error = Refuse(ConfigError::kModelNotLoaded, "projection",
                          "projection: expected a loaded model, got none (model mode needs the model's files)", 0);
    return result;
  }
  // Validation tokenizes anyway; do it once and keep the tokens.
  TokenizeResult t = Tokenize(cfg.sentence);
  result.error = ValidateTokenized(cfg, t);
  if (!result.error.ok()) return result;
  // The learner's edits (whatif.h): the run's tokens, and the query and target where their
  // tokens went.
  LabConfig run = cfg;
  if (HasEdits(cfg)) {
    result.edits.edited = true;
    result.tokens = EditTokens(cfg, t.tokens, &result.edits);
    const std::vector<int>& to = result.edits.to_run;
    run.query = to[static_cast<std::size_t>(cfg.query)];
    run.target = cfg.target >= 0 ? to[static_cast<std::size_t>(cfg.target)] : -1;  // deleted: automatic
    for (int k : cfg.knockout_keys.keys)
      if (to[static_cast<std::size_t>(k)] >= 0) result.edits.knocked_keys.push_back(to[static_cast<std::size_t>(k)]);
    std::sort(result.edits.knocked_keys.begin(), result.edits.knocked_keys.end());
    result.edits.knocked_heads = cfg.knockout_heads.OfLayer(0);
    result.edits.value_token = cfg.value_token >= 0 ? to[static_cast<std::size_t>(cfg.value_token)] : -1;
  } else {
    result.tokens = std::move(t.tokens);
  }

  std::vector<std::string> texts;
  texts.reserve(result.tokens.size());
  for (const Token& tok : result.tokens) texts.push_back(tok.text);
  const MatF x = EmbedTokens(texts, cfg.d_model, cfg.seed, cfg.positional);  // (N, D)

  // pass 1: every head (self-attention: keys and values are X too)
  result.projections = cfg.projection == Projection::kIdentity
                           ? IdentityWeights<float>(cfg.d_model, cfg.heads)
                           : RandomWeights<float>(cfg.d_model, cfg.heads, cfg.d_k, cfg.d_v,
                                                  cfg.seed);
  if (cfg.projection == Projection::kIdentity && cfg.d_v < cfg.d_model) {
    // Fewer value dimensions: v = the first d_v coordinates of x (W_V = I[:, :d_v]), and W_O
    // puts each head's d_v numbers back on those coordinates, averaged over the heads.
    const int d = cfg.d_model, dv = cfg.d_v, heads = cfg.heads;
    for (MatF& wv : result.projections.W_V) wv = MatF::Identity(d, d).leftCols(dv);  // (D, Dv)
    result.projections.W_O.setZero(static_cast<Eigen::Index>(heads) * dv, d);       // (H*Dv, D)
    for (int k = 0; k < heads; ++k)
      for (int c = 0; c < dv; ++c)
        result.projections.W_O(static_cast<Eigen::Index>(k) * dv + c, c) = 1.0f / static_cast<float>(heads);
  }
  MultiHeadConfig mcfg;
  mcfg.head.normalizer = cfg.normalizer;
  mcfg.head.temperature = cfg.temperature;
  mcfg.head.scaled = cfg.scaled;
  mcfg.causal = cfg.causal;
  if (!result.edits.knocked_keys.empty())
    mcfg.mask = KnockoutMask(static_cast<int>(result.tokens.size()), result.edits.knocked_keys);
  // knocked-out heads and a dragged value: hooks on the forward (whatif.h)
  Hooks<float> hooks;
  std::string why;
  if ((result.edits.edited &&
       !AddEditHooks(run, x, result.projections, mcfg, &result.edits, &hooks, &why)) ||
      !MultiHeadForward<float>(result.mha, x, nullptr, result.projections, mcfg, &why,
                               hooks.empty() ? nullptr : &hooks)) {
    // Unreachable from valid settings (embedding entries stay below 10, scores far below
    // float's range); kept so that a future change fails loudly instead of drawing NaN.
    result.error = Refuse(ConfigError::kNumericOverflow, "scores", why, 0);
    return result;
  }

  FinishLab(run, x, &result);
  if (result.edits.edited) FinishEdits(run, &result);
  return result;
}

void FinishLab(const LabConfig& cfg, const MatF& x, LabResult* out) {
  LabResult& result = *out;
  const int n = static_cast<int>(result.tokens.size());
  // pass 2: the chosen head as the single-head trace the panels read
  const std::size_t h = static_cast<std::size_t>(cfg.head);
  AttentionTraceFromHead<float>(result.trace, x, result.projections.W_Q[h],
                                result.projections.W_K[h], result.projections.W_V[h],
                                result.mha.heads[h], result.mha.mask, cfg.normalizer);

  result.steps = MakeStepTable(result.trace, result.tokens, cfg.query);

  // Vectors panel: the values, the query's weighted values and its output in one PCA, so that
  // all 2N + 1 arrows share the same plane.
  const AttentionTrace<float>& tr = result.trace;
  result.vectors = ProjectPca2D(VectorPoints(tr, cfg.query));
  result.value_hull = ConvexHull2D(result.vectors.points.topRows(n));

  // Information panel: the query's weights and the chosen head's values, in double, over the
  // keys the query can see, in the set its normalizer's weights live in.
  const MatD values = tr.V.cast<double>();                                  // (N, Dv)
  const VecD alpha = tr.weights.row(cfg.query).transpose().cast<double>();  // (N)
  InformationScope scope;
  scope.set = FeasibleSetOf(cfg.normalizer);
  scope.visible.assign(static_cast<std::size_t>(n), 1);
  if (result.mha.mask.rows() == n && result.mha.mask.cols() == n)
    for (int i = 0; i < n; ++i) scope.visible[static_cast<std::size_t>(i)] = result.mha.mask(cfg.query, i) ? 1 : 0;
  result.visible = scope.visible;
  auto seen = [&](int i) { return scope.visible[static_cast<std::size_t>(i)] != 0; };
  int top = cfg.query;  // the query always sees itself
  for (int i = 0; i < n; ++i)
    if (seen(i) && (!seen(top) || alpha(i) > alpha(top))) top = i;
  int next = top;  // the first visible key after top, wrapping round
  for (int k = 1; k <= n; ++k)
    if (seen((top + k) % n)) {
      next = (top + k) % n;
      break;
    }
  result.target_moved = cfg.target >= 0 && !seen(cfg.target);
  result.target = cfg.target >= 0 && !result.target_moved ? cfg.target : next;
  result.information = AnalyzeInformation(values, alpha, result.target, scope);
  result.same_output_vertices = SameOutputVerticesIn(values, alpha, scope);
  result.contributions = Contributions(values, alpha);
  result.contributions2 = Contributions(values, result.information.collision.alpha2);
  // Weight against contribution (contribution.h): the head's rows of W_O start at the sum of the
  // earlier heads' widths.
  int head_row = 0;
  for (std::size_t k = 0; k < h && k < result.mha.heads.size(); ++k)
    head_row += static_cast<int>(result.mha.heads[k].V.cols());
  result.contribution = ComputeContributions(tr, cfg.query, result.projections.W_O, head_row);
}

MatF VectorPoints(const AttentionTrace<float>& tr, int query) {
  const Eigen::Index n = tr.V.rows();
  MatF pts(2 * n + 1, tr.V.cols());                                            // (2N + 1, Dv)
  pts.topRows(n) = tr.V;                                                       // (N, Dv) v_i
  pts.middleRows(n, n) = tr.weighted_values[static_cast<std::size_t>(query)];  // alpha_i v_i
  pts.bottomRows(1) = tr.output.row(query);                                    // (1, Dv) A
  return pts;
}

StepTable MakeStepTable(const AttentionTrace<float>& trace, const std::vector<Token>& tokens,
                        int query) {
  StepTable table;
  table.query = query;
  const int n = static_cast<int>(trace.weights.rows());
  if (query < 0 || query >= n || static_cast<int>(trace.weighted_values.size()) != n) {
    return table;  // no rows: nothing to show for a query that is not there
  }
  const std::size_t q = static_cast<std::size_t>(query);
  table.row_max = trace.row_max(query);
  table.exp_sum = trace.row_sum(query);
  table.entropy = trace.entropy.size() == n ? trace.entropy(query) : 0.0f;
  table.weight_sum = 0;
  for (Eigen::Index i = 0; i < trace.weights.cols(); ++i) {
    table.weight_sum += trace.weights(query, i);  // in order
  }
  const bool has_mask = trace.mask.rows() == n && trace.mask.cols() == trace.weights.cols();
  table.rows.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    StepRow& row = table.rows[static_cast<std::size_t>(i)];
    row.token = static_cast<std::size_t>(i) < tokens.size()
                    ? tokens[static_cast<std::size_t>(i)].text
                    : std::string();
    row.score = trace.scores(query, i);
    row.scaled = trace.scaled(query, i);
    row.exp = trace.exps(query, i);
    row.weight = trace.weights(query, i);
    row.masked = has_mask && !trace.mask(query, i);
    row.weighted = trace.weighted_values[q].row(i).transpose();  // (Dv)
  }
  table.output = trace.output.row(query).transpose();  // (Dv)
  return table;
}

constexpr Named<Projection> kProjectionNames[] = {
    {Projection::kIdentity, "identity"}, {Projection::kRandom, "random"}, {Projection::kModel, "model"}};

const char* ProjectionName(Projection p) { return NameIn(kProjectionNames, p); }
bool ParseProjection(const std::string& name, Projection* out) { return ParseIn(kProjectionNames, name, out); }

}  // namespace attn
