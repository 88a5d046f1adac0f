// What the two files of the page's bridge share (web_bridge.cpp, web_bridge_model.cpp); web only,
// included by them alone.
#pragma once

#include "app/app.h"
#include "ui/ui.h"

#include <exception>
#include <string>

namespace platform::bridge {

extern app::AppState* g_state;  // the running lab (ConnectPage), null before
extern ui::UiState* g_ui;       // its interface's state (ConnectUi)
constexpr int kPageFrames = 4;  // frames drawn after a call from the page (render on demand)

// Returns a pointer JavaScript reads at once (UTF8ToString) and does not keep.
const char* Hand(std::string s);
// {ok: false, field, error}, handed over.
const char* Refusal(const char* field, const char* message);

// A page call's answer: make() (JSON text) handed over, or a refusal when the lab is not running
// yet or the call threw: a C++ exception must never reach the page as an abort.
template <typename F>
const char* Guarded(F make) {
  if (!g_state) return Refusal("", "the lab is not running yet");
  try {
    return Hand(make());
  } catch (const std::exception& e) {
    return Refusal("", e.what());
  }
}

}  // namespace platform::bridge
