// Fuzz target: the model's weight file (model.safetensors; model/format/safetensors.h) and its config
// and parameters (model/format/model_file.h). Properties: no crash, no exception, no huge allocation
// from a lying header; a refusal says one line; an accepted file writes back to bytes that read
// to the same tensors.
#include "fuzz_common.h"
#include "model/format/model_file.h"
#include "model/format/safetensors.h"

using namespace attn;
using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(attn::fuzz::AsText(data, size));
  model::StFile f;
  std::string error;
  if (!model::ReadSafetensors(bytes, &f, &error)) {
    attn::fuzz::CheckMessage(error, "ReadSafetensors refusal");
    return 0;
  }
  // Integer tensors are read by name and layout only, and never written.
  for (const model::StTensor& t : f.tensors)
    if (t.dtype == model::Dtype::kOther) {
      std::string out;
      Check(!model::WriteSafetensors(f, &out, &error), "a file with an integer tensor was written");
      return 0;
    }
  std::string out;
  Check(model::WriteSafetensors(f, &out, &error), "an accepted file cannot be written: " + error);
  model::StFile g;
  Check(model::ReadSafetensors(out, &g, &error), "the written file is refused: " + error);
  Check(g.tensors.size() == f.tensors.size() && g.metadata == f.metadata, "the written file differs");
  for (std::size_t i = 0; i < f.tensors.size(); ++i) {
    Check(g.tensors[i].name == f.tensors[i].name && g.tensors[i].shape == f.tensors[i].shape &&
              g.tensors[i].values.size() == f.tensors[i].values.size(),
          "tensor " + f.tensors[i].name + " differs after writing");
  }
  // The model's view of the same file: its config, then its parameters.
  model::ModelConfig c;
  if (!model::ConfigFromFile(f, &c, &error)) {
    attn::fuzz::CheckMessage(error, "ConfigFromFile refusal");
    return 0;
  }
  model::Params<float> p;
  if (!model::ParamsFromFile(f, c, &p, &error)) attn::fuzz::CheckMessage(error, "ParamsFromFile refusal");
  return 0;
}
