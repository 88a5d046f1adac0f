// The trained model's files for model mode (platform.h, FetchModelIfWanted), and the move to the
// full build for the what-if tools (MoveToFullBuildIfWanted). The page fetches
// them in web/js/model_switch.js (progress, WebCrypto digests) and answers through the bridge
// (web_bridge.cpp: attnlab_model_progress / attnlab_model_file / attnlab_model_done /
// attnlab_model_failed); the desktop program reads the folder at once, and the built-in texts
// (web/tune) beside it.
#include "platform/platform.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#include "model/format/model_folder.h"
#include "model/lab/model_lab.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#endif

namespace {

#ifdef __EMSCRIPTEN__
// url: the state's modelUrl ("" the lab's own model: web/model/)
EM_JS(void, js_fetch_model, (const char* url), {
  if (Module.onModelWanted) Module.onModelWanted(UTF8ToString(url));
});
EM_JS(void, js_want_full_build, (), {
  if (Module.onFullBuildWanted) Module.onFullBuildWanted();
});
#endif

}  // namespace

void platform::MoveToFullBuildIfWanted(app::AppState& state) {
  if (!app::WantsWhatIfTools(state)) return;
  app::WhatIfToolsAsked(state);
#ifdef __EMSCRIPTEN__
  js_want_full_build();
#endif
}

#ifdef __EMSCRIPTEN__
bool platform::CanOpenModelFolder() { return true; }  // through the page's file picker
void platform::SetModelFolder(const std::string&) {}
std::string platform::ModelFolder() { return std::string(); }
bool platform::OpenModelFolderNow(app::AppState&, const std::string&, std::string* error) {
  *error = "the page opens a model through its file picker";
  return false;
}
std::vector<std::string> platform::SubFolders(const std::string&) { return {}; }
#else
namespace {
std::string g_model_folder;  // --model DIR or the Open dialog's; empty: the shipped model's

// The shipped model's folder: $ATTNLAB_MODEL_DIR, else the repository's web/model.
std::string ShippedFolder() {
  const char* env = std::getenv("ATTNLAB_MODEL_DIR");
  return env && *env ? env : ATTNLAB_MODEL_DIR;
}

// Either kind of folder (model_folder.h) as the lab's model: every check of its reader.
std::unique_ptr<attn::model::LabModel> OpenLabModel(const std::string& dir, std::string* error) {
  attn::model::Bundle b;
  auto m = std::make_unique<attn::model::LabModel>();
  if (!attn::model::OpenModelFolder(dir, &b, error) || !attn::model::LabModelFromBundle(std::move(b), m.get(), error))
    return nullptr;
  m->threads = 2;  // the large products by columns on both cores: the same bits
  if (dir != ShippedFolder()) {  // the folder's name ("" for the lab's own)
    std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
    m->name = (p.has_filename() ? p : p.parent_path()).filename().string();
  }
  return m;
}
// The built-in texts of "Train it more" and "Probe this head": the folder beside the shipped
// model's (web/tune next to web/model, as in the page's site), whichever model is open. Missing
// ones leave the texts "not loaded", as a page whose fetch failed: the buttons say so.
void TuneTextsFromFolder(app::AppState& state) {
  std::string texts[2];
  bool read = true;
  for (int k = 0; k < 2; ++k) {
    std::ifstream f(ShippedFolder() + "/../tune/" + (k == 0 ? "en" : "ru") + ".txt", std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    texts[k] = ss.str();
    read = read && f && !texts[k].empty();
  }
  if (read) app::TuneTextsArrived(state, texts[0], texts[1]);
}
}  // namespace

bool platform::CanOpenModelFolder() { return true; }
void platform::SetModelFolder(const std::string& dir) { g_model_folder = dir; }
std::string platform::ModelFolder() { return g_model_folder.empty() ? ShippedFolder() : g_model_folder; }

bool platform::OpenModelFolderNow(app::AppState& state, const std::string& dir, std::string* error) {
  std::unique_ptr<attn::model::LabModel> m = OpenLabModel(dir, error);
  if (!m) return false;
  g_model_folder = dir;
  app::ModelArrived(state, std::move(m));
  TuneTextsFromFolder(state);
  return true;
}

std::vector<std::string> platform::SubFolders(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code kind;
    if (it->is_directory(kind)) out.push_back(it->path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}
#endif

void platform::FetchModelIfWanted(app::AppState& state) {
  if (!app::WantsModel(state)) return;
  app::ModelRequested(state);
#ifdef __EMSCRIPTEN__
  js_fetch_model(state.lab.model_url.c_str());
#else
  // natively the state's modelUrl names a folder (the page's names a URL prefix)
  std::string error;
  const std::string dir = state.lab.model_url.empty() ? ModelFolder() : state.lab.model_url;
  std::unique_ptr<attn::model::LabModel> m = OpenLabModel(dir, &error);
  if (!m) {
    app::ModelLoadFailed(state, error);
    return;
  }
  app::ModelArrived(state, std::move(m));
  TuneTextsFromFolder(state);
#endif
}
