// The what-if room (whatif.h): the plain run and the comparison, each keyed by the settings.
#include "app/whatif/whatif.h"

#include "api/fields_json.h"
#include "api/whatif_json.h"
#include "model/lab/model_lab.h"

#include <algorithm>

namespace app {

namespace {

// The key of a cache: every row of the lab's settings table, as JSON text.
std::string SettingsKey(const attn::LabConfig& c) {
  Json j = Json::object();
  attn::api::FieldsToJson(attn::LabFields(), c, j);
  return j.dump();
}

}  // namespace

bool WhatIfToolsInBuild() { return attn::model::ModelCodeInBuild(); }

bool WhatIf::WantsTools(const attn::api::LabState& lab) const {
  return !WhatIfToolsInBuild() && !tools.asked && tools.failed.empty() && (attn::HasEdits(lab.config) || tools.shown);
}

void WhatIf::ToolsAsked() {
  tools = ToolsSwitch{};
  tools.asked = true;
}

void WhatIf::ToolsProgress(double fraction) {
  if (tools.asked) tools.fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
}

void WhatIf::ToolsFailed(const std::string& message) {
  tools.asked = false;
  tools.failed = message.empty() ? "?" : message;
}

void WhatIf::Update(const attn::api::LabState& settings, const LabView& lab) {
  if (!WhatIfToolsInBuild()) return;  // the default page's build: no comparison (whatif.h)
  WhatIf& w = *this;
  const attn::LabConfig& c = settings.config;
  // the edited run is the attention room's (and the model's) result
  const attn::LabResult& edited = *lab.attention.result;
  if (c.projection == attn::Projection::kModel) {
    if (!attn::HasEdits(c) || !lab.model.loaded || !edited.error.ok()) {
      w.model_key.clear();
      return;
    }
    std::string wanted = SettingsKey(c);
    if (wanted == w.model_key) return;
    w.model_error = attn::LabError();
    attn::model::CompareModelRuns(*lab.model.loaded, c, *lab.attention.model_result, &w.model, &w.model_error);
    w.model_key = std::move(wanted);
    return;
  }
  if (!attn::HasEdits(c) || c.projection == attn::Projection::kModel || !edited.error.ok()) {
    w.key.clear();
    w.comparison = attn::LabComparison{};
    return;
  }
  std::string wanted = SettingsKey(c);
  if (wanted == w.key) return;
  const attn::LabConfig plain_config = attn::WithoutEdits(c);
  std::string plain_wanted = SettingsKey(plain_config);
  if (plain_wanted != w.plain_key) {
    w.plain = attn::ComputeLab(plain_config);
    w.plain_key = std::move(plain_wanted);
  }
  w.comparison = attn::CompareRuns(c, w.plain, edited);
  w.key = std::move(wanted);
}

const attn::LabComparison* WhatIf::CurrentComparison() const {
  if (key.empty() || !comparison.error.ok()) return nullptr;
  return &comparison;
}

const std::vector<attn::Token>& WhatIf::TypedTokens(const LabView& view) const {
  if (!key.empty() && plain.error.ok()) return plain.tokens;
  return view.attention.result->tokens;
}

Json NoEditsPatch() {
  const attn::LabConfig none;
  return {{"whatIfToken", none.what_if_token}, {"whatIfWith", none.what_if_with},
          {"whatIfMode", attn::WhatIfModeName(none.what_if_mode)}, {"shuffle", attn::ShuffleModeName(none.shuffle)},
          {"knockoutKeys", none.knockout_keys.text}, {"knockoutHeads", none.knockout_heads.text},
          {"valueToken", none.value_token}, {"valueA", none.value_a}, {"valueB", none.value_b}};
}


const attn::model::ModelComparison* WhatIf::CurrentModelComparison() const {
  if (model_key.empty() || !model_error.ok()) return nullptr;
  return &model;
}

namespace {

Json NextJson(const std::vector<attn::model::NextToken>& next) {
  Json out = Json::array();
  for (const auto& t : next) out.push_back(attn::api::Obj({{"id", t.id}, {"text", t.text}, {"p", t.p}}));
  return out;
}

Json ModelComparisonJson(const attn::model::ModelComparison& c) {
  Json out = Json::object();
  out["sentence"] = c.sentence;
  out["tokens"] = c.texts;
  out["toEdited"] = c.to_edited;
  out["nextPlain"] = NextJson(c.next_plain);
  out["nextEdited"] = NextJson(c.next_edited);
  Json d = Json::array();
  for (const attn::MatD& m : c.d_weights) {
    Json rows = Json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      Json row = Json::array();
      for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
      rows.push_back(std::move(row));
    }
    d.push_back(std::move(rows));
  }
  out["dWeights"] = std::move(d);
  out["maxAbsDWeight"] = c.max_abs_d_weight;
  return out;
}

}  // namespace

Json WhatIf::ComparisonJson(const attn::api::LabState& lab) const {
  if (!WhatIfToolsInBuild()) return Json(nullptr);
  if (lab.config.projection == attn::Projection::kModel) {
    if (!model_key.empty() && !model_error.ok())
      return attn::api::Obj({{"error", attn::api::Obj({{"field", model_error.field}, {"message", model_error.message}})}});
    const attn::model::ModelComparison* m = CurrentModelComparison();
    return m ? ModelComparisonJson(*m) : Json(nullptr);
  }
  const attn::LabComparison* c = WhatIfToolsInBuild() ? CurrentComparison() : nullptr;
  return c ? attn::api::ComparisonToJson(*c) : Json(nullptr);
}

// ---- the room (room.h) ------------------------------------------------------------------------
void WhatIf::Adopt(const RoomContext& c, const attn::api::LabState&, Source) { Update(c.lab, c.view); }
void WhatIf::Publish(LabView* view) const {
  view->whatif.comparison = CurrentComparison();
  view->whatif.model = CurrentModelComparison();
  view->whatif.model_error = &model_error;
}

}  // namespace app
