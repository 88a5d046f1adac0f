// The Prediction tab in the default page's build (ui.h): never shown there (model mode moves the
// lab to the build with the model's code first), so nothing to draw; its panels (panel_prediction*.cpp)
// stay out of the default page's payload.
#include "ui/ui.h"

namespace ui {

void DrawPredictionPage(Context&, bool) {}

}  // namespace ui
