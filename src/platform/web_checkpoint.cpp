// A GPT-2-family checkpoint opened in the page (docs/models.md): the C side of web/checkpoint/
// checkpoint.js, which fetches the files under a #modelUrl prefix (HTTP Range, kept in the
// browser's Cache API) or reads them from the learner's picked or dropped files, and hands them
// over one at a time. The weights never sit whole in JavaScript: each tensor's bytes go straight
// into the model's own memory at their stored precision (model/format/hf_loader.h).
//
//   begin(name)                      a new load (the one running, if any, is dropped)
//   text(file)                       config.json, the index, the tokenizer's files
//   files()       -> {ok, files}     the config checked, the tokenizer read: the weight files
//   length(k, size) -> {ok, length}  file k's first 8 bytes: its header's length
//   header(k, size)                  file k's header
//   plan()        -> {ok, pieces: [[file, begin, end], ...], bytes}
//                                    every tensor checked; refused here, before a byte of the
//                                    weights is fetched, when they will not fit in the page
//   take(k)                          piece k's bytes; the status shows the bytes so far
//   progress(bytes)                  the bytes of the request on its way, for the progress bar
//   finish()                         the model, which replaces the one held
//   fail(message), cancel()          the load dropped; the model held stays
// Each answer is JSON: {ok: true, ...}, or {ok: false, error} after which the load is over. The bytes
// come in Module.labModelBytes (a Uint8Array). Web only, and only in the build with the model's
// code (index-model.wasm: CMakeLists.txt); the default page links web_checkpoint_absent.cpp.
#include <emscripten.h>
#include <emscripten/emmalloc.h>
#include <emscripten/heap.h>

#include "api/state_json.h"
#include "model/format/hf_checkpoint.h"
#include "model/format/hf_gpt2.h"
#include "model/format/hf_loader.h"
#include "model/format/model_folder.h"
#include "model/format/safetensors.h"
#include "model/lab/model_lab.h"
#include "platform/platform.h"
#include "platform/web_bridge.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {
using namespace platform::bridge;
namespace model = attn::model;

// The tokens a run is checked for before a download: the page's sentences are short (the model's
// context caps them; longer texts are the CLI's).
constexpr std::uint64_t kCheckedTokens = 64;

struct Load {
  std::string name;                          // what loads (a URL prefix's repository, a folder)
  std::map<std::string, std::string> texts;  // config.json, the index, the tokenizer's files
  model::HfCheckpoint ck;
  std::shared_ptr<const model::Tokenizer> tokenizer;
  std::vector<std::string> files;            // the weight files
  std::unique_ptr<model::HfLoader> loader;
  std::uint64_t taken = 0, total = 0;        // the pieces' bytes so far, in all
};
std::unique_ptr<Load> g_load;
std::vector<unsigned char> g_bytes;  // the bytes of the call (Module.labModelBytes)

EM_JS(int, js_checkpoint_bytes_size, (), { return Module.labModelBytes ? Module.labModelBytes.length : 0; });
EM_JS(void, js_take_checkpoint_bytes, (unsigned char* dst), { HEAPU8.set(Module.labModelBytes, dst); });
// The page's side of the interface's buttons (checkpoint.js installs them).
EM_JS(void, js_checkpoint_request, (int what), {
  var f = [Module.onOpenModelWanted, Module.onModelCancel, Module.onForgetModels][what];
  if (f) f();
});

// The handed-over bytes (Module.labModelBytes) into g_bytes.
void TakeBytes() {
  g_bytes.resize(static_cast<std::size_t>(js_checkpoint_bytes_size()));
  if (!g_bytes.empty()) js_take_checkpoint_bytes(g_bytes.data());
}

// A refusal: the load is over, the model held (if any) stays; the message goes back to the page.
const char* Refuse(const std::string& message) {
  g_load.reset();
  g_bytes = std::vector<unsigned char>();
  platform::RequestFrames(kPageFrames);
  if (g_state) app::ModelLoadFailed(*g_state, message);
  return Hand(attn::api::Dump({{"ok", false}, {"error", message}}));
}

const char* Ok() { return Hand("{\"ok\":true}"); }

// The file a refusal about the whole checkpoint names: the one weight file, or the index.
std::string Where(const Load& l) {
  return l.files.size() == 1 ? l.files[0] + ": " : "model.safetensors.index.json: ";
}

