// Attention Lab's entry point: SDL2 + OpenGL (WebGL2 in the browser, GL 3.3 core natively),
// Dear ImGui, and the app. Reads top to bottom:
//   1. SDL and the GL context   2. Dear ImGui   3. the app   4. the frame   5. the main loop
//
// Render on demand: the loop runs on every animation frame, but a frame draws (any GL call at
// all) only when something changed: an input event (then a few more frames: ImGui lays out over
// two frames and hover/active states settle), a change from the page (RequestFrames, called by
// the bridge), the app working in the page's frames (app::NeedsFrames: playing, a long run, the
// probe, the experiments), a tab being brought to the front, a resize or a restored GL context.
// Otherwise: no drawing at all (the text caret does not blink, so that it never needs a frame).
#include "app/app.h"
#include "app/exports/colormap.h"
#include "gfx/heatmap_renderer.h"
#include "gfx/gl.h"
#include "platform/platform.h"
#include "ui/ui.h"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/html5.h>
#endif

namespace {

constexpr int kSettleFrames = 4;  // frames drawn after a change: ImGui settles in 2-3

int g_requested_frames = 0;  // platform::RequestFrames, consumed by the next Frame()

struct Runtime {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  app::AppState state;
  ui::UiState ui;
  gfx::HeatmapRenderer heatmap;
  ui::Fonts fonts;
  float font_ratio = 0, font_scale = 0;  // what the font atlas was built for
  bool context_lost = false;
  bool running = true;
  bool announced = false;
  std::vector<std::string> panels_reported;  // what the page was last told was drawn
  int frames = 0;
  int frames_to_draw = kSettleFrames;  // frames still to draw before idling (render on demand)
  std::string capture;  // desktop --screenshot: the file the frame being drawn is written to
  std::string capture_error;
};

// The ratio of drawable pixels to window (CSS) pixels: 2 on most phones and HiDPI laptops.
float PixelRatio(SDL_Window* w) {
  int ww = 0, wh = 0, dw = 0, dh = 0;
  SDL_GetWindowSize(w, &ww, &wh);
  SDL_GL_GetDrawableSize(w, &dw, &dh);
  return ww > 0 && dw > 0 ? static_cast<float>(dw) / static_cast<float>(ww) : 1.0f;
}

// Rebuilds the font atlas when the pixel ratio (browser zoom, another screen) or the text size
// changes, so text is always rasterized at the screen's own resolution.
void UpdateFonts(Runtime& rt) {
  const float ratio = PixelRatio(rt.window);
  if (std::fabs(ratio - rt.font_ratio) < 0.01f && std::fabs(rt.ui.text_scale - rt.font_scale) < 0.01f) return;
  rt.fonts = ui::LoadFonts(ratio, rt.ui.text_scale);
  rt.font_ratio = ratio;
  rt.font_scale = rt.ui.text_scale;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

#ifdef __EMSCRIPTEN__
// WebGL contexts can be lost (GPU reset, too many tabs); SDL does not handle it for us.
EM_BOOL OnContextLost(int, const void*, void* user) {
  static_cast<Runtime*>(user)->context_lost = true;
  return EM_TRUE;
}
EM_BOOL OnContextRestored(int, const void*, void* user) {
  Runtime& rt = *static_cast<Runtime*>(user);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplOpenGL3_Init(ATTNLAB_IMGUI_GLSL_VERSION);
  std::string error;
  if (!rt.heatmap.Recreate(app::ColormapGlsl(), &error)) std::fprintf(stderr, "%s\n", error.c_str());
  rt.font_ratio = 0;  // rebuild the font texture
  rt.context_lost = false;
  platform::RequestFrames(kSettleFrames);
  return EM_TRUE;
}
#endif

// The 1.86 backend reads the mouse only while SDL's window has the keyboard focus. In a course
// page the lab's iframe loses it whenever the reader clicks the page's own text, yet the mouse
// over the lab must still hover and scroll its panels: while the mouse is over our window, its
// position counts, focused or not.
void KeepMouseWithoutFocus(SDL_Window* window) {
  ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsMousePosValid() || SDL_GetMouseFocus() != window) return;
  int x = 0, y = 0;
  SDL_GetMouseState(&x, &y);
  io.MousePos = ImVec2(static_cast<float>(x), static_cast<float>(y));
}

// 4. One frame: events, the UI, drawing. Returns false when it had nothing to draw.
bool Frame(Runtime& rt) {
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    if (event.type == SDL_KEYDOWN || event.type == SDL_KEYUP) {
      // The modifiers of this key, not SDL's latest state (which the 1.86 backend reads): a
      // Ctrl+A whose Ctrl is already released by the time the frame runs is still Ctrl+A.
      ImGuiIO& io = ImGui::GetIO();
      const Uint16 mod = event.key.keysym.mod;
      io.KeyCtrl = (mod & KMOD_CTRL) != 0;
      io.KeyShift = (mod & KMOD_SHIFT) != 0;
      io.KeyAlt = (mod & KMOD_ALT) != 0;
      io.KeySuper = (mod & KMOD_GUI) != 0;
    }
    rt.frames_to_draw = kSettleFrames;
    if (event.type == SDL_QUIT) rt.running = false;
    if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE) rt.running = false;
    // Dear ImGui 1.86 has no input queue: a press and its release in one frame are never seen
    // (with frames only on demand, a quick key or click often lands in one). The rest of the
    // events wait for the next frame.
    if (event.type == SDL_KEYDOWN || event.type == SDL_MOUSEBUTTONDOWN || event.type == SDL_MOUSEBUTTONUP) break;
  }
  if (g_requested_frames > rt.frames_to_draw) rt.frames_to_draw = g_requested_frames;
  g_requested_frames = 0;
  platform::FetchModelIfWanted(rt.state);  // model mode chosen: its files, once
  platform::MoveToFullBuildIfWanted(rt.state);  // the what-if tools asked for in the default build
  const bool busy = app::NeedsFrames(rt.state);  // before Tick: its last step must be drawn too
  rt.ui.frame_work = app::Tick(rt.state);  // background work in small pieces, even while the context is lost
  if (rt.context_lost) return false;
  // Render on demand: nothing changed, nothing to draw (no GL call at all).
  if (!busy && rt.ui.bring_frames == 0 && rt.frames_to_draw <= 0) return false;
  if (rt.frames_to_draw > 0) --rt.frames_to_draw;
  UpdateFonts(rt);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  KeepMouseWithoutFocus(rt.window);
  ImGui::NewFrame();
  rt.heatmap.BeginFrame();
  rt.ui.hovered_key = -1;
  rt.ui.panels_drawn.clear();
  platform::PrepareExports(rt.ui);
  ui::Context ctx{rt.state, rt.ui, rt.heatmap, rt.fonts};
  ui::DrawLab(ctx);
  platform::DrawOpenModelDialog(rt.state, rt.ui);  // the desktop's "Open a model folder…"
  ImGui::Render();
  if (rt.ui.panels_drawn != rt.panels_reported) {
    rt.panels_reported = rt.ui.panels_drawn;
    platform::ReportPanelsDrawn(rt.panels_reported);
  }

  const ImGuiIO& io = ImGui::GetIO();
  glViewport(0, 0, static_cast<int>(io.DisplaySize.x * io.DisplayFramebufferScale.x),
             static_cast<int>(io.DisplaySize.y * io.DisplayFramebufferScale.y));
  glClearColor(0.09f, 0.10f, 0.12f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  platform::RunExports(rt.state, rt.ui);  // PNGs: this frame's figures again, at 2x, offscreen
  if (!rt.capture.empty()) {  // desktop --screenshot: this frame, before it is swapped away
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(rt.window, &w, &h);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!platform::WriteWindowPng(w, h, rt.capture, &rt.capture_error) && rt.capture_error.empty())
      rt.capture_error = "no picture";
    rt.capture.clear();
  }
  SDL_GL_SwapWindow(rt.window);
  platform::ReportFrame();  // what the page needs between frames: scrollable areas, text box

  // ImGui lays a window out over two frames; tell the page after the first complete picture.
  if (!rt.announced && ++rt.frames >= 2) {
    rt.announced = true;
    platform::NotifyPageReady();
  }
  return true;
}

