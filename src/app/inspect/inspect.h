// The inspect room: what moved the model's prediction (issue 40; the Prediction tab, model mode;
// docs/inspect.md). On the sentence the lab shows, with the model it holds:
//   the logit lens       every layer's residual stream through the final norm and W_U, at every
//                        position (model/inspect/lens.h), for the state's `answer`
//   the attribution      the last position's logit of `answer` (minus `foil`'s) split into the
//                        embeddings, each head, each MLP, the biases, and each head's part over
//                        its source tokens (model/inspect/attribution.h)
//   activation patching  the sentence (clean) against `corrupted`, `patch` swapped per (layer,
//                        position) or (layer, head): a job of many forwards, a few per frame,
//                        with its progress and Cancel (model/inspect/patching.h)
//   generation           tokens after the sentence, sampled with the key/value cache, a token
//                        per frame (model/arch/sampling.h); each token's step can be opened:
//                        its attribution, every head's weights on the text before it
//
// One cache idiom, the model room's: what is computed keeps the `key` of what it came from (the
// tokens, the weights' version, the tokens named) and is current while the state gives that key.
// The lens and the attribution are computed when the tab (or the page API) asks, in the frame
// after the one that says "computing…"; the jobs stop when what they run on changes.
//
// Only the build with the model's code holds this room's work (inspect.cpp, inspect_jobs.cpp,
// inspect_json.cpp: library attn_inspect); the default page links inspect_absent.cpp, where the
// room does nothing and its calls refuse, and never shows the tab (the page moves to the full
// build for model mode). No ImGui, SDL or GL (tests/app/inspect).
#pragma once

#include "app/room.h"
#include "model/arch/sampling.h"
#include "model/inspect/attribution.h"
#include "model/inspect/lens.h"
#include "model/inspect/patching.h"

#include <memory>
#include <string>
#include <vector>

namespace app {

// One computed picture of the sentence shown (the lens, the attribution).
template <class T>
struct InspectCache {
  std::string key;        // what it was computed from ("" none)
  bool wanted = false;    // asked for in a frame: Tick computes it
  bool ok = false;
  T value;
  std::string error;      // the refusal (English, one line)
  double ms = 0;          // how long it took
};

// Activation patching: one run at a time.
struct PatchJob {
  std::string key;        // PatchKey: the two prompts' ids, what, answer, foil, the weights
  bool running = false;   // Tick steps it
  bool has = false;       // run holds a grid (done, running or cancelled)
  bool cancelled = false;
  attn::model::PatchRun run;
  std::vector<std::string> clean, corrupted;  // the tokens' texts
  std::string what;       // "resid", ...
  std::string error;      // a refusal or a failed step ("" none)
  double ms = 0;          // the time it ran so far
};

// Generation: n tokens after the sentence.
struct GenerateOptions {
  int n = 16;
  attn::model::SamplingConfig sampling;  // temperature 1, top-k 0 (all), top-p 1, seed 0
};
struct GenerateJob {
  std::string key;        // the prompt's ids and the weights it started from
  bool running = false;
  bool has = false;
  bool cancelled = false;
  GenerateOptions options;
  attn::model::GenerationRun run;
  std::vector<int> prompt;
  std::vector<std::string> texts;  // each generated token's label
  std::string error;
  double ms = 0;
  // the chip opened: step `chosen` (its token's attribution, at the text before it)
  int chosen = -1;
  bool chosen_ok = false;
  attn::model::Attribution chosen_value;
  std::vector<std::string> chosen_texts;  // the tokens of the text before it
  std::string chosen_error;
};

// What the room computes and keeps. Held through a pointer that the builds with the model's code
// fill (Work(), inspect.cpp): the default page's build never constructs or destroys one, so
// its payload carries none of these types' code.
struct InspectWork {
  InspectCache<attn::model::LogitLens> lens;
  InspectCache<attn::model::Attribution> attribution;
  std::vector<std::pair<std::string, std::string>> readout;  // the lesson's lines of it (EN, RU)
  PatchJob patching;
  GenerateJob generation;
};

struct Inspect final : Room {
  // The room's results, made on first use (inspect.cpp; not defined in the default page's build,
  // where nothing asks).
  InspectWork& Work() const;

  // answer and foil name tokens of the model held: refused by name when they are not one token.
  bool Prepare(const RoomContext& c, const attn::api::LabState& next, attn::api::PatchResult* refused) override;
  // the lens and attribution asked for; a patching step or a few tokens within the budget
  void Tick(const RoomContext& c, double budget_ms, FrameWork* work) override;
  bool NeedsFrames(const attn::api::LabState& lab, const LabView& view) const override;
  void Publish(LabView* view) const override;

  // ---- the lens and the attribution of the sentence shown (inspect.cpp) -----------------------
  // Want*: the tab shows it (Tick computes it, unless current); Ensure*: now (the page API).
  // *Current: it holds the current sentence's, weights' and tokens'.
  void WantLens(const RoomContext& c);
  void WantAttribution(const RoomContext& c);
  void EnsureLens(const RoomContext& c);
  void EnsureAttribution(const RoomContext& c);
  bool LensCurrent(const RoomContext& c) const;
  bool AttributionCurrent(const RoomContext& c) const;

  // ---- the jobs (inspect_jobs.cpp) ------------------------------------------------------------
  // StartPatching: the sentence against lab.corrupted (same token count), lab.patch, answer and
  // foil; false with the refusal in patching.error. Steps run in Tick (or RunPatchingNow: all).
  bool StartPatching(const RoomContext& c);
  void CancelPatching();
  bool StepPatching(const RoomContext& c, int runs);
  bool PatchingCurrent(const RoomContext& c) const;
  bool StartGeneration(const RoomContext& c, const GenerateOptions& o);
  void CancelGeneration();
  bool StepGeneration(const RoomContext& c);
  // The chip of generated token `step` opened (-1 closes it): its attribution now.
  void ChooseStep(const RoomContext& c, int step);

  // ---- the page API's JSON (inspect_json.cpp) ---------------------------------------------------
  // getLens(): {ok, ...api::LensJson} or {ok: false, field, error}
  Json LensJson(const RoomContext& c);
  // getAttribution({target, foil}): the state's answer and foil unless given (ids or texts)
  Json AttributionJson(const RoomContext& c, const Json& options);
  // runPatching({clean, corrupted, what, target, foil}): the options that are given become the
  // state's sentence, corrupted, patch, answer and foil (one patch: a refusal names the option),
  // then the run starts: its status, or the refusal. PatchingJson: the status (api::PatchJson
  // with ok, running, cancelled, current, ms; null before the first run)
  Json RunPatchingJson(const RoomContext& c, const Json& options);
  Json PatchingJson(const RoomContext& c) const;
  // generate({n, temperature, topK, topP, seed}): the start, and the status {ok, running, tokens:
  // [{id, text}], text, stopped, full, ms}
  Json StartGenerationJson(const RoomContext& c, const Json& options);
  Json GenerationJson(const RoomContext& c) const;
  // The page's calls by name ("lens", "attribution", "runPatching", "patchingStatus", "generate",
  // "generationStatus", "cancel"): one entry, so that the default page's build carries one.
  Json CallJson(const RoomContext& c, const std::string& call, const Json& options);

 private:
  mutable std::unique_ptr<InspectWork, void (*)(InspectWork*)> work_{nullptr, nullptr};
};

// The options of generate() from JSON; false with a refusal naming the field.
bool ParseGenerateOptions(const Json& j, GenerateOptions* out, attn::api::PatchResult* refused);

// The highest n of generate() (the page: a token per frame).
constexpr int kMaxGenerate = 256;

}  // namespace app
