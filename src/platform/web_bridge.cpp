// The bridge between the page's JavaScript (web/js/, window.attentionLab) and the app.
// Web only: natively every function here is a no-op. Model mode's calls (its files, status,
// probe, Train it more) and the moves to the full build are in web_bridge_model.cpp.
#include "platform/platform.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <imgui.h>
#include <imgui_internal.h>  // the windows' rectangles and scroll positions, the active item

#include "app/lesson/lesson.h"
#include "model/lab/model_lab.h"
#include "platform/web_bridge.h"
#include "ui/ui.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace platform::bridge {

app::AppState* g_state = nullptr;
ui::UiState* g_ui = nullptr;

namespace {
std::string g_out;  // the last string handed to JavaScript (valid until the next call)
}  // namespace

const char* Hand(std::string s) {
  g_out = std::move(s);
  return g_out.c_str();
}

const char* Refusal(const char* field, const char* message) {
  return Hand(attn::api::Dump({{"ok", false}, {"field", field}, {"error", message}}));
}

}  // namespace platform::bridge

namespace {
using namespace platform::bridge;
std::string g_paste;  // pasted text waiting for Ctrl to be released (attnlab_paste)
}  // namespace


// Texts the page leaves in Module for this program to take (read once, then dropped):
// 0 labCarriedState: the state of the page's previous build (web/js/model_switch.js, the switch
// to the build with the model's code); 1 labCarriedLesson: its lesson document, when authored;
// 2 labSiteFile: the last file js_fetch_site_file fetched (or why it could not).
EM_JS(int, js_text_length, (int which), {
  var t = Module[['labCarriedState', 'labCarriedLesson', 'labSiteFile'][which]];
  return typeof t === 'string' ? lengthBytesUTF8(t) : 0;
});
EM_JS(void, js_take_text, (int which, char* dst, int size), {
  var key = ['labCarriedState', 'labCarriedLesson', 'labSiteFile'][which];
  stringToUTF8(Module[key], dst, size);
  Module[key] = null;
});
// A file of the site (app::FetchSiteFile: the lesson documents), by a synchronous same-origin
// request: a lesson is needed inside a call (setState({lesson: 3}), a link, a button) and is
// there when the call returns; the file is small. The text, or why it failed, waits in
// Module.labSiteFile; returns whether it was fetched.
EM_JS(int, js_fetch_site_file, (const char* path), {
  var p = UTF8ToString(path), ok = 0;
  try {
    var x = new XMLHttpRequest();
    x.open('GET', p, false);
    x.overrideMimeType('application/json; charset=utf-8');
    x.send(null);
    ok = x.status === 200;
    Module.labSiteFile = ok ? x.responseText : p + ': HTTP ' + x.status;
  } catch (e) {
    Module.labSiteFile = p + ': ' + ((e && e.message) || e);
  }
  return ok;
});

