// What the two files of the page's bridge share (web_bridge.cpp, web_bridge_model.cpp); web only,
// included by them alone.
#pragma once

#include "app/app.h"
#include "ui/ui.h"

#include <string>

namespace platform::bridge {

extern app::AppState* g_state;  // the running lab (ConnectPage), null before
extern ui::UiState* g_ui;       // its interface's state (ConnectUi)
constexpr int kPageFrames = 4;  // frames drawn after a call from the page (render on demand)

// Returns a pointer JavaScript reads at once (UTF8ToString) and does not keep.
const char* Hand(std::string s);
// {ok: false, field, error}, handed over.
const char* Refusal(const char* field, const char* message);

}  // namespace platform::bridge
