// GPT-2's tokenizer files (model/tokenizer/gpt2_bpe.h): vocab.json + merges.txt and tokenizer.json
// on a toy vocabulary, the forms real checkpoints write, and a one-line refusal, naming the file
// and the setting, for every broken or unsupported one.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/tokenizer/gpt2_bpe.h"
#include "gpt2_symbols.h"

using namespace attn::model;
using Json = nlohmann::json;

namespace {

// Bytes as ids 0..255, then "ab" 256, "Ġa" 257, "<|endoftext|>" 258.
Json ToyVocab() {
  Json v = Json::object();
  for (int b = 0; b < 256; ++b) v[Gpt2Sym(static_cast<unsigned char>(b))] = b;
  v["ab"] = 256;
  v[kGpt2Space + "a"] = 257;
  v["<|endoftext|>"] = 258;
  return v;
}
const std::string kToyMerges = "#version: 0.2\na b\n" + kGpt2Space + " a\n";

// tokenizer.json as the tokenizers library saves GPT-2's (scripts/gpt2_fixture.py writes the same).
Json ToyTokenizerJson() {
  const Json byte_level = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}, {"use_regex", true}};
  Json post = byte_level;
  post["add_prefix_space"] = true;
  post["trim_offsets"] = false;
  Json decoder = byte_level;
  decoder["add_prefix_space"] = true;
  return {{"version", "1.0"},
          {"truncation", nullptr},
          {"padding", nullptr},
          {"added_tokens", {{{"id", 258}, {"content", "<|endoftext|>"}, {"single_word", false}, {"lstrip", false},
                             {"rstrip", false}, {"normalized", true}, {"special", true}}}},
          {"normalizer", nullptr},
          {"pre_tokenizer", byte_level},
          {"post_processor", post},
          {"decoder", decoder},
          {"model", {{"type", "BPE"}, {"dropout", nullptr}, {"unk_token", nullptr}, {"continuing_subword_prefix", ""},
                     {"end_of_word_suffix", ""}, {"fuse_unk", false}, {"byte_fallback", false},
                     {"vocab", ToyVocab()}, {"merges", Json::array({"a b", kGpt2Space + " a"})}}}};
}

const std::vector<int> kToyWant = {256, 257, 258, 'b'};  // "ab a<|endoftext|>b"

std::vector<int> EncodeIds(const Gpt2Bpe& bpe, const std::string& text) {
  std::vector<int> ids;
  std::string error;
  REQUIRE_MESSAGE(bpe.Encode(text, &ids, &error), error);
  return ids;
}

std::string VocabMergesError(const std::string& vocab, const std::string& merges) {
  Gpt2Bpe bpe;
  std::string error;
  CHECK_FALSE(Gpt2FromVocabMerges(vocab, merges, &bpe, &error));
  return error;
}

std::string TokenizerJsonError(const std::function<void(Json&)>& change) {
  Json doc = ToyTokenizerJson();
  change(doc);
  Gpt2Bpe bpe;
  std::string error;
  CHECK_FALSE(Gpt2FromTokenizerJson(doc.dump(), &bpe, &error));
  return error;
}

}  // namespace

TEST_CASE("gpt2 bpe files: vocab.json + merges.txt in the forms checkpoints have") {
  const std::string vocab = ToyVocab().dump();
  for (const std::string& merges : {kToyMerges,                                     // OpenAI's vocab.bpe
                                    std::string("a b\n") + kGpt2Space + " a",            // no #version, no last newline
                                    "#version: 0.2\r\na b\r\n" + kGpt2Space + " a\r\n"}) {  // saved on Windows
    Gpt2Bpe bpe;
    std::string error;
    REQUIRE_MESSAGE(Gpt2FromVocabMerges(vocab, merges, &bpe, &error), error);
    CHECK(bpe.merge_count() == 2);
    CHECK(EncodeIds(bpe, "ab a<|endoftext|>b") == kToyWant);
    CHECK(bpe.IsSpecial(258));  // "<|endoftext|>" of the vocabulary is GPT2Tokenizer's special token
  }
}

