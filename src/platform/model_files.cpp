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
#include "model/format/bundle.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#endif

namespace {

#ifdef __EMSCRIPTEN__
EM_JS(void, js_fetch_model, (), {
  if (Module.onModelWanted) Module.onModelWanted();
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

void platform::FetchModelIfWanted(app::AppState& state) {
  if (!app::WantsModel(state)) return;
  app::ModelRequested(state);
#ifdef __EMSCRIPTEN__
  js_fetch_model();
#else
  const char* env = std::getenv("ATTNLAB_MODEL_DIR");
  const std::string dir = env && *env ? env : ATTNLAB_MODEL_DIR;
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> names(std::begin(attn::model::kBundleFiles), std::end(attn::model::kBundleFiles));
  names.push_back(attn::model::kHeadsFile);
  names.push_back("MANIFEST.sha256");
  for (const std::string& name : names) {
    std::ifstream f(dir + "/" + name, std::ios::binary);
    if (!f && name == attn::model::kHeadsFile) continue;  // optional
    if (!f) {
      app::ModelLoadFailed(state, "cannot read " + dir + "/" + name);
      return;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    files.emplace_back(name, ss.str());
  }
  std::map<std::string, std::string> digests;
  for (const auto& [name, bytes] : files) digests[name] = attn::model::Sha256Hex(bytes);
  // The built-in texts of "Train it more" and "Probe this head": the folder beside the model's
  // (web/tune next to web/model, as in the page's site). Missing ones leave the texts
  // "not loaded", as a page whose fetch failed: the buttons say so.
  std::string texts[2];
  bool read = true;
  for (int k = 0; k < 2; ++k) {
    std::ifstream f(dir + "/../tune/" + (k == 0 ? "en" : "ru") + ".txt", std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    texts[k] = ss.str();
    read = read && f && !texts[k].empty();
  }
  if (app::ModelFilesArrived(state, files, digests) && read) app::TuneTextsArrived(state, texts[0], texts[1]);
#endif
}
