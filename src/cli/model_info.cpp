// attnlab model info DIR: what a model folder holds (the lab's own, or a GPT-2-family
// or Llama-family checkpoint in the Hugging Face layout) and the memory a run of it needs, before running it.
#include "cli/common.h"
#include "cli/model_commands.h"
#include "model/format/hf_checkpoint.h"
#include "model/format/hf_gpt2.h"
#include "model/format/model_folder.h"

#include <fstream>
#include <iostream>

namespace attn::cli {

namespace {

bool Exists(const std::string& path) { return std::ifstream(path).good(); }

Json Describe(const model::ModelConfig& c, std::int64_t parameters) {
  Json out = {{"layers", c.layers}, {"heads", c.heads}, {"dModel", c.d_model}, {"mlp", c.mlp},
              {"context", c.context}, {"vocab", c.vocab}, {"attentionBiases", c.attn_bias},
              {"tiedEmbeddings", c.tied}, {"parameters", parameters}};
  if (!c.rotary) {
    out["layerNormEpsilon"] = c.ln_eps;
    out["activation"] = c.gelu_erf ? "gelu" : "gelu_new";
    return out;
  }
  // the Llama family's parts (model.h)
  static const char* const kScaling[] = {"none", "linear", "llama3"};
  out["keyValueHeads"] = model::KvHeads(c);
  out["headDim"] = model::HeadDim(c);
  out["rmsNormEpsilon"] = c.ln_eps;
  out["activation"] = "silu (SwiGLU)";
  out["outputBias"] = c.out_bias;
  out["qkNorm"] = c.qk_norm;
  out["ropeTheta"] = c.rope_theta;
  out["ropeScaling"] = kScaling[static_cast<int>(c.rope_scaling)];
  if (c.rope_scaling != model::ModelConfig::RopeScaling::kNone) out["ropeFactor"] = c.rope_factor;
  out["slidingWindow"] = c.sliding_window;
  return out;
}

}  // namespace

int RunModelInfo(const ModelOptions& o) {
  const std::string cmd = "model info";
  const std::string dir = o.dir.empty() || o.dir.back() == '/' ? o.dir : o.dir + "/";
  model::Bundle b;
  std::string error;
  if (!model::OpenModelFolder(o.dir, &b, &error)) return RefuseCommand(cmd, error);
  const model::ModelConfig& c = b.config;
  Json out;
  if (b.format == "attnlab") {  // the lab's own folder (bundle.h)
    out = {{"format", "attnlab"}, {"architecture", "GPT-2-shaped (pre-LayerNorm, learned positions, no attention biases)"},
           {"dtype", b.dtype}, {"fileBytes", b.file_bytes}, {"tokenizer", "tokenizer.json (the lab's BPE)"}};
  } else {
    // the file the tokenizer came from: the first of model_folder.h's order that is there
    const char* tokenizer = Exists(dir + "attnlab-tokenizer.json") ? "attnlab-tokenizer.json (the lab's BPE)"
                            : Exists(dir + "tokenizer.json")       ? "tokenizer.json"
                                                                   : "vocab.json + merges.txt";
    out = {{"format", "huggingface"}, {"architecture", c.rotary ? "llama" : "gpt2"}, {"dtype", b.dtype}, {"fileBytes", b.file_bytes},
           {"tokenizer", tokenizer}};
  }
  out["config"] = Describe(c, model::ParameterCount(c));
  // Then one forward's intermediates.
  // The weights in memory: a checkpoint's big matrices at their stored precision (stored.h), the
  // rest in float; the lab's own model all in float.
  std::uint64_t weights = 4 * static_cast<std::uint64_t>(out["config"]["parameters"].get<std::int64_t>());
  if (b.params.stored) {
    std::uint64_t floats = 0;
    for (const model::TensorRef<float>& t : model::Tensors(b.params)) floats += static_cast<std::uint64_t>(t.size());
    weights = b.params.stored->bytes() + 4 * floats;
  }
  out["memory"] = {{"weightsBytes", weights},
                   {"run64Bytes", weights + model::ForwardBytes(c, std::min<std::uint64_t>(64, static_cast<std::uint64_t>(c.context)))},
                   {"runContextBytes", weights + model::ForwardBytes(c, static_cast<std::uint64_t>(c.context))}};
  std::cout << out.dump(2) << "\n";
  return 0;
}

}  // namespace attn::cli
