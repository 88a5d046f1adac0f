// Activation patching's export in the default page's build (figure_export.h): never a run here
// (the Prediction tab is the full build's), so always the refusal.
#include "app/exports/figure_export.h"

namespace app {

std::string PatchingExport(const LabView&, const std::string&, std::string* why) {
  *why = "what: expected a picture the lab draws now, got \"patching\" (choose projection model first)";
  return "";
}

}  // namespace app
