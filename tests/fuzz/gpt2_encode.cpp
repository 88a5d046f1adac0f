// Fuzz target: GPT-2's byte-level BPE (model/tokenizer/gpt2_bpe.h) on any text, with a toy
// vocabulary in GPT-2's form: every byte, merges of "abcde" and the space up to three symbols in
// a mixed rank order (a merge may rank before the merges that make its parts), and added tokens
// that overlap. Properties: no crash; invalid UTF-8 is refused in one line; a valid text's pieces
// tile it, and its ids, with or without the added tokens, name tokens and decode to the same bytes.
#include "fuzz_common.h"
#include "model/tokenizer/gpt2_bpe.h"
#include "model/tokenizer/gpt2_pretokenizer.h"

using namespace attn;
using attn::fuzz::Check;

namespace {

std::string Symbol(unsigned char byte) {  // the stand-ins are below U+0800: at most two bytes
  const char32_t cp = model::Gpt2ByteSymbol(byte);
  if (cp < 0x80) return std::string(1, static_cast<char>(cp));
  return {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
}

const model::Gpt2Bpe& Toy() {
  static const model::Gpt2Bpe* bpe = [] {
    std::vector<std::pair<std::string, int>> vocab;
    for (int b = 0; b < 256; ++b) vocab.emplace_back(Symbol(static_cast<unsigned char>(b)), b);
    const std::string letters[] = {"a", "b", "c", "d", "e", Symbol(' ')};
    std::vector<std::pair<std::string, std::string>> pairs, triples;
    for (const std::string& x : letters)
      for (const std::string& y : letters) {
        pairs.emplace_back(x, y);
        vocab.emplace_back(x + y, static_cast<int>(vocab.size()));  // "ab" is 257
      }
    for (std::size_t i = 0; i < pairs.size(); i += 3)
      for (const std::string& z : {std::string("a"), std::string("e")}) {
        triples.emplace_back(pairs[i].first + pairs[i].second, z);
        vocab.emplace_back(triples.back().first + z, static_cast<int>(vocab.size()));
      }
    // half of the three-symbol merges rank before every pair (before the merges of their parts)
    std::vector<std::pair<std::string, std::string>> merges(triples.begin(), triples.begin() + 12);
    merges.insert(merges.end(), pairs.begin(), pairs.end());
    merges.insert(merges.end(), triples.begin() + 12, triples.end());
    const int n = static_cast<int>(vocab.size());
    const std::vector<model::Gpt2AddedToken> added = {
        {"<|endoftext|>", n, true}, {"<x>", n + 1, false}, {"<x>y", n + 2, false}, {"ab", 257, false}};
    auto* b = new model::Gpt2Bpe;
    std::string error;
    if (!b->Load(vocab, merges, added, &error)) attn::fuzz::Fail("the toy vocabulary: " + error);
    return b;
  }();
  return *bpe;
}

void CheckIds(const model::Gpt2Bpe& bpe, std::string_view text, const std::vector<int>& ids, const char* how) {
  for (int id : ids) Check(bpe.Has(id), std::string(how) + ": an id that names no token");
  std::string back, error;
  Check(bpe.Decode(ids, &back, &error), std::string(how) + ": Decode refuses its ids: " + error);
  Check(back == text, std::string(how) + ": Decode(ids) != text");
  for (int id : ids) Check(!bpe.Readable(id).empty(), "an empty readable token");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const model::Gpt2Bpe& bpe = Toy();
  const std::string_view text = attn::fuzz::AsText(data, size);
  std::vector<int> ids;
  std::string error;
  if (!bpe.Encode(text, &ids, &error)) {
    attn::fuzz::CheckMessage(error, "Encode refusal");
    std::vector<int> plain;
    Check(!bpe.EncodeOrdinary(text, &plain, &error), "EncodeOrdinary accepts what Encode refused");
    return 0;
  }
  CheckIds(bpe, text, ids, "Encode");
  Check(bpe.EncodeOrdinary(text, &ids, &error), "EncodeOrdinary refuses what Encode accepted");
  CheckIds(bpe, text, ids, "EncodeOrdinary");
  std::vector<model::Chunk> pieces;
  Check(model::Gpt2PreTokenize(text, &pieces, &error), "the pre-tokenizer refuses a valid text");
  std::size_t at = 0;
  for (const model::Chunk& c : pieces) {
    Check(c.begin == at && c.end > c.begin && c.end <= text.size(), "pieces do not tile the text");
    at = c.end;
  }
  Check(at == text.size(), "pieces do not cover the text");
  return 0;
}
