// Issue 40's tools as JSON, one writer for the page (getLens, getAttribution, runPatching) and
// `attnlab model lens / attribute / patch`, so that the two print the same thing. Generic over
// the model's structs (model/inspect/lens.h, attribution.h, patching.h) like model_json.h, so that
// attn_api needs no model code. `label(id)` is the tokenizer's text of a token.
#pragma once

#include "api/state_json.h"

#include <cmath>
#include <string>
#include <vector>

namespace attn::api {

// {id, text, p}
template <class Label>
Json LensTokenJson(int id, double p, const Label& label) {
  return {{"id", id}, {"text", label(id)}, {"p", p}};
}

// The logit lens: rows k = 0 (the embeddings) .. L (the model's output), one column per token.
//   {rows, tokens, chosenTarget, targets: [{id, text}], top: [k][t] {id, text, p},
//    targetP: [k][t], lastTop5: [k][5] {id, text, p}}
template <class Lens, class Label>
Json LensJson(const Lens& lens, const std::vector<std::string>& tokens, const Label& label) {
  Json targets = Json::array(), top = Json::array(), target_p = Json::array(), last = Json::array();
  for (int id : lens.targets) targets.push_back({{"id", id}, {"text", label(id)}});
  for (int k = 0; k < lens.rows; ++k) {
    Json row = Json::array(), prow = Json::array(), five = Json::array();
    for (int t = 0; t < lens.positions; ++t) {
      row.push_back(LensTokenJson(lens.At(k, t).top.id, lens.At(k, t).top.p, label));
      prow.push_back(lens.At(k, t).target_p);
    }
    for (const auto& tok : lens.last_top5[static_cast<std::size_t>(k)]) five.push_back(LensTokenJson(tok.id, tok.p, label));
    top.push_back(row);
    target_p.push_back(prow);
    last.push_back(five);
  }
  return {{"rows", lens.rows}, {"tokens", tokens}, {"chosenTarget", lens.chosen_target}, {"targets", targets},
          {"top", top}, {"targetP", target_p}, {"lastTop5", last}};
}

// Direct logit attribution at the last position.
//   {position, target: {id, text}, foil: {id, text} | null, logit, sum, scale,
//    parts: [{name, layer, head, value}], heads: [{layer, head, weight: [T], contribution: [T],
//    attribution: [T]}], tokens}
template <class Attribution, class Label>
Json AttributionJson(const Attribution& a, const std::vector<std::string>& tokens, const Label& label) {
  Json parts = Json::array(), heads = Json::array();
  for (const auto& p : a.parts)
    parts.push_back({{"name", p.Name()}, {"layer", p.layer}, {"head", p.head}, {"value", p.value}});
  for (const auto& h : a.heads)
    heads.push_back({{"layer", h.layer}, {"head", h.head}, {"weight", h.weight}, {"contribution", h.contribution},
                     {"attribution", h.attribution}});
  return {{"position", a.position}, {"target", {{"id", a.target}, {"text", label(a.target)}}},
          {"foil", a.foil >= 0 ? Json{{"id", a.foil}, {"text", label(a.foil)}} : Json()}, {"logit", a.logit},
          {"sum", a.sum}, {"scale", a.scale}, {"parts", parts}, {"heads", heads}, {"tokens", tokens}};
}

// Activation patching: the grid so far (null where not run yet).
//   {what, rows, cols, done, total, target: {id, text}, foil: {id, text}, ldClean, ldCorrupted,
//    metric: [rows][cols], clean: [tokens], corrupted: [tokens]}
template <class Run, class Label>
Json PatchJson(const Run& run, const char* what, const std::vector<std::string>& clean,
               const std::vector<std::string>& corrupted, const Label& label) {
  Json grid = Json::array();
  for (int r = 0; r < run.rows(); ++r) {
    Json row = Json::array();
    for (int c = 0; c < run.cols(); ++c) {
      const double m = run.metric()[static_cast<std::size_t>(r * run.cols() + c)];
      row.push_back(std::isnan(m) ? Json() : Json(m));
    }
    grid.push_back(row);
  }
  return {{"what", what}, {"rows", run.rows()}, {"cols", run.cols()}, {"done", run.finished()}, {"total", run.total()},
          {"target", {{"id", run.spec().target}, {"text", label(run.spec().target)}}},
          {"foil", {{"id", run.spec().foil}, {"text", label(run.spec().foil)}}}, {"ldClean", run.ld_clean()},
          {"ldCorrupted", run.ld_corrupted()}, {"metric", grid}, {"clean", clean}, {"corrupted", corrupted}};
}

}  // namespace attn::api
