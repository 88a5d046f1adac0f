// Fuzz target: the model's BPE encoder (model/tokenizer/bpe.h) with the shipped vocabulary (web/model),
// on any text. Properties: no crash; invalid UTF-8 is refused with a message; every valid text
// encodes to ids of the vocabulary that decode back to the same bytes.
#include "fuzz_common.h"
#include "model/tokenizer/bpe.h"

#include <fstream>
#include <sstream>

using namespace attn;
using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const model::Bpe* bpe = [] {
    std::ifstream in(ATTNLAB_SOURCE_DIR "/web/model/tokenizer.json", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    auto* b = new model::Bpe;
    std::string error;
    if (!model::BpeFromJson(ss.str(), b, &error)) attn::fuzz::Fail("web/model/tokenizer.json: " + error);
    return b;
  }();
  const std::string_view text = attn::fuzz::AsText(data, size);
  std::vector<int> ids;
  std::string error;
  if (!bpe->Encode(text, &ids, &error)) {
    attn::fuzz::CheckMessage(error, "Encode refusal");
    return 0;
  }
  for (int id : ids) Check(id > 0 && id < bpe->size(), "an id outside the vocabulary");
  Check(bpe->Decode(ids) == text, "Decode(Encode(text)) != text");
  std::vector<model::Chunk> chunks;
  Check(model::PreSplit(text, &chunks, &error), "PreSplit refuses a text Encode accepted");
  std::size_t at = 0;
  for (const model::Chunk& c : chunks) {
    Check(c.begin == at && c.end >= c.begin && c.end <= text.size(), "chunks do not tile the text");
    at = c.end;
  }
  Check(at == text.size(), "chunks do not cover the text");
  return 0;
}
