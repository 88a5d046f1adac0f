// The inspect room in the default page's build (inspect.h): no model code, so nothing to
// inspect. The room does nothing and its page calls refuse; the page never shows the Prediction
// tab here (model mode moves the lab to the full build first: web/js/model_switch.js). Linked
// instead of inspect.cpp, inspect_jobs.cpp and inspect_json.cpp, which would bring the model's
// tools into the default page's payload.
#include "app/inspect/inspect.h"

namespace app {

namespace {
Json Absent() {
  return Json{{"ok", false}, {"field", "projection"},
              {"error", "projection: this build of the lab has no model code (choose projection model first)"}};
}
}  // namespace

bool Inspect::Prepare(const RoomContext&, const attn::api::LabState&, attn::api::PatchResult*) { return true; }
void Inspect::Tick(const RoomContext&, double, FrameWork*) {}
bool Inspect::NeedsFrames(const attn::api::LabState&, const LabView&) const { return false; }
void Inspect::Publish(LabView*) const {}
void Inspect::WantLens(const RoomContext&) {}
void Inspect::WantAttribution(const RoomContext&) {}
void Inspect::EnsureLens(const RoomContext&) {}
void Inspect::EnsureAttribution(const RoomContext&) {}
bool Inspect::LensCurrent(const RoomContext&) const { return false; }
bool Inspect::AttributionCurrent(const RoomContext&) const { return false; }
bool Inspect::StartPatching(const RoomContext&) { return false; }
void Inspect::CancelPatching() {}
bool Inspect::StepPatching(const RoomContext&, int) { return false; }
bool Inspect::PatchingCurrent(const RoomContext&) const { return false; }
bool Inspect::StartGeneration(const RoomContext&, const GenerateOptions&) { return false; }
void Inspect::CancelGeneration() {}
bool Inspect::StepGeneration(const RoomContext&) { return false; }
void Inspect::ChooseStep(const RoomContext&, int) {}
Json Inspect::LensJson(const RoomContext&) { return Absent(); }
Json Inspect::AttributionJson(const RoomContext&, const Json&) { return Absent(); }
Json Inspect::RunPatchingJson(const RoomContext&, const Json&) { return Absent(); }
Json Inspect::PatchingJson(const RoomContext&) const { return Json(nullptr); }
Json Inspect::StartGenerationJson(const RoomContext&, const Json&) { return Absent(); }
Json Inspect::GenerationJson(const RoomContext&) const { return Json(nullptr); }
Json Inspect::CallJson(const RoomContext&, const std::string&, const Json&) { return Absent(); }
bool ParseGenerateOptions(const Json&, GenerateOptions*, attn::api::PatchResult*) { return false; }

}  // namespace app
