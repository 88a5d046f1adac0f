// The Information panel in two files, by idea: panel_information.cpp (the seed's question: two
// scenarios, the weights' ranges given A, the simplex, the probe) and panel_information_model.cpp
// (model mode: the head seen through its layer, "Probe this head"). What one calls of the other.
#pragma once

#include "ui/ui.h"

namespace ui {
namespace information {

// Model mode only (nothing otherwise): what the layer around the head keeps of A.
void DrawLayerInformation(Context& ctx);
// Model mode only: "Probe this head"'s button and numbers.
void DrawModelProbe(Context& ctx);

}  // namespace information
}  // namespace ui
