// The lesson's readout: the numbers under each step's answer, read from the engine's results in
// what the rooms publish (lab_view.h: the lab, the training run, the normalization experiments,
// the trained model);
// the few small computations the steps show are the engine's (engine/lab/lab_readout.h).
#include "app/lesson/lesson.h"

#include "app/lab_view.h"
#include "engine/lab/lab_readout.h"
#include "text/lesson_strings.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace app {

namespace {

std::string Format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

namespace tr = text::tr;

// A line in both languages from a format of the text tables (text/lesson_strings.h).
template <class... A>
LessonLine Line(const text::Text& t, A... args) {
  return {Format(t.en, args...), Format(t.ru, args...)};
}
// A line of numbers and the learner's words alone: the same format in both languages.
template <class... A>
LessonLine Both(const char* fmt, A... args) {
  return {Format(fmt, args...), Format(fmt, args...)};
}

std::string Tok(const std::vector<attn::Token>& tokens, int i) {
  return i >= 0 && i < static_cast<int>(tokens.size()) ? "«" + tokens[i].text + "»" : "?";
}

void QueryRows(const LabView& v, std::vector<LessonLine>& out) {
  const attn::LabResult& r = *v.attention.result;
  if (!r.error.ok()) return;
  const std::string q = Tok(r.tokens, r.steps.query);
  out.push_back(Line(tr::kReadoutQuery,
                     q.c_str(), v.lab->config.head + 1));
  for (std::size_t i = 0; i < r.steps.rows.size(); ++i) {
    const attn::StepRow& row = r.steps.rows[i];
    out.push_back(Both("  %s: %.3f;  %.3f;  %.3f",
                       ("«" + row.token + "»").c_str(), row.score, row.scaled, row.weight));
  }
}

// The training example's query row (run A): the weights, and the gradient into each weight.
void TrainingRows(const LabView& v, std::vector<LessonLine>& out, bool gradients) {
  const attn::ExampleView* example = v.training.example;
  if (!example || example->forward.attn.heads.empty()) return;
  const int q = v.training.query;
  const auto& w = example->forward.attn.heads[0].weights;
  if (q < 0 || q >= w.rows()) return;
  out.push_back(Line(tr::kReadoutTrained,
                     v.training.step, example->tokens[q].c_str()));
  out.push_back(Line(gradients ? tr::kReadoutWordGrad : tr::kReadoutWord));
  const attn::VecD via_values = attn::WeightGradientFromValues(*example, 0, q);
  for (Eigen::Index j = 0; j < w.cols(); ++j) {
    const std::string t = "«" + example->tokens[j] + "»";
    if (gradients && j < via_values.size())
      out.push_back(Both("  %s: %.3f;  %.3g;  %.3g", t.c_str(), w(q, j),
                         example->grads.heads[0].dweights(q, j), via_values(j)));
    else
      out.push_back(Both("  %s: %.3f", t.c_str(), w(q, j)));
  }
}

// Step 7: the trained model's weight on the token itself on this sentence (every layer and head,
// the rows t >= 1: row 0 can only attend to itself), against q = k = x on the lab's words.
// The attribution of the model's next word: the inspect room's lines (app/inspect: written where
// the model's code is, so that the default page's build carries none of it).
void AttributionRows(const LabView& v, std::vector<LessonLine>& out) {
  if (!v.model.loaded) {
    out.push_back(Line(tr::kReadoutModelLoading));
    return;
  }
  if (!v.inspect.readout || v.inspect.readout->empty()) {
    out.push_back(Line(tr::kReadoutAttrComputing));
    return;
  }
  for (const auto& [en, ru] : *v.inspect.readout) out.push_back({en, ru});
}

void ModelSelfRows(const LabView& v, std::vector<LessonLine>& out) {
  if (!v.model.loaded) {
    out.push_back(Line(tr::kReadoutModelLoading));
    return;
  }
  const auto& blocks = v.attention.model_result->acts.blocks;
  double sum = 0, even = 0;
  int rows = 0;
  std::vector<double> per_layer;
  for (const auto& block : blocks) {
    double layer_sum = 0;
    int layer_rows = 0;
    for (const auto& h : block.attn.heads) {
      for (Eigen::Index t = 1; t < h.weights.rows(); ++t) {
        layer_sum += h.weights(t, t);
        even += 1.0 / static_cast<double>(t + 1);
        ++layer_rows;
      }
    }
    per_layer.push_back(layer_rows > 0 ? layer_sum / layer_rows : 0.0);
    sum += layer_sum;
    rows += layer_rows;
  }
  if (rows == 0) return;
  int heads = 0;
  for (const auto& block : blocks) heads += static_cast<int>(block.attn.heads.size());
  out.push_back(Line(tr::kReadoutSelfMean,
                     heads, sum / rows, even / rows));
  for (std::size_t l = 0; l < per_layer.size(); ++l)
    out.push_back(Line(tr::kReadoutLayer, static_cast<int>(l), per_layer[l]));
  attn::LabConfig c;  // the lab's defaults: identity projections, q = k = v = x
  c.sentence = v.lab->config.sentence;
  const attn::LabResult id = attn::ComputeLab(c);
  if (!id.error.ok()) return;
  double diag = 0;
  const Eigen::Index n = id.trace.weights.rows();
  for (Eigen::Index i = 0; i < n; ++i) diag += id.trace.weights(i, i);
  out.push_back(Line(tr::kReadoutSelfIdentity,
                     static_cast<int>(n), diag / static_cast<double>(n)));
}

// Step 4's second demonstration: the shown head of the trained model on a repeated sentence,
// each repeated token's weight on the token after its earlier copy (engine/lab/lab_readout.h): an
// induction head's q·k points there; a head that only looks back one token does not.
void InductionReadout(const LabView& v, std::vector<LessonLine>& out) {
  if (!v.model.loaded) {
    out.push_back(Line(tr::kReadoutModelLoading));
    return;
  }
  const attn::model::ModelLabResult& m = *v.attention.model_result;
  const auto* block = attn::model::ChosenBlock(m.acts, v.lab->config.layer);
  const int head = v.lab->config.head;
  if (!block || head < 0 || head >= static_cast<int>(block->attn.heads.size())) return;
  const std::vector<attn::InductionRow> rows =
      attn::InductionRows(m.ids, block->attn.heads[static_cast<std::size_t>(head)].weights);
  auto shown = [&](int t) { return "«" + m.texts[static_cast<std::size_t>(t)] + "»"; };
  out.push_back(Line(tr::kReadoutInduction,
                     v.lab->config.layer, head));
  if (rows.empty()) {
    out.push_back(Line(tr::kReadoutNoRepeat));
    return;
  }
  double sum = 0, even = 0;
  for (const attn::InductionRow& r : rows) {
    out.push_back(Both("  %s → %s %.2f  (%s %.2f)", shown(r.query).c_str(),
                       shown(r.after_copy).c_str(), r.weight_after_copy, shown(r.largest).c_str(), r.weight_largest));
    sum += r.weight_after_copy;
    even += r.spread_evenly;
  }
  const double n = static_cast<double>(rows.size());
  out.push_back(Line(tr::kReadoutInductionMean,
                     static_cast<int>(rows.size()), sum / n, even / n));
}

std::string VecText(const attn::VecD& v) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (i ? ", " : "") + Format("%.2f", v(i));
  return out + "]";
}

}  // namespace

