// Fuzz target: a checkpoint in the Hugging Face layout of any family the lab opens (GPT-2 and the
// Llama family: model/format/hf_checkpoint.h): config.json, then the weights, both ways the lab
// reads them: tensor by tensor from the header (the family's HfLoader, as a folder or the page
// does) and from parsed tensors (HfFromTensors). Input:
// the config's text (read as an index too), a NUL byte, the safetensors bytes.
// Properties: no crash, no exception, no allocation beyond what the files hold (a config that
// lies about its sizes is refused before the parameters exist); a refusal says one line; an
// accepted checkpoint runs a forward of one token.
#include "fuzz_common.h"
#include "model/arch/model.h"
#include "model/format/hf_checkpoint.h"
#include "model/format/hf_gpt2.h"
#include "model/format/hf_loader.h"
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
  if (!model::ParseHfConfig(config_text, &c, &eos, &error)) {
    attn::fuzz::CheckMessage(error, "ParseHfConfig refusal");
    return 0;
  }
  Check(model::CheckModelConfig(c).empty(), "an accepted config the model refuses");
  // The page's and the folder's way: the file's header, then each tensor's bytes (hf_loader.h)
  {
    std::unique_ptr<model::HfLoader> owner = model::MakeHfLoader(c);
    model::HfLoader& loader = *owner;
    std::uint64_t length = 0;
    const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
    model::Params<float> stored;
    std::string dtype;
    bool ok = bytes.size() >= 8 && model::HeaderLength(raw, bytes.size(), &length, &error) &&
              loader.AddFile("model.safetensors", bytes.size(), std::string_view(bytes).substr(8, length), &error) &&
              loader.Check(&error);
    // the page's memory check before a download: what the weights take is what the file holds,
    // at most twice (F16 and BF16 vectors are widened to float), never what a config claims
    if (ok) Check(loader.WeightBytes() <= 2 * bytes.size(), "the weights in memory exceed twice the file");
    ok = ok && loader.Plan(&error);
    for (std::size_t k = 0; ok && k < loader.pieces().size(); ++k) {
      const model::WeightPiece& piece = loader.pieces()[k];
      Check(piece.end <= bytes.size() && piece.begin <= piece.end, "a piece outside the file");
      ok = loader.Take(k, raw + piece.begin, static_cast<std::size_t>(piece.end - piece.begin), &error);
    }
    ok = ok && loader.Finish(&stored, &dtype, &error);
    if (ok) {
      model::SequenceActs<float> acts;
      model::Sequence s;
      s.tokens = {0};
      s.targets = {-1};
      if (!model::Forward(acts, stored, c, s, &error, /*last_only=*/true)) attn::fuzz::CheckMessage(error, "Forward refusal");
    } else if (!error.empty()) {
      attn::fuzz::CheckMessage(error, "HfLoader refusal");
    }
    error.clear();
  }
  // The config's text read as model.safetensors.index.json: the files it names stay in the folder
  {
    std::vector<std::string> files;
    if (model::HfWeightFiles(&config_text, &files, &error)) {
      for (const std::string& name : files)
        Check(!name.empty() && name.find('/') == std::string::npos && name.find("..") == std::string::npos, "an index naming a file outside the folder");
    } else {
      attn::fuzz::CheckMessage(error, "HfWeightFiles refusal");
    }
    error.clear();
  }
  model::StFile f;
  if (!model::ReadSafetensors(bytes, &f, &error)) return 0;  // the safetensors target's business
  model::Params<float> p;
  if (!model::HfFromTensors(c, f.tensors, &p, &error)) {
    attn::fuzz::CheckMessage(error, "HfFromTensors refusal");
    return 0;
  }
  model::SequenceActs<float> acts;
  model::Sequence s;
  s.tokens = {0};
  s.targets = {-1};
  if (!model::Forward(acts, p, c, s, &error, /*last_only=*/true)) attn::fuzz::CheckMessage(error, "Forward refusal");
  return 0;
}
