// What the model's tools ask of a tokenizer, whichever one the model came with: the lab's own
// BPE (bpe.h), GPT-2's byte-level BPE (gpt2_bpe.h) or a Hugging Face tokenizer.json's BPE in
// general (hf_tokenizer.h: Llama, Mistral, Qwen). `model run`, the lab's model mode, the
// probe, "Train it more" and the validation scores read a model's text only through this, so a
// GPT-2 checkpoint and the lab's model are served by the same code.
//
// The one difference in how a text is read is Begin(): the lab's model was trained with every
// text after <|endoftext|>, so its runs start with it; GPT-2's reference tokenizers add nothing
// (TransformerLens prepends <|endoftext|> by default; the lab follows the tokenizers, so that
// its ids are the ones a course's own code gets).
#pragma once

#include "model/tokenizer/bpe.h"
#include "model/tokenizer/gpt2_bpe.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attn {
namespace model {

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  // The text's ids, nothing added (the caller puts Begin() first when it is not -1). Refuses
  // invalid UTF-8 with a message.
  virtual bool Encode(std::string_view text, std::vector<int>* ids, std::string* error = nullptr) const = 0;
  // The bytes the token stands for in a text: "" for the lab's <|endoftext|> (text never spells
  // it), "<|endoftext|>" for GPT-2's (an added token matched in text). Empty for no token.
  virtual std::string Bytes(int id) const = 0;
  // The token for people, valid UTF-8: "<|endoftext|>"; a byte that is not a whole character as
  // <0xE2>.
  virtual std::string Label(int id) const = 0;
  virtual int size() const = 0;       // one above the largest id
  virtual int EndOfText() const = 0;  // what separates documents, -1 when none
  virtual int Begin() const = 0;      // what a run starts with, -1 when nothing
  virtual const char* Kind() const = 0;  // "attnlab-bpe", "gpt2-bpe" or "hf-bpe"
  // The lab's own BPE when it is one (the training and export code needs its merges), else null.
  virtual const Bpe* Own() const { return nullptr; }

  // The ids' text: Decode(Encode(text)) == text. The ids' bytes concatenated, unless the
  // tokenizer's decoder says more (hf_tokenizer.h: the metaspace U+2581 Llama 2 puts first is no
  // space of the text).
  virtual std::string Decode(const std::vector<int>& ids) const;
};

std::shared_ptr<const Tokenizer> MakeOwnTokenizer(Bpe bpe);
// eot: the document separator's id (config.json's eos_token_id, else the vocabulary's
// "<|endoftext|>", else -1).
std::shared_ptr<const Tokenizer> MakeGpt2Tokenizer(Gpt2Bpe bpe, int eot);

}  // namespace model
}  // namespace attn
