// The model room: the trained model (issue 13; projection "model") in the app. Its files are
// fetched only when the mode is first chosen; then the lab's result is the model's chosen layer
// and head. Around it: Information on a real head (model_info.cpp), "Probe this head"
// (model_probe.cpp) and "Train it more" (tune.cpp).
//
// One cache idiom for everything computed from the model and kept: the cache holds the `key` of
// what it was computed from, a function of the state (InformationKey, ProbeKey, SessionKey); it
// is current while that function gives the same key.
// No ImGui, SDL or GL (library attn_app; tests/app/model).
#pragma once

#include "api/state_json.h"
#include "app/room.h"
#include "model/training/finetune.h"
#include "model/inspect/head_information.h"
#include "model/inspect/head_probe.h"
#include "model/inspect/offsets.h"
#include "model/lab/model_lab.h"
#include "model/lab/model_whatif.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace app {


enum class ModelLoad {
  kNotRequested,  // nobody asked for the model yet (no request has been made)
  kLoading,       // the platform is fetching the files (ModelStatus::fraction)
  kReady,         // Model::loaded holds it
  kFailed         // ModelStatus::message says why; RetryModel asks again
};
struct ModelStatus {
  ModelLoad load = ModelLoad::kNotRequested;
  double fraction = 0;   // kLoading: bytes received / expected, 0..1
  double bytes = 0, total_bytes = 0;  // kLoading a checkpoint: its weights' bytes so far, in all
  std::string name;      // kLoading: what loads ("" the lab's own model)
  std::string message;   // kFailed: English, one line (the UI adds a translated sentence); with a
                         // model still held (`loaded`), that model stays in use
};

// Information, on a real head: the chosen head seen through its layer (concat, W_O, the
// residual, the MLP), computed by EnsureModelInformation when the Information panel shows a
// model result.
struct ModelInformation {
  attn::model::HeadInformation value;
  bool ok = false;
  std::string key;  // InformationKey: the layer, head, query, target and the numbers it read
};

// "Probe this head": model::ProbeHeadOnText on the chosen layer and head, on the built-in text of
// the interface language. Queued by the button, it runs in Tick after one frame that says
// "probing…" (~0.6 s natively, ~1 s in the page); the result is shown while its layer, head,
// language and weights (Train it more) are the current ones.
struct ModelProbe {
  int wait = -1;               // >= 0: queued; Tick counts down to 0, then runs it
  bool has = false;            // result / error hold the last probe's
  int layer = 0, head = 0;
  std::string lang;            // "en" / "ru": the text it ran on
  std::string key;             // ProbeKey: the layer, head, language and weights it ran on
  attn::model::TextProbe result;
  std::string error;           // the refusal ("" = ok)
  double ms = 0;               // how long it took
};

// Why "Train it more" did not start (Tune::refusal).
enum class TuneRefusal { kNone, kNoModel, kNotTrainable, kTooBig, kNoText, kText, kDiverged };

// "Train it more": the loaded model's training continued on a text in the page's frames; the
// weights it changes are loaded->params (ResetTune copies the shipped ones back).
struct Tune {
  attn::model::TuneSession session;
  std::string key;             // SessionKey: the settings and text the session started with: the
                               // same again continues it (N then M steps = N + M), others restart
  int run_from = 0, run_to = 0;  // a run from step run_from until session.step() == run_to
                                 // (0: none), with a progress bar
  bool trained = false;        // loaded->params differ from the shipped weights
  TuneRefusal refusal = TuneRefusal::kNone;  // why the last start failed (the UI says it)
  attn::model::TuneTextProblem problem;      // refusal kText: what is wrong with the text
  attn::model::TuneMemory memory;            // refusal kTooBig: what a run would need, the limit
  std::string error;           // the same in English, one line ("" = none)
  bool texts_loaded = false;   // the built-in texts (web/tune/en.txt, ru.txt), handed over by
  std::string text_en, text_ru;  // the platform with the model's files
};