EM_JS(void, js_state_changed, (const char* json), {
  if (Module.onLabStateChanged) Module.onLabStateChanged(UTF8ToString(json));
});
EM_JS(void, js_ready, (), {
  if (Module.onLabReady) Module.onLabReady();
});
EM_JS(void, js_no_webgl2, (), {
  if (Module.onLabNoWebGL2) Module.onLabNoWebGL2();
});
EM_JS(int, js_language_is_russian, (), {
  var langs = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language || ""];
  return String(langs[0] || "").toLowerCase().indexOf("ru") === 0 ? 1 : 0;
});
EM_JS(void, js_panels_drawn, (const char* ids), {
  if (Module.canvas) Module.canvas.setAttribute('data-panels', UTF8ToString(ids));
});
// After every drawn frame (ReportFrame): `areas` holds 8 floats per scrollable window (x0, y0,
// x1, y1 in CSS pixels of the canvas, scroll x, max scroll x, scroll y, max scroll y), innermost
// last; `popup`: a popup or combo is open (it takes every wheel); `active`: an item is held
// (a slider being dragged, a pressed button); `text`: a text box is active, its caret at
// (tx, ty) with line height th inside a window whose right edge is tr; `wanted`: the height the
// lab would like from what it shows (auto-height, ui::UiState::wanted_height).
EM_JS(void, js_frame, (const float* areas, int count, int popup, int active, int text, float tx, float ty, float th, float tr, float wanted), {
  var a = [];
  for (var i = 0; i < count * 8; i++) a.push(HEAPF32[(areas >> 2) + i]);
  if (Module.onLabFrame) Module.onLabFrame({ areas: a, popup: !!popup, active: !!active,
                                             text: text ? { x: tx, y: ty, h: th, right: tr } : null, wanted: wanted });
});
// Copies through the page (web/js/clipboard.js: navigator.clipboard, or the text selected for the user to
// copy by hand when the browser does not allow it); the answer comes back in attnlab_copy_result.
EM_JS(void, js_copy, (const char* text), {
  var s = UTF8ToString(text);
  if (Module.onLabCopy) Module.onLabCopy(s);
  else if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(s).catch(function() {});
});
// Every function of this block is exported to the page: cmake/Emscripten.cmake reads their
// names from this file for EXPORTED_FUNCTIONS (one keep-alive declaration per function, written
// as `KEEPALIVE <return type> <name>(`), and checks that the page script (web/js/) wraps no other.
extern "C" {

EMSCRIPTEN_KEEPALIVE const char* attnlab_get_state() {
  if (!g_state) return Refusal("", "the lab is not running yet");
  return Hand(app::StateJson(*g_state));
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_set_state(const char* json) {
  platform::RequestFrames(kPageFrames);  // drawn even when refused: the header shows why
  return Guarded([&] { return attn::api::Dump(attn::api::PatchResultToJson(app::ApplyPatchText(*g_state, json ? json : ""))); });
}

// The lesson (app/lesson): attentionLab.setLesson(text) loads a document ({ok, lessonId, steps,
// state} or {ok: false, field, error} naming the path); getLesson() is the loaded document
// ("" before the built-in one is needed); the answer events since the last call, as a JSON
// array; getLessonProgress(); answerLesson(choice) answers the step shown.
EMSCRIPTEN_KEEPALIVE const char* attnlab_set_lesson(const char* json) {
  platform::RequestFrames(kPageFrames);
  if (!g_state) return Refusal("", "the lab is not running yet");
  try {
    const attn::api::PatchResult r = app::LoadLesson(*g_state, json ? json : "");
    return Hand(attn::api::Dump(app::LessonLoadJson(*g_state, r)));
  } catch (const std::exception& e) {
    return Refusal("lesson", e.what());
  }
}
EMSCRIPTEN_KEEPALIVE const char* attnlab_get_lesson() {
  if (!g_state) return "";
  const app::LessonDoc* doc = app::LoadedLesson(*g_state);
  return Hand(doc ? attn::api::Dump(doc->source) : std::string());
}
EMSCRIPTEN_KEEPALIVE const char* attnlab_lesson_events() {
  if (!g_state) return "[]";
  attn::api::Json out = attn::api::Json::array();
  for (attn::api::Json& e : app::TakeLessonEvents(*g_state)) out.push_back(std::move(e));
  return Hand(attn::api::Dump(out));
}
EMSCRIPTEN_KEEPALIVE const char* attnlab_lesson_progress() {
  if (!g_state) return Refusal("", "the lab is not running yet");
  return Hand(attn::api::Dump(app::LessonProgress(*g_state)));
}
EMSCRIPTEN_KEEPALIVE const char* attnlab_answer_lesson(double choice) {
  platform::RequestFrames(kPageFrames);
  if (!g_state) return Refusal("", "the lab is not running yet");
  const bool whole = choice >= 0 && choice < app::kMaxChoices && choice == static_cast<int>(choice);
  return Hand(attn::api::Dump(attn::api::PatchResultToJson(app::AnswerLesson(*g_state, whole ? static_cast<int>(choice) : -1))));
}


EMSCRIPTEN_KEEPALIVE const char* attnlab_get_trace() {
  return Guarded([&] { return app::TraceJson(*g_state); });
}

// attentionLab.train(steps): runs `steps` training steps now (at most app::kMaxApiSteps) and
// returns the metrics of run A (and B). A double, so that JavaScript's NaN or 1.5 arrive as such
// and are refused with a message.
EMSCRIPTEN_KEEPALIVE const char* attnlab_train(double steps) {
  platform::RequestFrames(kPageFrames);  // drawn even when refused: the header shows why
  return Guarded([&] { return app::TrainStepsJson(*g_state, steps); });
}


EMSCRIPTEN_KEEPALIVE const char* attnlab_get_training() {
  return Guarded([&] { return app::TrainingJson(*g_state, app::TrainingJsonOf::kHistory); });
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_get_normalization() {
  return Guarded([&] { return app::NormalizationJson(*g_state); });
}

// Starts experiment 4 (training curves over several seeds); it runs in the page's frames.
EMSCRIPTEN_KEEPALIVE const char* attnlab_run_normalization(const char* json) {
  platform::RequestFrames(kPageFrames);  // drawn even when refused: the header shows why
  return Guarded([&] { return app::RunCurvesJson(*g_state, json ? json : ""); });
}

// The state in a link: applies location.hash (at load and on hashchange) and returns
// {ok, errors: [{field, error}], state}; `lang` is the browser's language, used when the link
// names none ("" for none).
EMSCRIPTEN_KEEPALIVE const char* attnlab_apply_link(const char* hash, const char* lang) {
  platform::RequestFrames(kPageFrames);  // drawn even when refused: the header shows why
  return Guarded([&] { return app::ApplyLinkJson(*g_state, hash ? hash : "", lang ? lang : ""); });
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

// attentionLab.export({what, format}): queues the export (platform/export.cpp) and returns
// {ok: true, id}; the file arrives after the next drawn frame through Module.onLabExport.
// A bad request: {ok: false, field, error}.
EMSCRIPTEN_KEEPALIVE const char* attnlab_export(const char* json) {
  return Guarded([&] { return platform::QueueExport(json ? json : "", false); });
}

// attentionLab.getEmbedSnippet(): the iframe snippet for the current state (app::EmbedSnippet,
// the share popup's), for a lab at `page_url`.
EMSCRIPTEN_KEEPALIVE const char* attnlab_get_embed_snippet(const char* page_url) {
  if (!g_state) return "";
  try {
    return Hand(app::EmbedSnippet(*g_state, page_url ? page_url : ""));
  } catch (const std::exception&) {
    return "";
  }
}

// The lab's own address without the hash (the share popup's base for its link), from the page
// once it runs.
EMSCRIPTEN_KEEPALIVE void attnlab_set_page_url(const char* url) {
  if (g_ui && url) g_ui->page_url = url;
}

// The page's answer to a copy (js_copy): 1 copied, 0 not permitted (the text is selected on the
// page instead). The share popup says which.
EMSCRIPTEN_KEEPALIVE void attnlab_copy_result(int ok) {
  if (g_ui) g_ui->copy_status = ok ? 1 : -1;
  platform::RequestFrames(kPageFrames);
}

// Called by the page's paste listener: SDL has no clipboard in the browser. The text is typed
// into the active text box at once, or, when ImGui holds Ctrl (Cmd), once it is up: Dear ImGui
// 1.86 ignores typed characters while it is held (the page's text input never hands Ctrl+V to
// SDL; the canvas does). This is the only way text is pasted (ImGui's own Ctrl+V finds an empty
// clipboard, ConnectPage), so it is pasted once, whether or not ImGui saw the key in some frame.
EMSCRIPTEN_KEEPALIVE void attnlab_paste(const char* text) {
  if (!text || !ImGui::GetCurrentContext() || !ImGui::GetIO().WantTextInput) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.KeyCtrl || io.KeySuper) g_paste += text;
  else ImGui::GetIO().AddInputCharactersUTF8(text);
  platform::RequestFrames(kPageFrames);
}

// Text from the page's own text input (phones' keyboards, input methods, composition): typed
// into the active text box. SDL only sees keypress events, which input methods do not send.
EMSCRIPTEN_KEEPALIVE void attnlab_type_text(const char* text) {
  if (text && ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput) ImGui::GetIO().AddInputCharactersUTF8(text);
  platform::RequestFrames(kPageFrames);
}

// A touch that the page turned into a scroll (of the page or of a panel): whatever the touch
// pressed (a button, a chip) is let go without being clicked.
EMSCRIPTEN_KEEPALIVE void attnlab_release_pointer() {
  if (ImGui::GetCurrentContext()) ImGui::ClearActiveID();
  platform::RequestFrames(kPageFrames);
}

}  // extern "C"

namespace platform {

namespace {
// A text the page left in Module (js_text_length), taken ("" when none).
std::string TakeText(int which) {
  const int n = js_text_length(which);
  std::string text(static_cast<std::size_t>(n), '\0');
  if (n > 0) js_take_text(which, &text[0], n + 1);
  return text;
}
}  // namespace

void ConnectPage(app::AppState& state) {
  g_state = &state;
  // The default page's build hands the lab over (model mode): its state, applied before this
  // program's first frame, so the learner never sees a default lab in between.
  // Its lesson document first (an authored one: the built-in one is fetched again when needed).
  const std::string lesson = TakeText(1);
  if (!lesson.empty()) {
    const attn::api::PatchResult r = app::LoadLesson(state, lesson, "", /*open=*/false);
    if (!r.ok) std::fprintf(stderr, "the carried lesson was refused: %s\n", r.message.c_str());
  }
  const std::string carried = TakeText(0);
  if (!carried.empty()) {
    const attn::api::PatchResult r = app::ApplyPatchText(state, carried);
    if (!r.ok) std::fprintf(stderr, "the carried state was refused: %s\n", r.message.c_str());
  }
  state.on_state_changed = [](const std::string& json) {
    platform::RequestFrames(kPageFrames);
    js_state_changed(json.c_str());
  };
  ImGuiIO& io = ImGui::GetIO();
  io.SetClipboardTextFn = [](void*, const char* text) { js_copy(text); };
  io.GetClipboardTextFn = [](void*) { return ""; };  // pastes come from the page: attnlab_paste
}

void NotifyPageReady() { js_ready(); }

void ReportNoGraphics() { js_no_webgl2(); }
void ConnectUi(ui::UiState& ui) { g_ui = &ui; }

const char* PreferredLanguage() { return js_language_is_russian() ? "ru" : "en"; }

void ReportPanelsDrawn(const std::vector<std::string>& ids) {
  std::string joined;
  for (const std::string& id : ids) joined += (joined.empty() ? "" : " ") + id;
  js_panels_drawn(joined.c_str());
}

void ReportFrame() {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  ImGuiIO& io = ImGui::GetIO();
  if (!g_paste.empty() && !io.KeyCtrl && !io.KeySuper) {  // typed in the next frame
    if (io.WantTextInput) io.AddInputCharactersUTF8(g_paste.c_str());
    g_paste.clear();
    RequestFrames(kPageFrames);
  }
  static std::vector<float> areas;
  areas.clear();
  bool popup = false;
  for (const ImGuiWindow* w : g.Windows) {  // back to front: children after their parents
    if (!w->WasActive || w->Hidden) continue;
    if (w->Flags & ImGuiWindowFlags_Popup) popup = true;
    if (w->Flags & (ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_Tooltip)) continue;
    if (w->ScrollMax.x <= 0 && w->ScrollMax.y <= 0) continue;
    const ImRect& r = w->OuterRectClipped;
    areas.insert(areas.end(), {r.Min.x, r.Min.y, r.Max.x, r.Max.y, w->Scroll.x, w->ScrollMax.x, w->Scroll.y, w->ScrollMax.y});
  }
  const bool text = io.WantTextInput && g.PlatformImePos.x < FLT_MAX;
  const float right = g.ActiveIdWindow ? g.ActiveIdWindow->InnerRect.Max.x : g.PlatformImePos.x;
  js_frame(areas.data(), static_cast<int>(areas.size() / 8), popup, ImGui::IsAnyItemActive(), text,
           g.PlatformImePos.x, g.PlatformImePos.y, g.FontSize, right, g_ui ? g_ui->wanted_height : 0.0f);
}

}  // namespace platform

namespace app {

bool FetchSiteFile(const std::string& path, std::string* text, std::string* error) {
  const bool ok = js_fetch_site_file(path.c_str());
  (ok ? *text : *error) = platform::TakeText(2);
  return ok;
}

}  // namespace app

#else  // native: the desktop window has no page around it

namespace platform {
void ConnectPage(app::AppState&) {}
void NotifyPageReady() {}
void ReportNoGraphics() {}
void ConnectUi(ui::UiState&) {}
const char* PreferredLanguage() { return ""; }
void ReportPanelsDrawn(const std::vector<std::string>&) {}
void ReportFrame() {}
}  // namespace platform

#endif
