// The state in a link (page.h): applied through the app (so the result, the runs and the page
// follow), and written as a share link and an iframe snippet.
#include "api/url_state.h"
#include "app/page/page.h"

#include <algorithm>

namespace app {

std::string ApplyLinkJson(const RoomContext& c, const std::string& given_hash, const std::string& fallback_lang) {
  // `lessonUrl=...`: the link's lesson document, loaded before its fields (which may name its steps).
  std::string hash = given_hash, lesson_error;
  const std::size_t at = hash.find("lessonUrl=");
  if (at != std::string::npos && (at == 0 || hash[at - 1] == '#' || hash[at - 1] == '&')) {
    const std::size_t end = hash.find('&', at);
    std::string url;
    lesson_error = attn::api::PercentDecode(hash.substr(at + 10, end - std::min(end, at + 10)), &url)
                       ? c.requests.LoadLessonUrl(url)
                       : "lessonUrl: expected a relative path, got malformed percent-encoding";
    hash.erase(at, end == std::string::npos ? end : end + 1 - at);
  }
  attn::api::LinkResult link = attn::api::ApplyLink(c.lab, hash);
  if (!lesson_error.empty()) link.errors.insert(link.errors.begin(), attn::api::LinkError{"lessonUrl", lesson_error});
  Json patch = link.accepted;
  // A link of another lesson (its document not loaded here): its step and predictions are not this one's.
  for (const attn::api::LinkError& e : link.errors)
    if (e.field == "lessonId") patch.erase("lesson"), patch.erase("predictions");
  bool lang_named = patch.contains("lang");
  for (const attn::api::LinkError& e : link.errors) lang_named = lang_named || e.field == "lang";
  if (!lang_named && (fallback_lang == "en" || fallback_lang == "ru")) patch["lang"] = fallback_lang;

  Json errors = Json::array();
  for (const attn::api::LinkError& e : link.errors) errors.push_back({{"field", e.field}, {"error", e.message}});
  if (!patch.empty()) {
    const attn::api::PatchResult r = c.requests.Apply(patch, Source::kApi);
    if (!r.ok) errors.push_back({{"field", r.field}, {"error", r.message}});  // the maths refused it
  }
  // The header shows the link's last refusal (ApplyPatch cleared it when the rest was accepted).
  if (!link.last_refusal.ok) c.requests.Refuse(link.last_refusal);
  return attn::api::Dump(
      attn::api::Obj({{"ok", errors.empty()}, {"errors", errors}, {"state", attn::api::StateToJson(c.lab)}}));
}

std::string LinkText(const LabView& view) {
  std::string link = attn::api::WriteLink(*view.lab, attn::api::TrainState{});
  const std::string& url = *view.lesson.url;
  if (url.empty()) return link;  // a lesson from a link: its document's address first
  // Its characters need no encoding (CheckLessonUrl: letters, digits, _ - . /).
  link.insert(1, "lessonUrl=" + url + (link.size() > 1 ? "&" : ""));
  return link;
}

std::string ShareLink(const LabView& view, const std::string& page_url) {
  return page_url.substr(0, page_url.find('#')) + LinkText(view);
}

namespace {
std::string HtmlAttribute(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}
}  // namespace

std::string EmbedSnippet(const LabView& view, const std::string& page_url) {
  return "<iframe src=\"" + HtmlAttribute(ShareLink(view, page_url)) +
         "\" title=\"Attention Lab\" style=\"width:100%;height:780px;border:0\" "
         "allow=\"clipboard-write\" loading=\"lazy\"></iframe>\n"
         // Auto-height: the lab posts the height it would like (web/embed-example.html).
         "<script>addEventListener('message',function(e){var d=e.data;"
         "if(!d||d.type!=='attentionLab:height'||typeof d.height!=='number')return;"
         "document.querySelectorAll('iframe').forEach(function(f){"
         "if(f.contentWindow===e.source)f.style.height=Math.round(d.height)+'px'})})</script>";
}

}  // namespace app
