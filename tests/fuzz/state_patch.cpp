// Fuzz target: the page's setState (app::ApplyPatchText), the path of window.attentionLab.setState,
// postMessage and the URL. Each input is applied to a fresh default lab. Properties: no crash,
// no exception; a refusal keeps the state and says one line; an accepted state's share link
// applied to a fresh lab gives the same state without a refusal.
#include "app/app.h"
#include "fuzz_common.h"

#include <string>

using namespace attn;
using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A fresh lab per input (AppState is move-only: it may own the loaded model).
  app::AppState s;
  app::InitApp(s);
  const std::string before = api::Dump(api::StateToJson(s.lab));
  const api::PatchResult r = app::ApplyPatchText(s, std::string(attn::fuzz::AsText(data, size)));
  const std::string after = api::Dump(api::StateToJson(s.lab));
  if (!r.ok) {
    attn::fuzz::CheckMessage(r.message, "ApplyPatchText refusal");
    Check(before == after, "a refused patch changed the state");
    return 0;
  }
  app::Tick(s);  // one frame of whatever the patch started (training, the probe)
  const std::string link = app::LinkText(s);
  app::AppState fresh;
  app::InitApp(fresh);
  const std::string answer = app::ApplyLinkJson(fresh, link, "");
  Check(api::Dump(api::StateToJson(fresh.lab)) == after,
        "the accepted state's link gives another state: " + link + " -> " + answer);
  return 0;
}
