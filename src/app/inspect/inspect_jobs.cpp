// The inspect room's jobs (inspect.h): activation patching and generation, a few forwards per
// frame, with their progress and Cancel; a generated token's step opened.
#include "app/inspect/inspect.h"

#include "model/lab/model_inspect.h"

#include <chrono>

namespace app {

namespace {

double MsFrom(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// What a patching run depends on: the two prompts' ids, what is swapped, the tokens named, the
// weights. `corrupted`: its ids, computed by the caller.
std::string PatchKey(const RoomContext& c, const std::vector<int>& clean, const std::vector<int>& corrupted) {
  std::string key = std::to_string(c.view.model.weights_version) + "|" + c.lab.patch + "|" + c.lab.answer + "|" +
                    c.lab.foil + "|";
  for (int id : clean) key += std::to_string(id) + " ";
  key += "|";
  for (int id : corrupted) key += std::to_string(id) + " ";
  return key;
}

bool ModelShown(const RoomContext& c) {
  const LabView& v = c.view;
  return c.lab.config.projection == attn::Projection::kModel && v.model.loaded && v.attention.result &&
         v.attention.result->error.ok() && v.attention.model_result && !v.attention.model_result->ids.empty();
}

std::vector<std::string> Labels(const attn::model::LabModel& m, const std::vector<int>& ids) {
  std::vector<std::string> out;
  for (int id : ids) out.push_back(m.tokenizer().Label(id));
  return out;
}

}  // namespace

// ---- activation patching ------------------------------------------------------------------------

bool Inspect::PatchingCurrent(const RoomContext& c) const {
  if (!Work().patching.has || !ModelShown(c)) return false;
  std::vector<int> corrupted;
  if (!attn::model::EncodeModelText(*c.view.model.loaded, c.lab.corrupted, "corrupted", &corrupted).ok()) return false;
  return Work().patching.key == PatchKey(c, c.view.attention.model_result->ids, corrupted);
}

bool Inspect::StartPatching(const RoomContext& c) {
  Work().patching = PatchJob{};
  Work().patching.what = c.lab.patch;
  if (!ModelShown(c)) {
    Work().patching.error = "projection: activation patching needs the model's run of the sentence (model mode, loaded)";
    return false;
  }
  const attn::model::LabModel& m = *c.view.model.loaded;
  const attn::model::ModelLabResult& shown = *c.view.attention.model_result;
  attn::model::PatchSpec spec;
  spec.clean = shown.ids;
  if (c.lab.corrupted.empty()) {
    Work().patching.error = "corrupted: expected the corrupted prompt, as many tokens as the sentence, got nothing";
    return false;
  }
  if (const attn::LabError e = attn::model::EncodeModelText(m, c.lab.corrupted, "corrupted", &spec.corrupted); !e.ok()) {
    Work().patching.error = e.message;
    return false;
  }
  if (spec.corrupted.size() != spec.clean.size()) {
    Work().patching.error = "corrupted: expected as many tokens as the sentence (" + std::to_string(spec.clean.size()) + "), got " +
                     std::to_string(spec.corrupted.size()) + " (the model's tokens, the begin token included)";
    return false;
  }
  if (!attn::model::ParsePatchWhat(c.lab.patch, &spec.what)) {  // (the state's row allows only these)
    Work().patching.error = "patch: expected resid, attn, mlp, head or pattern, got \"" + c.lab.patch + "\"";
    return false;
  }
  std::string error;
  if (!attn::model::ParseTokenChoice(m, c.lab.answer, "answer", &spec.target, &error) ||
      !attn::model::ParseTokenChoice(m, c.lab.foil, "foil", &spec.foil, &error)) {
    Work().patching.error = error;
    return false;
  }
  Work().patching.key = PatchKey(c, spec.clean, spec.corrupted);
  Work().patching.clean = Labels(m, spec.clean);
  Work().patching.corrupted = Labels(m, spec.corrupted);
  const auto t0 = std::chrono::steady_clock::now();
  if (!Work().patching.run.Start(m.params, m.config(), spec, &error, m.threads)) {
    Work().patching.error = (error.compare(0, 6, "target") == 0 ? "answer" + error.substr(6) : error);
    Work().patching.key.clear();
    return false;
  }
  Work().patching.ms = MsFrom(t0);
  Work().patching.has = true;
  Work().patching.running = !Work().patching.run.done();
  return true;
}

void Inspect::CancelPatching() {
  if (!Work().patching.running) return;
  Work().patching.running = false;
  Work().patching.cancelled = true;
}

bool Inspect::StepPatching(const RoomContext&, int runs) {
  if (!Work().patching.running) return false;
  const auto t0 = std::chrono::steady_clock::now();
  std::string error;
  const bool ok = Work().patching.run.Step(runs, &error);
  Work().patching.ms += MsFrom(t0);
  if (!ok) Work().patching.error = error;
  Work().patching.running = ok && !Work().patching.run.done();
  return Work().patching.running;
}

// ---- generation ---------------------------------------------------------------------------------

bool Inspect::StartGeneration(const RoomContext& c, const GenerateOptions& o) {
  Work().generation = GenerateJob{};
  Work().generation.options = o;
  if (!ModelShown(c)) {
    Work().generation.error = "projection: generation needs the model's run of the sentence (model mode, loaded)";
    return false;
  }
  const attn::model::LabModel& m = *c.view.model.loaded;
  Work().generation.prompt = c.view.attention.model_result->ids;
  Work().generation.key = std::to_string(c.view.model.weights_version);
  const auto t0 = std::chrono::steady_clock::now();
  std::string error;
  if (!Work().generation.run.Start(m.params, m.config(), Work().generation.prompt, o.n, m.tokenizer().EndOfText(), o.sampling,
                            /*cached=*/true, &error, m.threads)) {
    Work().generation.error = error;
    Work().generation.key.clear();
    return false;
  }
  Work().generation.ms = MsFrom(t0);
  Work().generation.has = true;
  Work().generation.running = !Work().generation.run.done();
  return true;
}

void Inspect::CancelGeneration() {
  if (!Work().generation.running) return;
  Work().generation.running = false;
  Work().generation.cancelled = true;
}

bool Inspect::StepGeneration(const RoomContext& c) {
  if (!Work().generation.running) return false;
  const auto t0 = std::chrono::steady_clock::now();
  std::string error;
  const bool ok = Work().generation.run.Step(&error);
  Work().generation.ms += MsFrom(t0);
  if (!ok) Work().generation.error = error;
  const std::vector<int>& tokens = Work().generation.run.result().tokens;
  while (Work().generation.texts.size() < tokens.size())
    Work().generation.texts.push_back(c.view.model.loaded->tokenizer().Label(tokens[Work().generation.texts.size()]));
  Work().generation.running = ok && !Work().generation.run.done();
  return Work().generation.running;
}

void Inspect::ChooseStep(const RoomContext& c, int step) {
  GenerateJob& g = Work().generation;
  g.chosen = -1;
  g.chosen_ok = false;
  g.chosen_error.clear();
  g.chosen_texts.clear();
  const std::vector<int>& tokens = g.run.result().tokens;
  if (step < 0 || step >= static_cast<int>(tokens.size())) return;
  g.chosen = step;
  if (!c.view.model.loaded || g.key != std::to_string(c.view.model.weights_version)) {
    g.chosen_error = "the model's weights changed since these tokens were generated: generate again";
    return;
  }
  // the text that step read: the prompt and the tokens before it; its answer: the token it chose
  std::vector<int> ids = g.prompt;
  ids.insert(ids.end(), tokens.begin(), tokens.begin() + step);
  const attn::model::LabModel& m = *c.view.model.loaded;
  g.chosen_ok = attn::model::AttributeIds(m, ids, tokens[static_cast<std::size_t>(step)], -1, &g.chosen_value, &g.chosen_error);
  g.chosen_texts = Labels(m, ids);
}

}  // namespace app
