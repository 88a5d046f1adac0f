// The lab's model through issue 40's tools (model/inspect/: the logit lens, the attribution,
// activation patching; model/arch/sampling.h: generation): what the Prediction tab needs beyond
// the lab's own forward (model_lab.h) -- a token the learner names, a generated token's step.
// Eigen + std only, like the engine.
#pragma once

#include "model/inspect/attribution.h"
#include "model/lab/model_lab.h"

#include <string>
#include <vector>

namespace attn {
namespace model {

// A token the learner names (the state's answer and foil; the page API's target and foil):
// "" = none (-1), "#<id>" = that id, else a text that is exactly one token of the model's
// tokenizer (" Paris", «ы»). False with an English line naming `field` otherwise.
bool ParseTokenChoice(const LabModel& m, const std::string& text, const char* field, int* id, std::string* error);

// The attribution at the last of `ids` (a forward of them, as the lab's: a generated token's
// step, its prompt and the tokens before it), target and foil as ComputeAttribution's.
bool AttributeIds(const LabModel& m, const std::vector<int>& ids, int target, int foil, Attribution* out,
                  std::string* error = nullptr);

}  // namespace model
}  // namespace attn
