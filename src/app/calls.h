// The rooms' entry points for the UI, the platform, the CLI and the tests: each takes AppState,
// hands the call to its room with what the room needs (its own members, the settings, the view,
// a context: lab_view.h) and nothing more. What each does is said where the room declares it.
// Included by app.h; no room includes it.
#pragma once

#include "app/exports/figure_export.h"
#include "app/inspect/inspect.h"
#include "app/lesson/lesson.h"
#include "app/page/page.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::model {
struct LabModel;
}  // namespace attn::model

namespace app {

struct AppState;

// ---- attention/ (attention.h) -------------------------------------------------------------------
void SetCustomWeight(AppState& s, int token, double value);
void ClearCustomWeights(AppState& s);
void StartProbeSweep(AppState& s);  // from the settings' seed
void TickProbe(AppState& s);

// ---- model/ (model.h) -----------------------------------------------------------------------------
bool WantsModel(const AppState& s);
void ModelRequested(AppState& s);  // the state's modelUrl ("" the lab's own): the platform fetches it
void ModelLoading(AppState& s, const std::string& name);  // a load the page starts (its files)
void ModelProgress(AppState& s, double fraction);
void ModelBytes(AppState& s, double bytes, double total);
void ModelLoadFailed(AppState& s, const std::string& message);
void ModelLoadCancelled(AppState& s);
bool ModelFilesArrived(AppState& s, const std::vector<std::pair<std::string, std::string>>& files,
                       const std::map<std::string, std::string>& digests, std::string* error = nullptr);
void ModelArrived(AppState& s, std::unique_ptr<attn::model::LabModel> m);  // a folder, a checkpoint's pieces
void RetryModel(AppState& s);
void RefreshModelResult(AppState& s);
void EnsureModelInformation(AppState& s);
void WantModelKeyEffects(AppState& s);
void FinishModelKeyEffects(AppState& s);
void EnsureModelOffsets(AppState& s);  // the RoPE scene for the result shown (the Positions panel)
bool ModelKeyEffectsRunning(const AppState& s);
Json ModelKeyEffectsJson(const AppState& s);
void StartModelProbe(AppState& s);
bool RunModelProbe(AppState& s);
bool ModelProbeCurrent(const AppState& s);
Json ModelProbeJson(const AppState& s);
std::string ProbeHeadJson(AppState& s);
void TuneTextsArrived(AppState& s, const std::string& en, const std::string& ru);
std::string TuneText(const AppState& s);
bool StartTune(AppState& s, std::string* error = nullptr);  // a run of the state's tune_steps
void StopTune(AppState& s);
void ResetTune(AppState& s);
bool TuneRunning(const AppState& s);
std::string TuneModelJson(AppState& s, const std::string& json_options);
Json TuneStatusJson(const AppState& s);

// ---- inspect/ (inspect.h) -------------------------------------------------------------------------
void WantLens(AppState& s);          // the Prediction tab shows them: computed in the next Tick
void WantAttribution(AppState& s);
bool LensCurrent(AppState& s);
bool AttributionCurrent(AppState& s);
bool StartPatching(AppState& s);     // the state's sentence, corrupted, patch, answer, foil
void CancelPatching(AppState& s);
bool PatchingCurrent(AppState& s);
bool StartGeneration(AppState& s, const GenerateOptions& o);
void CancelGeneration(AppState& s);
void ChooseGeneratedStep(AppState& s, int step);
Json LensJson(AppState& s);                                   // getLens()
Json AttributionJson(AppState& s, const Json& options);       // getAttribution({target, foil})
Json RunPatchingJson(AppState& s, const Json& options);       // runPatching({...})'s start
Json PatchingJson(AppState& s);                               // its status
Json GenerateJson(AppState& s, const Json& options);          // generate({...})'s start
Json GenerationJson(AppState& s);                             // its status
// The page's one entry for all of these (platform/web_bridge_model.cpp): "lens", "attribution",
// "runPatching", "patchingStatus", "generate", "generationStatus", "cancel" (null).
Json InspectCallJson(AppState& s, const std::string& call, const Json& options);

// ---- training/ (training.h) -----------------------------------------------------------------------
void ResetTraining(AppState& s);
void TrainSteps(AppState& s, int steps);
void StartRun(AppState& s, int steps);
void StopRun(AppState& s);
int TickTraining(AppState& s, double budget_ms, double* ms);
bool TrainingNeedsFrames(const AppState& s);
std::string TrainingJson(const AppState& s, TrainingJsonOf what);
std::string TrainStepsJson(AppState& s, double steps);

// ---- normalization/ (normalization.h) -------------------------------------------------------------
bool StepNormalization(AppState& s);
void EnsureNormalization(AppState& s);
bool StartCurves(AppState& s, int seeds, int steps, std::string* error);
void TickNormalization(AppState& s, double budget_ms);
bool NormalizationNeedsFrames(const AppState& s);
std::string NormalizationJson(AppState& s);
std::string RunCurvesJson(AppState& s, const std::string& json_options);

// ---- whatif/ (whatif.h) ---------------------------------------------------------------------------
bool WantsWhatIfTools(const AppState& s);
void ShowWhatIfTools(AppState& s);
void WhatIfToolsAsked(AppState& s);
void WhatIfToolsProgress(AppState& s, double fraction);
void WhatIfToolsFailed(AppState& s, const std::string& message);
void RetryWhatIfTools(AppState& s);
const attn::LabComparison* CurrentComparison(const AppState& s);
const std::vector<attn::Token>& TypedTokens(const AppState& s);
const attn::model::ModelComparison* CurrentModelComparison(const AppState& s);

// ---- lesson/ (lesson.h, lesson_doc.h) -------------------------------------------------------------
const LessonDoc* LoadedLesson(const AppState& s);
const LessonStep* CurrentLessonStep(const AppState& s);
bool LessonRevealed(const AppState& s);
attn::api::PatchResult LoadLesson(AppState& s, std::string_view text, const std::string& url = "", bool open = true);
Json LessonLoadJson(const AppState& s, const attn::api::PatchResult& r);
attn::api::PatchResult GoToLesson(AppState& s, int step);
attn::api::PatchResult AnswerLesson(AppState& s, int choice);
attn::api::PatchResult ShowLessonExtra(AppState& s);
attn::api::PatchResult RestoreLessonStep(AppState& s);
Json LessonProgress(const AppState& s);
std::vector<Json> TakeLessonEvents(AppState& s);
std::vector<LessonLine> LessonReadout(const AppState& s);

// ---- page/ (page.h) ------------------------------------------------------------------------------
std::string ApplyLinkJson(AppState& s, const std::string& hash, const std::string& fallback_lang);
std::string LinkText(const AppState& s);
std::string ShareLink(const AppState& s, const std::string& page_url);
std::string EmbedSnippet(const AppState& s, const std::string& page_url);

// ---- exports/ (figure_export.h) ------------------------------------------------------------------
ExportFile ExportText(const AppState& s, const ExportRequest& r);  // needs ExportFromState(r)
std::string ExportFileName(const AppState& s, const std::string& what, const std::string& ext, bool with_sentence);
std::string WeightsCsv(const AppState& s);
std::string WeightsSvg(const AppState& s);
std::string ContributionsSvg(const AppState& s);
std::string SimplexSvg(const AppState& s, std::string* why);
std::string ExampleWeightsSvg(const AppState& s, std::string* why);
std::string WhatIfCsv(const AppState& s, std::string* why);
std::string WhatIfSvg(const AppState& s, std::string* why);

}  // namespace app
