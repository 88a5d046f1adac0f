// GPT-2's byte symbols as UTF-8 text, for the tokenizer's tests (test_gpt2_bpe*.cpp): a toy
// vocabulary is written in them, as GPT-2's is.
#pragma once

#include <string>

#include "model/tokenizer/gpt2_bpe.h"

inline std::string Gpt2Sym(unsigned char byte) {
  const char32_t cp = attn::model::Gpt2ByteSymbol(byte);  // < U+0144: one or two bytes
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return s;
}

inline const std::string kGpt2Space = Gpt2Sym(' ');  // "Ġ"
