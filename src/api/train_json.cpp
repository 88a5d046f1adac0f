#include "api/train_json.h"

#include <cmath>

namespace attn::api {

namespace {

// JSON has no NaN or infinity: such a number becomes null.
Json Number(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

Json Numbers(const std::vector<double>& v) {
  Json a = Json::array();
  for (double x : v) a.push_back(Number(x));
  return a;
}

Json MatrixD(const MatD& m) {
  Json rows = Json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    Json row = Json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(Number(m(i, j)));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

Json RunToJson(const Trainer& trainer, const ExampleView& view, int query) {
  Json out;
  out["step"] = trainer.step();
  const auto& history = trainer.history();
  if (history.empty()) {
    out["loss"] = out["accuracy"] = out["attentionOnSource"] = out["gradNorm"] = nullptr;
  } else {
    const StepMetrics& m = history.back();
    out["loss"] = Number(m.loss);
    out["accuracy"] = Number(m.accuracy);
    out["attentionOnSource"] = Number(m.attention_on_source);
    out["gradNorm"] = Obj({{"WQ", Number(m.grad_norm_q)}, {"WK", Number(m.grad_norm_k)}, {"WV", Number(m.grad_norm_v)},
                           {"WO", Number(m.grad_norm_o)}, {"total", Number(m.grad_norm)}});
  }
  Json weights = Json::array();
  for (const auto& head : view.forward.attn.heads) weights.push_back(MatrixD(head.weights));
  out["exampleWeights"] = weights;
  out["tokens"] = view.tokens;
  out["query"] = query;
  Json predicted = Json::array();
  const auto& vocab = trainer.problem().task().vocab;
  for (std::size_t i = 0; i < view.predicted.size(); ++i) {
    const int id = view.predicted[i];
    predicted.push_back(id >= 0 && id < static_cast<int>(vocab.size()) ? Json(vocab[id]) : Json(nullptr));
  }
  out["predicted"] = predicted;
  out["diverged"] = trainer.diverged();
  out["message"] = trainer.message();
  return out;
}

Json HistoryToJson(const Trainer& trainer) {
  Json steps = Json::array(), loss = Json::array(), acc = Json::array(), src = Json::array(), q = Json::array(),
       k = Json::array(), v = Json::array(), o = Json::array(), total = Json::array();
  for (const StepMetrics& m : trainer.history()) {
    steps.push_back(m.step);
    loss.push_back(Number(m.loss));
    acc.push_back(Number(m.accuracy));
    src.push_back(Number(m.attention_on_source));
    q.push_back(Number(m.grad_norm_q));
    k.push_back(Number(m.grad_norm_k));
    v.push_back(Number(m.grad_norm_v));
    o.push_back(Number(m.grad_norm_o));
    total.push_back(Number(m.grad_norm));
  }
  return Obj({{"steps", steps}, {"loss", loss}, {"accuracy", acc}, {"attentionOnSource", src},
              {"gradNorm", Obj({{"WQ", q}, {"WK", k}, {"WV", v}, {"WO", o}, {"total", total}})},
              {"diverged", trainer.diverged()}, {"message", trainer.message()}});
}

Json ScoreVarianceToJson(const std::vector<ScoreVariancePoint>& points) {
  Json a = Json::array();
  for (const auto& p : points)
    a.push_back(Obj({{"dK", p.d_k}, {"varUnscaled", Number(p.var_unscaled)}, {"varScaled", Number(p.var_scaled)},
                     {"analyticUnscaled", Number(p.analytic_unscaled)}, {"analyticScaled", Number(p.analytic_scaled)}}));
  return a;
}

Json SaturationToJson(const std::vector<SaturationPoint>& points) {
  Json a = Json::array();
  for (const auto& p : points)
    a.push_back(Obj({{"dK", p.d_k}, {"entropyUnscaled", Number(p.entropy_unscaled)},
                     {"entropyScaled", Number(p.entropy_scaled)}, {"gradUnscaled", Number(p.grad_unscaled)},
                     {"gradScaled", Number(p.grad_scaled)}, {"maxWeightUnscaled", Number(p.max_weight_unscaled)},
                     {"maxWeightScaled", Number(p.max_weight_scaled)}}));
  return a;
}

Json OutputNormToJson(const std::vector<OutputNormPoint>& points, const std::vector<Normalizer>& normalizers) {
  Json names = Json::array();
  for (Normalizer n : normalizers) names.push_back(NormalizerName(n));
  Json a = Json::array();
  for (const auto& p : points) a.push_back(Obj({{"magnitude", Number(p.magnitude)}, {"norm", Numbers(p.norm)}, {"bound", Number(p.bound)}}));
  return Obj({{"normalizers", names}, {"points", a}});
}

Json CurvesToJson(const CurveExperiment& curves) {
  Json series = Json::array();
  for (const CurveSeries& s : curves.series())
    series.push_back(Obj({{"label", s.label},
                          {"normalizer", NormalizerName(s.config.normalizer)},
                          {"scaled", s.config.scaled},
                          {"dK", s.config.d_k},
                          {"lossMean", Numbers(s.loss_mean)}, {"lossMin", Numbers(s.loss_min)}, {"lossMax", Numbers(s.loss_max)},
                          {"accMean", Numbers(s.acc_mean)}, {"accMin", Numbers(s.acc_min)}, {"accMax", Numbers(s.acc_max)},
                          {"attnMean", Numbers(s.attn_mean)},
                          {"diverged", s.diverged}, {"message", s.message}}));
  return Obj({{"steps", curves.steps()}, {"progress", Number(curves.progress())}, {"done", curves.done()}, {"series", series}});
}

}  // namespace attn::api
