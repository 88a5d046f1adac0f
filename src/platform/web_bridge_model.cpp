// The page's calls for model mode (web/js/model_switch.js, window.attentionLab): the model's files
// as the page fetched them, its status, "Probe this head", "Train it more", and the moves to the
// build with the model's code or the what-if tools. Web only; the rest of the bridge, and what
// both share (web_bridge.h), is web_bridge.cpp.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include "model/lab/model_lab.h"
#include "platform/platform.h"
#include "platform/web_bridge.h"
#include "ui/ui.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace {
using namespace platform::bridge;

// Model mode's files as the page hands them over (attnlab_model_file), until attnlab_model_done.
std::vector<std::pair<std::string, std::string>> g_model_files;
std::map<std::string, std::string> g_model_digests;

}  // namespace

// The bytes of the file the page is handing over (Module.labModelBytes, a Uint8Array) copied
// into the wasm's memory at `dst`.
EM_JS(void, js_take_model_bytes, (std::uint8_t* dst), {
  HEAPU8.set(Module.labModelBytes, dst);
});

extern "C" {

// Model mode's files (web/js/model_switch.js fetches them when platform::FetchModelIfWanted asks): progress
// 0..1; each file's bytes (in Module.labModelBytes) with its SHA-256 from WebCrypto ("" when the
// page has none); done: loads them (every check) and answers "" or the message; failed: the
// fetch itself failed (the message is the page's).
// 1 when this build holds the model's code, 0 in the default page's build (model/lab/absent.cpp):
// then web/js/model_switch.js answers a request for the model by moving the lab to index-model.wasm.
EMSCRIPTEN_KEEPALIVE int attnlab_model_code() { return attn::model::ModelCodeInBuild() ? 1 : 0; }

// The default page's build hands over to index-model.wasm: stops for good (platform.h).
EMSCRIPTEN_KEEPALIVE void attnlab_stop() { platform::StopForSwitch(); }

EMSCRIPTEN_KEEPALIVE void attnlab_model_progress(double fraction) {
  platform::RequestFrames(kPageFrames);
  if (g_state) app::ModelProgress(*g_state, fraction);
}

EMSCRIPTEN_KEEPALIVE void attnlab_model_file(const char* name, int size, const char* sha256) {
  if (!name || size < 0) return;
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (size > 0) js_take_model_bytes(reinterpret_cast<std::uint8_t*>(&bytes[0]));
  g_model_files.emplace_back(name, std::move(bytes));
  if (sha256 && *sha256) g_model_digests[name] = sha256;
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_model_done() {
  platform::RequestFrames(kPageFrames);
  std::string error;
  try {
    if (g_state) app::ModelFilesArrived(*g_state, g_model_files, g_model_digests, &error);
  } catch (const std::exception& e) {  // std::bad_alloc on a tiny device: a message, not an abort
    error = e.what();
    if (g_state) app::ModelLoadFailed(*g_state, error);
  }
  g_model_files.clear();
  g_model_digests.clear();
  return Hand(error);
}

// The move to the full build for the what-if tools (platform::MoveToFullBuildIfWanted): its
// download's progress 0..1, or why it failed (the What if tab says it, with "Try again").
EMSCRIPTEN_KEEPALIVE void attnlab_tools_progress(double fraction) {
  platform::RequestFrames(kPageFrames);
  if (g_state) app::WhatIfToolsProgress(*g_state, fraction);
}

EMSCRIPTEN_KEEPALIVE void attnlab_tools_failed(const char* message) {
  platform::RequestFrames(kPageFrames);
  if (g_state) app::WhatIfToolsFailed(*g_state, message ? message : "");
}

EMSCRIPTEN_KEEPALIVE void attnlab_model_failed(const char* message) {
  platform::RequestFrames(kPageFrames);
  g_model_files.clear();
  g_model_digests.clear();
  if (g_state) app::ModelLoadFailed(*g_state, message ? message : "");
}

// getModelStatus(): {load: "not requested" | "loading" | "ready" | "failed", fraction, message,
// thumbnails: [[x, y, w, h] in CSS pixels of each head thumbnail drawn in the last frame],
// probe: the last "Probe this head" (app::ModelProbeJson; null before the first); name, bytes,
// totalBytes (a checkpoint on its way), model: the model held {name, format, dtype, fileBytes,
// layers, heads, dModel, context, vocab} or null}. A failure with a model held keeps
// it: load "failed" (or "ready" after a cancel) with the message, and `model` the one in use.
EMSCRIPTEN_KEEPALIVE const char* attnlab_get_model_status() {
  if (!g_state) return Refusal("", "the lab is not running yet");
  static const char* const kLoad[] = {"not requested", "loading", "ready", "failed"};
  const app::ModelStatus& st = g_state->model.status;
  attn::api::Json thumbs = attn::api::Json::array();
  if (g_ui)
    for (std::size_t i = 0; i + 3 < g_ui->head_thumbs.size(); i += 4)
      thumbs.push_back({g_ui->head_thumbs[i], g_ui->head_thumbs[i + 1], g_ui->head_thumbs[i + 2], g_ui->head_thumbs[i + 3]});
  attn::api::Json out = {{"load", kLoad[static_cast<int>(st.load)]}, {"fraction", st.fraction},
                         {"message", st.message}, {"thumbnails", thumbs}, {"probe", app::ModelProbeJson(*g_state)}};
  if (attn::model::ModelCodeInBuild()) {  // (the default page's build never holds a model)
    out["name"] = st.name;  // what loads or is loaded: "" the lab's own
    out["bytes"] = st.bytes;
    out["totalBytes"] = st.total_bytes;
    out["model"] = nullptr;
    if (const attn::model::LabModel* m = g_state->model.loaded.get()) {
      const attn::model::ModelConfig& c = m->config();
      out["model"] = {{"name", m->name}, {"format", m->shipped.format}, {"dtype", m->shipped.dtype},
                      {"fileBytes", m->shipped.file_bytes}, {"layers", c.layers}, {"heads", c.heads}, {"dModel", c.d_model}, {"context", c.context},
                      {"vocab", c.vocab}};
    }
  }
  return Hand(attn::api::Dump(out));
}

// probeHead(): "Probe this head" now, on the state's layer and head (app::ProbeHeadJson).
EMSCRIPTEN_KEEPALIVE const char* attnlab_probe_head() {
  platform::RequestFrames(kPageFrames);
  return Guarded([&] { return app::ProbeHeadJson(*g_state); });
}

// "Train it more" (app tune.cpp): start a run ({steps?}), its status, Stop, Reset to the
// shipped weights, and the built-in texts (web/js/model_switch.js fetches them with the model's files).
EMSCRIPTEN_KEEPALIVE const char* attnlab_tune_model(const char* json) {
  platform::RequestFrames(kPageFrames);
  return Guarded([&] { return app::TuneModelJson(*g_state, json ? json : ""); });
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_tune_status() {
  if (!g_state) return Refusal("", "the lab is not running yet");
  return Hand(app::TuneStatusJson(*g_state).dump());
}

EMSCRIPTEN_KEEPALIVE void attnlab_stop_tune() {
  if (!g_state) return;
  app::StopTune(*g_state);
  platform::RequestFrames(kPageFrames);
}

EMSCRIPTEN_KEEPALIVE void attnlab_reset_tune() {
  if (!g_state) return;
  app::ResetTune(*g_state);
  platform::RequestFrames(kPageFrames);
}

EMSCRIPTEN_KEEPALIVE void attnlab_tune_texts(const char* en, const char* ru) {
  if (!g_state) return;
  app::TuneTextsArrived(*g_state, en ? en : "", ru ? ru : "");
  platform::RequestFrames(kPageFrames);
}

// The Prediction tab's calls (app/inspect; the default page's build refuses them all), one entry
// for all of them (each exported function costs the default page's payload): `call` is "lens"
// (getLens), "attribution" (getAttribution), "runPatching", "generate" -- each starts a job the
// lab runs in its frames -- "patchingStatus", "generationStatus" (the page polls them until the
// job ends) or "cancel"; `json` its options (app::InspectCallJson).
EMSCRIPTEN_KEEPALIVE const char* attnlab_inspect(const char* call, const char* json) {
  platform::RequestFrames(kPageFrames);
  return Guarded([&] {
    const attn::api::Json options = json && *json ? attn::api::ParseJson(json) : attn::api::Json::object();
    return attn::api::Dump(app::InspectCallJson(*g_state, call ? call : "", options.is_discarded() ? attn::api::Json("not JSON") : options));
  });
}

}  // extern "C"

#endif  // __EMSCRIPTEN__