TEST_CASE("gpt2 bpe files: a broken vocab.json or merges.txt is refused in one line naming the file") {
  const std::string vocab = ToyVocab().dump();
  CHECK(VocabMergesError(vocab, "#version: 0.2\na b\n\n" + kGpt2Space + " a\n") ==
        "merges.txt: line 3 is not two tokens separated by one space");
  CHECK(VocabMergesError(vocab, "a  b\n") == "merges.txt: line 1 is not two tokens separated by one space");
  CHECK(VocabMergesError(vocab, "a b c\n") == "merges.txt: line 1 is not two tokens separated by one space");
  CHECK(VocabMergesError(vocab, "ab\n") == "merges.txt: line 1 is not two tokens separated by one space");
  CHECK(VocabMergesError(vocab, kToyMerges + "\n") == "merges.txt: line 4 is not two tokens separated by one space");
  CHECK(VocabMergesError(vocab, kToyMerges + kGpt2Space + " zz\n") ==
        "merges.txt: merge 3 \"" + kGpt2Space + " zz\": \"zz\" is not in the vocabulary");
  CHECK(VocabMergesError(vocab, kToyMerges + "a b\n") == "merges.txt: merge 3 \"a b\" appears twice");
  CHECK(VocabMergesError("[1, 2]", kToyMerges) == "vocab.json: not a JSON object of tokens and their ids");
  CHECK(VocabMergesError("{\"a\": 1,", kToyMerges) == "vocab.json: not valid JSON");
  CHECK(VocabMergesError("{\"a\": 1, \"a\": 2}", kToyMerges) == "vocab.json: the key \"a\" appears twice in one object");
  CHECK(VocabMergesError("{\"a\": 1.5}", kToyMerges) == "vocab.json: token \"a\" has the id 1.5, not an integer in 0..1048575");
  CHECK(VocabMergesError("{\"a\": \"7\"}", kToyMerges) == "vocab.json: token \"a\" has the id \"7\", not an integer in 0..1048575");
  CHECK(VocabMergesError("{\"a\": 99999999999}", kToyMerges) ==
        "vocab.json: token \"a\" has the id 99999999999, not an integer in 0..1048575");
  CHECK(VocabMergesError("{\"a\": 0}", "") == "vocab.json: no token for the byte 0x00 (\"" + Gpt2Sym(0) +
                                                 "\"): not a byte-level vocabulary");
  Gpt2Bpe bpe;
  std::string error;
  CHECK_FALSE(LoadGpt2VocabMerges("/nonexistent/vocab.json", "/nonexistent/merges.txt", &bpe, &error));
  CHECK(error == "/nonexistent/vocab.json: no such file");
}

TEST_CASE("gpt2 bpe files: tokenizer.json with merges as \"a b\" strings or [\"a\", \"b\"] pairs") {
  Json doc = ToyTokenizerJson();
  for (int form = 0; form < 2; ++form) {
    if (form == 1) {  // tokenizers >= 0.20 write pairs, and ignore_merges
      doc["model"]["merges"] = Json::array({Json::array({"a", "b"}), Json::array({kGpt2Space, "a"})});
      doc["model"]["ignore_merges"] = false;
    }
    Gpt2Bpe bpe;
    std::string error;
    REQUIRE_MESSAGE(Gpt2FromTokenizerJson(doc.dump(2), &bpe, &error), error);
    CHECK(bpe.merge_count() == 2);
    CHECK(EncodeIds(bpe, "ab a<|endoftext|>b") == kToyWant);
    CHECK(bpe.IsSpecial(258));
  }
  // without post-processor and decoder, and an added token beyond the vocabulary
  doc.erase("post_processor");
  doc["decoder"] = nullptr;
  doc["added_tokens"].push_back({{"id", 300}, {"content", "<pad>"}, {"special", false}});
  Gpt2Bpe bpe;
  std::string error;
  REQUIRE_MESSAGE(Gpt2FromTokenizerJson(doc.dump(), &bpe, &error), error);
  CHECK(EncodeIds(bpe, "a<pad>") == std::vector<int>{'a', 300});
  CHECK_FALSE(bpe.IsSpecial(300));
}

