// The lab's model written as a GPT-2 checkpoint in the Hugging Face layout (what
// `save_pretrained` writes): `attnlab model export DIR --to hf OUT`. The exact inverse of
// hf_gpt2.h's reader, so that reading the folder back gives every weight's bits.
//
//   config.json              model_type "gpt2", the sizes, layer_norm_epsilon, activation_function
//                            ("gelu_new", or "gelu" for the erf form), tie_word_embeddings,
//                            bos/eos = <|endoftext|>'s id 0, and save_pretrained's other keys
//   generation_config.json   bos/eos
//   model.safetensors        "transformer."-prefixed names, metadata {"format": "pt"}:
//     wte.weight (V, C), wpe.weight (P, C);
//     h.l.ln_1.weight/bias (C); h.l.attn.c_attn.weight (C, 3C) = W_Q | W_K | W_V, each the
//     heads' (C, Dh) blocks side by side in head order; h.l.attn.c_attn.bias (3C) the same way;
//     h.l.attn.c_proj.weight (C, C) = W_O, .bias (C); h.l.ln_2.weight/bias (C);
//     h.l.mlp.c_fc.weight (C, F), .bias (F); h.l.mlp.c_proj.weight (F, C), .bias (C);
//     ln_f.weight/bias (C); lm_head.weight (V, C) only when untied.
//     The lab's own model has no attention biases: c_attn.bias and attn.c_proj.bias are zeros,
//     which GPT-2's forward adds without changing a bit.
//   attnlab-tokenizer.json   the lab's BPE exactly (BpeToJson): what the lab reads back
//   tokenizer.json           the same vocabulary for Hugging Face's tokenizers (bpe_hf.h: a best
//                            effort), tokenizer_config.json, special_tokens_map.json
//
// Lives in attn_model_io (nlohmann-json). The files come as bytes by name, so that the page can
// offer them for download as well; WriteGpt2Folder is the native write.
#pragma once

#include "model/arch/model.h"
#include "model/format/safetensors.h"
#include "model/tokenizer/bpe.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attn {
namespace model {

// The narrowest float dtype that holds every value exactly: F16, else BF16, else F32. The lab's
// own folder is F16, so its export is too.
Dtype ExactDtype(const Params<float>& p);
// How many values `dtype` would round (0: it holds them all), and the first tensor rounded.
std::int64_t RoundedValues(const Params<float>& p, Dtype dtype, std::string* first_tensor = nullptr);

struct Gpt2ExportOptions {
  Dtype dtype = Dtype::kF16;    // kF32, kF16 or kBF16
  bool allow_rounding = false;  // false: a dtype that would round a value is refused
  double dropout = 0;           // config.json's resid_pdrop and embd_pdrop (the run's dropout)
};

using NamedFiles = std::vector<std::pair<std::string, std::string>>;  // file name -> bytes

// Every file of the folder, in writing order. False with a one-line message naming the file:
// a config the layout cannot hold, a dtype that would round (unless allowed), a vocabulary that
// is not the model's size, or one tokenizer.json cannot hold.
bool Gpt2FolderFiles(const ModelConfig& c, const Params<float>& p, const Bpe& bpe, const Gpt2ExportOptions& o,
                     NamedFiles* files, std::string* error);

// Writes the files into `dir`, creating it when missing. Refused, with nothing written: `dir`
// exists and holds anything, unless `replace` (then the export's files are replaced and others
// left as they are, except a model.safetensors.index.json, which readers would take instead of
// model.safetensors: refused). Messages start with the path at fault.
bool WriteGpt2Folder(const std::string& dir, const NamedFiles& files, bool replace, std::string* error);

}  // namespace model
}  // namespace attn
