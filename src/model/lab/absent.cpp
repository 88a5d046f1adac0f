// The default page's build: the lab without the trained model's code (issue 11's 500 KB budget,
// issue 13's "the default page's payload does not grow").
//
// The page first loads a build of the lab linked with this file instead of the model's
// libraries: every entry point the app calls exists and refuses, so the linker leaves out the
// model's forward and backward passes, its tokenizer, the safetensors reader and the head
// analysis (~58 KB gzipped). When model mode is chosen, web/js/model_switch.js fetches the full build
// (index-model.wasm, the same sources linked with attn_model_io) with the model's files and
// moves the lab onto it, state and all (ModelCodeInBuild tells it which build is running).
// None of these refusals reaches a learner in the page: the app asks for the model's files
// first (platform::FetchModelIfWanted), and this build answers that by switching builds.
#include "model/training/finetune.h"
#include "model/inspect/head_information.h"
#include "model/inspect/head_probe.h"
#include "model/inspect/offsets.h"
#include "model/lab/model_lab.h"
#include "model/lab/model_whatif.h"

namespace attn {
namespace model {

namespace {
const char kAbsent[] = "this build of the lab has no model code (the page loads index-model.wasm for model mode)";

bool Absent(std::string* error) {
  if (error) *error = kAbsent;
  return false;
}
}  // namespace

bool ModelCodeInBuild() { return false; }

bool LoadLabModel(const std::vector<std::pair<std::string, std::string>>&, const std::map<std::string, std::string>&,
                  LabModel*, std::string* error) {
  return Absent(error);
}

bool ComputeModelLab(const LabModel&, const LabConfig&, LabResult* lab, ModelLabResult*) {
  lab->error = LabError{ConfigError::kModelNotLoaded, "projection", std::string("projection: ") + kAbsent, 0};
  return false;
}

bool AnalyzeHead(const Params<float>&, const ModelConfig&, const SequenceActs<float>&, int, int, int, int, HeadInformation*,
                 std::string* error, const HeadInformationOptions&) {
  return Absent(error);
}

bool TuneStream(const Tokenizer&, std::string_view, std::string_view, std::vector<int>*, std::string* error,
                TuneTextProblem*) {
  return Absent(error);
}

bool ProbeHeadOnText(const Tokenizer&, const Params<float>&, const ModelConfig&, std::string_view, std::string_view, int, int,
                     TextProbe*, std::string* error) {
  return Absent(error);
}

std::string TextProbeJson(const TextProbe&, const ModelConfig&, int, int) { return "null"; }

std::string ParamsChecksum(const Params<float>&) { return std::string(); }

Params<float> Widened(const Params<float>& p) { return p; }  // no model is ever loaded here

TuneMemory TuneMemoryOf(const ModelConfig&) { return TuneMemory{}; }  // never asked: no model here

std::string TuneMemoryRefusal(const TuneMemory&) { return std::string(); }

bool TuneSession::Start(const ModelConfig&, std::vector<int>, const TuneConfig&, std::string* error) {
  return Absent(error);
}

void TuneSession::Clear() {}

bool CompareModelRuns(const LabModel&, const LabConfig&, const ModelLabResult&, ModelComparison* out, LabError* error) {
  *out = ModelComparison{};
  error->code = ConfigError::kModelNotLoaded;
  error->field = "projection";
  error->message = std::string("projection: ") + kAbsent;
  return false;
}

bool NextKeyNextTokenEffect(const LabModel&, const LabConfig&, const ModelLabResult&, NextTokenEffects*, std::string* error) {
  return Absent(error);
}

bool TuneSession::Work(Params<float>&, bool*, StepMetrics*, std::string* error) { return Absent(error); }

bool SceneForQuery(const Params<float>&, const ModelConfig&, const std::vector<int>&, const SequenceActs<float>&, int, int,
                   int, int, OffsetScene*, int*, std::string* error) {
  return Absent(error);
}

}  // namespace model
}  // namespace attn
