// The `attnlab model` commands' work (cmd_model.cpp wires up their options): training in
// model_train.cpp, eval/run/heads/probe in model_inspect.cpp.
#pragma once

#include "model/lab/model_lab.h"  // OpenHeadRun
#include "model/training/run_config.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace attn::cli {

struct ModelOptions {
  std::string config, dir, text;
  std::string text_file, tune;  // model tune: the text from a file; the run's settings (JSON)
  int steps = 10;               // model tune
  bool resume = false;
  int threads = 2;
  int generate = 0;
  int top_k = 1;             // model run --generate: 1 = greedy; 0 = every token
  double temperature = 1.0;  // ... 0 = greedy
  double top_p = 1.0;        // ... nucleus
  double seed = 1;
  std::string format = "json";
  std::string heads_format = "text";  // model heads: text or json (heads.json)
  int layer = 0, head = 0;            // model probe, model contributions
  int query = -1;                     // model contributions: -1 = the last token
  int targets = 0;                    // model eval: score the first N targets of each stream (0: all)
  int windows = 64, repeats = 64;     // model heads: validation windows per language, repeated sequences
};

// The configuration of `attnlab model train`, every field by its row of model::RunFields();
// false with the one-line refusal otherwise (the fuzz target model_config calls it too).
bool ParseModelConfig(const nlohmann::json& j, model::RunConfig* out, std::string* error);
int RunModelTrain(const ModelOptions& o);
int RunModelEval(const ModelOptions& o);
int RunModelRun(const ModelOptions& o);
int RunModelHeads(const ModelOptions& o);
int RunModelProbe(const ModelOptions& o);  // model_inspect.cpp
int RunModelTune(const ModelOptions& o);  // model_tune.cpp
int RunModelContributions(const ModelOptions& o);  // model_whatif.cpp
int RunModelInfo(const ModelOptions& o);           // model_info.cpp
int RunModelOffsets(const ModelOptions& o);        // model_offsets.cpp
// What contributions and offsets start from (model_whatif.cpp): o.dir's model and the lab's run of
// o.text at (o.layer, o.head) with the query at 0; false with the one-line message.
bool OpenHeadRun(const ModelOptions& o, model::LabModel* m, LabConfig* cfg, LabResult* lab,
                 model::ModelLabResult* extra, std::string* error);
// `model export` and `model encode`, options and all (model_export.cpp).
struct Command;
Command AddModelExport(CLI::App* model);
Command AddModelEncode(CLI::App* model);
// `model lens`, `model attribute`, `model patch` (model_output.cpp): what moved the prediction.
std::vector<Command> AddModelOutput(CLI::App* model);

}  // namespace attn::cli

namespace attn::cli {
// eval.json records each language's loss on its first kModelCheckTargets validation targets
// (checkNats, every bit): loading the files and scoring them again must give the same number.
constexpr int kModelCheckTargets = 2048;
}  // namespace attn::cli

