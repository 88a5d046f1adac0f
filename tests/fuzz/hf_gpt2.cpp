// Fuzz target: a GPT-2-family checkpoint in the Hugging Face layout (model/format/hf_gpt2.h):
// config.json, then the weights. Input: the config's text, a NUL byte, the safetensors bytes.
// Properties: no crash, no exception, no allocation beyond what the files hold (a config that
// lies about its sizes is refused before the parameters exist); a refusal says one line; an
// accepted checkpoint runs a forward of one token.
#include "fuzz_common.h"
#include "model/arch/model.h"
#include "model/format/hf_gpt2.h"
#include "model/format/safetensors.h"

using namespace attn;
using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = attn::fuzz::AsText(data, size);
  const std::size_t nul = input.find('\0');
  if (nul == std::string_view::npos) return 0;
  const std::string config_text(input.substr(0, nul)), bytes(input.substr(nul + 1));
  model::ModelConfig c;
  int eos = -1;
  std::string error;
  if (!model::ParseGpt2Config(config_text, &c, &eos, &error)) {
    attn::fuzz::CheckMessage(error, "ParseGpt2Config refusal");
    return 0;
  }
  Check(model::CheckModelConfig(c).empty(), "an accepted config the model refuses");
  model::StFile f;
  if (!model::ReadSafetensors(bytes, &f, &error)) return 0;  // the safetensors target's business
  model::Params<float> p;
  if (!model::Gpt2FromTensors(c, f.tensors, &p, &error)) {
    attn::fuzz::CheckMessage(error, "Gpt2FromTensors refusal");
    return 0;
  }
  model::SequenceActs<float> acts;
  model::Sequence s;
  s.tokens = {0};
  s.targets = {-1};
  if (!model::Forward(acts, p, c, s, &error, /*last_only=*/true)) attn::fuzz::CheckMessage(error, "Forward refusal");
  return 0;
}
