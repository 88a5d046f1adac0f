// Fuzz target: the model's tokenizer file (tokenizer.json, model/tokenizer/bpe.h BpeFromJson). Properties:
// no crash; a refusal says one line; an accepted vocabulary encodes and decodes a sample text,
// and writes back to JSON that loads to the same vocabulary.
#include "fuzz_common.h"
#include "model/tokenizer/bpe.h"

using namespace attn;
using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  model::Bpe bpe;
  std::string error;
  if (!model::BpeFromJson(std::string(attn::fuzz::AsText(data, size)), &bpe, &error)) {
    attn::fuzz::CheckMessage(error, "BpeFromJson refusal");
    return 0;
  }
  const std::string json = model::BpeToJson(bpe);
  model::Bpe again;
  Check(model::BpeFromJson(json, &again, &error), "BpeToJson's output is refused: " + error);
  Check(model::BpeToJson(again) == json, "BpeToJson does not round-trip");
  for (const char* text : {"I love sushi", "я люблю суши", "a\tb  c\n\xF0\x9F\x98\x80 x-y don't"}) {
    std::vector<int> ids;
    Check(bpe.Encode(text, &ids, &error), std::string("an accepted vocabulary cannot encode ") + text);
    for (int id : ids) Check(id >= 0 && id < bpe.size(), "an id outside the vocabulary");
    Check(bpe.Decode(ids) == text, std::string("Decode(Encode(text)) != text for ") + text);
  }
  return 0;
}
