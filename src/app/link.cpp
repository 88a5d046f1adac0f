// The state in a link, applied through the app (so the result, the runs and the page follow).
#include "api/url_state.h"
#include "app/app.h"

namespace app {

std::string ApplyLinkJson(AppState& s, const std::string& hash, const std::string& fallback_lang) {
  attn::api::LinkResult link = attn::api::ApplyLink(s.lab, hash);
  Json patch = link.accepted;
  bool lang_named = patch.contains("lang");
  for (const attn::api::LinkError& e : link.errors) lang_named = lang_named || e.field == "lang";
  if (!lang_named && (fallback_lang == "en" || fallback_lang == "ru")) patch["lang"] = fallback_lang;

  Json errors = Json::array();
  for (const attn::api::LinkError& e : link.errors) errors.push_back({{"field", e.field}, {"error", e.message}});
  if (!patch.empty()) {
    const attn::api::PatchResult r = ApplyPatch(s, patch, Source::kApi);
    if (!r.ok) errors.push_back({{"field", r.field}, {"error", r.message}});  // the maths refused it
  }
  // The header shows the link's last refusal (ApplyPatch cleared it when the rest was accepted).
  if (!link.last_refusal.ok) {
    s.has_refusal = true;
    s.refusal = link.last_refusal;
    s.refusal.state = s.lab;
  }
  return attn::api::Dump(
      Json{{"ok", errors.empty()}, {"errors", errors}, {"state", attn::api::StateToJson(s.lab)}});
}

std::string LinkText(const AppState& s) { return attn::api::WriteLink(s.lab, attn::api::TrainState{}); }

}  // namespace app