#ifdef __EMSCRIPTEN__
void BrowserFrame(void* arg) { Frame(*static_cast<Runtime*>(arg)); }
#endif

Runtime* g_runtime = nullptr;  // main's, for StopForSwitch

#ifdef __EMSCRIPTEN__
// Every handler this program's SDL and html5 layer put on the canvas, the document or the window.
EM_JS(void, js_remove_event_handlers, (), { JSEvents.removeAllEventListeners(); });
#endif

}  // namespace

void platform::StopForSwitch() {
#ifdef __EMSCRIPTEN__
  if (!g_runtime || !g_runtime->running) return;
  Runtime& rt = *g_runtime;
  rt.running = false;
  emscripten_cancel_main_loop();
  // The next program draws into the same WebGL context (one per canvas): free what this one
  // made in it. Not SDL_Quit: destroying SDL's window would shrink the canvas to 0 x 0 and blank
  // it while the next program starts; the canvas keeps this program's last frame until then.
  SDL_GL_MakeCurrent(rt.window, rt.gl);
  rt.heatmap.Shutdown();
  ImGui_ImplOpenGL3_Shutdown();
  js_remove_event_handlers();
#endif
}

void platform::RequestFrames(int frames) {
  if (frames > g_requested_frames) g_requested_frames = frames;
}

int main(int argc, char** argv) {
  static Runtime rt;  // static: the browser's main loop outlives main()
  g_runtime = &rt;
  platform::DesktopOptions desktop;  // natively: --state, --screenshot (desktop.cpp)
  if (const int code = platform::ParseDesktopArgs(argc, argv, &desktop); code >= 0) return code;

  // 1. SDL and the GL context.
#ifdef __EMSCRIPTEN__
  // Keys go to the canvas only, so that a course page around the lab keeps its own keyboard.
  SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);  // WebGL2
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
#else
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
#endif
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    std::fprintf(stderr, "SDL_Init failed: %s\n", SDL_GetError());
    return 1;
  }
