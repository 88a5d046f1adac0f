// A model folder of either kind, told apart by what it holds:
//   MANIFEST.sha256   the lab's own folder (bundle.h: every file checked against its digest)
//   config.json       a GPT-2-family checkpoint in the Hugging Face layout (hf_gpt2.h), with its
//                     tokenizer (below)
// Every `attnlab model` command that reads a folder, and the desktop program, open it here, so
// both kinds give the same JSON through the same code. Lives in attn_model_io.
#pragma once

#include "model/format/bundle.h"
#include "model/format/hf_checkpoint.h"
#include "model/format/hf_gpt2.h"

#include <map>
#include <memory>
#include <string>

namespace attn {
namespace model {

// The folder, whichever kind. Refusals are one line and start with the file they are about
// ("DIR: no such folder" when there is none).
bool OpenModelFolder(const std::string& dir, Bundle* out, std::string* error);

// Only a folder's tokenizer, whatever else it holds (or lacks: a folder of tokenizer files
// alone, a checkpoint of an architecture the lab does not run): the lab's own folder's, else
// HfTokenizerFromFiles on the files there, with config.json's eos_token_id when it has one.
// What `attnlab model encode --text/--texts` reads (model_folder_native.cpp).
bool OpenTokenizerFolder(const std::string& dir, std::shared_ptr<const Tokenizer>* out, std::string* error);

// A Hugging Face folder's tokenizer from its files' texts (name -> bytes), the first found of:
//   attnlab-tokenizer.json       the lab's own BPE (bpe.h), which `attnlab model export --to hf`
//                                writes beside a tokenizer.json: the lab's exact ids
//   tokenizer.json               Hugging Face's tokenizers library: GPT-2's kind by GPT-2's exact
//                                reader (gpt2_bpe.h), any other BPE by the general one
//                                (hf_tokenizer.h: Llama, Mistral, Qwen), with
//                                tokenizer_config.json when there (add_bos_token: Begin())
//   vocab.json + merges.txt      GPT2Tokenizer's files
// eos: config.json's eos_token_id (-1: none). Refused: none of them ("no tokenizer: ..."), a file
// its reader refuses, a tokenizer with ids beyond the model's vocabulary `vocab`.
bool HfTokenizerFromFiles(const std::map<std::string, std::string>& files, int eos, int vocab,
                          std::shared_ptr<const Tokenizer>* out, std::string* error);
// A checkpoint read (hf_gpt2.h: a folder natively, the page's pieces through Gpt2Loader) with its
// tokenizer (HfTokenizerFromFiles) and config.json's text as the lab's Bundle.
Bundle BundleFromCheckpoint(HfCheckpoint ck, std::shared_ptr<const Tokenizer> tokenizer, std::string config_json);

// The names HfTokenizerFromFiles reads, in its order of preference.
extern const char* const kHfTokenizerFiles[5];

}  // namespace model
}  // namespace attn
