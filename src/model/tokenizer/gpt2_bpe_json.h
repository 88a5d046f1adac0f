// GPT-2's tokenizer.json reader (gpt2_bpe.h) on a file already parsed (attn_model_io:
// nlohmann-json), for model_folder.cpp, which parses a folder's tokenizer.json once to pick its
// reader (hf_tokenizer_json.h: LooksLikeGpt2TokenizerJson).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/tokenizer/gpt2_bpe.h"

namespace attn {
namespace model {

// Gpt2FromTokenizerJson (gpt2_bpe.h) on the parsed file: the same checks and messages.
bool Gpt2FromParsedTokenizerJson(const nlohmann::json& tokenizer, Gpt2Bpe* bpe, std::string* error = nullptr,
                                 const std::string& name = "tokenizer.json");

}  // namespace model
}  // namespace attn
