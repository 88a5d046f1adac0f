#include "app/app.h"

#include "api/train_json.h"
#include "app/lesson.h"
#include "engine/same_output.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace app {

namespace {

void Notify(const AppState& s) {
  if (s.on_state_changed) s.on_state_changed(StateJson(s));
}

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// ---- training ---------------------------------------------------------------------------

// The example the runs use: the learner's, or when empty the default one in the interface
// language (the verb_object task knows «я люблю суши» and "I love sushi").
std::string ResolveExample(const attn::api::LabState& lab) {
  const attn::TrainConfig& c = lab.train.config;
  if (!c.example.empty() || c.task != attn::TaskKind::kVerbObject) return c.example;
  const attn::Task task = attn::MakeTask(c.task, c.length);
  const std::string wanted = lab.lang == "ru" ? "я люблю суши" : "I love sushi";
  attn::Example ex;
  std::string error;
  return attn::LabelExample(task, wanted, &ex, &error) ? wanted : std::string();
}

// lab.train.query against the example: a valid row, or the first row that has a right key.
int ResolveQuery(const attn::api::LabState& lab, const attn::Example& ex) {
  const int n = static_cast<int>(ex.tokens.size());
  if (lab.train.query >= 0 && lab.train.query < n) return lab.train.query;
  for (int i = 0; i < n && i < static_cast<int>(ex.sources.size()); ++i)
    if (ex.sources[i] >= 0) return i;
  return 0;
}

void RefreshViews(AppState& s) {
  AppState::Training& t = s.training;
  if (t.a.trainer.ready()) {
    t.a.view = t.a.trainer.View();
    t.a.has_view = true;
  }
  if (t.compare && t.b.trainer.ready()) {
    t.b.view = t.b.trainer.View();
    t.b.has_view = true;
  }
}

// Builds runs A and B for `lab` into `out`; false with a message when the engine refuses.
bool BuildRuns(const attn::api::LabState& lab, AppState::Training& out, std::string* error) {
  attn::TrainConfig a = lab.train.config;
  a.example = ResolveExample(lab);
  out.a = AppState::TrainRun{};
  out.b = AppState::TrainRun{};
  attn::TrainError e;
  if (!out.a.trainer.Reset(a, &e)) {
    *error = e.message;
    return false;
  }
  attn::TrainConfig b;
  attn::api::CompareError compare_error;
  out.compare = attn::api::CompareConfig(lab.train.compare, a, &b, &compare_error);
  if (!out.compare && !compare_error.message.empty()) {
    *error = compare_error.message;
    return false;
  }
  if (out.compare && !out.b.trainer.Reset(b, &e)) {
    *error = "train.compare: " + e.message;
    return false;
  }
  out.query = ResolveQuery(lab, out.a.trainer.example());
  return true;
}

// One step of each live run (lockstep). Returns false when run A can go no further.
bool StepOnce(AppState& s) {
  AppState::Training& t = s.training;
  if (!t.a.trainer.ready() || t.a.trainer.diverged()) return false;
  const bool ok = t.a.trainer.Step();
  if (t.compare && t.b.trainer.ready() && !t.b.trainer.diverged()) t.b.trainer.Step();
  return ok;
}

// The example sentence run A watches, as text for the example box.
std::string ExampleText(const attn::Trainer& t) {
  if (!t.ready()) return "";
  return t.config().example.empty() ? t.task().default_example : t.config().example;
}

void StopPlaying(AppState& s) {
  s.training.run_to = 0;  // a long run stops with playing (divergence, the step cap)
  if (!s.lab.train.play) return;
  s.lab.train.play = false;
  Notify(s);
}

}  // namespace

void InitApp(AppState& s) {
  s.lab = attn::api::LabState{};
  s.sentence_edit = s.lab.config.sentence;
  s.result = ComputeResult(s, s.lab.config, &s.model_result);
  std::string error;
  if (BuildRuns(s.lab, s.training, &error)) RefreshViews(s);
  s.training.example_edit = ExampleText(s.training.a.trainer);
}

// Takes the new runs from `fresh`, keeping the interface's own fields (the example box).
static void AdoptRuns(AppState& s, AppState::Training&& fresh) {
  AppState::Training& t = s.training;
  t.a = std::move(fresh.a);
  t.b = std::move(fresh.b);
  t.compare = fresh.compare;
  t.query = fresh.query;
  t.stopped_at_cap = false;
  t.run_to = 0;
  RefreshViews(s);
}

void ResetTraining(AppState& s) {
  AppState::Training fresh;
  std::string error;
  if (!BuildRuns(s.lab, fresh, &error)) return;  // the settings were accepted: cannot happen
  AdoptRuns(s, std::move(fresh));
}

