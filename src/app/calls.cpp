// The rooms' entry points (calls.h): each hands the call to its room.
#include "app/app.h"

namespace app {

// ---- attention/ -----------------------------------------------------------------------------------
void SetCustomWeight(AppState& s, int token, double value) { s.attention.SetCustomWeight(token, value); }
void ClearCustomWeights(AppState& s) { s.attention.ClearCustomWeights(); }
void StartProbeSweep(AppState& s) { s.attention.StartProbeSweep(s.lab.config.seed); }
void TickProbe(AppState& s) { s.attention.TickProbe(); }

// ---- model/ ---------------------------------------------------------------------------------------
bool WantsModel(const AppState& s) { return s.model.Wants(s.lab); }
void ModelRequested(AppState& s) { s.model.Requested(s.lab.model_url); }
void ModelLoading(AppState& s, const std::string& name) { s.model.Loading(name); }
void ModelProgress(AppState& s, double fraction) { s.model.Progress(fraction); }
void ModelBytes(AppState& s, double bytes, double total) { s.model.Bytes(bytes, total); }
void ModelLoadFailed(AppState& s, const std::string& message) { s.model.LoadFailed(message); }
void ModelLoadCancelled(AppState& s) { s.model.Cancelled(); }
bool ModelFilesArrived(AppState& s, const std::vector<std::pair<std::string, std::string>>& files,
                       const std::map<std::string, std::string>& digests, std::string* error) {
  return s.model.FilesArrived(Context(s), files, digests, error);
}
void ModelArrived(AppState& s, std::unique_ptr<attn::model::LabModel> m) { s.model.Arrived(Context(s), std::move(m)); }
void RetryModel(AppState& s) { s.model.Retry(); }
void RefreshModelResult(AppState& s) { s.model.Refresh(Context(s)); }
void EnsureModelInformation(AppState& s) { s.model.EnsureInformation(s.lab, View(s)); }
void WantModelKeyEffects(AppState& s) { s.model.WantKeyEffects(s.lab, View(s)); }
void FinishModelKeyEffects(AppState& s) { s.model.FinishKeyEffects(s.lab, View(s)); }
void EnsureModelOffsets(AppState& s) { s.model.EnsureOffsets(s.lab, View(s)); }
bool ModelKeyEffectsRunning(const AppState& s) { return s.model.KeyEffectsRunning(s.lab, View(s)); }
Json ModelKeyEffectsJson(const AppState& s) { return s.model.KeyEffectsJson(s.lab, View(s)); }
void StartModelProbe(AppState& s) { s.model.StartProbe(); }
bool RunModelProbe(AppState& s) { return s.model.RunProbe(s.lab); }
bool ModelProbeCurrent(const AppState& s) { return s.model.ProbeCurrent(s.lab); }
Json ModelProbeJson(const AppState& s) { return s.model.ProbeJson(s.lab); }
std::string ProbeHeadJson(AppState& s) { return s.model.ProbeHeadJson(s.lab); }
void TuneTextsArrived(AppState& s, const std::string& en, const std::string& ru) { s.model.TuneTextsArrived(en, ru); }
std::string TuneText(const AppState& s) { return s.model.TuneText(s.lab); }
bool StartTune(AppState& s, std::string* error) { return s.model.StartTune(s.lab, s.lab.tune_steps, error); }
void StopTune(AppState& s) { s.model.StopTune(); }
void ResetTune(AppState& s) { s.model.ResetTune(Context(s)); }
bool TuneRunning(const AppState& s) { return s.model.TuneRunning(); }
std::string TuneModelJson(AppState& s, const std::string& json_options) { return s.model.TuneModelJson(s.lab, json_options); }
Json TuneStatusJson(const AppState& s) { return s.model.TuneStatusJson(); }

// ---- inspect/ ------------------------------------------------------------------------------------
void WantLens(AppState& s) { s.inspect.WantLens(Context(s)); }
void WantAttribution(AppState& s) { s.inspect.WantAttribution(Context(s)); }
bool LensCurrent(AppState& s) { return s.inspect.LensCurrent(Context(s)); }
bool AttributionCurrent(AppState& s) { return s.inspect.AttributionCurrent(Context(s)); }
bool StartPatching(AppState& s) { return s.inspect.StartPatching(Context(s)); }
void CancelPatching(AppState& s) { s.inspect.CancelPatching(); }
bool PatchingCurrent(AppState& s) { return s.inspect.PatchingCurrent(Context(s)); }
bool StartGeneration(AppState& s, const GenerateOptions& o) { return s.inspect.StartGeneration(Context(s), o); }
void CancelGeneration(AppState& s) { s.inspect.CancelGeneration(); }
void ChooseGeneratedStep(AppState& s, int step) { s.inspect.ChooseStep(Context(s), step); }
Json LensJson(AppState& s) { return s.inspect.LensJson(Context(s)); }
Json AttributionJson(AppState& s, const Json& options) { return s.inspect.AttributionJson(Context(s), options); }
Json RunPatchingJson(AppState& s, const Json& options) { return s.inspect.RunPatchingJson(Context(s), options); }
Json PatchingJson(AppState& s) { return s.inspect.PatchingJson(Context(s)); }
Json GenerateJson(AppState& s, const Json& options) { return s.inspect.StartGenerationJson(Context(s), options); }
Json GenerationJson(AppState& s) { return s.inspect.GenerationJson(Context(s)); }
Json InspectCallJson(AppState& s, const std::string& call, const Json& options) { return s.inspect.CallJson(Context(s), call, options); }

// ---- training/ ------------------------------------------------------------------------------------
void ResetTraining(AppState& s) { s.training.Reset(s.lab); }
void TrainSteps(AppState& s, int steps) { s.training.TrainSteps(Context(s), steps); }
void StartRun(AppState& s, int steps) { s.training.StartRun(steps); }
void StopRun(AppState& s) { s.training.StopRun(); }
int TickTraining(AppState& s, double budget_ms, double* ms) { return s.training.TickTraining(Context(s), budget_ms, ms); }
bool TrainingNeedsFrames(const AppState& s) { return s.training.SharesBudget(s.lab); }
std::string TrainingJson(const AppState& s, TrainingJsonOf what) { return s.training.TrainingJson(s.lab, what); }
std::string TrainStepsJson(AppState& s, double steps) { return s.training.TrainStepsJson(Context(s), steps); }

// ---- normalization/ -------------------------------------------------------------------------------
bool StepNormalization(AppState& s) { return s.normalization.Step(); }
void EnsureNormalization(AppState& s) { s.normalization.Ensure(); }
bool StartCurves(AppState& s, int seeds, int steps, std::string* error) {
  return s.normalization.StartCurves(s.lab, seeds, steps, error);
}
void TickNormalization(AppState& s, double budget_ms) { s.normalization.TickCurves(budget_ms); }
bool NormalizationNeedsFrames(const AppState& s) { return s.normalization.NeedsFrames(s.lab, LabView{}); }
std::string NormalizationJson(AppState& s) { return s.normalization.NormalizationJson(); }
std::string RunCurvesJson(AppState& s, const std::string& json_options) {
  return s.normalization.RunCurvesJson(s.lab, json_options);
}

// ---- whatif/ --------------------------------------------------------------------------------------
bool WantsWhatIfTools(const AppState& s) { return s.whatif.WantsTools(s.lab); }
void ShowWhatIfTools(AppState& s) { s.whatif.ShowTools(); }
void WhatIfToolsAsked(AppState& s) { s.whatif.ToolsAsked(); }
void WhatIfToolsProgress(AppState& s, double fraction) { s.whatif.ToolsProgress(fraction); }
void WhatIfToolsFailed(AppState& s, const std::string& message) { s.whatif.ToolsFailed(message); }
void RetryWhatIfTools(AppState& s) { s.whatif.RetryTools(); }
const attn::LabComparison* CurrentComparison(const AppState& s) { return s.whatif.CurrentComparison(); }
const std::vector<attn::Token>& TypedTokens(const AppState& s) { return s.whatif.TypedTokens(View(s)); }
const attn::model::ModelComparison* CurrentModelComparison(const AppState& s) { return s.whatif.CurrentModelComparison(); }

// ---- lesson/ --------------------------------------------------------------------------------------
const LessonDoc* LoadedLesson(const AppState& s) { return s.lesson.doc.get(); }
const LessonStep* CurrentLessonStep(const AppState& s) { return CurrentLessonStep(s.lesson, s.lab); }
bool LessonRevealed(const AppState& s) { return LessonRevealed(s.lesson, s.lab); }
attn::api::PatchResult LoadLesson(AppState& s, std::string_view text, const std::string& url, bool open) {
  return s.lesson.Load(Context(s), text, url, open);
}
Json LessonLoadJson(const AppState& s, const attn::api::PatchResult& r) { return LessonLoadJson(s.lab, r); }
attn::api::PatchResult GoToLesson(AppState& s, int step) { return s.lesson.GoTo(Context(s), step); }
attn::api::PatchResult AnswerLesson(AppState& s, int choice) { return s.lesson.Answer(Context(s), choice); }
attn::api::PatchResult ShowLessonExtra(AppState& s) { return s.lesson.ShowExtra(Context(s)); }
attn::api::PatchResult RestoreLessonStep(AppState& s) { return s.lesson.Restore(Context(s)); }
Json LessonProgress(const AppState& s) { return s.lesson.Progress(s.lab); }
std::vector<Json> TakeLessonEvents(AppState& s) { return s.lesson.TakeEvents(); }
std::vector<LessonLine> LessonReadout(const AppState& s) { return LessonReadout(s.lesson, View(s)); }

// ---- page/ ----------------------------------------------------------------------------------------
std::string ApplyLinkJson(AppState& s, const std::string& hash, const std::string& fallback_lang) {
  return ApplyLinkJson(Context(s), hash, fallback_lang);
}
std::string LinkText(const AppState& s) { return LinkText(View(s)); }
std::string ShareLink(const AppState& s, const std::string& page_url) { return ShareLink(View(s), page_url); }
std::string EmbedSnippet(const AppState& s, const std::string& page_url) { return EmbedSnippet(View(s), page_url); }

// ---- exports/ -------------------------------------------------------------------------------------
ExportFile ExportText(const AppState& s, const ExportRequest& r) {
  return ExportText(View(s), r, r.format == "json" ? TraceJson(s) : std::string());
}
std::string ExportFileName(const AppState& s, const std::string& what, const std::string& ext, bool with_sentence) {
  return ExportFileName(View(s), what, ext, with_sentence);
}
std::string WeightsCsv(const AppState& s) { return WeightsCsv(View(s)); }
std::string WeightsSvg(const AppState& s) { return WeightsSvg(View(s)); }
std::string ContributionsSvg(const AppState& s) { return ContributionsSvg(View(s)); }
std::string SimplexSvg(const AppState& s, std::string* why) { return SimplexSvg(View(s), why); }
std::string ExampleWeightsSvg(const AppState& s, std::string* why) { return ExampleWeightsSvg(View(s), why); }
std::string WhatIfCsv(const AppState& s, std::string* why) { return WhatIfCsv(View(s), why); }
std::string WhatIfSvg(const AppState& s, std::string* why) { return WhatIfSvg(View(s), why); }

}  // namespace app
