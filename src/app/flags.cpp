// A lab configured for a lesson (the state's `hide` and `lock` rows) and shared (a link, an
// iframe snippet): what the interface shows and what a course page copies.
#include "api/url_state.h"
#include "app/app.h"

namespace app {

bool IsHidden(const attn::api::LabState& lab, std::string_view part) { return attn::NameSetHas(lab.hide, part); }
bool IsLocked(const attn::api::LabState& lab, std::string_view part) { return attn::NameSetHas(lab.lock, part); }

bool ViewVisible(const attn::api::LabState& lab, std::string_view view) {
  if (view == "training" || view == "normalization") return !IsHidden(lab, view);
  if (IsHidden(lab, "attention")) return false;
  if (view == "sentence") return !(IsHidden(lab, "sentence") && IsHidden(lab, "settings"));
  return !IsHidden(lab, view);
}

std::string ShownView(const attn::api::LabState& lab) {
  if (ViewVisible(lab, lab.view)) return lab.view;
  for (const char* v : {"steps", "weights", "vectors", "information", "sentence", "training", "normalization"})
    if (ViewVisible(lab, v)) return v;
  return "";
}

std::string ShareLink(const AppState& s, const std::string& page_url) {
  return page_url.substr(0, page_url.find('#')) + LinkText(s);
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

std::string EmbedSnippet(const AppState& s, const std::string& page_url) {
  return "<iframe src=\"" + HtmlAttribute(ShareLink(s, page_url)) +
         "\" title=\"Attention Lab\" style=\"width:100%;height:780px;border:0\" "
         "allow=\"clipboard-write\" loading=\"lazy\"></iframe>\n"
         // Auto-height: the lab posts the height it would like (web/embed-example.html).
         "<script>addEventListener('message',function(e){var d=e.data;"
         "if(!d||d.type!=='attentionLab:height'||typeof d.height!=='number')return;"
         "document.querySelectorAll('iframe').forEach(function(f){"
         "if(f.contentWindow===e.source)f.style.height=Math.round(d.height)+'px'})})</script>";
}

}  // namespace app
