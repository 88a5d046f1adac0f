// Fuzz target: the lab's word tokenizer (engine/text/tokenizer.h) on any bytes. Properties: no crash;
// a refusal has a one-line message and no tokens; accepted tokens are at most kMaxTokens, in
// order, inside the input, non-empty, their text the input's bytes; UTF-8 decoding stays in
// bounds and only ever moves forward.
#include "engine/text/tokenizer.h"
#include "fuzz_common.h"

using namespace attn;
using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = attn::fuzz::AsText(data, size);
  const TokenizeResult r = Tokenize(text);
  if (!r.ok()) {
    Check(r.tokens.empty(), "tokens on a refusal");
    attn::fuzz::CheckMessage(r.message, "Tokenize");
    return 0;
  }
  Check(!r.tokens.empty() && r.tokens.size() <= kMaxTokens, "token count out of range");
  Check(text.size() <= kMaxSentenceBytes, "accepted more than kMaxSentenceBytes");
  std::size_t last_end = 0;
  for (const Token& t : r.tokens) {
    Check(t.byte_begin >= last_end && t.byte_begin < t.byte_end && t.byte_end <= text.size(),
          "token range out of order or outside the input");
    Check(t.text == text.substr(t.byte_begin, t.byte_end - t.byte_begin), "token text is not the input's");
    last_end = t.byte_end;
  }
  // DecodeUtf8 walks the whole input without leaving it.
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t before = pos;
    char32_t cp = 0;
    if (!DecodeUtf8(text, pos, cp)) break;
    Check(pos > before && pos <= text.size() && cp <= 0x10FFFF, "DecodeUtf8 out of bounds");
  }
  return 0;
}
