// The one way the lab says no: every check of a configuration, and the refusal they all make.
// A refusal is a LabError with the code the interface translates (text/i18n.cpp), the field it
// is about, an English line "<field>: expected <what>, got <got>" and the offending number. The
// lab, the trained model, the what-if edits and the heads all refuse through these, so that one
// wording serves them all.
#pragma once

#include "engine/lab/lab.h"

#include <string>

namespace attn {

// ---- the refusal ------------------------------------------------------------------------------

LabError Refuse(ConfigError code, std::string field, std::string message, double value = 0);
// An index out of its range: "<field>: expected <what> from 0 to <count - 1>, got <got>"
// (value = got).
LabError RefuseIndex(ConfigError code, const char* field, const char* what, int count, int got);

// ---- the checks -------------------------------------------------------------------------------

// Checks every field; the first problem found is returned (sentence first): the table's rules,
// then what depends on the sentence (query and target index a token, head < heads), then the
// edits (whatif.h). Model mode checks only what does not depend on the model (the sentence's
// text, every row's range); the model checks the rest (model/lab/model_lab.h).
LabError ValidateConfig(const LabConfig& cfg);
// The same for a sentence already tokenized into `t` (ComputeLab tokenizes once), outside
// model mode.
LabError ValidateTokenized(const LabConfig& cfg, const TokenizeResult& t);

// The query and the target against a run of n tokens (the lower bounds are the field table's):
// ok() or the query's refusal, then the target's (-1 = automatic).
LabError CheckQueryTarget(int query, int target, int n);
// A layer and a head picked out of a model (the lab's heads, the trained model's layers and
// heads, its probe and its Information): ok() when 0 <= layer < layers and 0 <= head < heads;
// else the layer's refusal first, then the head's ("layer: expected a layer index from 0 to 3,
// got 4"; kLayerOutOfRange / kHeadOutOfRange, value = the index).
LabError CheckLayerHead(int layers, int heads, int layer, int head);

}  // namespace attn
