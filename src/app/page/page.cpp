// A lab configured for a lesson (page.h): the state's `hide` and `lock` rows and the view shown.
#include "app/page/page.h"

namespace app {

bool IsHidden(const attn::api::LabState& lab, std::string_view part) { return attn::api::PartInSet(lab.hide, part); }
bool IsLocked(const attn::api::LabState& lab, std::string_view part) { return attn::api::PartInSet(lab.lock, part); }

bool ViewVisible(const attn::api::LabState& lab, std::string_view view) {
  // The sentence view holds two panels: it is there while one of them is.
  if (view == "sentence") return !(IsHidden(lab, "sentence") && IsHidden(lab, "settings"));
  return !IsHidden(lab, view);
}

std::string ShownView(const attn::api::LabState& lab) {
  if (ViewVisible(lab, lab.view)) return lab.view;
  for (const char* v : {"steps", "weights", "vectors", "information", "whatif", "sentence", "training", "normalization",
                        "positions"})  // ("prediction": model mode's own tab, shown only when asked for)
    if (ViewVisible(lab, v)) return v;
  return "";
}

}  // namespace app