std::string Megabytes(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

// What a call needs: a load begun, and no exception reaching the page (std::bad_alloc on a small
// device is a refusal, never an abort).
template <typename F>
const char* During(F step) {
  if (!g_state || !g_load) return Hand("{\"ok\":false,\"error\":\"no model is being loaded\"}");
  try {
    return step(*g_load);
  } catch (const std::exception& e) {
    return Refuse(std::string("the model could not be loaded: ") + e.what());
  }
}

}  // namespace

// The interface's Open / Cancel / Forget buttons (platform.h): the page's side answers them.
void platform::CheckpointRequests(app::AppState&, ui::UiState& ui) {
  if (ui.open_model_wanted) js_checkpoint_request(0);
  if (ui.cancel_model_wanted) js_checkpoint_request(1);
  if (ui.forget_models_wanted) js_checkpoint_request(2);
  ui.open_model_wanted = ui.cancel_model_wanted = ui.forget_models_wanted = false;
}

extern "C" {

EMSCRIPTEN_KEEPALIVE void attnlab_checkpoint_begin(const char* name) {
  if (!g_state) return;
  g_load = std::make_unique<Load>();
  g_load->name = name ? name : "";
  app::ModelLoading(*g_state, g_load->name);
  platform::RequestFrames(kPageFrames);
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_checkpoint_text(const char* file) {
  return During([&](Load& l) {
    TakeBytes();
    l.texts[file ? file : ""] = std::string(g_bytes.begin(), g_bytes.end());
    return Ok();
  });
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_checkpoint_files() {
  return During([&](Load& l) {
    std::string why;
    const auto config = l.texts.find("config.json");
    if (config == l.texts.end()) return Refuse("config.json: not found");
    if (!model::ParseHfConfig(config->second, &l.ck.config, &l.ck.eos, &why)) return Refuse(why);
    const auto index = l.texts.find("model.safetensors.index.json");
    if (!model::HfWeightFiles(index == l.texts.end() ? nullptr : &index->second, &l.files, &why)) return Refuse(why);
    // the tokenizer before any weight: a folder without one is refused before its download
    if (!model::HfTokenizerFromFiles(l.texts, l.ck.eos, l.ck.config.vocab, &l.tokenizer, &why)) return Refuse(why);
    for (const char* name : model::kHfTokenizerFiles) l.texts.erase(name);
    l.loader = model::MakeHfLoader(l.ck.config);
    return Hand(attn::api::Dump({{"ok", true}, {"files", l.files}}));
  });
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_checkpoint_length(int k, double size) {
  return During([&](Load& l) {
    if (!l.loader || k < 0 || k >= static_cast<int>(l.files.size())) return Refuse("no such weight file");
    TakeBytes();
    std::uint64_t length = 0;
    std::string why;
    if (g_bytes.size() < 8) return Refuse(l.files[k] + ": the file is shorter than 8 bytes");
    if (!model::HeaderLength(g_bytes.data(), static_cast<std::uint64_t>(size), &length, &why)) return Refuse(l.files[k] + ": " + why);
    return Hand(attn::api::Dump({{"ok", true}, {"length", length}}));
  });
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_checkpoint_header(int k, double size) {
  return During([&](Load& l) {
    if (!l.loader || k < 0 || k >= static_cast<int>(l.files.size())) return Refuse("no such weight file");
    TakeBytes();
    std::string why;
    const std::string header(g_bytes.begin(), g_bytes.end());
    if (!l.loader->AddFile(l.files[k], static_cast<std::uint64_t>(size), header, &why)) return Refuse(l.files[k] + ": " + why);
    l.ck.file_bytes += static_cast<std::uint64_t>(size);
    return Ok();
  });
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_checkpoint_plan() {
  return During([&](Load& l) {
    if (!l.loader) return Refuse("no weight file was read");
    std::string why;
    if (!l.loader->Check(&why)) return Refuse(Where(l) + why);
    // Will it fit? The weights as stored, one run's intermediates and the tensor on its way,
    // beside what the page holds now (the model shown stays until this one has arrived).
    const std::uint64_t weights = l.loader->WeightBytes();
    const std::uint64_t run = model::ForwardBytes(l.ck.config, std::min<std::uint64_t>(kCheckedTokens, l.ck.config.context));
    const std::uint64_t need = weights + run + l.loader->LargestPiece();
    const std::uint64_t max = emscripten_get_heap_max();
    const std::uint64_t used = emscripten_get_heap_size() - emmalloc_free_dynamic_memory();
    const std::uint64_t left = max > used ? max - used : 0;
    if (need > left)
      return Refuse("too large for this page: it needs " + Megabytes(need) + " (the weights " + Megabytes(weights) +
                    ", a run " + Megabytes(run) + ", the largest tensor on its way " + Megabytes(l.loader->LargestPiece()) +
                    ") and the page has " + Megabytes(left) + " of its " + Megabytes(max) +
                    " left; open it with attnlab or attnlab-desktop instead");
    if (!l.loader->Plan(&why)) return Refuse(Where(l) + why);
    attn::api::Json pieces = attn::api::Json::array();
    for (const model::WeightPiece& p : l.loader->pieces()) pieces.push_back({p.file, p.begin, p.end});
    l.total = l.loader->PieceBytes();
    app::ModelBytes(*g_state, 0, static_cast<double>(l.total));
    return Hand(attn::api::Dump({{"ok", true}, {"pieces", pieces}, {"bytes", l.total}}));
  });
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_checkpoint_take(int k) {
  return During([&](Load& l) {
    if (!l.loader || k < 0) return Refuse("no such piece");
    TakeBytes();
    std::string why;
    const std::size_t file = k < static_cast<int>(l.loader->pieces().size()) ? l.loader->pieces()[k].file : 0;
    if (!l.loader->Take(static_cast<std::size_t>(k), g_bytes.data(), g_bytes.size(), &why))
      return Refuse(l.files[file] + ": " + why);
    l.taken += g_bytes.size();
    app::ModelBytes(*g_state, static_cast<double>(l.taken), static_cast<double>(l.total));
    platform::RequestFrames(kPageFrames);
    return Ok();
  });
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_checkpoint_finish() {
  return During([&](Load& l) {
    if (!l.loader) return Refuse("no weight file was read");
    std::string why;
    if (!l.loader->Finish(&l.ck.params, &l.ck.dtype, &why)) return Refuse(Where(l) + why);
    l.loader.reset();
    g_bytes = std::vector<unsigned char>();
    l.ck.parameters = model::ParameterCount(l.ck.config);
    const auto config = l.texts.find("config.json");
    model::Bundle b = model::BundleFromCheckpoint(std::move(l.ck), l.tokenizer, config->second);
    auto m = std::make_unique<model::LabModel>();
    if (!model::LabModelFromBundle(std::move(b), m.get(), &why)) return Refuse(why);
    m->name = l.name;
    g_load.reset();
    app::ModelArrived(*g_state, std::move(m));
    platform::RequestFrames(kPageFrames);
    return Ok();
  });
}

// The bytes of the request on its way (its pieces are taken when it has all come): the progress
// bar moves during a long request too.
EMSCRIPTEN_KEEPALIVE void attnlab_checkpoint_progress(double in_flight) {
  if (!g_state || !g_load || g_load->total == 0) return;
  app::ModelBytes(*g_state, static_cast<double>(g_load->taken) + in_flight, static_cast<double>(g_load->total));
  platform::RequestFrames(kPageFrames);
}

// A network error, a file that is not there: the page's message.
EMSCRIPTEN_KEEPALIVE void attnlab_checkpoint_fail(const char* message) {
  if (g_load) Refuse(message ? message : "");
}

EMSCRIPTEN_KEEPALIVE void attnlab_checkpoint_cancel() {
  if (!g_state) return;
  g_load.reset();
  g_bytes = std::vector<unsigned char>();
  app::ModelLoadCancelled(*g_state);
  platform::RequestFrames(kPageFrames);
}

// The space the downloaded models take in the browser's storage ("Forget downloaded models").
EMSCRIPTEN_KEEPALIVE void attnlab_checkpoint_cache(double bytes) {
  if (!g_ui) return;
  g_ui->model_cache_bytes = bytes > 0 ? bytes : 0;
  platform::RequestFrames(kPageFrames);
}

}  // extern "C"
