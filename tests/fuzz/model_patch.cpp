// Fuzz target: the page's setState in model mode, with a model of the shipped one's shape loaded:
// app::ApplyPatchText, then a frame's Tick, the trace as JSON and, when the patch shows the
// Information panel, its analysis of the real head (app::EnsureModelInformation). Each input starts from the same
// lab: projection "model" on the seed's sentence. Properties: no crash, no exception; a refusal
// keeps the state and says one line; an accepted state's result is either the model's (every
// weight finite, each row of the chosen head summing to 1, zero above the diagonal) or a
// refusal with a one-line message; the trace is written (without an exception; one input in 8).
#include "app/app.h"
#include "fuzz_common.h"
#include "model/format/bundle.h"
#include "model/lab/model_lab.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>

using namespace attn;
using attn::fuzz::Check;

namespace {

// The model, made once: the shipped folder's files (its tokenizer, its head labels, its layers,
// heads and context, every structural check of LoadLabModel; SHA-256 is the model tests'
// business), with d_model -> 4 per head (d_head 4) and mlp -> 32 and random weights
// (model::InitParams, seed 1). The lab's code paths are those of the shipped model at a small
// part of the arithmetic (the forward pass was most of an input's time under the sanitizers);
// the shipped weights are the model tests', the soak's and the browser tests'.
// Each input borrows it (LendModel/ReturnModel) instead of copying it.
std::unique_ptr<model::LabModel>& Shipped() {
  static std::unique_ptr<model::LabModel> m = [] {
    std::vector<std::pair<std::string, std::string>> files;
    for (const char* name : {"config.json", "tokenizer.json", "model.safetensors", "eval.json", "heads.json",
                             "MANIFEST.sha256"}) {
      std::ifstream f(std::string(ATTNLAB_SOURCE_DIR) + "/web/model/" + name, std::ios::binary);
      std::stringstream ss;
      ss << f.rdbuf();
      files.emplace_back(name, ss.str());
    }
    auto out = std::make_unique<model::LabModel>();
    std::string error;
    if (!model::LoadLabModel(files, {}, out.get(), &error)) attn::fuzz::Fail("the shipped model did not load: " + error);
    model::ModelConfig small = out->shipped.config;
    small.d_model = 4 * small.heads;  // heads of 4
    small.mlp = 32;
    Check(model::CheckModelConfig(small).empty(), "the small config: " + model::CheckModelConfig(small));
    out->shipped.config = small;
    out->shipped.params = model::InitParams<float>(small, 1);
    out->params = out->shipped.params;
    return out;
  }();
  return m;
}

// As app::ModelFilesArrived leaves the lab, without parsing the files again for every input.
void LendModel(app::AppState& s) {
  Check(Shipped() != nullptr, "the shipped model was not returned by the last input");
  s.model.loaded = std::move(Shipped());
  s.model.status.load = app::ModelLoad::kReady;
  s.model.status.fraction = 1;
}

// Takes the model back; an input that tuned it ("Train it more") gets the shipped weights back,
// so every input starts from the same model.
void ReturnModel(app::AppState& s) {
  Check(s.model.loaded != nullptr, "the lab lost its model");
  if (s.model.tune.session.started() || s.model.tune.trained) s.model.loaded->params = s.model.loaded->shipped.params;
  Shipped() = std::move(s.model.loaded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool seed_ok = [] {  // once: the starting lab computes
    app::AppState s;
    app::InitApp(s);
    Check(app::ApplyPatch(s, api::Json{{"projection", "model"}}).ok, "model mode refused");
    LendModel(s);
    app::RefreshModelResult(s);
    Check(s.attention.result.error.ok(), "the seed's sentence in model mode: " + s.attention.result.error.message);
    ReturnModel(s);
    return true;
  }();
  (void)seed_ok;
  app::AppState s;
  app::InitApp(s);
  Check(app::ApplyPatch(s, api::Json{{"projection", "model"}}).ok, "model mode refused");
  // Without computing the starting lab again: the input's patch computes.
  LendModel(s);
  struct Return {  // on every way out of this input
    app::AppState& s;
    ~Return() { ReturnModel(s); }
  } give_back{s};

  const std::string before = api::Dump(api::StateToJson(s.lab));
  const api::PatchResult r = app::ApplyPatchText(s, std::string(attn::fuzz::AsText(data, size)));
  if (!r.ok) {
    attn::fuzz::CheckMessage(r.message, "ApplyPatchText refusal");
    Check(before == api::Dump(api::StateToJson(s.lab)), "a refused patch changed the state");
    return 0;
  }
  app::Tick(s);
  // The page's getTrace, for one input in 8 (by the input's hash: the same inputs every run).
  // Building it is a third of an input's time (every head's weights as JSON numbers), and its
  // paths hardly depend on the input; api::Dump cannot write anything but JSON.
  if (std::hash<std::string_view>{}(attn::fuzz::AsText(data, size)) % 8 == 0) {
    const std::string trace = app::TraceJson(s);
    Check(trace.size() > 2 && trace.front() == '{' && trace.back() == '}', "the trace is not a JSON object");
  }
  if (!s.attention.result.error.ok()) {
    attn::fuzz::CheckMessage(s.attention.result.error.message, "the result's refusal");
    return 0;
  }
  if (s.lab.config.projection == Projection::kModel) {
    const auto& w = s.attention.result.trace.weights;  // (T, T) causal
    for (int i = 0; i < w.rows(); ++i) {
      double sum = 0;
      for (int j = 0; j < w.cols(); ++j) {
        Check(std::isfinite(w(i, j)) && w(i, j) >= 0, "a weight is not a finite probability");
        if (j > i) Check(w(i, j) == 0, "a weight above the diagonal (causal)");
        sum += w(i, j);
      }
      Check(std::fabs(sum - 1) < 1e-4, "a row of weights does not sum to 1");
    }
    // The layer analysis takes seconds under the sanitizers: only when the patch shows it.
    if (s.lab.view == "information") app::EnsureModelInformation(s);
  }
  return 0;
}