#ifdef __EMSCRIPTEN__
  // Touches still reach ImGui as the mouse, but SDL no longer cancels touchstart, so that a drag
  // over a part of the lab that does not scroll can scroll the page (web/js/guest.js decides).
  SDL_EventState(SDL_FINGERDOWN, SDL_IGNORE);
#endif
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  const auto flags = static_cast<SDL_WindowFlags>(SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  rt.window = SDL_CreateWindow("Attention Lab", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 1280, 800, flags);
  if (!rt.window) {
    std::fprintf(stderr, "SDL_CreateWindow failed: %s\n", SDL_GetError());
    platform::ReportNoGraphics();
    return 1;
  }
  rt.gl = SDL_GL_CreateContext(rt.window);
  if (!rt.gl) {
    std::fprintf(stderr, "no OpenGL context: %s\n", SDL_GetError());
    platform::ReportNoGraphics();
    return 1;
  }
  SDL_GL_MakeCurrent(rt.window, rt.gl);
  SDL_GL_SetSwapInterval(1);

  // 2. Dear ImGui.
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is computed every frame; nothing to remember
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  io.ConfigInputTextCursorBlink = false;  // a steady caret: an idle lab draws nothing (Frame)
  ui::ApplyStyle();
  ImGui_ImplSDL2_InitForOpenGL(rt.window, rt.gl);
  ImGui_ImplOpenGL3_Init(ATTNLAB_IMGUI_GLSL_VERSION);

  // 3. The app, the GPU heatmap and the page connection.
  app::InitApp(rt.state);
  const std::string lang = platform::PreferredLanguage();
  if (lang == "ru") app::ApplyPatch(rt.state, {{"lang", "ru"}});
  std::string error;
  if (!desktop.model.empty()) {  // a model folder, opened first (a --state may name its layers): model mode shows it
    app::ApplyPatch(rt.state, {{"projection", "model"}, {"query", 0}, {"layer", 0}, {"head", 0}, {"target", -1}});
    app::ModelRequested(rt.state);  // asked for here: FetchModelIfWanted reads nothing more
    if (!platform::OpenModelFolderNow(rt.state, desktop.model, &error)) {
      std::fprintf(stderr, "attnlab-desktop: --model: %s\n", error.c_str());
      rt.running = false;
      rt.capture_error = "the model folder was refused";
    }
  }
  if (!desktop.state.empty() && !platform::ApplyDesktopState(rt.state, desktop.state, &error)) {
    std::fprintf(stderr, "attnlab-desktop: --state: %s\n", error.c_str());
    rt.running = false;
    rt.capture_error = "the state was refused";
  }
  if (!rt.heatmap.Init(app::ColormapGlsl(), &error)) std::fprintf(stderr, "%s (the heatmap will be missing)\n", error.c_str());
  platform::ConnectPage(rt.state);
  platform::ConnectUi(rt.ui);
  rt.ui.can_open_model = platform::CanOpenModelFolder();

  // 5. The main loop: the browser calls Frame() on every animation frame; natively we loop.
#ifdef __EMSCRIPTEN__
  emscripten_set_webglcontextlost_callback("#canvas", &rt, EM_FALSE, OnContextLost);
  emscripten_set_webglcontextrestored_callback("#canvas", &rt, EM_FALSE, OnContextRestored);
  emscripten_set_main_loop_arg(BrowserFrame, &rt, 0, true);
#else
  constexpr unsigned kScreenshotWaitMs = 20000;  // desktop --screenshot: the longest wait to settle
  const Uint32 started = SDL_GetTicks();
  while (rt.running) {
    // --screenshot waits until nothing more is to be drawn, or kScreenshotWaitMs (a state that
    // plays training keeps the lab busy for minutes: then the picture is of that moment).
    const bool waited_enough = SDL_GetTicks() - started > kScreenshotWaitMs;
    if (Frame(rt) && !(waited_enough && !desktop.screenshot.empty())) continue;
    if (!desktop.screenshot.empty()) {  // settled: nothing more to draw; draw once more, captured
      if (waited_enough) std::fprintf(stderr, "attnlab-desktop: --screenshot: still busy after %u s, taken as it is\n", kScreenshotWaitMs / 1000);
      rt.capture = desktop.screenshot;
      rt.frames_to_draw = 1;
      Frame(rt);
      if (!rt.capture_error.empty()) std::fprintf(stderr, "attnlab-desktop: --screenshot: %s\n", rt.capture_error.c_str());
      break;
    }
    SDL_WaitEventTimeout(nullptr, 16);  // idle: sleep until an event (or a tick)
  }
  rt.heatmap.Shutdown();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  SDL_GL_DeleteContext(rt.gl);
  SDL_DestroyWindow(rt.window);
  SDL_Quit();
  if (!rt.capture_error.empty()) return 2;  // a refused --state, a failed --screenshot
#endif
  return 0;
}
