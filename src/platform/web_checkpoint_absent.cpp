// The default page's build has no model code (src/model/lab/absent.cpp) and so no checkpoint to
// open: the buttons that would ask for one are never drawn (ui: ModelCodeInBuild). The build with
// the model's code links web_checkpoint.cpp instead.
#include "platform/platform.h"

void platform::CheckpointRequests(app::AppState&, ui::UiState& ui) {
  ui.open_model_wanted = ui.cancel_model_wanted = ui.forget_models_wanted = false;
}
