// Fuzz target: the configuration of `attnlab model train CONFIG.json` (cli ParseModelConfig, on
// model::RunFields()). Properties: no crash, no exception; a refusal names its field in one line;
// an accepted configuration converts to the trainer's (ToTrainConfig) and reads back from its
// own JSON.
#include "api/fields_json.h"
#include "cli/common.h"
#include "cli/model_commands.h"
#include "fuzz_common.h"

using namespace attn;
using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  api::Json j;
  std::string error;
  if (!cli::ReadJson(attn::fuzz::WriteScratch(attn::fuzz::AsText(data, size)), &j, &error)) {
    attn::fuzz::CheckMessage(error, "ReadJson refusal");
    return 0;
  }
  model::RunConfig rc;
  if (!cli::ParseModelConfig(j, &rc, &error)) {
    attn::fuzz::CheckMessage(error, "ParseModelConfig refusal");
    return 0;
  }
  (void)model::ToTrainConfig(rc, rc.vocab);
  api::Json back = api::Json::object();
  api::FieldsToJson(model::RunFields(), rc, back);
  model::RunConfig again;
  Check(cli::ParseModelConfig(back, &again, &error), "a configuration's own JSON is refused: " + error);
  return 0;
}
