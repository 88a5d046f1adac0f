// The platform layer's small interface to the rest of the program (sokol-style: the app never
// owns the main loop). Everything that knows about SDL, GL contexts or Emscripten is in
// src/platform/.
#pragma once

#include "app/app.h"

#include <string>
#include <vector>

namespace platform {

// Web only (web_bridge.cpp): connects the page's JavaScript (window.attentionLab) to `state`,
// sets up the clipboard and reports readiness. No-ops natively.
void ConnectPage(app::AppState& state);
void NotifyPageReady();
// The browser's language ("ru" or "en"), or "" natively.
const char* PreferredLanguage();
// Web only: the ids of the panels drawn in the last frame (ui::UiState::panels_drawn) as the
// canvas's data-panels attribute, space-separated, so that a browser test can tell which tab
// is really shown. Called when the list changes.
void ReportPanelsDrawn(const std::vector<std::string>& ids);

}  // namespace platform
