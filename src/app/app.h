// The application's state and the only ways to change it. The UI panels read `AppState` and
// write settings through ApplyPatch() (the same path as the page API and URL state), so that
// every change is validated by the engine once, in one place.
//
// AppState is a composition of rooms, one sub-folder of src/app/ each, which own their slice of
// the state and their page-API JSON, and give the app one interface (room.h: their part of a
// patch, in two phases, and of a frame); a room works on its own members and a RoomContext (the
// settings, what the others publish, the requests it may make: lab_view.h), never on AppState:
//   attention/      the engine's result, the dragged weights, the probe sweep, getTrace()
//   model/          the trained model: its files, its result, Information, probe, Train it more
//   inspect/        what moved the model's prediction: the logit lens, the attribution, patching,
//                   generation (the Prediction tab)
//   training/       runs A and B of the Training tab, train() and getTraining()
//   normalization/  the Normalization tab's experiments and curves
//   lesson/         the guided lesson: its document (steps, texts), its moves, its answer events,
//                   its readout
//   page/           hide and lock, the view shown, the state in a link, the share snippet
//   exports/        the exports' texts (CSV, SVG, JSON), file names, the colormaps
//   whatif/         the edited run against the plain one (issue 23): Δα, ΔA, the verdict
// This file holds what is common to them: the settings, the refusal, ApplyPatch (which hands a
// patch to each room in turn, through room.h), Tick and NeedsFrames (the same), getTrace (the
// attention room's result with the model's and the what-if's parts); calls.h the rooms' entry
// points for the UI, the platform and the tests, each a call of its room with the context.
// No ImGui, SDL or GL here (library attn_app, tested by tests/app): how things are shown
// (hover, tabs, text size, plot toggles, the last frame's timings) is the UI's own state,
// ui::UiState in src/ui/ui.h.
#pragma once

#include "api/state_json.h"
#include "app/attention/attention.h"
#include "app/inspect/inspect.h"
#include "app/lab_view.h"
#include "app/lesson/lesson_doc.h"
#include "app/model/model.h"
#include "app/normalization/normalization.h"
#include "app/page/page.h"
#include "app/training/training.h"
#include "app/whatif/whatif.h"

#include <functional>
#include <string>

namespace app {

struct AppState {
  attn::api::LabState lab;      // the current *valid* settings, which every room reads
  // The rooms (room.h), in the order the app runs them (app.cpp's Rooms)
  Attention attention;          // attention/
  WhatIf whatif;                // whatif/
  Training training;            // training/
  Model model;                  // model/
  Inspect inspect;              // inspect/
  Normalization normalization;  // normalization/
  Lesson lesson;                // lesson/

  // The sentence box may hold text the engine refused (empty, too long...): it is kept here,
  // apart from lab.config.sentence, so the learner can go on typing. It lives in the app, not
  // the UI, because ApplyPatch decides when it changes: a sentence set any other way (setState,
  // the URL, a token click) replaces it; typing in the box (Source::kSentenceBox) does not.
  std::string sentence_edit;

  // The last refusal (from the text box, a control, setState or the URL), shown until the next
  // accepted change.
  bool has_refusal = false;
  attn::api::PatchResult refusal;

  // Called with the state JSON after every accepted change (URL state, page listeners).
  std::function<void(const std::string&)> on_state_changed;
};

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

// The one refusal: the state stays as it was (r.state becomes it), `r` is recorded for the
// header (and, when the patch came from the example box, under that box), and returned.
// (EngineRefusal, the maths' refusal, is room.h's.)
attn::api::PatchResult Refuse(AppState& s, attn::api::PatchResult r, Source source = Source::kApi);

// Once per frame, before the UI: background work in small pieces (the probe; while playing,
// training steps for about kTrainBudgetMs; Train it more; a slice of the normalization curves).
// Returns what the frame's training did, which the interface shows (ui::UiState).
constexpr double kTrainBudgetMs = 11.0;
FrameWork Tick(AppState& s);  // (FrameWork: room.h)

// True while the app works in the page's frames and the picture moves on its own: playing, a
// long run, the probe, the normalization experiments or their curves. The page draws only when
// something changed (platform/main.cpp); this is the app's "keep drawing".
bool NeedsFrames(const AppState& s);

// What the rooms publish for one another (lab_view.h), as they are now.
LabView View(const AppState& s);
// A room's context (lab_view.h): s.lab, View(s) and the requests answered by the rooms of `s`.
RoomContext Context(AppState& s);

// getTrace(): the trace of the chosen head (api::TraceToJson, the attention room's result). In
// model mode its "config" is the model's effective one and a "model" object adds the ids, the
// word groups, every layer's and head's weights (rows t, keys 0..t, as `attnlab model run`) and
// the next tokens (the model room's). With edits, a "comparison" is added: the what-if room's
// (attnlab trace --compare's "comparison").
std::string TraceJson(const AppState& s);

// getState(): the settings as JSON.
std::string StateJson(const AppState& s);
// Tells the page that the state changed (on_state_changed with StateJson).
void Notify(const AppState& s);

}  // namespace app

#include "app/calls.h"
