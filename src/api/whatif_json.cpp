// Issue 23's numbers as JSON: see whatif_json.h.
#include "api/whatif_json.h"

#include "api/patch_rows.h"

namespace attn::api {

namespace {

Json Numbers(const VecD& v) {
  Json a = Json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v(i));
  return a;
}

Json Numbers(const VecF& v) {
  Json a = Json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v(i));
  return a;
}

Json VerdictToJson(const Verdict& v) {
  return Obj({{"recoverable", v.recoverable}, {"unique", v.unique}, {"affineRank", v.affine_rank},
              {"sameOutputDim", v.same_output_dim}});
}

}  // namespace

Json ContributionToJson(const ContributionTable& t) {
  Json keys = Json::array();
  for (const KeyContribution& k : t.keys)
    keys.push_back(Obj({{"weight", k.weight}, {"valueNorm", k.value_norm}, {"residualNorm", k.residual_norm},
                        {"removal", k.removal}, {"outputWithout", Numbers(k.output_without)}, {"masked", k.masked}}));
  return Obj({{"query", t.query}, {"valueNormSum", t.value_norm_sum}, {"keys", keys}});
}

Json EditsToJson(const RunEdits& e) {
  return Obj({{"edited", e.edited},           {"fromTyped", e.from_typed},     {"toRun", e.to_run},
              {"replaced", e.replaced},       {"inserted", e.inserted},        {"deleted", e.deleted},
              {"shuffled", e.shuffled},       {"knockedKeys", e.knocked_keys}, {"knockedHeads", e.knocked_heads},
              {"valueToken", e.value_token},  {"valueOffset", Numbers(e.value_offset)}});
}

Json ComparisonToJson(const LabComparison& c) {
  Json dw = Json::array(), gained = Json::array();
  for (std::size_t h = 0; h < c.d_weights.size(); ++h) {
    Json rows = Json::array();
    for (Eigen::Index i = 0; i < c.d_weights[h].rows(); ++i) rows.push_back(Numbers(VecD(c.d_weights[h].row(i).transpose())));
    dw.push_back(std::move(rows));
    gained.push_back(Numbers(c.inserted_weight[h]));
  }
  std::vector<int> present(c.row_present.begin(), c.row_present.end());
  const int query_edited = c.query >= 0 && static_cast<std::size_t>(c.query) < c.to_edited.size()
                               ? c.to_edited[static_cast<std::size_t>(c.query)]
                               : -1;
  return Obj({{"query", c.query},
              {"queryEdited", query_edited},
              {"toEdited", c.to_edited},
              {"fromPlain", c.from_plain},
              {"rowPresent", present},
              {"dWeights", dw},
              {"insertedWeight", gained},
              {"maxAbsDWeight", c.max_abs_d_weight},
              {"shuffleDoubleMaxDiff", c.shuffle_double_max_diff >= 0 ? Json(c.shuffle_double_max_diff) : Json(nullptr)},
              {"dOutput", Numbers(c.d_output)},
              {"dFinalOutput", Numbers(c.d_final_output)},
              {"dOutputNorm", c.d_output_norm},
              {"dFinalOutputNorm", c.d_final_output_norm},
              {"verdict", Obj({{"plain", VerdictToJson(c.verdict_plain)},
                               {"edited", VerdictToJson(c.verdict_edited)},
                               {"changed", c.verdict_changed}})}});
}

// ---- the edits' part of a state patch (patch_rows.h) -------------------------------------------

bool IsEditField(const std::string& key) {
  return key == "whatIfToken" || key == "whatIfWith" || key == "whatIfMode" || key == "shuffle" ||
         key == "shuffleSeed" || key == "knockoutKeys" || key == "knockoutHeads" || key == "valueToken" ||
         key == "valueA" || key == "valueB";
}

void DropStaleEdits(const LabConfig& before, LabConfig& c) {
  // The edits (engine/whatif/whatif.h) name tokens of the sentence: a new sentence without edits drops
  // them (the shuffle and the knocked-out heads name no token and stay); model mode takes none
  // yet, so choosing it without edits drops them all.
  if (c.sentence != before.sentence) {
    LabConfig dropped = WithoutEdits(c);
    dropped.shuffle = c.shuffle;
    dropped.shuffle_seed = c.shuffle_seed;
    dropped.knockout_heads = c.knockout_heads;
    c = std::move(dropped);
  }
  if (c.projection == Projection::kModel && before.projection != Projection::kModel)
    c = WithoutEdits(c);
}

}  // namespace attn::api
