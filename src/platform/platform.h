// The platform layer's small interface to the rest of the program (sokol-style: the app never
// owns the main loop). Everything that knows about SDL, GL contexts or Emscripten is in
// src/platform/.
#pragma once

#include "app/app.h"

namespace platform {

// Web only (web_bridge.cpp): connects the page's JavaScript (window.attentionLab) to `state`,
// sets up the clipboard and reports readiness. No-ops natively.
void ConnectPage(app::AppState& state);
void NotifyPageReady();
// The browser's language ("ru" or "en"), or "" natively.
const char* PreferredLanguage();

}  // namespace platform
