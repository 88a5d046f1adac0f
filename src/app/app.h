// The application's state and the only ways to change it. The UI panels read `AppState` and
// write settings through ApplyPatch() (the same path as the page API and URL state), so that
// every change is validated by the engine once, in one place.
// No ImGui, SDL or GL here (library attn_app, tested by tests/app): how things are shown
// (hover, tabs, text size, plot toggles) is the UI's own state, ui::UiState in src/ui/ui.h.
#pragma once

#include "api/state_json.h"
#include "engine/normexp.h"
#include "engine/probe.h"
#include "engine/train.h"
#include "model/head_information.h"
#include "model/head_probe.h"
#include "model/model_lab.h"
#include "model/finetune.h"

#include <functional>
#include <map>
#include <memory>
#include <vector>
#include <string>
#include <string_view>

namespace app {

using attn::api::Json;

// The trained model's files (projection "model"): fetched only when the mode is first chosen.
enum class ModelLoad {
  kNotRequested,  // nobody asked for the model yet (no request has been made)
  kLoading,       // the platform is fetching the files (ModelStatus::fraction)
  kReady,         // AppState::model holds it
  kFailed         // ModelStatus::message says why; RetryModel asks again
};
struct ModelStatus {
  ModelLoad load = ModelLoad::kNotRequested;
  double fraction = 0;   // kLoading: bytes received / expected, 0..1
  std::string message;   // kFailed: English, one line (the UI adds a translated sentence)
};
// Why "Train it more" did not start (AppState::Tune::refusal).
enum class TuneRefusal { kNone, kNoModel, kNoText, kText, kDiverged };

struct AppState {
  attn::api::LabState lab;  // the current *valid* settings
  attn::LabResult result;   // the engine's numbers for `lab`; every panel draws from this (in
                            // model mode: the chosen layer and head of the model, or the error
                            // kModelNotLoaded while the files are not there)

  // The trained model (issue 13): null until its files are loaded (ModelFilesArrived).
  std::unique_ptr<attn::model::LabModel> model;
  ModelStatus model_status;
  attn::model::ModelLabResult model_result;  // projection "model": tokens, every layer's
                                             // intermediates, the next tokens (valid when
                                             // result is)
  // Information, on a real head: the chosen head seen through its layer (concat, W_O, the
  // residual, the MLP), computed by EnsureModelInformation when the Information panel shows a
  // model result; model_info_key says for which numbers (model_info.cpp).
  attn::model::HeadInformation model_info;
  bool model_info_ok = false;
  std::vector<float> model_info_key;

  // The sentence box may hold text the engine refused (empty, too long...): it is kept here,
  // apart from lab.config.sentence, so the learner can go on typing. It lives in the app, not
  // the UI, because ApplyPatch decides when it changes: a sentence set any other way (setState,
  // the URL, a token click) replaces it; typing in the box (Source::kSentenceBox) does not.
  std::string sentence_edit;

  // The last refusal (from the text box, a control, setState or the URL), shown until the next
  // accepted change.
  bool has_refusal = false;
  attn::api::PatchResult refusal;

  // The probe experiment (information panel): accuracy of a readout that sees only A, run on
  // demand because it trains a model (a fraction of a second).
  struct ProbePoint {
    int tokens, d_v, heads;
    double accuracy, chance;
  };
  std::vector<ProbePoint> probe;
  std::vector<attn::ProbeConfig> probe_queue;  // runs still to do, one per frame (the page stays
  int probe_total = 0;                         // responsive and shows progress)

  // The information panel's scenario 1 with weights the learner dragged (instead of the
  // query's own); cleared by any accepted state change.
  struct CustomWeights {
    bool active = false;
    attn::VecD alpha;                     // (N) in the normalizer's set, 0 on masked keys
    attn::InformationReport info;         // AnalyzeInformation for these weights
    std::vector<attn::VecD> vertices;     // SameOutputVertices for these weights
    attn::MatD contributions, contributions2;  // (N, Dv) w_i v_i of both scenarios
  } custom;