void StartRun(AppState& s, int steps) {
  AppState::Training& t = s.training;
  if (!t.a.trainer.ready() || t.a.trainer.diverged() || steps < 1) return;
  const int from = t.a.trainer.step();
  t.run_from = from;
  t.run_to = std::min(from + steps, kMaxPlaySteps);
  if (t.run_to <= from) t.run_to = 0;
}

void StopRun(AppState& s) { s.training.run_to = 0; }

void TrainSteps(AppState& s, int steps) {
  s.training.stopped_at_cap = false;
  for (int i = 0; i < steps; ++i)
    if (!StepOnce(s)) break;
  if (s.training.a.trainer.diverged()) StopPlaying(s);
  RefreshViews(s);
}

namespace {

// True when `a` and `b` give the same LabResult: every row of the lab's settings table is equal
// (training, language and view are not in it).
bool SameAttentionSettings(const attn::api::LabState& a, const attn::api::LabState& b) {
  return attn::SameFields(attn::LabFields(), a.config, b.config);
}

// True when runs A and B would train the same way: play, speed and query change only how the
// runs are stepped and shown, not what they learn.
bool SameTrainingSettings(const attn::api::TrainState& a, const attn::api::TrainState& b) {
  return attn::SameFields(attn::TrainFields(), a.config, b.config) && a.compare == b.compare;
}

}  // namespace

attn::api::PatchResult ApplyPatch(AppState& s, const Json& given, Source source) {
  // Entering a lesson step brings the step's settings (lesson.h); the patch's own fields win.
  const Json patch = WithLessonStep(s, given);
  const int previous_lesson = s.lab.lesson;
  attn::api::PatchResult r = attn::api::ApplyStatePatch(s.lab, patch);
  if (!r.ok) {
    s.has_refusal = true;
    s.refusal = r;
    if (source == Source::kExampleBox) {
      s.training.example_error = r.message;
      s.training.example_refusal = r;
    }
    return r;
  }
  // Validated input that the maths still refuses (e.g. overflowing scores) is refused too:
  // the panels always draw a finished, valid result. A patch that leaves the attention settings
  // as they were (training, language, view) keeps the result, and the weights the learner dragged.
  const bool lab_changed = !SameAttentionSettings(s.lab, r.state);
  attn::model::ModelLabResult model_result;
  attn::LabResult result = lab_changed ? ComputeResult(s, r.state.config, &model_result) : attn::LabResult{};
  // (Model mode before the files are there is accepted: the panels show the loading.)
  if (lab_changed && !result.error.ok() && result.error.code != attn::ConfigError::kModelNotLoaded) {
    r.ok = false;
    r.state = s.lab;
    r.api_error = attn::api::ApiError::kEngine;
    r.engine_error = result.error;
    r.field = result.error.field;
    r.message = result.error.message;
    s.has_refusal = true;
    s.refusal = r;
    return r;
  }
  // New training settings start the runs again (built first: a refusal keeps the old runs).
  // A new interface language changes the default example, but only before anything is trained.
  const bool train_changed = !SameTrainingSettings(s.lab.train, r.state.train);
  const bool lang_example = r.state.lang != s.lab.lang && r.state.train.config.example.empty() &&
                            s.training.a.trainer.step() == 0;
  const bool rebuild = train_changed || lang_example || !s.training.a.trainer.ready();
  AppState::Training runs;
  if (rebuild) {
    std::string error;
    if (!BuildRuns(r.state, runs, &error)) {
      r.ok = false;
      r.state = s.lab;
      r.api_error = attn::api::ApiError::kBadValue;
      r.field = "train";
      r.message = error;
      s.has_refusal = true;
      s.refusal = r;
      if (source == Source::kExampleBox) {
        s.training.example_error = error;
        s.training.example_refusal = r;
      }
      return r;
    }
  }
  s.lab = r.state;
  if (lab_changed) {
    s.result = std::move(result);
    s.model_result = std::move(model_result);
    s.custom = AppState::CustomWeights{};
  }
  s.has_refusal = false;
  // The box shows what the learner types; anything else that sets the sentence replaces it.
  if (source != Source::kSentenceBox) s.sentence_edit = s.lab.config.sentence;
  if (rebuild) {
    AdoptRuns(s, std::move(runs));
    if (source != Source::kExampleBox) s.training.example_edit = ExampleText(s.training.a.trainer);
  } else {
    // Only the query row (or play) changed.
    s.training.query = ResolveQuery(s.lab, s.training.a.trainer.example());
  }
  s.training.example_error.clear();
  RunLessonActions(s, previous_lesson);
  Notify(s);
  return r;
}

