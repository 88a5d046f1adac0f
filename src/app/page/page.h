// The page room: what a course page configures and copies. A lab configured for a lesson (the
// state's `hide` and `lock` rows, over api::LabPartTree()), the view it shows, and the state in a
// link: read from a location hash, written as a share link or an iframe snippet.
// No ImGui, SDL or GL (library attn_app; tests/app/page).
#pragma once

#include "api/state_json.h"
#include "app/lab_view.h"

#include <string>
#include <string_view>

namespace app {

// IsHidden / IsLocked: whether the state's `hide` / `lock` names `part` or a part that holds it
// (api::PartInSet: the one rule; the interface's ui::Hidden and ui::Locked ask these). A view is
// visible when it is not hidden ("sentence": the sentence or the settings panel is shown);
// ShownView is the view the lab shows: `view` when visible, else the first visible of steps,
// weights, vectors, information, sentence, training, normalization ("" when everything is
// hidden). A lesson step that names a hidden view therefore shows another one, and never
// un-hides anything.
bool IsHidden(const attn::api::LabState& lab, std::string_view part);
bool IsLocked(const attn::api::LabState& lab, std::string_view part);
bool ViewVisible(const attn::api::LabState& lab, std::string_view view);
std::string ShownView(const attn::api::LabState& lab);

// The state in a link (api/url_state.h does the reading and writing; link.cpp). ApplyLinkJson
// applies a location.hash through ApplyPatch: every field at once, or the ones the state
// accepts; `fallback_lang` ("en"/"ru", or "") is used when the link names no language. The
// refusals stay in the header. Returns {ok, errors: [{field, error}], state}. LinkText is the
// hash for the current state (training fields only where they differ from the defaults), with
// the lesson's #lessonUrl first when it came from one. Both read and move the rooms through the
// context and the view only (lab_view.h).
std::string ApplyLinkJson(const RoomContext& c, const std::string& hash, const std::string& fallback_lang);
std::string LinkText(const LabView& view);
// Sharing: the link to the current state (`page_url` is the lab's address; a hash in it is
// replaced) and an iframe snippet for it that a course author pastes into a page (the state,
// its hide and lock flags, and the auto-height script of web/embed-example.html).
std::string ShareLink(const LabView& view, const std::string& page_url);
std::string EmbedSnippet(const LabView& view, const std::string& page_url);

}  // namespace app
