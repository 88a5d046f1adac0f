// The what-if room (issue 23, "What if, and what mattered"): the learner's edits of a run (a word
// replaced, deleted or inserted, the tokens shuffled, keys or heads knocked out, a value dragged;
// the state's whatIf*, shuffle*, knockout*, value* rows, engine/whatif/whatif.h) and the comparison of
// the edited run, which the attention room's result already is, with the plain one: Δα of every
// head, ΔA, the change of the verdict (attn::CompareRuns).
//
// One cache idiom, as the model room's: each cache keeps the `key` of what it was computed from
// (the lab's settings as JSON) and is current while the state gives that key. The plain run is
// kept while only the edits change (a value dragged frame by frame costs one run, not two).
// No ImGui, SDL or GL (library attn_app; tests/app/whatif).
#pragma once

#include "api/state_json.h"
#include "app/room.h"
#include "engine/whatif/whatif.h"
#include "model/lab/model_whatif.h"

#include <string>
#include <vector>

namespace app {


// The default page's build has none of the what-if tools (their panel, the Δ pictures and
// exports, the comparison and its JSON: about 20 KB gzipped of the page's 500 KB): asking for
// them, by the What if tab or by edits in the state (a link, setState, a chip's menu), moves
// the lab onto the full build (index-model.wasm: the trained model's code and these tools),
// state and all, as model mode does (web/js/model_switch.js). WhatIfToolsInBuild() is the
// linker's constant (model/lab/absent.cpp's ModelCodeInBuild): the code the default build cannot
// reach is left out of it.
bool WhatIfToolsInBuild();
struct ToolsSwitch {
  bool shown = false;    // the What if tab was drawn (ShowWhatIfTools)
  bool asked = false;    // the platform was asked to move to the full build
  double fraction = 0;   // its download, 0..1
  std::string failed;    // why the download failed ("" = it did not); RetryWhatIfTools asks again
};

// The room (room.h): Adopt brings the comparison up to date with the accepted settings.
struct WhatIf final : Room {
  ToolsSwitch tools;       // the default build only: the move to the full build
  std::string plain_key;   // the settings without edits that `plain` was computed from
  attn::LabResult plain;   // ComputeLab(WithoutEdits(settings))
  std::string key;         // the settings (edits included) of `comparison`; "" = none
  attn::LabComparison comparison;  // CompareRuns(settings, plain, the attention room's result)
  // model mode: the model's result is the plain run; the edited one is compared here
  std::string model_key;                     // the settings of `model`; "" = none
  attn::model::ModelComparison model;        // CompareModelRuns
  attn::LabError model_error;                // why the edited run was refused (the tab says it)

  void Adopt(const RoomContext& c, const attn::api::LabState& before, Source source) override;
  void Publish(LabView* view) const override;

  // Brings the comparison up to date with the settings and the attention room's result (in
  // `view`), after every accepted change (ApplyPatch) and a refreshed model result. Without
  // edits, with a result that is not there (model mode before its files) or in model mode (the
  // engine refuses its edits there), there is none.
  void Update(const attn::api::LabState& lab, const LabView& view);
  // The default build, not asked yet: true while the state has edits or shows the What if tab
  // (ShowTools), until ToolsAsked. The platform then moves the lab (platform.h).
  bool WantsTools(const attn::api::LabState& lab) const;
  void ShowTools() { tools.shown = true; }  // the What if tab is drawn in the default build
  void ToolsAsked();
  void ToolsProgress(double fraction);
  void ToolsFailed(const std::string& message);
  void RetryTools() { tools = ToolsSwitch{}; }
  // The comparison of the current settings, or null when there is none.
  const attn::LabComparison* CurrentComparison() const;
  // The tokens of the sentence as typed, which the edits' indices name (the chips, the what-if
  // panel): the plain run's when the run is edited, else the result's (in `view`).
  const std::vector<attn::Token>& TypedTokens(const LabView& view) const;
  // Model mode's comparison of the current settings, or null when there is none (or it was
  // refused: model_error).
  const attn::model::ModelComparison* CurrentModelComparison() const;
  // getTrace()'s "comparison": attnlab trace --compare's JSON (api::ComparisonToJson), or null;
  // in model mode {sentence, tokens, toEdited, nextPlain, nextEdited, dWeights (layer * H +
  // head), maxAbsDWeight}.
  Json ComparisonJson(const attn::api::LabState& lab) const;
};

// The patch that undoes every edit: the state's whatIf*, shuffle*, knockout*, value* rows at
// their defaults ("Undo every edit").
Json NoEditsPatch();

}  // namespace app
