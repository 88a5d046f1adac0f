// Exports (issue 11.5): the files a course page or a learner asks for. A request (the page API
// through web_bridge.cpp, or a choice in an export menu) waits for the next drawn frame:
//   PNG  the figure's rectangle of that frame, drawn again by the GPU at 2x into an offscreen
//        framebuffer (the same draw lists, the same heatmap shader) and read back; the page
//        encodes the pixels as PNG (web/js/export.js: canvas.toBlob), so the wasm carries no encoder
//   SVG  the weights, the Information panel's bars and simplex and the Training tab's example
//        heatmaps from AppState, a plot from the numbers Plot() laid out in that frame
//   CSV, JSON  from AppState (app/figure_export.h)
// and is answered to the page through Module.onLabExport. Natively (the desktop window) a
// menu's text files are written to the current folder.
#include "app/exports/figure_export.h"
#include "gfx/gl.h"
#include "platform/platform.h"
#include "ui/ui.h"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

namespace {

constexpr float kPngScale = 2.0f;   // the PNG's pixels per CSS pixel
constexpr int kMaxPngSide = 4096;   // a larger picture is refused (WebGL's common limit)

struct Pending {
  int id;              // the page's request id; 0 for a menu's click
  app::ExportRequest r;
  bool download;       // the page saves the file (menus; attentionLab.download)
  int frames = 0;      // frames waited (a plot's SVG waits for its turn)
};
std::deque<Pending> g_pending;
int g_next_id = 1;

#ifdef __EMSCRIPTEN__
EM_JS(void, js_export_done, (int id, int download, const char* name, const char* type, const std::uint8_t* data,
                             int len, int width, int height, const char* field, const char* error), {
  if (Module.onLabExport)
    Module.onLabExport({id: id, download: !!download, name: UTF8ToString(name), type: UTF8ToString(type),
                        bytes: HEAPU8.slice(data, data + len), width: width, height: height,
                        field: UTF8ToString(field), error: UTF8ToString(error)});
});
// The canvas's data-figures attribute: [{id, rect: [x0, y0, x1, y1], formats}] and the menus'
// rectangles, so that a browser test can compare a PNG with the screen and click a menu.
EM_JS(void, js_figures, (const char* json), {
  if (Module.canvas) Module.canvas.setAttribute('data-figures', UTF8ToString(json));
});
#endif

void ReportFigures(const ui::UiState& ui) {
  app::Json figures = app::Json::array(), menus = app::Json::object();
  auto rect = [](ImVec2 a, ImVec2 b) { return app::Json::array({a.x, a.y, b.x, b.y}); };
  for (const ui::Figure& f : ui.figures) {
    const app::ExportTarget* t = app::FindExportTarget(f.id);
    figures.push_back({{"id", f.id}, {"rect", rect(f.min, f.max)}, {"formats", t ? t->formats : std::vector<const char*>{}}});
  }
  for (const ui::ExportMenuRect& m : ui.export_menus) menus[m.id] = rect(m.min, m.max);
  static std::string last;
  std::string text = attn::api::Obj({{"figures", figures}, {"menus", menus}}).dump();
  if (text == last) return;
  last = text;
#ifdef __EMSCRIPTEN__
  js_figures(last.c_str());
#endif
}

void Deliver(const Pending& p, const app::ExportFile& f, const std::string& bytes, int width, int height,
             const std::string& field = "", const std::string& error = "") {
#ifdef __EMSCRIPTEN__
  js_export_done(p.id, p.download, f.name.c_str(), f.type.c_str(), reinterpret_cast<const std::uint8_t*>(bytes.data()),
                 static_cast<int>(bytes.size()), width, height, field.c_str(), error.c_str());
#else
  (void)p, (void)width, (void)height, (void)field;
  if (!error.empty()) {
    std::fprintf(stderr, "export: %s\n", error.c_str());
  } else if (f.type == "image/png") {
    std::fprintf(stderr, "export: PNG files are written by the browser version only\n");
  } else if (std::FILE* out = std::fopen(f.name.c_str(), "wb")) {
    std::fwrite(bytes.data(), 1, bytes.size(), out);
    std::fclose(out);
    std::printf("wrote %s\n", f.name.c_str());
  }
#endif
}

// The figure's rectangle at kPngScale, as RGBA rows from the top; false when GL refuses.
bool RenderFigure(const ui::Figure& fig, std::string* rgba, int* width, int* height, std::string* error) {
  ImDrawData* dd = ImGui::GetDrawData();
  if (!dd || !dd->Valid) { *error = "the frame is not ready"; return false; }
  const ImVec2 size(fig.max.x - fig.min.x, fig.max.y - fig.min.y);
  const int w = static_cast<int>(std::lround(size.x * kPngScale)), h = static_cast<int>(std::lround(size.y * kPngScale));
  if (w <= 0 || h <= 0 || w > kMaxPngSide || h > kMaxPngSide) { *error = "the picture is too large or empty"; return false; }
  GLuint tex = 0, fbo = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  if (complete) {
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, w, h);
    glClearColor(0.09f, 0.10f, 0.12f, 1.0f);  // the page's background (main.cpp)
    glClear(GL_COLOR_BUFFER_BIT);
    // The same draw lists with the figure's rectangle as the display: ImGui's backend and the
    // heatmap's callback both read their projection and scissors from this draw data.
    const ImVec2 pos = dd->DisplayPos, display = dd->DisplaySize, scale = dd->FramebufferScale;
    dd->DisplayPos = fig.min;
    dd->DisplaySize = size;
    dd->FramebufferScale = ImVec2(static_cast<float>(w) / size.x, static_cast<float>(h) / size.y);
    ImGui_ImplOpenGL3_RenderDrawData(dd);
    dd->DisplayPos = pos;
    dd->DisplaySize = display;
    dd->FramebufferScale = scale;
    std::string pixels(static_cast<std::size_t>(w) * h * 4, '\0');
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    rgba->assign(pixels.size(), '\0');
    const std::size_t row = static_cast<std::size_t>(w) * 4;
    for (int y = 0; y < h; ++y)  // GL's rows go up from the bottom; a PNG's go down
      std::copy_n(pixels.data() + (h - 1 - y) * row, row, rgba->data() + y * row);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &tex);
  *width = w;
  *height = h;
  if (!complete) *error = "the GPU could not draw the picture offscreen";
  return complete;
}