// Which keys mattered to the prediction (issue 23, the Information panel in model mode): for every
// token i, the log-probability of the likeliest next token with key i knocked out of the chosen
// head, minus the plain one (model::KeyNextTokenEffects, as `attnlab model contributions`). One
// forward pass per key: the page computes one key per frame while the panel shows them.
struct ModelKeyEffects {
  std::string key;                          // EffectsKey: the tokens, layer, head and weights
  attn::model::NextTokenEffects value;      // value.delta.size() keys done so far
  int total = 0;                            // the keys to do (the run's tokens)
  std::string error;                        // a refusal ("" = none)
};

// The RoPE scene (issue 39; model/inspect/offsets.h) for the query shown and the key its head
// leans on, computed when the Positions panel shows it (a few ms: twenty layer-0 forwards).
struct ModelOffsets {
  std::string key;  // OffsetsKey: the tokens, layer, head, query and the layer-0 input
  bool ok = false;
  attn::model::OffsetScene value;
  int query = -1, key_position = -1;
  std::string error;
};

// The room (room.h): the model's files and everything computed from them; the lab's result in
// model mode is the attention room's (it computes it with the model's forward, which it owns
// too: model_result, read here through LabView). Tick runs Train it more, the queued probe and
// the key effects.
struct Model final : Room {
  std::unique_ptr<attn::model::LabModel> loaded;  // null until its files are loaded
  ModelStatus status;
  std::string requested_url;  // the modelUrl last asked for (Wants compares the state's with it)
  int weights_version = 0;    // one more whenever loaded->params change (a model arrives, Train
                              // it more steps, Reset): what others computed from them is stale
  ModelInformation info;
  ModelKeyEffects effects;
  ModelOffsets offsets;
  ModelProbe probe;
  Tune tune;

  void Tick(const RoomContext& c, double budget_ms, FrameWork* work) override;
  bool NeedsFrames(const attn::api::LabState& lab, const LabView& view) const override;
  void Publish(LabView* view) const override;

  // ---- loading (model.cpp) ------------------------------------------------------------------
  // Model mode asks for the files once: Wants is true while projection is "model" and the model
  // was never requested (or Retry was called after a failure); the platform then calls Requested
  // and starts fetching (page: web/js/model_switch.js; desktop: the folder). Progress and failure
  // come back through Progress / LoadFailed; the files through FilesArrived, which loads them
  // (model::LoadLabModel: every check; `digests` are the SHA-256s the platform computed, name ->
  // hex, possibly none in a page without WebCrypto) and has the result recomputed (Refresh).
  // Returns false with the message (then the status is kFailed).
  // The state's modelUrl names the model (lab.model_url: "" = the lab's own): a new one is wanted
  // too, while the model held stays in use until it arrives; a failure or a cancel keeps it.
  bool Wants(const attn::api::LabState& lab) const;
  void Requested(const std::string& url);
  void Loading(const std::string& name);  // a load the platform starts itself (the page's files)
  void Progress(double fraction);
  void Bytes(double bytes, double total);  // a checkpoint's weights: bytes so far, in all
  void LoadFailed(const std::string& message);
  void Cancelled();  // the learner's Cancel: the model held (if any) stays, as it was
  bool FilesArrived(const RoomContext& c, const std::vector<std::pair<std::string, std::string>>& files,
                    const std::map<std::string, std::string>& digests, std::string* error);
  // A model the platform loaded itself (the desktop's folder: model_folder.h), which replaces the
  // one held, if any; what depended on the old one ("Train it more", the probe, the caches) is
  // computed again.
  void Arrived(const RoomContext& c, std::unique_ptr<attn::model::LabModel> m);
  void Retry();
  // After the model's files arrived: the result again (settings accepted before the files came,
  // a link's layer 7 of 4, are refused now, in the header like any refusal); the page is told.
  void Refresh(const RoomContext& c);
  // The model's part of getTrace(): {ids, tokens, words, wordStart, layer, head, weights, next,
  // shape, keyEffects, offsets}.
  Json TraceJson(const attn::api::LabState& lab, const LabView& view) const;

  // ---- Information, on a real head (model_info.cpp) -----------------------------------------
  // Fills info for the result shown, unless it already holds it (the same key); in other modes
  // or without a model it clears info.ok. A few ms; up to ~0.4 s natively for a query that sees
  // 50+ keys (the residual's 2n + 1 LPs).
  void EnsureInformation(const attn::api::LabState& lab, const LabView& view);

