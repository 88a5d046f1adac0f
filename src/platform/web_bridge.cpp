// The bridge between the page's JavaScript (web/lab.js, window.attentionLab) and the app.
// Web only: natively every function here is a no-op.
#include "platform/platform.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <imgui.h>

#include <string>

namespace {

app::AppState* g_state = nullptr;
std::string g_out;        // the last string handed to JavaScript (valid until the next call)
std::string g_clipboard;  // what was last pasted into the page, for ImGui's Ctrl+V

// Returns a pointer JavaScript reads at once (UTF8ToString) and does not keep.
const char* Hand(std::string s) {
  g_out = std::move(s);
  return g_out.c_str();
}

const char* Refusal(const char* field, const char* message) {
  return Hand(attn::api::Dump({{"ok", false}, {"field", field}, {"error", message}}));
}

}  // namespace

EM_JS(void, js_state_changed, (const char* json), {
  if (Module.onLabStateChanged) Module.onLabStateChanged(UTF8ToString(json));
});
EM_JS(void, js_ready, (), {
  if (Module.onLabReady) Module.onLabReady();
});
EM_JS(int, js_language_is_russian, (), {
  var langs = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language || ""];
  return String(langs[0] || "").toLowerCase().indexOf("ru") === 0 ? 1 : 0;
});
EM_JS(void, js_panels_drawn, (const char* ids), {
  if (Module.canvas) Module.canvas.setAttribute('data-panels', UTF8ToString(ids));
});
EM_JS(void, js_copy, (const char* text), {
  var s = UTF8ToString(text);
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(s).catch(function() {});
});

// Every function of this block is exported to the page: cmake/Emscripten.cmake reads their
// names from this file for EXPORTED_FUNCTIONS (one keep-alive declaration per function, written
// as `KEEPALIVE <return type> <name>(`), and checks that web/lab.js wraps no other.
extern "C" {

EMSCRIPTEN_KEEPALIVE const char* attnlab_get_state() {
  if (!g_state) return Refusal("", "the lab is not running yet");
  return Hand(app::StateJson(*g_state));
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_set_state(const char* json) {
  if (!g_state) return Refusal("", "the lab is not running yet");
  try {
    return Hand(attn::api::Dump(attn::api::PatchResultToJson(app::ApplyPatchText(*g_state, json ? json : ""))));
  } catch (const std::exception& e) {  // never an abort: the page must keep working
    return Refusal("", e.what());
  }
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_get_trace() {
  if (!g_state) return Refusal("", "the lab is not running yet");
  try {
    return Hand(app::TraceJson(*g_state));
  } catch (const std::exception& e) {
    return Refusal("", e.what());
  }
}

// attentionLab.train(steps): runs `steps` training steps now (at most app::kMaxApiSteps) and
// returns the metrics of run A (and B). A double, so that JavaScript's NaN or 1.5 arrive as such
// and are refused with a message.
EMSCRIPTEN_KEEPALIVE const char* attnlab_train(double steps) {
  if (!g_state) return Refusal("", "the lab is not running yet");
  try {
    return Hand(app::TrainJson(*g_state, steps));
  } catch (const std::exception& e) {
    return Refusal("", e.what());
  }
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_get_training() {
  if (!g_state) return Refusal("", "the lab is not running yet");
  try {
    return Hand(app::TrainingJson(*g_state));
  } catch (const std::exception& e) {
    return Refusal("", e.what());
  }
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_get_normalization() {
  if (!g_state) return Refusal("", "the lab is not running yet");
  try {
    return Hand(app::NormalizationJson(*g_state));
  } catch (const std::exception& e) {
    return Refusal("", e.what());
  }
}

// Starts experiment 4 (training curves over several seeds); it runs in the page's frames.
EMSCRIPTEN_KEEPALIVE const char* attnlab_run_normalization(const char* json) {
  if (!g_state) return Refusal("", "the lab is not running yet");
  try {
    return Hand(app::RunCurvesJson(*g_state, json ? json : ""));
  } catch (const std::exception& e) {
    return Refusal("", e.what());
  }
}

// The state in a link: applies location.hash (at load and on hashchange) and returns
// {ok, errors: [{field, error}], state}; `lang` is the browser's language, used when the link
// names none ("" for none).
EMSCRIPTEN_KEEPALIVE const char* attnlab_apply_link(const char* hash, const char* lang) {
  if (!g_state) return Refusal("", "the lab is not running yet");
  try {
    return Hand(app::ApplyLinkJson(*g_state, hash ? hash : "", lang ? lang : ""));
  } catch (const std::exception& e) {
    return Refusal("", e.what());
  }
}

// The hash for the current state ("#sentence=...&query=1&..."), written after every change.
EMSCRIPTEN_KEEPALIVE const char* attnlab_get_link() {
  if (!g_state) return "";
  try {
    return Hand(app::LinkText(*g_state));
  } catch (const std::exception&) {
    return "";
  }
}

// Called by the page's paste listener: SDL has no clipboard in the browser.
EMSCRIPTEN_KEEPALIVE void attnlab_paste(const char* text) {
  g_clipboard = text ? text : "";
  if (ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput) ImGui::GetIO().AddInputCharactersUTF8(g_clipboard.c_str());
}

}  // extern "C"

namespace platform {

void ConnectPage(app::AppState& state) {
  g_state = &state;
  state.on_state_changed = [](const std::string& json) { js_state_changed(json.c_str()); };
  ImGuiIO& io = ImGui::GetIO();
  io.SetClipboardTextFn = [](void*, const char* text) { js_copy(text); };
  io.GetClipboardTextFn = [](void*) { return g_clipboard.c_str(); };
}

void NotifyPageReady() { js_ready(); }

const char* PreferredLanguage() { return js_language_is_russian() ? "ru" : "en"; }

void ReportPanelsDrawn(const std::vector<std::string>& ids) {
  std::string joined;
  for (const std::string& id : ids) joined += (joined.empty() ? "" : " ") + id;
  js_panels_drawn(joined.c_str());
}

}  // namespace platform

#else  // native: the desktop window has no page around it

namespace platform {
void ConnectPage(app::AppState&) {}
void NotifyPageReady() {}
const char* PreferredLanguage() { return ""; }
void ReportPanelsDrawn(const std::vector<std::string>&) {}
}  // namespace platform

#endif
