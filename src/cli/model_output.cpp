// What moved the prediction (issue 40), on any model folder the lab opens:
//   attnlab model lens DIR --text T [--target ID]
//       the logit lens: every layer's residual stream through the final norm and W_U, at every
//       position (model/inspect/lens.h)
//   attnlab model attribute DIR --text T [--target ID] [--foil ID]
//       direct logit attribution at the last position: embeddings, each head, each MLP, the
//       biases, and each head's part split over its source tokens (model/inspect/attribution.h)
//   attnlab model patch DIR --clean T --corrupted T --what resid|attn|mlp|head|pattern [--target ID] [--foil ID]
//       activation patching, the normalized logit difference per (layer, position) or (layer,
//       head) (model/inspect/patching.h)
// The texts are tokenized as the lab does (the tokenizer's begin token first when it has one);
// the JSON is the page's (api/inspect_json.h).
#include "api/inspect_json.h"
#include "cli/common.h"
#include "cli/model_commands.h"
#include "model/inspect/attribution.h"
#include "model/inspect/lens.h"
#include "model/inspect/patching.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace attn::cli {

namespace {

struct OutputOptions {
  ModelOptions run;  // dir, text, threads
  std::string clean, corrupted, what = "resid";
  int target = -1, foil = -1;
};

// The lab's run of `text` on the folder's model (OpenHeadRun: head 0 of layer 0, unused here).
bool OpenText(const ModelOptions& o, const std::string& text, model::LabModel* m, model::ModelLabResult* extra,
              std::string* error) {
  ModelOptions one = o;
  one.text = text;
  one.layer = one.head = 0;
  LabConfig cfg;
  LabResult lab;
  return OpenHeadRun(one, m, &cfg, &lab, extra, error);
}

int RunLens(const OutputOptions& o) {
  const std::string cmd = "model lens";
  std::string error;
  model::LabModel m;
  model::ModelLabResult extra;
  if (!OpenText(o.run, o.run.text, &m, &extra, &error)) return RefuseCommand(cmd, error);
  model::LogitLens lens;
  if (!model::ComputeLogitLens(m.params, m.config(), extra.acts, o.target, &lens, &error, o.run.threads))
    return RefuseCommand(cmd, "--" + error);
  const auto label = [&m](int id) { return m.tokenizer().Label(id); };
  std::cout << api::Dump(api::LensJson(lens, extra.texts, label)) << "\n";
  return Finish(cmd, 0);
}

int RunAttribute(const OutputOptions& o) {
  const std::string cmd = "model attribute";
  std::string error;
  model::LabModel m;
  model::ModelLabResult extra;
  if (!OpenText(o.run, o.run.text, &m, &extra, &error)) return RefuseCommand(cmd, error);
  model::Attribution a;
  if (!model::ComputeAttribution(m.params, m.config(), extra.ids, extra.acts, o.target, o.foil, &a, &error))
    return RefuseCommand(cmd, "--" + error);
  const auto label = [&m](int id) { return m.tokenizer().Label(id); };
  std::cout << api::Dump(api::AttributionJson(a, extra.texts, label)) << "\n";
  return Finish(cmd, 0);
}

int RunPatch(const OutputOptions& o) {
  const std::string cmd = "model patch";
  std::string error;
  model::PatchSpec spec;
  if (!model::ParsePatchWhat(o.what, &spec.what))
    return RefuseCommand(cmd, "--what: expected resid, attn, mlp, head or pattern, got \"" + o.what + "\"");
  model::LabModel m, again;
  model::ModelLabResult clean, corrupted;
  if (!OpenText(o.run, o.clean, &m, &clean, &error)) return RefuseCommand(cmd, "--clean: " + error);
  if (!OpenText(o.run, o.corrupted, &again, &corrupted, &error)) return RefuseCommand(cmd, "--corrupted: " + error);
  spec.clean = clean.ids;
  spec.corrupted = corrupted.ids;
  spec.target = o.target;
  spec.foil = o.foil;
  model::PatchRun run;
  if (!run.Start(m.params, m.config(), spec, &error, o.run.threads)) return RefuseCommand(cmd, error);
  while (!run.done())
    if (!run.Step(16, &error)) return InternalError(cmd, error);
  const auto label = [&m](int id) { return m.tokenizer().Label(id); };
  std::cout << api::Dump(api::PatchJson(run, o.what.c_str(), clean.texts, corrupted.texts, label)) << "\n";
  return Finish(cmd, 0);
}

}  // namespace

std::vector<Command> AddModelOutput(CLI::App* model) {
  auto o = std::make_shared<OutputOptions>();
  auto common = [&o](CLI::App* c) {
    c->add_option("dir", o->run.dir, "the model's folder")->required();
    c->add_option("--target", o->target, "the token whose logit is read (an id; -1 = the model's own prediction)");
    c->add_option("--threads", o->run.threads, "threads for the large products (default 2; the same numbers on any)")
        ->check(CLI::Range(1, 64));
  };
  CLI::App* lens = model->add_subcommand(
      "lens", "The logit lens: every layer's residual stream through the final norm and the unembedding, at every position");
  common(lens);
  lens->add_option("--text", o->run.text, "the text (UTF-8)")->required();
  CLI::App* attribute = model->add_subcommand(
      "attribute", "Direct logit attribution at the last position: embeddings, heads, MLPs, biases, and each head's source tokens");
  common(attribute);
  attribute->add_option("--text", o->run.text, "the text (UTF-8)")->required();
  attribute->add_option("--foil", o->foil, "a second token: split the logit difference target - foil (an id; -1 = none)");
  CLI::App* patch = model->add_subcommand(
      "patch", "Activation patching: a clean run's activation in a corrupted run of the same token length, per layer and position or head");
  common(patch);
  patch->add_option("--clean", o->clean, "the clean prompt (UTF-8)")->required();
  patch->add_option("--corrupted", o->corrupted, "the corrupted prompt, as many tokens as the clean one")->required();
  patch->add_option("--what", o->what, "resid (default), attn, mlp, head or pattern");
  patch->add_option("--foil", o->foil, "the logit difference's second token (an id; -1 = the corrupted run's prediction)");
  return {{lens, [o] { return RunLens(*o); }}, {attribute, [o] { return RunAttribute(*o); }}, {patch, [o] { return RunPatch(*o); }}};
}

}  // namespace attn::cli
