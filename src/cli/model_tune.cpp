// attnlab model tune: the page's "Train it more" natively (model/training/finetune.h), with the same
// bits: the shipped weights, the text's stream, `--steps` whole steps; prints every step's
// loss and the weights' checksum, which the browser test compares with the page's.
#include "api/fields_json.h"
#include "cli/common.h"
#include "cli/model_commands.h"
#include "cli/raw_input.h"
#include "model/format/model_folder.h"
#include "model/training/finetune.h"

#include <iostream>

namespace attn::cli {

int RunModelTune(const ModelOptions& o) {
  const std::string cmd = "model tune";
  std::string error;
  // The run's settings, each by its row (the page's tune.* rows).
  model::TuneConfig cfg;
  if (!o.tune.empty()) {
    Json j = Json::parse(o.tune, nullptr, false);
    if (!j.is_object()) return RefuseCommand(cmd, "--config: expected a JSON object such as {\"lr\": 0.001}, got " + api::DescribeJson(j));
    for (const auto& [key, v] : j.items()) {
      const Field<model::TuneConfig>* f = FindField(model::TuneFields(), key);
      if (!f) return RefuseCommand(cmd, detail::Quoted(key) + ": unknown field (expected one of " + api::FieldNames(model::TuneFields()) + ")");
      if (api::ApplyJsonField(*f, cfg, v, detail::Quoted(key), &error) != api::FieldStatus::kOk) return RefuseCommand(cmd, error);
    }
  }
  if (o.text.empty() == o.text_file.empty()) return RefuseCommand(cmd, "expected one of --text and --text-file");
  std::string text = o.text;
  if (!o.text_file.empty() && !ReadInput(o.text_file, &text, &error)) return RefuseCommand(cmd, "--text-file: " + error);
  model::Bundle b;
  if (!model::OpenModelFolder(o.dir, &b, &error)) return RefuseCommand(cmd, error);
  // too large to train: refused before the weights are widened (the page's limit, finetune.h)
  if (const model::TuneMemory memory = model::TuneMemoryOf(b.config); !memory.fits())
    return RefuseCommand(cmd, model::TuneMemoryRefusal(memory));
  std::vector<int> ids;
  if (!model::TuneStream(*b.tokenizer, text, o.text_file.empty() ? "--text" : "--text-file", &ids, &error))
    return RefuseCommand(cmd, error);
  model::TuneSession session;
  if (!session.Start(b.config, ids, cfg, &error)) return RefuseCommand(cmd, error);
  Json steps = Json::array();
  model::Params<float> p = model::Widened(b.params);  // training needs every number in float
  while (session.step() < o.steps) {
    bool done = false;
    model::StepMetrics m;
    if (!session.Work(p, &done, &m, &error)) return InternalError(cmd, error);
    if (done) steps.push_back({{"step", m.step}, {"loss", m.loss}, {"gradNorm", m.grad_norm}});
  }
  Json settings = Json::object();
  api::FieldsToJson(model::TuneFields(), cfg, settings);
  const Json out = {{"tokens", ids.size()},
                    {"length", session.length()},
                    {"settings", settings},
                    {"shippedChecksum", model::ParamsChecksum(b.params)},
                    {"steps", steps},
                    {"checksum", model::ParamsChecksum(p)}};
  std::cout << out.dump(2) << "\n";
  return Finish(cmd, 0);
}

}  // namespace attn::cli
