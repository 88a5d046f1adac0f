// The one interface every room of src/app/ gives the app (app.cpp): its part of a patch, in two
// phases so that a refusal anywhere keeps every room as it was, and its share of a frame. The
// app runs the rooms in a fixed order (Rooms in app.cpp); a room that has no part in a phase
// keeps the default, which does nothing.
//
//   ApplyPatch:  Expand (the patch as given -> the patch to apply: the lesson brings its step's
//                settings) -> the settings row by row (api/state_json.h) -> Prepare (each room
//                computes what the new settings need, and may refuse) -> Adopt (every room
//                accepted: each takes what it prepared)
//   Tick:        Tick (background work within a budget), NeedsFrames (the page keeps drawing)
//   Publish:     its results, read-only, for the other rooms (lab_view.h)
//
// A room works on its own members and a RoomContext (lab_view.h: the settings, what the other
// rooms publish, the requests it may make of them), never on AppState. A room's Prepare and
// Adopt are one pair: what Prepare computed waits in the room until Adopt (or the next Prepare,
// when another room refused). No ImGui, SDL or GL (library attn_app).
#pragma once

#include "api/state_json.h"
#include "app/lab_view.h"

namespace app {

// What a frame's background work did (Tick), which the interface shows (ui::UiState).
struct FrameWork {
  int train_steps = 0;  // training steps run in this frame, and the time they took (ms)
  double train_ms = 0;
  int tune_units = 0;   // Train it more: units run, and their time (ms)
  double tune_ms = 0;
};

// The maths refused a result (`e`, e.g. overflowing scores): the refusal that says so (app.cpp).
attn::api::PatchResult EngineRefusal(const attn::LabError& e);

class Room {
 public:
  // The patch as given -> the patch to apply; false refuses it (*refused says why).
  virtual bool Expand(const RoomContext&, attn::api::Json*, attn::api::PatchResult*) { return true; }
  // The new settings, valid row by row: compute what this room needs for them; false refuses
  // the patch (*refused says why). A pointer, not a returned PatchResult: most rooms have no
  // part, and each PatchResult made and dropped per room costs the page's payload.
  virtual bool Prepare(const RoomContext&, const attn::api::LabState& /*next*/, attn::api::PatchResult*) {
    return true;
  }
  // Every room accepted: the context's lab is the new state (`before` the one it replaced); take
  // what Prepare computed.
  virtual void Adopt(const RoomContext&, const attn::api::LabState& /*before*/, Source) {}

  // Does the room's Tick share the training budget this frame (training and the normalization
  // curves split it when both run)?
  virtual bool SharesBudget(const attn::api::LabState&) const { return false; }
  // Once per frame, before the UI: background work until `budget_ms` (what it did into *work).
  virtual void Tick(const RoomContext&, double /*budget_ms*/, FrameWork*) {}
  // True while the room works in the page's frames and the picture moves on its own.
  virtual bool NeedsFrames(const attn::api::LabState&, const LabView&) const { return false; }

  // Its part of what the rooms publish for one another (lab_view.h): pointers into itself.
  virtual void Publish(LabView*) const {}

 protected:
  // Rooms are members of AppState, never deleted through a Room*: no virtual destructor (each
  // would be kept in the page's code for a vtable entry nothing calls).
  ~Room() = default;
};

}  // namespace app
