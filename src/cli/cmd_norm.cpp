// attnlab norm [--experiment variance|saturation|output|all] [--seed S] [--samples N]: the
// normalization experiments of engine/training/normexp.h as JSON.
#include "cli/common.h"
#include "engine/base/common_fields.h"
#include "engine/lab/lab.h"  // kMaxSeed
#include "engine/training/normexp.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <memory>

namespace attn::cli {

namespace {

// attnlab norm: the points of each experiment (the samples and the seed are options).
const std::vector<int> kNormDks = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
constexpr int kNormKeys = 16;  // M, keys per row (saturation and output)
constexpr int kNormDv = 16;    // the output experiment's d_v
const std::vector<double> kNormMagnitudes = {0, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64};
const std::vector<Normalizer> kNormNormalizers = {
    Normalizer::kSoftmax, Normalizer::kSparsemax, Normalizer::kReluNorm,
    Normalizer::kSigmoid, Normalizer::kNone,      Normalizer::kHardmax};
constexpr int kDefaultNormSamples = 2000;
constexpr int kMaxCliNormSamples = 100000;  // all three at 2000 samples take ~1 s; at 100000 ~45 s

// One point of an experiment: {"key": number, ...} in the given order.
struct Field {
  const char* name;
  double value;
};
void AppendPoint(std::string* out, const std::vector<Field>& fields) {
  *out += "{";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    *out += std::string(i ? ", \"" : "\"") + fields[i].name + "\": ";
    AppendJsonNumber(out, fields[i].value);
  }
  *out += "}";
}

int RunNorm(const std::string& experiment, std::uint64_t seed, int samples) {
  const bool all = experiment == "all";
  std::string out = "{\"seed\": " + std::to_string(seed) + ", \"samples\": " + std::to_string(samples);
  bool sound = true;  // every number finite, every point there
  auto check = [&](double x) { sound = sound && std::isfinite(x); return x; };
  if (all || experiment == "variance") {
    const auto points = ScoreVarianceExperiment(kNormDks, samples, seed);
    out += ", \"variance\": {\"points\": [";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      if (i) out += ", ";
      AppendPoint(&out, {{"dK", static_cast<double>(p.d_k)}, {"varUnscaled", check(p.var_unscaled)},
                         {"varScaled", check(p.var_scaled)}, {"analyticUnscaled", p.analytic_unscaled},
                         {"analyticScaled", p.analytic_scaled}});
    }
    out += "]}";
    sound = sound && points.size() == kNormDks.size();
  }
  if (all || experiment == "saturation") {
    const auto points = SoftmaxSaturationExperiment(kNormDks, kNormKeys, samples, seed);
    out += ", \"saturation\": {\"keys\": " + std::to_string(kNormKeys) + ", \"logKeys\": ";
    AppendShortest(&out, std::log(static_cast<double>(kNormKeys)));
    out += ", \"points\": [";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      if (i) out += ", ";
      AppendPoint(&out, {{"dK", static_cast<double>(p.d_k)},
                         {"entropyUnscaled", check(p.entropy_unscaled)},
                         {"entropyScaled", check(p.entropy_scaled)},
                         {"gradUnscaled", check(p.grad_unscaled)},
                         {"gradScaled", check(p.grad_scaled)},
                         {"maxWeightUnscaled", check(p.max_weight_unscaled)},
                         {"maxWeightScaled", check(p.max_weight_scaled)}});
    }
    out += "]}";
    sound = sound && points.size() == kNormDks.size();
  }
  if (all || experiment == "output") {
    const auto points =
        OutputNormExperiment(kNormMagnitudes, kNormNormalizers, kNormKeys, kNormDv, samples, seed);
    out += ", \"output\": {\"keys\": " + std::to_string(kNormKeys) + ", \"dV\": " + std::to_string(kNormDv) +
           ", \"normalizers\": [";
    for (std::size_t i = 0; i < kNormNormalizers.size(); ++i)
      out += std::string(i ? ", \"" : "\"") + NormalizerName(kNormNormalizers[i]) + "\"";
    out += "], \"points\": [";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      out += i ? ", {\"magnitude\": " : "{\"magnitude\": ";
      AppendShortest(&out, p.magnitude);
      out += ", \"norm\": [";
      for (std::size_t n = 0; n < p.norm.size(); ++n) {
        if (n) out += ", ";
        AppendJsonNumber(&out, check(p.norm[n]));
      }
      out += "], \"bound\": ";
      AppendJsonNumber(&out, check(p.bound));
      out += "}";
    }
    out += "]}";
    sound = sound && points.size() == kNormMagnitudes.size();
  }
  if (!sound) return InternalError("norm", "the engine gave no finite answer");
  std::cout << out << "}\n";
  return Finish("norm", 0);
}

