// The normalization room (normalization.h): the experiments, their slices of Tick, their JSON.
#include "api/fields_json.h"
#include "api/train_json.h"
#include "app/normalization/normalization.h"

#include <chrono>

namespace app {

bool Normalization::Step() {
  Normalization& n = *this;
  if (n.computed) return false;
  // One experiment per call (a frame each on the page): the longest takes ~0.2 s in wasm.
  switch (n.stage) {
    case 0:
      n.d_ks = {1, 2, 4, 8, 16, 32, 64, 128, 256};
      n.keys = 16;
      n.d_v = 16;
      n.samples = 2000;
      n.saturation_samples = 400;
      n.variance = attn::ScoreVarianceExperiment(n.d_ks, n.samples, 1);
      break;
    case 1:
      n.saturation = attn::SoftmaxSaturationExperiment(n.d_ks, n.keys, n.saturation_samples, 2);
      break;
    default:
      n.magnitudes = {0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100};
      n.normalizers = {attn::Normalizer::kSoftmax, attn::Normalizer::kSparsemax, attn::Normalizer::kReluNorm,
                       attn::Normalizer::kSigmoid, attn::Normalizer::kNone};
      n.output_norm = attn::OutputNormExperiment(n.magnitudes, n.normalizers, n.keys, n.d_v, n.saturation_samples, 3);
      n.computed = true;
      break;
  }
  ++n.stage;
  return !n.computed;
}

void Normalization::Ensure() {
  while (Step()) {
  }
}

bool Normalization::StartCurves(const attn::api::LabState& lab, int seeds, int steps, std::string* error) {
  Normalization& n = *this;
  attn::TrainConfig base = lab.train.config;
  base.example = ResolveExample(lab);
  // The standard comparison (its last curve, softmax ÷√d_k at the base d_k, is the reference).
  if (!n.curves.Start(attn::DefaultCurveSpecs(base), seeds, steps, error)) {
    n.curves_error = *error;
    return false;
  }
  n.curve_seeds = seeds;
  n.curve_steps = steps;
  n.curves_base = base;
  n.curves_started = true;
  n.curves_running = true;
  n.curves_error.clear();
  return true;
}

void Normalization::TickCurves(double budget_ms) {
  Normalization& n = *this;
  if (!n.curves_running) return;
  const auto t0 = std::chrono::steady_clock::now();
  auto ms = [&] { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); };
  while (ms() < budget_ms)
    if (!n.curves.Advance(4)) {
      n.curves_running = false;
      break;
    }
}


// ---- the page API ------------------------------------------------------------------------------

std::string Normalization::NormalizationJson() {
  Ensure();
  const Normalization& n = *this;
  Json out = {{"ok", true},
              {"scoreVariance", attn::api::ScoreVarianceToJson(n.variance)},
              {"saturation", attn::api::SaturationToJson(n.saturation)},
              {"outputNorm", attn::api::OutputNormToJson(n.output_norm, n.normalizers)},
              {"keys", n.keys}, {"dV", n.d_v}, {"samples", n.samples},
              {"saturationSamples", n.saturation_samples}};
  if (n.curves_started) {
    out["curves"] = attn::api::CurvesToJson(n.curves);
    out["curves"]["running"] = n.curves_running;
    out["curves"]["seeds"] = n.curve_seeds;
  } else {
    out["curves"] = nullptr;
  }
  return attn::api::Dump(out);
}

namespace {
// runNormalization's options: the page runs at most kMaxPageCurveSeeds × kMaxPageCurveSteps.
struct CurveOptions {
  int seeds = 3, steps = 200;
};
const attn::FieldTable<CurveOptions>& CurveOptionFields() {
  static const attn::FieldTable<CurveOptions> table = {
      attn::IntegerField<CurveOptions>("seeds", &CurveOptions::seeds, 1, kMaxPageCurveSeeds, "seeds per curve"),
      attn::IntegerField<CurveOptions>("steps", &CurveOptions::steps, 1, kMaxPageCurveSteps, "steps per run"),
  };
  return table;
}
}  // namespace

std::string Normalization::RunCurvesJson(const attn::api::LabState& lab, const std::string& json_options) {
  Json opts = attn::api::ParseJson(json_options);
  auto refuse = [](const std::string& field, const std::string& error) {
    return attn::api::Dump(attn::api::Obj({{"ok", false}, {"field", field}, {"error", error}}));
  };
  if (opts.is_discarded() || !opts.is_object())
    return refuse("", "expected an object such as {seeds: 3, steps: 300}, got " +
                          (opts.is_discarded() ? std::string("text that is not JSON") : attn::api::DescribeJson(opts)));
  CurveOptions o{curve_seeds, curve_steps};
  for (const auto& [key, v] : opts.items()) {
    const attn::Field<CurveOptions>* f = attn::FindField(CurveOptionFields(), key);
    if (!f) return refuse(key, attn::api::ShownName(key) + ": unknown field (expected one of " + attn::api::FieldNames(CurveOptionFields()) + ")");
    std::string error;
    if (attn::api::ApplyJsonField(*f, o, v, key, &error) != attn::api::FieldStatus::kOk) return refuse(key, error);
  }
  std::string error;
  if (!StartCurves(lab, o.seeds, o.steps, &error)) return refuse("", error);
  return attn::api::Dump(attn::api::Obj({{"ok", true}, {"seeds", o.seeds}, {"steps", o.steps}}));
}

// ---- the room (room.h) ------------------------------------------------------------------------
bool Normalization::SharesBudget(const attn::api::LabState&) const { return curves_running; }
void Normalization::Tick(const RoomContext&, double budget_ms, FrameWork*) { TickCurves(budget_ms); }
bool Normalization::NeedsFrames(const attn::api::LabState&, const LabView&) const {
  return curves_running || (stage > 0 && !computed);
}
void Normalization::Publish(LabView* view) const {
  view->normalization.computed = computed;
  view->normalization.variance = &variance;
  view->normalization.saturation = &saturation;
  view->normalization.normalizers = &normalizers;
  view->normalization.output_norm = &output_norm;
  view->normalization.keys = keys;
}

}  // namespace app
