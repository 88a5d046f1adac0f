// attnlab model offsets DIR --text T --layer L --head H [--query Q]: the RoPE scene (issue 39;
// model/inspect/offsets.h) as the page's Positions panel shows it: the query's word A and the
// earlier word B that head (L, H) leans on most, their score at layer 0, head H, with B moved to
// ten places and A kept `offset` after it, then one further. Rotary models: one number to
// rounding; learned positions (GPT-2, the lab's own): numbers that move.
#include "api/model_json.h"
#include "api/state_json.h"  // Dump
#include "cli/common.h"
#include "cli/model_commands.h"
#include "model/format/model_folder.h"
#include "model/inspect/offsets.h"
#include "model/lab/model_lab.h"

#include <iostream>

namespace attn::cli {

int RunModelOffsets(const ModelOptions& o) {
  const std::string cmd = "model offsets";
  std::string error;
  model::LabModel m;
  LabConfig cfg;
  LabResult lab;
  model::ModelLabResult extra;
  if (!OpenHeadRun(o, &m, &cfg, &lab, &extra, &error)) return RefuseCommand(cmd, error);
  const int n = static_cast<int>(extra.ids.size());
  const int query = o.query < 0 ? n - 1 : o.query;  // default: the last token
  if (query >= n) return RefuseCommand(cmd, "--query: expected a token index from 0 to " + std::to_string(n - 1));
  model::OffsetScene scene;
  int key = -1;
  if (!model::SceneForQuery(m.params, m.config(), extra.ids, extra.acts, cfg.layer, cfg.head, query,
                                  m.tokenizer().Begin() >= 0 ? 1 : 0, &scene, &key, &error))
    return RefuseCommand(cmd, error);
  std::cout << api::Dump(api::OffsetSceneJson(scene, query, key, extra.texts[static_cast<std::size_t>(query)],
                                              extra.texts[static_cast<std::size_t>(key)]))
            << "\n";
  return Finish(cmd, 0);
}

}  // namespace attn::cli