attn::api::PatchResult ApplyPatchText(AppState& s, const std::string& json_text) {
  Json patch = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (patch.is_discarded()) {
    attn::api::PatchResult r = attn::api::ApplyStatePatchText(s.lab, json_text);
    s.has_refusal = true;
    s.refusal = r;
    return r;
  }
  return ApplyPatch(s, patch, Source::kApi);
}

void SetCustomWeight(AppState& s, int token, double value) {
  const attn::LabResult& r = s.result;
  if (!r.error.ok()) return;
  const attn::VecD base = s.custom.active ? s.custom.alpha
                                          : attn::VecD(r.trace.weights.row(r.steps.query).transpose().cast<double>());
  const attn::MatD values = r.trace.V.cast<double>();  // (N, Dv)
  attn::InformationScope scope;  // the lab's: the query's visible keys, the normalizer's set
  scope.set = r.information.set;
  scope.visible = r.visible;
  s.custom.alpha = attn::SetWeightIn(scope.set, base, token, value, scope.visible);
  s.custom.info = attn::AnalyzeInformation(values, s.custom.alpha, r.target, scope);
  s.custom.vertices = attn::SameOutputVerticesIn(values, s.custom.alpha, scope);
  s.custom.contributions = attn::Contributions(values, s.custom.alpha);
  s.custom.contributions2 = attn::Contributions(values, s.custom.info.collision.alpha2);
  s.custom.active = true;
}

void ClearCustomWeights(AppState& s) { s.custom = AppState::CustomWeights{}; }

void StartProbeSweep(AppState& s) {
  s.probe.clear();
  s.probe_queue.clear();
  const int n = std::max(2, static_cast<int>(s.result.tokens.size()));
  auto queue = [&](int d_v, int heads) {
    attn::ProbeConfig cfg;
    cfg.tokens = n;
    cfg.d_v = d_v;
    cfg.heads = heads;
    cfg.seed = s.lab.config.seed;
    s.probe_queue.push_back(cfg);
  };
  for (int d_v : {1, 2, 4, 8, 16}) queue(d_v, 1);
  for (int heads : {2, 4}) queue(16, heads);
  s.probe_total = static_cast<int>(s.probe_queue.size());
}

void Tick(AppState& s) {
  if (!s.probe_queue.empty()) {
    const attn::ProbeConfig cfg = s.probe_queue.front();
    s.probe_queue.erase(s.probe_queue.begin());
    const attn::ProbeResult r = attn::RunProbe(cfg);
    s.probe.push_back({cfg.tokens, cfg.d_v, cfg.heads, r.accuracy, r.chance});
  }
  // Training while playing: as many steps as fit in the frame's budget, measured here (the
  // engine knows no clocks). The example views are refreshed once, after the batch.
  AppState::Training& t = s.training;
  t.frame_steps = 0;
  t.frame_ms = 0;
  const bool curves = s.normalization.curves_running;
  bool long_run = t.run_to > 0;  // a long run goes as fast as the budget allows, not at `speed`
  if (s.lab.train.play || long_run) {
    const auto t0 = std::chrono::steady_clock::now();
    const double budget = curves ? kTrainBudgetMs * 0.5 : kTrainBudgetMs;
    while (MsSince(t0) < budget && (long_run || s.lab.train.speed <= 0 || t.frame_steps < s.lab.train.speed)) {
      if (long_run && t.a.trainer.step() >= t.run_to) {
        t.run_to = 0;
        long_run = false;
        if (!s.lab.train.play) break;
        continue;
      }
      if (t.a.trainer.step() >= kMaxPlaySteps) {
        t.stopped_at_cap = true;
        StopPlaying(s);
        break;
      }
      if (!StepOnce(s)) {
        StopPlaying(s);
        break;
      }
      ++t.frame_steps;
    }
    if (long_run && t.a.trainer.step() >= t.run_to) t.run_to = 0;
    t.frame_ms = MsSince(t0);
    if (t.frame_steps > 0 || !s.lab.train.play) RefreshViews(s);
  }
  TickTune(s);
  if (s.model_probe.wait > 0) {
    --s.model_probe.wait;
  } else if (s.model_probe.wait == 0) {
    RunModelProbe(s);
  }
  // The normalization curves: small slices until the budget is used.
  if (curves) {
    AppState::Normalization& n = s.normalization;
    const auto t0 = std::chrono::steady_clock::now();
    const double budget = s.lab.train.play ? kTrainBudgetMs * 0.5 : kTrainBudgetMs;
    while (MsSince(t0) < budget)
      if (!n.curves.Advance(4)) {
        n.curves_running = false;
        break;
      }
  }
}

