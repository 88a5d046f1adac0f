// The platform layer's small interface to the rest of the program (sokol-style: the app never
// owns the main loop). Everything that knows about SDL, GL contexts or Emscripten is in
// src/platform/.
#pragma once

#include "app/app.h"
#include "ui/ui.h"

#include <string>
#include <vector>

namespace ui {
struct UiState;
}

namespace platform {

// Web only (web_bridge.cpp): connects the page's JavaScript (window.attentionLab) to `state`,
// sets up the clipboard and reports readiness. No-ops natively.
void ConnectPage(app::AppState& state);
void NotifyPageReady();
// No WebGL2 context could be made: the page shows its own message (web/js/loader.js does not test for
// WebGL2 with a throw-away context beforehand: on a software renderer that costs ~0.2 s).
void ReportNoGraphics();
// Web only: the interface's share popup learns the lab's address (ui.page_url, from the page
// once it runs) and the answers to its copies (ui.copy_status). Natively the address stays ""
// and copies go to SDL's clipboard.
void ConnectUi(ui::UiState& ui);
// The browser's language ("ru" or "en"), or "" natively.
const char* PreferredLanguage();
// Web only: the ids of the panels drawn in the last frame (ui::UiState::panels_drawn) as the
// canvas's data-panels attribute, space-separated, so that a browser test can tell which tab
// is really shown. Called when the list changes.
void ReportPanelsDrawn(const std::vector<std::string>& ids);

// Render on demand (main.cpp): draw at least `frames` more frames. For changes that arrive
// without an input event: the page API, postMessage, a link, a paste, a restored GL context.
void RequestFrames(int frames);
// Web only, after every drawn frame: tells the page what it needs to decide between frames
// (web_bridge.cpp): the scrollable areas and their scroll positions (wheel and touch pass
// through to the page where the lab does not scroll), the active text box (the page's text
// input for phones and input methods), the preferred height (auto-height in an iframe).
void ReportFrame();

// The trained model's files (model_files.cpp), asked for only when the mode is chosen: once a
// frame, before Tick, if app::WantsModel the files are fetched (page: web/js/model_switch.js fetches them
// with progress and hands the bytes and their WebCrypto SHA-256 to the bridge's attnlab_model_*
// functions; desktop: read from $ATTNLAB_MODEL_DIR or the repository's web/model, at once).
void FetchModelIfWanted(app::AppState& state);

// Desktop only (model_files.cpp): any model folder, the lab's own or a GPT-2 checkpoint in the
// Hugging Face layout (model/format/model_folder.h). SetModelFolder names the folder model mode
// opens (--model DIR; empty: $ATTNLAB_MODEL_DIR or the repository's web/model); OpenModelFolderNow
// opens one at once and hands it to the app (false with the message: the model held is kept);
// SubFolders lists a folder's folders for the Open dialog (open_model_dialog.cpp). The page
// opens a folder through its file picker instead (OpenModelFolderNow refuses there).
bool CanOpenModelFolder();
void SetModelFolder(const std::string& dir);
std::string ModelFolder();
bool OpenModelFolderNow(app::AppState& state, const std::string& dir, std::string* error);
std::vector<std::string> SubFolders(const std::string& dir);
// The Open dialog (open_model_dialog.cpp), drawn after the lab when ui.open_model_wanted asked
// for it; in the page, the page's own file picker, and the loading's Cancel and "Forget
// downloaded models" (ui.cancel_model_wanted, ui.forget_models_wanted): CheckpointRequests
// (web_checkpoint.cpp in the build with the model's code, web_checkpoint_absent.cpp without).
void DrawOpenModelDialog(app::AppState& state, ui::UiState& ui);
void CheckpointRequests(app::AppState& state, ui::UiState& ui);

// The what-if tools (app/whatif/whatif.h), asked for only when wanted: once a frame, before Tick,
// if app::WantsWhatIfTools the default page's build asks web/js/model_switch.js to move the lab
// onto the full build (index-model.wasm, without the model's files unless model mode is on),
// with progress and failure through the bridge's attnlab_tools_* functions. The desktop is a
// full build: never asked.
void MoveToFullBuildIfWanted(app::AppState& state);

// Web only (main.cpp): the default page's build hands the lab over to the build with the model's
// code (web/js/model_switch.js, model mode): this program stops for good on the same canvas: no more frames,
// its GL objects freed, its event handlers removed. Its state stays readable (getState) so the
// page can carry it over. No-op natively.
void StopForSwitch();

// export.cpp (issue 11.5): figures and numbers as files. QueueExport reads the page's
// {what, format} and returns {ok: true, id} (answered after the next drawn frame through
// Module.onLabExport) or the refusal, as JSON text. Frame() calls PrepareExports before drawing
// the UI (which plot writes its SVG) and RunExports after rendering (PNGs are that frame's
// picture, drawn again at 2x offscreen), which also takes the export menus' choices.
std::string QueueExport(const std::string& json, bool download);
void PrepareExports(ui::UiState& ui);
void RunExports(const app::AppState& state, ui::UiState& ui);

// Desktop only (desktop.cpp): `attnlab-desktop [--state PATCH_OR_LINK] [--screenshot FILE.png]
// [--model DIR | DIR]`.
// ParseDesktopArgs returns -1 to go on, else the exit code (--help, a bad option).
// ApplyDesktopState applies a setState patch ({...}) or a share link (a URL or its #... part)
// after InitApp, every field or none: false with the refusal in *error. WriteWindowPng writes the
// bound framebuffer's (width, height) pixels as PNG. In the page: -1, true and false.
struct DesktopOptions {
  std::string state;
  std::string screenshot;
  std::string model;  // --model DIR (or the folder as the only argument): opened in model mode
};
int ParseDesktopArgs(int argc, char** argv, DesktopOptions* out);
bool ApplyDesktopState(app::AppState& state, const std::string& text, std::string* error);
bool WriteWindowPng(int width, int height, const std::string& path, std::string* error);

}  // namespace platform