const char* const kNormHelp = R"(Output (stdout): one JSON object {"seed", "samples", and per experiment asked for:
  "variance":   {"points": [{"dK", "varUnscaled", "varScaled", "analyticUnscaled" (= dK),
                 "analyticScaled" (= 1)}]}   mean of s² over `samples` pairs, s = q·k,
                 q, k ~ N(0, I_dK), and of (s/sqrt(dK))²
  "saturation": {"keys": 16, "logKeys": log 16, "points": [{"dK", "entropyUnscaled",
                 "entropyScaled", "gradUnscaled", "gradScaled", "maxWeightUnscaled",
                 "maxWeightScaled"}]}   softmax rows of 16 scores q·k_j: mean entropy (nats), mean
                 norm of the gradient at the scores for g ~ N(0, I), mean largest weight
  "output":     {"keys": 16, "dV": 16, "normalizers": [6 names], "points": [{"magnitude": c,
                 "norm": [mean ||normalize(c z) V|| per normalizer], "bound": mean max_i ||v_i||}]}
                 z ~ N(0, I_16), V ~ N(0, I) 16×16, the same draws for every c
dK = 1, 2, 4, ..., 512; c = 0, 0.25, 0.5, 1, 2, 4, ..., 64. The engine's own softmax and
normalizers; a seed gives the same numbers everywhere.)";


}  // namespace

namespace {
struct NormOptions {
  std::string experiment = "all";
  long long seed = 1;
  int samples = kDefaultNormSamples;
};

// The options' rows: the same seed row as the lab's state, and the sample count.
const FieldTable<NormOptions>& NormFields() {
  static const FieldTable<NormOptions> table = {
      SeedField<NormOptions>(&NormOptions::seed, "seed of every draw"),
      IntegerField<NormOptions>("samples", &NormOptions::samples, 1, kMaxCliNormSamples, "samples per point"),
  };
  return table;
}
}  // namespace

Command RegisterNorm(CLI::App& app) {
  auto o = std::make_shared<NormOptions>();
  CLI::App* norm = app.add_subcommand(
      "norm", "The normalization experiments: score variance, softmax saturation, output norm");
  norm->add_option("--experiment", o->experiment, "variance, saturation, output or all (default)")
      ->check(CLI::IsMember({"variance", "saturation", "output", "all"}));
  auto describe = [](const attn::Field<NormOptions>& f) {
    return f.help + "; " + ExpectedText(f.rule) + ", default " + DefaultText(f);
  };
  const attn::Field<NormOptions>& seed = *FindField(NormFields(), "seed");
  const attn::Field<NormOptions>& samples = *FindField(NormFields(), "samples");
  norm->add_option("--seed", o->seed, describe(seed))->check(RuleCheck(seed.rule));
  norm->add_option("--samples", o->samples, describe(samples))->check(RuleCheck(samples.rule));
  norm->footer(kNormHelp);
  return {norm, [o] { return RunNorm(o->experiment, static_cast<std::uint64_t>(o->seed), o->samples); }};
}

}  // namespace attn::cli