bool NeedsFrames(const AppState& s) {
  const AppState::Normalization& n = s.normalization;
  return s.lab.train.play || s.training.run_to > 0 || s.tune.run_to > 0 || !s.probe_queue.empty() ||
         s.model_probe.wait >= 0 ||
         n.curves_running || (n.stage > 0 && !n.computed) || s.model_status.load == ModelLoad::kLoading;
}

// ---- normalization experiments ---------------------------------------------------------------

bool StepNormalization(AppState& s) {
  AppState::Normalization& n = s.normalization;
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

void EnsureNormalization(AppState& s) {
  while (StepNormalization(s)) {
  }
}

bool StartCurves(AppState& s, int seeds, int steps, std::string* error) {
  AppState::Normalization& n = s.normalization;
  attn::TrainConfig base = s.lab.train.config;
  base.example = ResolveExample(s.lab);
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

// ---- the page API's training calls -------------------------------------------------------------

std::string TrainJson(AppState& s, double steps) {
  // train(steps)'s one argument, by a row like every setting.
  struct Call {
    int steps = 0;
  };
  static const attn::Field<Call> row =
      attn::IntegerField<Call>("steps", &Call::steps, 0, kMaxApiSteps, "training steps to run now");
  if (!attn::AcceptsNumber(row.rule, steps))
    return attn::api::Dump(Json{{"ok", false}, {"field", "steps"},
                                {"error", attn::RefusalText("steps", row.rule, attn::FormatShortest(steps)) +
                                              " (call train() again for more)"}});
  TrainSteps(s, static_cast<int>(steps));
  const AppState::Training& t = s.training;
  Json out = attn::api::RunToJson(t.a.trainer, t.a.view, t.query);
  out["ok"] = true;
  out["b"] = t.compare ? attn::api::RunToJson(t.b.trainer, t.b.view, t.query) : Json(nullptr);
  out["compare"] = s.lab.train.compare;
  return attn::api::Dump(out);
}

std::string TrainingJson(const AppState& s) {
  const AppState::Training& t = s.training;
  Json out = {{"ok", true}, {"state", attn::api::StateToJson(s.lab)["train"]}, {"query", t.query}};
  out["a"] = attn::api::HistoryToJson(t.a.trainer);
  out["a"]["current"] = attn::api::RunToJson(t.a.trainer, t.a.view, t.query);
  if (t.compare) {
    out["b"] = attn::api::HistoryToJson(t.b.trainer);
    out["b"]["current"] = attn::api::RunToJson(t.b.trainer, t.b.view, t.query);
  } else {
    out["b"] = nullptr;
  }
  return attn::api::Dump(out);
}

std::string NormalizationJson(AppState& s) {
  EnsureNormalization(s);
  const AppState::Normalization& n = s.normalization;
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

std::string RunCurvesJson(AppState& s, const std::string& json_options) {
  Json opts = Json::parse(json_options, nullptr, /*allow_exceptions=*/false);
  auto refuse = [](const std::string& field, const std::string& error) {
    return attn::api::Dump(Json{{"ok", false}, {"field", field}, {"error", error}});
  };
  if (opts.is_discarded() || !opts.is_object())
    return refuse("", "expected an object such as {seeds: 3, steps: 300}, got " +
                          (opts.is_discarded() ? std::string("text that is not JSON") : attn::api::DescribeJson(opts)));
  CurveOptions o{s.normalization.curve_seeds, s.normalization.curve_steps};
  for (const auto& [key, v] : opts.items()) {
    const attn::Field<CurveOptions>* f = attn::FindField(CurveOptionFields(), key);
    if (!f) return refuse(key, attn::api::ShownName(key) + ": unknown field (expected one of " + attn::api::FieldNames(CurveOptionFields()) + ")");
    std::string error;
    if (attn::api::ApplyJsonField(*f, o, v, key, &error) != attn::api::FieldStatus::kOk) return refuse(key, error);
  }
  std::string error;
  if (!StartCurves(s, o.seeds, o.steps, &error)) return refuse("", error);
  return attn::api::Dump(Json{{"ok", true}, {"seeds", o.seeds}, {"steps", o.steps}});
}

std::string StateJson(const AppState& s) { return attn::api::Dump(attn::api::StateToJson(s.lab)); }

std::string TraceJson(const AppState& s) {
  if (s.lab.config.projection != attn::Projection::kModel || !s.result.error.ok())
    return attn::api::Dump(attn::api::TraceToJson(s.lab, s.result));
  attn::api::LabState shown = s.lab;  // the trace's "config": the model's effective settings
  shown.config = s.model_result.config;
  Json out = attn::api::TraceToJson(shown, s.result);
  out["state"] = attn::api::StateToJson(s.lab);
  out["model"] = ModelTraceJson(s);
  return attn::api::Dump(out);
}

}  // namespace app