  // ---- the keys' effect on the next token (model_effects.cpp) --------------------------------
  // WantKeyEffects: the panel shows them now (restarts them when the tokens, layer, head or
  // weights changed); TickKeyEffects computes keys within the budget (at least one);
  // KeyEffectsRunning while keys are left for the current result. FinishKeyEffects computes the
  // rest now (the page API's getTrace()). Json: null when none were asked for, else {layer,
  // head, nextId, next, logp, done, of, delta, logpWithout} (attnlab model contributions' "next"
  // with the progress).
  void WantKeyEffects(const attn::api::LabState& lab, const LabView& view);
  void TickKeyEffects(const attn::api::LabState& lab, const LabView& view, double budget_ms);
  void FinishKeyEffects(const attn::api::LabState& lab, const LabView& view);
  bool KeyEffectsRunning(const attn::api::LabState& lab, const LabView& view) const;
  Json KeyEffectsJson(const attn::api::LabState& lab, const LabView& view) const;

  // ---- the RoPE scene (model_offsets.cpp) ----------------------------------------------------
  // EnsureOffsets: the scene for the result shown, unless offsets holds it already; OffsetsJson:
  // getTrace()'s model.offsets (`attnlab model offsets`' JSON), null when it was not asked for.
  void EnsureOffsets(const attn::api::LabState& lab, const LabView& view);
  Json OffsetsJson(const attn::api::LabState& lab, const LabView& view) const;

  // ---- "Probe this head" (model_probe.cpp) ----------------------------------------------------
  // StartProbe queues the probe (Tick runs it after a frame that says "probing…"); RunProbe runs
  // it now (false: probe.error). ProbeCurrent: the last probe is of the current layer, head,
  // language and weights. ProbeJson: null without a probe, else {ok, error} or `attnlab model
  // probe`'s JSON with ok, lang, current and ms added (getModelStatus().probe); ProbeHeadJson is
  // the page API's probeHead(): runs it now and returns that.
  void StartProbe();
  bool RunProbe(const attn::api::LabState& lab);
  void TickProbe(const attn::api::LabState& lab);
  bool ProbeCurrent(const attn::api::LabState& lab) const;
  Json ProbeJson(const attn::api::LabState& lab) const;
  std::string ProbeHeadJson(const attn::api::LabState& lab);

  // ---- "Train it more" (tune.cpp) -------------------------------------------------------------
  // The built-in texts, handed over by the platform (page: fetched with the model's files; the
  // desktop: read from web/tune/).
  void TuneTextsArrived(const std::string& en, const std::string& ru);
  // The text the state names (tuneText, tuneOwn; "auto" = the interface language's).
  std::string TuneText(const attn::api::LabState& lab) const;
  // Starts a run of `steps` steps (the state's tune_steps, or tuneModel's) in the coming frames
  // (Tick), continuing the session when the text and settings are the ones it started with, else
  // a new one from the current weights. False (tune.refusal, tune.error) without the model,
  // before the built-in texts came, or for a text model::TuneStream refuses.
  bool StartTune(const attn::api::LabState& lab, int steps, std::string* error = nullptr);
  void StopTune() { tune.run_to = 0; }  // ends the run after the current unit
  void ResetTune(const RoomContext& c);  // the shipped weights back, the session and history gone
  bool TuneRunning() const { return tune.run_to > 0; }
  // Tick's part: units until `budget_ms` (at least one); returns the units run, *ms their time.
  int TickTune(const RoomContext& c, double budget_ms, double* ms);
  // The page API: tuneModel({steps?}) starts a run ({ok, ...status} or {ok: false, field,
  // error}); the status: {loaded, running, step, runFrom, runTo, unit, unitsPerStep, tokens,
  // length, trained, losses, error, checksum, shippedChecksum} (checksums: model::ParamsChecksum).
  std::string TuneModelJson(const attn::api::LabState& lab, const std::string& json_options);
  Json TuneStatusJson() const;
};

}  // namespace app