std::vector<LessonLine> LessonReadout(const Lesson& lesson, const LabView& v) {
  std::vector<LessonLine> out;
  const LessonStep* step = CurrentLessonStep(lesson, *v.lab);
  if (!step || !LessonRevealed(lesson, *v.lab)) return out;
  const attn::LabResult& r = *v.attention.result;
  switch (step->numbers) {  // 1 + the readout's index in api::kLessonReadouts
    case 1:
      QueryRows(v, out);
      if (r.error.ok() && r.steps.query < static_cast<int>(r.steps.rows.size())) {
        float other = -1e30f;
        for (std::size_t i = 0; i < r.steps.rows.size(); ++i)
          if (static_cast<int>(i) != r.steps.query) other = std::max(other, r.steps.rows[i].score);
        out.push_back(Line(tr::kReadoutSelfScore,
                           r.steps.rows[r.steps.query].score, other));
      }
      if (v.training.step > 0) TrainingRows(v, out, false);
      break;
    case 2: {
      if (!r.error.ok()) break;
      const attn::InformationReport& info = r.information;
      out.push_back(Line(tr::kReadoutFamily,
                         static_cast<int>(r.tokens.size()), r.trace.d_v, info.info.affine_rank,
                         info.info.same_output_dim));
      const attn::VecD alpha = r.trace.weights.row(r.steps.query).transpose().cast<double>();
      out.push_back(Line(tr::kReadoutScenario1, VecText(alpha).c_str()));
      out.push_back(Line(tr::kReadoutScenario2,
                         VecText(info.collision.alpha2).c_str(), Tok(r.tokens, r.target).c_str()));
      out.push_back(Both("max |A − A′| = %.1e", info.collision.max_output_diff));
      break;
    }
    case 3: {
      if (!r.error.ok()) break;
      const int q = r.steps.query;
      out.push_back(Line(tr::kReadoutHeads,
                         static_cast<int>(r.mha.heads.size()), r.trace.d_v, static_cast<int>(r.mha.concat.cols()),
                         static_cast<int>(r.mha.output.cols())));
      for (std::size_t h = 0; h < r.mha.heads.size(); ++h) {
        Eigen::Index top = 0;
        r.mha.heads[h].weights.row(q).maxCoeff(&top);
        out.push_back(Line(tr::kReadoutHeadTop, static_cast<int>(h) + 1,
                           Tok(r.tokens, q).c_str(), Tok(r.tokens, static_cast<int>(top)).c_str(),
                           r.mha.heads[h].weights(q, top)));
      }
      out.push_back(Both("x      = %s", VecText(r.trace.X.row(q).transpose().cast<double>()).c_str()));
      out.push_back(Both("x + W_O·[A¹; …] = %s", VecText(attn::ResidualOutput(r)).c_str()));
      if (v.attention.probe_started)
        out.push_back(Line(tr::kReadoutProbe,
                           static_cast<int>(v.attention.probe->size()), v.attention.probe_total));
      for (const ProbePoint& p : *v.attention.probe)
        out.push_back(Line(tr::kReadoutProbeRow, p.tokens, p.d_v, p.heads,
                           100 * p.accuracy, 100 * p.chance));
      break;
    }
    case 4: {
      if (v.lab->config.projection == attn::Projection::kModel) {  // the second demonstration
        InductionReadout(v, out);
        break;
      }
      if (!r.error.ok()) break;
      const attn::VecD shifted = attn::ShiftedWeights(r, v.lab->config.normalizer, 5.0);
      out.push_back(Both("m = max sᵢ = %.3f", r.steps.row_max));
      out.push_back(Line(tr::kReadoutShift));
      double diff = 0;
      for (std::size_t i = 0; i < r.steps.rows.size() && static_cast<Eigen::Index>(i) < shifted.size(); ++i) {
        const attn::StepRow& row = r.steps.rows[i];
        diff = std::max(diff, std::abs(shifted(i) - row.weight));
        out.push_back(Both("  %s: %.3f → %.3f;  %.4f → %.4f",
                           ("«" + row.token + "»").c_str(), row.scaled, row.scaled + 5.0, row.weight, shifted(i)));
      }
      out.push_back(Line(tr::kReadoutShiftChange, diff));
      // Weight against contribution (issue 23): a weight is a share, not what the word did to A.
      const attn::ContributionTable& c = r.contribution;
      if (!c.keys.empty() && c.keys.size() <= r.tokens.size()) {
        out.push_back(Line(tr::kReadoutContributions));
        for (std::size_t i = 0; i < c.keys.size(); ++i)
          out.push_back(Both("  %s: α = %.3f, ‖αv‖ = %.3f, ‖A − A₋ᵢ‖ = %.3f",
                             Tok(r.tokens, static_cast<int>(i)).c_str(), c.keys[i].weight, c.keys[i].value_norm,
                             c.keys[i].removal));
      }
      break;
    }
    case 5: TrainingRows(v, out, true); break;
    case 6: {
      const LabView::NormalizationPart& n = v.normalization;
      if (!n.computed) break;
      if (!n.output_norm->empty() && !n.normalizers->empty()) {
        const attn::OutputNormPoint& p = n.output_norm->back();
        const attn::OutputNormPoint& p0 = n.output_norm->front();
        for (std::size_t k = 0; k < n.normalizers->size() && k < p.norm.size(); ++k) {
          const attn::Normalizer z = (*n.normalizers)[k];
          if (z != attn::Normalizer::kSoftmax && z != attn::Normalizer::kNone) continue;
          out.push_back(Line(tr::kReadoutNorm,
                             attn::NormalizerName(z), p0.norm[k], p0.magnitude, p.norm[k], p.magnitude));
        }
      }
      if (!n.output_norm->empty())
        out.push_back(Line(tr::kReadoutBound,
                           n.output_norm->back().bound));
      for (const attn::ScoreVariancePoint& var : *n.variance)
        if (var.d_k == 64)
          out.push_back(Line(tr::kReadoutVariance,
                             var.var_unscaled, var.var_scaled));
      for (const attn::SaturationPoint& p : *n.saturation)
        if (p.d_k == 4 || p.d_k == 64)
          out.push_back(Line(tr::kReadoutEntropy,
                             p.d_k, p.entropy_unscaled, p.entropy_scaled));
      if (!n.saturation->empty())
        out.push_back(Line(tr::kReadoutUniform, n.keys,
                           n.keys, std::log(static_cast<double>(n.keys))));
      break;
    }
    case 7: ModelSelfRows(v, out); break;
    case 9: AttributionRows(v, out); break;
    case 8: {
      if (r.error.ok())
        out.push_back(Line(tr::kReadoutSum, Tok(r.tokens, r.steps.query).c_str(),
                           r.steps.weight_sum));
      const std::vector<LessonStep>& steps = lesson.doc->steps;
      int answered = 0, right = 0;
      std::string where;
      for (int k = 1; k <= static_cast<int>(steps.size()); ++k) {
        const int p = LessonPrediction(*v.lab, k);
        if (p < 0 || !steps[k - 1].has_question) continue;
        ++answered;
        right += p == steps[k - 1].right ? 1 : 0;
        if (p == steps[k - 1].right) where += (where.empty() ? "" : ", ") + std::to_string(k);
      }
      out.push_back(Line(tr::kReadoutPredictions, right, answered));
      if (!where.empty()) out.push_back(Line(tr::kReadoutRightAt, where.c_str()));
      break;
    }
    default: break;
  }
  return out;
}

}  // namespace app
