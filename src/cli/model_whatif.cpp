// attnlab model contributions DIR --text T --layer L --head H [--query Q]: issue 23 in model mode.
// Beside every weight of the query's row in the lab's head (layer L, head H): ||alpha_i v_i||,
// ||alpha_i v_i W_O[h]|| (what reaches the residual stream), ||A - A_-i|| (the head's output
// with key i masked out), and the change of the log-probability of the model's likeliest next
// token when key i is masked out of that head (model/lab/model_whatif.h): the page's model mode.
#include "api/state_json.h"  // Dump
#include "api/whatif_json.h"
#include "cli/common.h"
#include "cli/model_commands.h"
#include "model/format/model_folder.h"
#include "model/lab/model_lab.h"
#include "model/lab/model_whatif.h"

#include <iostream>

namespace attn::cli {

bool OpenHeadRun(const ModelOptions& o, model::LabModel* m, LabConfig* cfg, LabResult* lab,
                 model::ModelLabResult* extra, std::string* error) {
  if (o.text.empty()) return *error = "--text: expected a text, got none", false;
  if (!model::OpenModelFolder(o.dir, &m->shipped, error)) return false;
  m->params = m->shipped.params;
  cfg->projection = Projection::kModel;
  cfg->sentence = o.text;
  cfg->layer = o.layer;
  cfg->head = o.head;
  cfg->query = 0;
  if (model::ComputeModelLab(*m, *cfg, lab, extra)) return true;
  *error = FieldMessage(lab->error.field, lab->error.message);
  return false;
}

int RunModelContributions(const ModelOptions& o) {
  const std::string cmd = "model contributions";
  std::string error;
  model::LabModel m;
  LabConfig cfg;
  LabResult lab;
  model::ModelLabResult extra;
  if (!OpenHeadRun(o, &m, &cfg, &lab, &extra, &error)) return RefuseCommand(cmd, error);
  const int n = static_cast<int>(extra.ids.size());
  cfg.query = o.query < 0 ? n - 1 : o.query;  // default: the last token, whose next token is predicted
  if (!model::ComputeModelLab(m, cfg, &lab, &extra)) return RefuseCommand(cmd, FieldMessage(lab.error.field, lab.error.message));
  Json out;
  out["layer"] = cfg.layer;
  out["head"] = cfg.head;
  out["query"] = cfg.query;
  out["tokens"] = extra.texts;
  out["contribution"] = api::ContributionToJson(lab.contribution);
  // the next token's log-probability, key by key (the prediction reads the last token's row)
  model::NextTokenEffects effects;
  if (!model::KeyNextTokenEffects(m, cfg, extra, &effects, &error)) return RefuseCommand(cmd, error);
  out["next"] = Json{{"id", effects.next_id}, {"text", extra.next[0].text}, {"logp", effects.logp},
                     {"logpWithout", effects.logp_without}, {"delta", effects.delta}};
  std::cout << api::Dump(out) << "\n";
  return Finish(cmd, 0);
}

}  // namespace attn::cli
