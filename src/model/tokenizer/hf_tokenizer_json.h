// tokenizer.json already parsed (attn_model_io: nlohmann-json), for model_folder.cpp, which
// parses a folder's tokenizer.json once and then picks its reader: GPT-2's exact one
// (gpt2_bpe.h) for the files that look like GPT-2's, the general one (hf_tokenizer.h) for the rest.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "model/tokenizer/hf_tokenizer.h"

namespace attn {
namespace model {

// HfTokenizerFromJson (hf_tokenizer.h) on a parsed tokenizer.json.
bool HfTokenizerFromJsonValue(const nlohmann::json& tokenizer, const std::string* config_json, int eos,
                              std::shared_ptr<const Tokenizer>* out, std::string* error,
                              const std::string& name = "tokenizer.json",
                              const std::string& config_name = "tokenizer_config.json");

// A tokenizer.json of GPT-2's kind: no normalizer, the one pre-tokenizer ByteLevel, a BPE model
// without byte_fallback or ignore_merges. GPT-2's reader takes these (or refuses them with its
// own messages); tokenizer_config.json adds nothing to them.
bool LooksLikeGpt2TokenizerJson(const nlohmann::json& tokenizer);

}  // namespace model
}  // namespace attn
