// The application's state and the only ways to change it. The UI panels read `AppState` and
// write settings through ApplyPatch() (the same path as the page API and URL state), so that
// every change is validated by the engine once, in one place.
#pragma once

#include "api/state_json.h"

#include <functional>
#include <vector>
#include <string>

namespace app {

using attn::api::Json;

struct AppState {
  attn::api::LabState lab;  // the current *valid* settings
  attn::LabResult result;   // the engine's numbers for `lab`; every panel draws from this

  // The sentence box may hold text the engine refused (empty, too long...): it is kept here,
  // apart from lab.config.sentence, so the learner can go on typing.
  std::string sentence_edit;

  // The last refusal (from the text box, a control, setState or the URL), shown until the next
  // accepted change.
  bool has_refusal = false;
  attn::api::PatchResult refusal;

  // The probe experiment (information panel): accuracy of a readout that sees only A, run on
  // demand because it trains a model (a fraction of a second).
  struct ProbePoint {
    int tokens, d_v, heads;
    double accuracy, chance;
  };
  std::vector<ProbePoint> probe;
  std::vector<attn::ProbeConfig> probe_queue;  // runs still to do, one per frame (the page stays
  int probe_total = 0;                         // responsive and shows progress)

  // The information panel's scenario 1 with weights the learner dragged (instead of the
  // query's own); cleared by any accepted state change.
  struct CustomWeights {
    bool active = false;
    attn::VecD alpha;                     // (N) on the simplex
    attn::InformationReport info;         // AnalyzeInformation for these weights
    std::vector<attn::VecD> vertices;     // SameOutputVertices for these weights
    attn::MatD contributions, contributions2;  // (N, Dv) w_i v_i of both scenarios
  } custom;

  // Interface-only state.
  int phone_tab = 0;          // which panel the phone layout shows
  std::string shown_view;     // lab.view as last brought to the front (tabs follow changes)
  int hovered_key = -1;       // token under the mouse in the steps panel or heatmap, or -1
  float ui_scale = 1.0f;      // 1 on a laptop; larger on a projector ("teacher mode")

  // Called with the state JSON after every accepted change (URL state, page listeners).
  std::function<void(const std::string&)> on_state_changed;
};

enum class Source { kUi, kSentenceBox, kApi };

void InitApp(AppState& s);

// Applies a partial state (same fields as window.attentionLab.setState). On success recomputes
// and notifies; on refusal keeps the previous state and records the message for the UI.
attn::api::PatchResult ApplyPatch(AppState& s, const Json& patch, Source source = Source::kUi);
attn::api::PatchResult ApplyPatchText(AppState& s, const std::string& json_text);

// Drags weight `token` of scenario 1 to `value` (the engine keeps the weights on the simplex and
// recomputes the information report for them); ClearCustomWeights returns to the query's own.
void SetCustomWeight(AppState& s, int token, double value);
void ClearCustomWeights(AppState& s);

// Queues the probe over d_v in {1, 2, 4, 8, 16} at the current number of tokens, and over 2 and
// 4 heads at d_v = 16; Tick() runs one queued run per frame, appending to s.probe.
void StartProbeSweep(AppState& s);

// Once per frame, before the UI: background work in small pieces (the probe).
void Tick(AppState& s);

std::string StateJson(const AppState& s);
std::string TraceJson(const AppState& s);

}  // namespace app