const ui::Figure* FindFigure(const ui::UiState& ui, const std::string& what) {
  for (const ui::Figure& f : ui.figures)
    if (f.id == what) return &f;
  return nullptr;
}

std::string NotOnScreen(const std::string& what) {
  return "what: expected a picture on screen, got \"" + what + "\" (it is not drawn now: show its tab or panel first)";
}

}  // namespace

namespace platform {

std::string QueueExport(const std::string& json_text, bool download) {
  app::ExportRequest r;
  std::string field, error;
  const app::Json j = attn::api::ParseJson(json_text);
  if (j.is_discarded()) { field = ""; error = "export: expected an object like {what: 'weights', format: 'png'}, got text that is not JSON"; }
  else if (app::ReadExportRequest(j, &r, &field, &error)) {
    const int id = g_next_id++;
    g_pending.push_back(Pending{id, r, download});
    RequestFrames(3);
    return attn::api::Obj({{"ok", true}, {"id", id}}).dump();
  }
  return attn::api::Obj({{"ok", false}, {"field", field}, {"error", error}}).dump();
}

void PrepareExports(ui::UiState& ui) {
  ui.svg_wanted.clear();
  ui.svg_out.clear();
  for (const Pending& p : g_pending)
    if (p.r.format == "svg" && !app::ExportFromState(p.r)) { ui.svg_wanted = p.r.what; break; }
}

void RunExports(const app::AppState& s, ui::UiState& ui) {
  std::deque<Pending> waiting;
  while (!g_pending.empty()) {
    Pending p = g_pending.front();
    g_pending.pop_front();
    const app::ExportTarget* t = app::FindExportTarget(p.r.what);
    app::ExportFile f;
    f.name = app::ExportFileName(s, p.r.what, p.r.format, t && t->with_sentence);
    f.type = app::ExportMime(p.r.format);
    if (app::ExportFromState(p.r)) {
      f = app::ExportText(s, p.r);
      if (!f.error.empty()) Deliver(p, f, "", 0, 0, f.field, f.error);  // e.g. no simplex for 5 keys
      else Deliver(p, f, f.bytes, 0, 0);
    } else if (p.r.format == "svg") {
      if (ui.svg_wanted != p.r.what) { waiting.push_back(p); continue; }  // its turn comes
      if (ui.svg_out.empty()) Deliver(p, f, "", 0, 0, "what", NotOnScreen(p.r.what));
      else Deliver(p, f, ui.svg_out, 0, 0);
      ui.svg_wanted.clear();  // one plot per frame
    } else {  // png
      const ui::Figure* fig = FindFigure(ui, p.r.what);
      std::string rgba, error;
      int w = 0, h = 0;
      if (!fig) Deliver(p, f, "", 0, 0, "what", NotOnScreen(p.r.what));
      else if (!RenderFigure(*fig, &rgba, &w, &h, &error)) Deliver(p, f, "", 0, 0, "", error);
      else Deliver(p, f, rgba, w, h);
    }
  }
  g_pending = std::move(waiting);
  ReportFigures(ui);
  // The menus' choices of this frame: answered after the next one (the menu has closed by then).
  for (const ui::ExportClick& c : ui.export_clicks) {
    app::ExportRequest r{c.what, c.format};
    g_pending.push_back(Pending{0, r, true});
  }
  ui.export_clicks.clear();
  if (!g_pending.empty()) RequestFrames(2);
}

}  // namespace platform
