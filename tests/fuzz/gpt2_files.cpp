// Fuzz target: GPT-2's tokenizer files (model/tokenizer/gpt2_bpe.h). An input that starts with "v"
// is vocab.json, a NUL byte, then merges.txt; any other is a tokenizer.json. Properties: no
// crash; a refusal is one line starting with the file's name; an accepted tokenizer encodes
// sample texts to ids of tokens that decode back to the same bytes.
#include "fuzz_common.h"
#include "model/tokenizer/gpt2_bpe.h"

using namespace attn;
using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = attn::fuzz::AsText(data, size);
  model::Gpt2Bpe bpe;
  std::string error;
  bool ok;
  if (!input.empty() && input[0] == 'v') {
    const std::size_t nul = input.find('\0');
    const std::string_view vocab = input.substr(1, nul == std::string_view::npos ? input.npos : nul - 1);
    const std::string_view merges = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
    ok = model::Gpt2FromVocabMerges(vocab, merges, &bpe, &error);
    if (!ok) Check(error.rfind("vocab.json: ", 0) == 0 || error.rfind("merges.txt: ", 0) == 0,
                   "a refusal that names no file: " + error);
  } else {
    ok = model::Gpt2FromTokenizerJson(input, &bpe, &error);
    if (!ok) Check(error.rfind("tokenizer.json: ", 0) == 0, "a refusal that names no file: " + error);
  }
  if (!ok) {
    attn::fuzz::CheckMessage(error, "refusal");
    return 0;
  }
  for (const char* text : {"I love sushi", "я люблю суши", "a\tb  c\n\xF0\x9F\x98\x80 x-y don't <|endoftext|>"}) {
    std::vector<int> ids;
    Check(bpe.Encode(text, &ids, &error), std::string("an accepted tokenizer cannot encode ") + text);
    for (int id : ids) Check(bpe.Has(id), "an id that names no token");
    std::string back;
    Check(bpe.Decode(ids, &back, &error) && back == text, std::string("Decode(Encode(text)) != text for ") + text);
  }
  return 0;
}