TEST_CASE("gpt2 bpe files: tokenizer.json's settings this reader does not implement are refused by name") {
  struct Case {
    std::function<void(Json&)> change;
    std::string error;
  };
  const std::string t = "tokenizer.json: ";
  const std::vector<Case> cases = {
      {[](Json& d) { d["normalizer"] = {{"type", "NFC"}}; }, t + "normalizer \"NFC\" is not supported (GPT-2 has none)"},
      {[](Json& d) { d["pre_tokenizer"] = {{"type", "Metaspace"}}; },
       t + "pre_tokenizer \"Metaspace\" is not supported (only ByteLevel)"},
      {[](Json& d) { d["pre_tokenizer"] = {{"type", "Sequence"}, {"pretokenizers", Json::array()}}; },
       t + "pre_tokenizer \"Sequence\" is not supported (only ByteLevel)"},
      {[](Json& d) { d["pre_tokenizer"] = nullptr; }, t + "pre_tokenizer is missing (GPT-2's is ByteLevel)"},
      {[](Json& d) { d["pre_tokenizer"]["add_prefix_space"] = true; },
       t + "pre_tokenizer.add_prefix_space = true is not supported"},
      {[](Json& d) { d["pre_tokenizer"]["use_regex"] = false; }, t + "pre_tokenizer.use_regex = false is not supported"},
      {[](Json& d) { d["pre_tokenizer"]["trim_offsets"] = "yes"; }, t + "pre_tokenizer.trim_offsets is not true or false"},
      {[](Json& d) { d["pre_tokenizer"]["split"] = true; }, t + "pre_tokenizer: the field \"split\" is not supported"},
      {[](Json& d) { d["post_processor"] = {{"type", "TemplateProcessing"}}; },
       t + "post_processor \"TemplateProcessing\" is not supported (only ByteLevel)"},
      {[](Json& d) { d["decoder"] = {{"type", "WordPiece"}}; }, t + "decoder \"WordPiece\" is not supported (only ByteLevel)"},
      {[](Json& d) { d["truncation"] = {{"max_length", 8}}; },
       t + "truncation is set: not supported (ids are never cut or padded here)"},
      {[](Json& d) { d["padding"] = {{"length", 8}}; }, t + "padding is set: not supported (ids are never cut or padded here)"},
      {[](Json& d) { d["version"] = 1; }, t + "version is not a string"},
      {[](Json& d) { d["extra"] = 1; }, t + "the field \"extra\" is not supported"},
      {[](Json& d) { d.erase("model"); }, t + "model is missing or not an object"},
      {[](Json& d) { d["model"]["type"] = "WordPiece"; }, t + "model \"WordPiece\" is not supported (only BPE)"},
      {[](Json& d) { d["model"].erase("type"); }, t + "model \"(no type)\" is not supported (only BPE)"},
      {[](Json& d) { d["model"]["dropout"] = 0.1; }, t + "model.dropout is set: not supported (encoding would be random)"},
      {[](Json& d) { d["model"]["byte_fallback"] = true; }, t + "model.byte_fallback is not false: not supported"},
      {[](Json& d) { d["model"]["ignore_merges"] = true; }, t + "model.ignore_merges is not false: not supported"},
      {[](Json& d) { d["model"]["continuing_subword_prefix"] = "##"; },
       t + "model.continuing_subword_prefix is not empty: not supported"},
      {[](Json& d) { d["model"]["end_of_word_suffix"] = "</w>"; }, t + "model.end_of_word_suffix is not empty: not supported"},
      {[](Json& d) { d["model"]["unk_token"] = "<unk>"; }, t + "model.unk_token is not a token of model.vocab"},
      {[](Json& d) { d["model"]["unk_token"] = 0; }, t + "model.unk_token is not a token of model.vocab"},
      {[](Json& d) { d["model"]["unk_token"] = "<unk>"; d["model"].erase("vocab"); }, t + "model.vocab is missing"},
      {[](Json& d) { d["model"]["cache_capacity"] = 10; }, t + "model: the field \"cache_capacity\" is not supported"},
      {[](Json& d) { d["model"]["vocab"] = Json::array(); }, t + "model.vocab: not a JSON object of tokens and their ids"},
      {[](Json& d) { d["model"].erase("vocab"); }, t + "model.vocab is missing"},
      {[](Json& d) { d["model"]["merges"] = 3; }, t + "model.merges is missing or not an array"},
      {[](Json& d) { d["model"]["merges"][1] = 5; }, t + "model.merges[1] is neither \"a b\" nor [\"a\", \"b\"]"},
      {[](Json& d) { d["model"]["merges"][0] = {"a"}; }, t + "model.merges[0] is neither \"a b\" nor [\"a\", \"b\"]"},
      {[](Json& d) { d["model"]["merges"][0] = {"a", ""}; }, t + "model.merges[0] is neither \"a b\" nor [\"a\", \"b\"]"},
      {[](Json& d) { d["model"]["merges"][0] = "a  b"; }, t + "model.merges[0] is neither \"a b\" nor [\"a\", \"b\"]"},
      {[](Json& d) { d["model"]["merges"][0] = "a zz"; },
       t + "model.merges: merge 1 \"a zz\": \"zz\" is not in the vocabulary"},
      {[](Json& d) { d["added_tokens"][0]["lstrip"] = true; }, t + "added_tokens[0].lstrip = true is not supported"},
      {[](Json& d) { d["added_tokens"][0]["single_word"] = true; }, t + "added_tokens[0].single_word = true is not supported"},
      {[](Json& d) { d["added_tokens"][0]["special"] = 1; }, t + "added_tokens[0].special is not true or false"},
      {[](Json& d) { d["added_tokens"][0]["id"] = "258"; }, t + "added_tokens[0].id is not an integer in 0..1048575"},
      {[](Json& d) { d["added_tokens"][0].erase("content"); }, t + "added_tokens[0].content is not a string"},
      {[](Json& d) { d["added_tokens"][0]["extra"] = 1; }, t + "added_tokens[0]: the field \"extra\" is not supported"},
      {[](Json& d) { d["added_tokens"] = {7}; }, t + "added_tokens[0] is not an object"},
      {[](Json& d) { d["added_tokens"] = 7; }, t + "added_tokens is not an array"},
      {[](Json& d) { d["added_tokens"][0]["id"] = 5; },
       t + "added_tokens: \"<|endoftext|>\" has id 5 but is token 258 of the vocabulary"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    CHECK(TokenizerJsonError(cases[i].change) == cases[i].error);
  }
  Gpt2Bpe bpe;
  std::string error;
  CHECK_FALSE(Gpt2FromTokenizerJson("[1]", &bpe, &error));
  CHECK(error == "tokenizer.json: not a JSON object");
  CHECK_FALSE(Gpt2FromTokenizerJson("{\"model\": ", &bpe, &error, "x/tokenizer.json"));
  CHECK(error == "x/tokenizer.json: not valid JSON");
  // a key repeated in the vocabulary: nlohmann-json alone would keep the last one silently
  std::string text = ToyTokenizerJson().dump();
  const std::string ab = "\"ab\":256";
  REQUIRE(text.find(ab) != std::string::npos);
  text.replace(text.find(ab), ab.size(), ab + ",\"ab\":259");
  CHECK_FALSE(Gpt2FromTokenizerJson(text, &bpe, &error));
  CHECK(error == "tokenizer.json: the key \"ab\" appears twice in one object");
  CHECK_FALSE(LoadGpt2TokenizerJson("/nonexistent/tokenizer.json", &bpe, &error));
  CHECK(error == "/nonexistent/tokenizer.json: no such file");
  CHECK_FALSE(LoadGpt2TokenizerJson(ATTNLAB_SOURCE_DIR, &bpe, &error));  // a folder
  CHECK(error == std::string(ATTNLAB_SOURCE_DIR) + ": no such file");
}