  // Learning (the training panel): run A trains lab.train.config; run B, when lab.train.compare
  // names a change, trains A's config with that one change, from the same seed, in lockstep.
  struct TrainRun {
    attn::Trainer trainer;
    attn::ExampleView view;  // the example sentence at the current parameters (refreshed after
    bool has_view = false;   // every batch of steps, not every step)
  };
  struct Training {
    TrainRun a, b;
    bool compare = false;        // run B exists
    int query = 0;               // lab.train.query resolved against the example (-1: automatic)
    std::string example_edit;    // the example box (may hold text the engine refused); like
                                 // sentence_edit, replaced by ApplyPatch unless typed in the box
    std::string example_error;   // the last refusal of the example box, shown under it
    attn::api::PatchResult example_refusal;  // the same refusal with its codes (translations)
    int frame_steps = 0;         // steps run in the last frame, and the time they took (ms)
    double frame_ms = 0;
    bool stopped_at_cap = false; // playing stopped at kMaxPlaySteps
    int run_from = 0, run_to = 0; // a long run ("+500 steps") from step run_from to run_to, in
                                  // frames, with a progress bar; run_to = 0: none
  } training;

  // The normalization panel's experiments (normexp.h): 1-3 are computed once when first shown;
  // the training curves over several seeds run on demand, a slice per frame.
  struct Normalization {
    bool computed = false;
    std::vector<int> d_ks;                       // the d_k axis of experiments 1 and 2
    std::vector<attn::ScoreVariancePoint> variance;
    std::vector<attn::SaturationPoint> saturation;
    std::vector<double> magnitudes;              // experiment 3's score magnitudes c
    std::vector<attn::Normalizer> normalizers;   // experiment 3's series, in this order
    std::vector<attn::OutputNormPoint> output_norm;
    int keys = 0, d_v = 0, samples = 0;          // the sizes used (for the captions): samples of
    int saturation_samples = 0;                  // experiment 1, and of experiments 2 and 3
    int stage = 0;                               // experiments computed so far (StepNormalization)
    attn::CurveExperiment curves;
    bool curves_started = false, curves_running = false;
    int curve_seeds = 3, curve_steps = 200;
    std::string curves_error;
    attn::TrainConfig curves_base;               // the training settings the curves started from
  } normalization;

  // "Train it more" (tune.cpp): the loaded model's training continued on a text in the page's
  // frames; the weights it changes are model->params (ResetTune copies the shipped ones back).
  struct Tune {
    attn::model::TuneSession session;
    std::string key;             // the settings and text the session started with: the same
                                 // again continues it (N then M steps = N + M), others restart
    int run_from = 0, run_to = 0;  // a run from step run_from until session.step() == run_to
                                   // (0: none), with a progress bar
    bool trained = false;        // model->params differ from the shipped weights
    TuneRefusal refusal = TuneRefusal::kNone;  // why the last start failed (the UI says it)
    attn::model::TuneTextProblem problem;      // refusal kText: what is wrong with the text
    std::string error;           // the same in English, one line ("" = none)
    bool texts_loaded = false;   // the built-in texts (web/tune/en.txt, ru.txt), handed over by
    std::string text_en, text_ru;  // the platform with the model's files
    int frame_units = 0;         // units run in the last frame and the time they took (ms)
    double frame_ms = 0;
  } tune;

  // "Probe this head" (model_probe.cpp): model::ProbeHeadOnText on the chosen layer and head, on
  // the built-in text of the interface language. Queued by the button, it runs in Tick after one
  // frame that says "probing…" (~0.6 s natively, ~1 s in the page); the result is shown while
  // its layer, head, language and weights (Train it more) are the current ones.
  struct ModelProbe {
    int wait = -1;               // >= 0: queued; Tick counts down to 0, then runs it
    bool has = false;            // result / error hold the last probe's
    int layer = 0, head = 0;
    std::string lang;            // "en" / "ru": the text it ran on
    bool trained = false;        // the weights it ran on: tune.trained and tune.session.step()
    int tune_step = 0;
    attn::model::TextProbe result;
    std::string error;           // the refusal ("" = ok)
    double ms = 0;               // how long it took
  } model_probe;

