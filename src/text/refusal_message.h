// A refused state change (the page API's, the URL's, a control's) in the interface's language.
// Apart from i18n.h so that the strings every panel includes do not bring the API with them: only
// the panels that show a refusal include this.
#pragma once

#include "api/state_json.h"

#include <string>

namespace text {

std::string RefusalMessage(const attn::api::PatchResult& r);

}  // namespace text
