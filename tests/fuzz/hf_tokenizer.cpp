// Fuzz target: a general Hugging Face tokenizer.json (model/tokenizer/hf_tokenizer.h) and its
// regular expressions (hf_regex.h). An input that starts with "r" is a pattern, a NUL byte, then
// a text: the pattern compiled and every match found; any other input is a tokenizer.json,
// optionally followed by a NUL byte and a tokenizer_config.json. Properties: no crash, no
// exception, no endless search (the regex engine's budget); a refusal is one line starting with
// the file's name; matches lie in the text, in order; an accepted tokenizer encodes sample texts
// (or refuses them in one line) into ids that name tokens, and decodes them without crashing.
#include "fuzz_common.h"
#include "model/tokenizer/hf_regex.h"
#include "model/tokenizer/hf_tokenizer.h"

#include "engine/text/tokenizer.h"  // DecodeUtf8

using namespace attn;
using attn::fuzz::Check;

namespace {

void FuzzRegex(std::string_view input) {
  const std::size_t nul = input.find('\0');
  const std::string_view pattern = input.substr(1, nul == std::string_view::npos ? input.npos : nul - 1);
  const std::string_view text = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  model::HfRegex re;
  std::string error;
  if (!re.Compile(pattern, &error)) {
    attn::fuzz::CheckMessage(error, "regex refusal");
    return;
  }
  std::vector<char32_t> cps;
  for (std::size_t pos = 0; pos < text.size();) {  // a byte that is not UTF-8 as U+FFFD
    const std::size_t at = pos;
    char32_t cp;
    if (!DecodeUtf8(text, pos, cp)) {
      cp = 0xFFFD;
      pos = at + 1;
    }
    cps.push_back(cp);
  }
  long long budget = model::HfRegex::Budget(cps.size());
  std::size_t from = 0, begin, end;
  bool gave_up = false;
  while (from <= cps.size() && re.Find(cps, from, &begin, &end, &budget, &gave_up)) {
    Check(begin >= from && begin <= end && end <= cps.size(), "a match outside the text or out of order");
    from = end > begin ? end : begin + 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = attn::fuzz::AsText(data, size);
  if (!input.empty() && input[0] == 'r') {
    FuzzRegex(input);
    return 0;
  }
  const std::size_t nul = input.find('\0');
  const std::string_view json = input.substr(0, nul);
  const std::string config = nul == std::string_view::npos ? std::string() : std::string(input.substr(nul + 1));
  std::shared_ptr<const model::Tokenizer> t;
  std::string error;
  if (!model::HfTokenizerFromJson(json, nul == std::string_view::npos ? nullptr : &config, -1, &t, &error)) {
    attn::fuzz::CheckMessage(error, "refusal");
    Check(error.rfind("tokenizer.json: ", 0) == 0 || error.rfind("tokenizer_config.json: ", 0) == 0,
          "a refusal that names no file: " + error);
    return 0;
  }
  Check(t->Begin() < t->size(), "a begin token beyond the vocabulary");
  for (const char* text : {"I love sushi", "я люблю суши", "a\tb  c\n\n\xF0\x9F\x98\x80 x-y DON'T 123456 <s>",
                           "  \r\n\xE2\x80\xA8 e\xCC\x81"}) {
    std::vector<int> ids;
    if (!t->Encode(text, &ids, &error)) {
      attn::fuzz::CheckMessage(error, "Encode refusal");
      continue;
    }
    for (int id : ids) Check(id >= 0 && id < t->size(), "an id that names no token");
    (void)t->Decode(ids);
    for (int id : ids) (void)t->Label(id);
  }
  return 0;
}