  // Called with the state JSON after every accepted change (URL state, page listeners).
  std::function<void(const std::string&)> on_state_changed;
};

// Where a patch comes from: the two text boxes keep what the learner typed (and the example
// box shows its own refusal); everything else replaces the boxes' text with the new state.
enum class Source { kUi, kSentenceBox, kExampleBox, kApi };

// The default state (attn::api::LabState{}), its result and training runs A (and B).
void InitApp(AppState& s);

// Applies a partial state (same fields as window.attentionLab.setState). On success recomputes
// and notifies; on refusal keeps the previous state and records the message for the UI.
// A patch that leaves the attention settings alone (training, play, language, view) keeps the
// result and the dragged weights; a new training setting (not play, speed or query) starts the
// runs again. ApplyPatchText is the page's setState: JSON text, refused with a message when
// malformed.
attn::api::PatchResult ApplyPatch(AppState& s, const Json& patch, Source source = Source::kUi);
attn::api::PatchResult ApplyPatchText(AppState& s, const std::string& json_text);

// The state in a link (api/url_state.h does the reading and writing; link.cpp). ApplyLink
// applies a location.hash through ApplyPatch: every field at once, or the ones the state
// accepts; `fallback_lang` ("en"/"ru", or "") is used when the link names no language. The
// refusals stay in the header. Returns {ok, errors: [{field, error}], state}. LinkText is the
// hash for the current state (training fields only where they differ from the defaults).
std::string ApplyLinkJson(AppState& s, const std::string& hash, const std::string& fallback_lang);
std::string LinkText(const AppState& s);

// A lab configured for a lesson (flags.cpp). IsHidden / IsLocked: whether the state's `hide` /
// `lock` names `part` (api::LabParts()). A view is visible when neither its panel nor its tab
// is hidden ("sentence": the sentence or the settings panel); ShownView is the view the lab
// shows: `view` when visible, else the first visible of steps, weights, vectors, information,
// sentence, training, normalization ("" when everything is hidden). A lesson step that names a
// hidden view therefore shows another one, and never un-hides anything.
bool IsHidden(const attn::api::LabState& lab, std::string_view part);
bool IsLocked(const attn::api::LabState& lab, std::string_view part);
bool ViewVisible(const attn::api::LabState& lab, std::string_view view);
std::string ShownView(const attn::api::LabState& lab);
// Sharing: the link to the current state (`page_url` is the lab's address; a hash in it is
// replaced) and an iframe snippet for it that a course author pastes into a page (the state,
// its hide and lock flags, and the auto-height script of web/embed-example.html).
std::string ShareLink(const AppState& s, const std::string& page_url);
std::string EmbedSnippet(const AppState& s, const std::string& page_url);

// Drags weight `token` of scenario 1 to `value` (the engine keeps the weights in the normalizer's
// set: on the simplex over the visible keys, or each in [0, 1] for sigmoid and none; a masked key
// keeps weight 0) and recomputes the information report for them, over the same keys and set as
// the lab's; ClearCustomWeights returns to the query's own.
void SetCustomWeight(AppState& s, int token, double value);
void ClearCustomWeights(AppState& s);

// Queues the probe over d_v in {1, 2, 4, 8, 16} at the current number of tokens, and over 2 and
// 4 heads at d_v = 16; Tick() runs one queued run per frame, appending to s.probe.
void StartProbeSweep(AppState& s);

// Once per frame, before the UI: background work in small pieces (the probe; while playing,
// training steps for about kTrainBudgetMs; a slice of the normalization curves).
constexpr double kTrainBudgetMs = 11.0;
constexpr int kMaxPlaySteps = 50000;  // playing stops here (the history stays small)
void Tick(AppState& s);

// True while the app works in the page's frames and the picture moves on its own: playing, a
// long run, the probe, the normalization experiments or their curves. The page draws only when
// something changed (platform/main.cpp); this is the app's "keep drawing".
bool NeedsFrames(const AppState& s);

// Training. ResetTraining starts runs A (and B) again from step 0 with the current settings
// (ApplyPatch calls it whenever a training setting changes). TrainSteps runs `steps` steps of
// both runs in lockstep now; it stops early when run A diverges (then lab.train.play becomes
// false). Both refresh the cached example views.
void ResetTraining(AppState& s);
void TrainSteps(AppState& s, int steps);
// A long run: `steps` more steps in the coming frames, as many per frame as fit the budget
// (Tick), shown with a progress bar; StopRun ends it early. A reset or divergence ends it too.
constexpr int kRunSteps = 500;
void StartRun(AppState& s, int steps);
void StopRun(AppState& s);
constexpr int kMaxApiSteps = 5000;  // attentionLab.train(steps) refuses more
constexpr int kMaxPageCurveSeeds = 10;    // runNormalization({seeds, steps}): what a page runs
constexpr int kMaxPageCurveSteps = 2000;  // in its frames

// The normalization experiments 1-3: StepNormalization computes the next one (true while some
// remain; the panel calls it once a frame), EnsureNormalization all that remain. Then the curves
// over several seeds.
bool StepNormalization(AppState& s);
void EnsureNormalization(AppState& s);
bool StartCurves(AppState& s, int seeds, int steps, std::string* error);

// The page API's training calls as JSON (see web/js/api.js).
std::string TrainJson(AppState& s, double steps);   // runs the steps, returns the metrics
std::string TrainingJson(const AppState& s);        // the history of both runs
std::string NormalizationJson(AppState& s);         // the experiments' data
std::string RunCurvesJson(AppState& s, const std::string& json_options);

std::string StateJson(const AppState& s);
// The trace of the chosen head (api::TraceToJson); in model mode its "config" is the model's
// effective one and a "model" object adds the ids, the word groups, every layer's and head's
// weights (rows t, keys 0..t, as `attnlab model run`) and the next tokens.
std::string TraceJson(const AppState& s);

// ---- the trained model (model.cpp) ------------------------------------------------------
// Model mode asks for the files once: WantsModel is true while projection is "model" and the
// model was never requested (or RetryModel was called after a failure); the platform then calls
// ModelRequested and starts fetching (page: web/js/model_switch.js; desktop: the folder). Progress and
// failure come back through ModelProgress / ModelLoadFailed; the files through
// ModelFilesArrived, which loads them (model::LoadLabModel: every check; `digests` are the
// SHA-256s the platform computed, name -> hex, possibly none in a page without WebCrypto) and
// recomputes the result. Returns false with the message (then the status is kFailed).
bool WantsModel(const AppState& s);
void ModelRequested(AppState& s);
void ModelProgress(AppState& s, double fraction);
void ModelLoadFailed(AppState& s, const std::string& message);
bool ModelFilesArrived(AppState& s, const std::vector<std::pair<std::string, std::string>>& files,
                       const std::map<std::string, std::string>& digests, std::string* error = nullptr);
void RetryModel(AppState& s);
// The lab's result for `config`: ComputeModelLab when projection is "model" and the model is
// loaded (filling *model_result), else attn::ComputeLab (kModelNotLoaded in model mode).
attn::LabResult ComputeResult(const AppState& s, const attn::LabConfig& config,
                              attn::model::ModelLabResult* model_result);
// After the model's weights changed (training in the page, reset): the result again.
void RefreshModelResult(AppState& s);
// Information, on a real head (model_info.cpp): fills model_info for the result shown, unless
// it already holds it (the same layer, head, query, target and residual stream); in other modes
// or without a model it clears model_info_ok. A few ms; up to ~0.4 s natively for a query that
// sees 50+ keys (the residual's 2n + 1 LPs).
void EnsureModelInformation(AppState& s);
// ModelLabResult's page-API JSON: {ids, tokens, words, wordStart, layer, head, weights, next}.
Json ModelTraceJson(const AppState& s);
// ---- "Probe this head" (model_probe.cpp) ------------------------------------------------------
// StartModelProbe queues the probe (Tick runs it after a frame that says "probing…");
// RunModelProbe runs it now (false: model_probe.error). ModelProbeCurrent: the last probe is of
// the current layer, head, language and weights. ModelProbeJson: null without a probe, else
// {ok, error} or `attnlab model probe`'s JSON with ok, lang, current and ms added (getModelStatus().probe);
// ProbeHeadJson is the page API's probeHead(): runs it now and returns that.
void StartModelProbe(AppState& s);
bool RunModelProbe(AppState& s);
bool ModelProbeCurrent(const AppState& s);
Json ModelProbeJson(const AppState& s);
std::string ProbeHeadJson(AppState& s);
// ---- "Train it more" (tune.cpp) -------------------------------------------------------------
// The built-in texts, handed over by the platform (page: fetched with the model's files; the
// desktop: read from web/tune/).
void TuneTextsArrived(AppState& s, const std::string& en, const std::string& ru);
// The text the state names (tuneText, tuneOwn; "auto" = the interface language's).
std::string TuneText(const AppState& s);
// Starts a run of lab.tune_steps steps in the coming frames (Tick), continuing the session when
// the text and settings are the ones it started with, else a new one from the current weights.
// False (tune.refusal, tune.error) without the model, before the built-in texts came, or for a
// text model::TuneStream refuses.
bool StartTune(AppState& s, std::string* error = nullptr);
void StopTune(AppState& s);   // ends the run after the current unit (the step's work so far waits)
void ResetTune(AppState& s);  // the shipped weights back, the session and history gone
bool TuneRunning(const AppState& s);
void TickTune(AppState& s);   // Tick's part: units until kTrainBudgetMs (at least one)
// The page API: tuneModel({steps?}) starts a run ({ok, ...status} or {ok: false, field, error});
// the status: {loaded, running, step, runFrom, runTo, unit, unitsPerStep, tokens, length,
// trained, losses, error, checksum, shippedChecksum} (checksums: model::ParamsChecksum).
std::string TuneModelJson(AppState& s, const std::string& json_options);
Json TuneStatusJson(const AppState& s);

}  // namespace app
