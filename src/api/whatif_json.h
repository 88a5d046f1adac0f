// Issue 23's numbers as JSON (engine/information/contribution.h, engine/whatif/whatif.h): the query's contributions
// and a run's edits (both in every trace), and the comparison of an edited run with the plain
// one (`attnlab trace --compare`; the page's comparison panel will read the same).
#pragma once

#include "engine/whatif/whatif.h"

#include "api/fields_json.h"

#include <nlohmann/json.hpp>

namespace attn::api {

using Json = nlohmann::json;

// {"query", "valueNormSum", "keys": [{"weight", "valueNorm", "residualNorm", "removal",
//  "outputWithout": [Dv], "masked"}, ...]}
Json ContributionToJson(const ContributionTable& t);
// {"edited", "fromTyped", "toRun", "replaced", "inserted", "deleted", "shuffled", "knockedKeys",
//  "knockedHeads", "valueToken", "valueOffset": [Dv]}  (-1 / [] where none)
Json EditsToJson(const RunEdits& e);
// {"query", "queryEdited", "toEdited", "fromPlain", "rowPresent", "dWeights": [H][N][N],
//  "insertedWeight": [H][N], "maxAbsDWeight", "dOutput": [Dv], "dFinalOutput": [Do],
//  "dOutputNorm", "dFinalOutputNorm",
//  "verdict": {"plain": {...}, "edited": {...}, "changed"}}; indices as in whatif.h
Json ComparisonToJson(const LabComparison& c);

}  // namespace attn::api
