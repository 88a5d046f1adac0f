// A general tokenizer.json (model/tokenizer/hf_tokenizer.h) on small hand-written files: each
// component as the tokenizers library computes it (the ids below are worked out by hand from
// the toy vocabularies), and the one-line refusal of each thing the reader does not implement.
// The real Llama 2, Llama 3 and Qwen 3 files against tokenizers.js: tests/cli/test_hf_tokenizers.py.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/format/model_folder.h"
#include "model/tokenizer/gpt2_bpe.h"
#include "model/tokenizer/hf_tokenizer.h"

using namespace attn::model;
using Json = nlohmann::json;

namespace {

const std::string kMeta = "\xE2\x96\x81";  // ▁
const std::string kG = "\xC4\xA0";          // Ġ: GPT-2's stand-in for the space byte

// Llama 2's kind: Prepend + Replace, no pre-tokenizer, byte_fallback, <s> before $A, and its
// decoder (Replace, ByteFallback, Fuse, Strip).
Json LlamaLike() {
  Json vocab = {{"<unk>", 0}, {"<s>", 1}, {"</s>", 2}, {"<0x0A>", 3}, {"<0xD0>", 4}, {"<0xB6>", 5}, {kMeta, 6},
                {"h", 7}, {"e", 8}, {"l", 9}, {"o", 10}, {"w", 11}, {"r", 12}, {"d", 13}, {kMeta + "h", 14},
                {"ll", 15}, {kMeta + "he", 16}, {kMeta + "hell", 17}, {kMeta + "hello", 18}, {kMeta + "w", 19},
                {"or", 20}, {kMeta + "wor", 21}, {"ld", 22}, {kMeta + "world", 23}};
  Json merges = {kMeta + " h", "l l", kMeta + "h e", kMeta + "he ll", kMeta + "hell o", kMeta + " w", "o r",
                 kMeta + "w or", "l d", kMeta + "wor ld"};
  const auto added = [](int id, const char* content) {
    return Json{{"id", id}, {"content", content}, {"single_word", false}, {"lstrip", false}, {"rstrip", false},
                {"normalized", false}, {"special", true}};
  };
  return {{"version", "1.0"},
          {"truncation", nullptr},
          {"padding", nullptr},
          {"added_tokens", {added(0, "<unk>"), added(1, "<s>"), added(2, "</s>")}},
          {"normalizer", {{"type", "Sequence"},
                          {"normalizers", {{{"type", "Prepend"}, {"prepend", kMeta}},
                                           {{"type", "Replace"}, {"pattern", {{"String", " "}}}, {"content", kMeta}}}}}},
          {"pre_tokenizer", nullptr},
          {"post_processor", {{"type", "TemplateProcessing"},
                              {"single", {{{"SpecialToken", {{"id", "<s>"}, {"type_id", 0}}}},
                                          {{"Sequence", {{"id", "A"}, {"type_id", 0}}}}}},
                              {"pair", Json::array()},
                              {"special_tokens", {{"<s>", {{"id", "<s>"}, {"ids", {1}}, {"tokens", {"<s>"}}}}}}}},
          {"decoder", {{"type", "Sequence"},
                       {"decoders", {{{"type", "Replace"}, {"pattern", {{"String", kMeta}}}, {"content", " "}},
                                     {{"type", "ByteFallback"}},
                                     {{"type", "Fuse"}},
                                     {{"type", "Strip"}, {"content", " "}, {"start", 1}, {"stop", 0}}}}}},
          {"model", {{"type", "BPE"}, {"dropout", nullptr}, {"unk_token", "<unk>"}, {"continuing_subword_prefix", nullptr},
                     {"end_of_word_suffix", nullptr}, {"fuse_unk", true}, {"byte_fallback", true},
                     {"vocab", vocab}, {"merges", merges}}}};
}

// Llama 3's and Qwen's kind: Split by a Unicode regex, then ByteLevel without its own regex.
const char* kLlama3Pattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

Json ByteLevelLike() {
  Json vocab = {{"a", 0}, {"b", 1}, {kG, 2}, {kG + "a", 3}, {"ab", 4}, {kG + "ab", 5}, {"\xC3\x90", 6},
                {"\xC2\xB6", 7}, {"\xC3\x90\xC2\xB6", 8}, {"'", 9}, {"s", 10}, {"S", 11}, {"1", 12}, {"2", 13},
                {"3", 14}, {"4", 15}, {"\xC4\x8A", 16} /* Ċ: \n */};
  Json merges = Json::array({Json::array({kG, "a"}), Json::array({"a", "b"}), Json::array({kG + "a", "b"}),
                             Json::array({"\xC3\x90", "\xC2\xB6"})});
  const Json byte_level = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", false}, {"use_regex", false}};
  return {{"version", "1.0"},
          {"added_tokens", {{{"id", 17}, {"content", "<|x|>"}, {"special", true}, {"normalized", false}}}},
          {"normalizer", {{"type", "NFC"}}},
          {"pre_tokenizer", {{"type", "Sequence"},
                             {"pretokenizers", {{{"type", "Split"}, {"pattern", {{"Regex", kLlama3Pattern}}},
                                                 {"behavior", "Isolated"}, {"invert", false}},
                                                byte_level}}}},
          {"post_processor", byte_level},
          {"decoder", byte_level},
          {"model", {{"type", "BPE"}, {"dropout", nullptr}, {"unk_token", nullptr}, {"continuing_subword_prefix", ""},
                     {"end_of_word_suffix", ""}, {"fuse_unk", false}, {"byte_fallback", false}, {"ignore_merges", false},
                     {"vocab", vocab}, {"merges", merges}}}};
}

std::shared_ptr<const Tokenizer> Make(const Json& j, const std::string* config = nullptr) {
  std::shared_ptr<const Tokenizer> t;
  std::string error;
  const bool ok = HfTokenizerFromJson(j.dump(), config, -1, &t, &error);
  INFO(error);
  REQUIRE(ok);
  return t;
}

// The refusal of `j` (empty when it is accepted).
std::string Refusal(const Json& j, const std::string* config = nullptr) {
  std::shared_ptr<const Tokenizer> t;
  std::string error;
  return HfTokenizerFromJson(j.dump(), config, -1, &t, &error) ? std::string() : error;
}

std::vector<int> Ids(const Tokenizer& t, const std::string& text) {
  std::vector<int> ids;
  std::string error;
  INFO(error);
  CHECK(t.Encode(text, &ids, &error));
  return ids;
}

}  // namespace

TEST_CASE("hf tokenizer: Llama 2's kind: Prepend and Replace, merges by rank, byte fallback, <s> first, decoded back") {
  const auto t = Make(LlamaLike());
  CHECK(std::string(t->Kind()) == "hf-bpe");
  CHECK(Ids(*t, "hello world") == std::vector<int>{18, 23});
  CHECK(Ids(*t, "hello world\n\xD0\xB6") == std::vector<int>{18, 23, 3, 4, 5});  // ж: no token, its bytes
  CHECK(Ids(*t, "") == std::vector<int>{});
  CHECK(t->Begin() == 1);
  CHECK(t->Decode({18, 23}) == "hello world");  // the first ▁ is no space of the text (Strip)
  CHECK(t->Decode({18, 23, 3, 4, 5}) == "hello world\n\xD0\xB6");
  CHECK(t->Bytes(18) == " hello");  // one token alone: its ▁ is a space
  CHECK(t->Bytes(4) == "\xD0");
  CHECK(t->Label(18) == " hello");  // its text, as GPT-2's tokens are shown
  CHECK(t->Label(4) == "<0xD0>");
  CHECK(t->Label(99) == "<no token 99>");
  CHECK(t->size() == 24);
}

TEST_CASE("hf tokenizer: unknown characters are unk_token, a run of them one token with fuse_unk") {
  Json j = LlamaLike();
  CHECK(Ids(*Make(j), "hxxo") == std::vector<int>{14, 0, 10});  // ▁h (x x fused) o: no <0x78> token
  j["model"]["fuse_unk"] = false;
  CHECK(Ids(*Make(j), "hxxo") == std::vector<int>{14, 0, 0, 10});
  j["model"]["byte_fallback"] = false;
  CHECK(Ids(*Make(j), "\xD0\xB6") == std::vector<int>{6, 0});
  j["model"]["unk_token"] = nullptr;
  std::vector<int> ids;
  std::string error;
  CHECK_FALSE(Make(j)->Encode("x", &ids, &error));
  CHECK(error == "tokenizer.json: no token for \"x\" (no byte_fallback token, no unk_token)");
}

TEST_CASE("hf tokenizer: added tokens are found first, leftmost and longest; lstrip and rstrip take white space") {
  Json j = LlamaLike();
  CHECK(Ids(*Make(j), "<s>hello</s>") == std::vector<int>{1, 18, 2});  // each stretch normalized alone
  j["added_tokens"].push_back({{"id", 24}, {"content", "<s>h"}, {"special", false}, {"normalized", false}});
  CHECK(Ids(*Make(j), "<s>hello") == std::vector<int>{24, 6, 8, 15, 10});  // the longest wins; "ello" is "▁ello"
  j = LlamaLike();
  j["added_tokens"][2]["lstrip"] = true;
  j["added_tokens"][2]["rstrip"] = true;
  CHECK(Ids(*Make(j), "hello  </s>  world") == std::vector<int>{18, 2, 23});
  // normalized = true: found in the normalizer's output
  j = LlamaLike();
  j["added_tokens"].push_back({{"id", 24}, {"content", "hello"}, {"special", false}, {"normalized", true}});  // "▁hello"
  CHECK(Ids(*Make(j), "hello world") == std::vector<int>{24, 23});
}

TEST_CASE("hf tokenizer: Llama 3's and Qwen's kind: the Unicode regex, ByteLevel, NFC, merges as pairs") {
  const auto t = Make(ByteLevelLike());
  CHECK(Ids(*t, "ab ab \xD0\xB6") == std::vector<int>{4, 5, 2, 8});
  CHECK(t->Decode({4, 5, 2, 8}) == "ab ab \xD0\xB6");
  CHECK(Ids(*t, "a'S") == std::vector<int>{0, 9, 11});  // (?i:'s): "'S" is one piece
  CHECK(Ids(*t, "1234") == std::vector<int>{12, 13, 14, 15});  // \p{N}{1,3}: 123, 4
  CHECK(Ids(*t, "a<|x|>b") == std::vector<int>{0, 17, 1});
  CHECK(t->Decode({0, 17, 1}) == "a<|x|>b");
  CHECK(t->Label(8) == "\xD0\xB6");
  CHECK(t->Label(6) == "<0xD0>");
  CHECK(t->Label(2) == " ");
  CHECK(t->Label(16) == "<0x0A>");  // a control character by its byte
  CHECK(t->Bytes(2) == " ");
  CHECK(t->Begin() == -1);
}

TEST_CASE("hf tokenizer: ignore_merges takes a word that is a token whole") {
  Json j = ByteLevelLike();
  j["model"]["vocab"]["abab"] = 18;  // a token no merge reaches
  CHECK(Ids(*Make(j), "abab") == std::vector<int>{4, 4});
  j["model"]["ignore_merges"] = true;
  CHECK(Ids(*Make(j), "abab") == std::vector<int>{18});
}

TEST_CASE("hf tokenizer: Split's behaviours and invert, as the tokenizers library joins the pieces") {
  Json j = ByteLevelLike();
  auto pieces = [&](const char* behavior, bool invert) {
    j["pre_tokenizer"]["pretokenizers"][0] = {{"type", "Split"}, {"pattern", {{"String", "b"}}}, {"behavior", behavior},
                                              {"invert", invert}};
    return Ids(*Make(j), "abab");  // "a" 0, "b" 1, "ab" 4
  };
  CHECK(pieces("Isolated", false) == std::vector<int>{0, 1, 0, 1});
  CHECK(pieces("Removed", false) == std::vector<int>{0, 0});
  CHECK(pieces("MergedWithPrevious", false) == std::vector<int>{4, 4});
  CHECK(pieces("MergedWithNext", false) == std::vector<int>{0, 1, 0, 1});  // "a", "ba", "b": no "ba" merge
  CHECK(pieces("Contiguous", false) == std::vector<int>{0, 1, 0, 1});
  CHECK(pieces("Removed", true) == std::vector<int>{1, 1});  // invert: the matches are kept, the rest is cut
}

TEST_CASE("hf tokenizer: Metaspace prepends ▁ always, at the text's start only, or never, and splits before each ▁") {
  Json j = LlamaLike();
  j["normalizer"] = nullptr;
  j["pre_tokenizer"] = {{"type", "Metaspace"}, {"replacement", kMeta}, {"prepend_scheme", "first"}, {"split", false}};
  j["decoder"] = {{"type", "Metaspace"}, {"replacement", kMeta}, {"prepend_scheme", "first"}, {"split", false}};
  CHECK(Ids(*Make(j), "hello world") == std::vector<int>{18, 23});
  CHECK(Ids(*Make(j), "<s>hello") == std::vector<int>{1, 7, 8, 15, 10});  // not at the text's start: no ▁
  CHECK(Make(j)->Decode({18, 23}) == "hello world");
  j["pre_tokenizer"]["prepend_scheme"] = "always";
  CHECK(Ids(*Make(j), "<s>hello") == std::vector<int>{1, 18});
  j["pre_tokenizer"]["prepend_scheme"] = "never";
  CHECK(Ids(*Make(j), "hello") == std::vector<int>{7, 8, 15, 10});
  // split: each ▁ starts a word, so no merge crosses one ("▁hello▁world" as two words anyway)
  j["pre_tokenizer"]["prepend_scheme"] = "first";
  j["pre_tokenizer"]["split"] = true;
  CHECK(Ids(*Make(j), "hello world") == std::vector<int>{18, 23});
  j["model"]["merges"].push_back("o " + kMeta);  // "o▁" is no token: refused as a merge
  CHECK(Refusal(j).find("is not in the vocabulary") != std::string::npos);
  // the older form: add_prefix_space true is prepend_scheme "always"
  j = LlamaLike();
  j["normalizer"] = nullptr;
  j["pre_tokenizer"] = {{"type", "Metaspace"}, {"replacement", kMeta}, {"add_prefix_space", true}};
  CHECK(Ids(*Make(j), "<s>hello") == std::vector<int>{1, 18});
}

TEST_CASE("hf tokenizer: ByteLevel's add_prefix_space and its own GPT-2 regex") {
  Json j = ByteLevelLike();
  j["pre_tokenizer"] = {{"type", "ByteLevel"}, {"add_prefix_space", true}, {"use_regex", true}};
  CHECK(Ids(*Make(j), "ab ab") == std::vector<int>{5, 5});
}

TEST_CASE("hf tokenizer: Begin() from the post-processor, or from tokenizer_config.json's add_bos_token") {
  Json j = LlamaLike();
  const std::string off = R"({"add_bos_token": false, "bos_token": "<s>", "eos_token": "</s>"})";
  const std::string on = R"({"add_bos_token": true, "bos_token": {"content": "</s>"}})";
  const std::string silent = R"({"eos_token": "</s>", "chat_template": "whatever"})";
  CHECK(Make(j, &off)->Begin() == -1);
  CHECK(Make(j, &off)->EndOfText() == 2);
  CHECK(Make(j, &on)->Begin() == 2);
  CHECK(Make(j, &silent)->Begin() == 1);
  // Llama 3.1's form: a Sequence of ByteLevel and TemplateProcessing
  Json post = j["post_processor"];
  j["post_processor"] = {{"type", "Sequence"}, {"processors", {{{"type", "ByteLevel"}, {"trim_offsets", false}}, post}}};
  CHECK(Make(j)->Begin() == 1);
  j["post_processor"] = nullptr;
  CHECK(Make(j)->Begin() == -1);
}

TEST_CASE("hf tokenizer: invalid UTF-8 is refused with its byte") {
  std::vector<int> ids;
  std::string error;
  CHECK_FALSE(Make(LlamaLike())->Encode("ab\xC3", &ids, &error));
  CHECK(error == "hf tokenizer: invalid UTF-8 at byte 2");
}

TEST_CASE("hf tokenizer: whatever the reader does not implement is refused by name, in one line") {
  const auto refused = [](Json j, const std::string& message, const std::string* config = nullptr) {
    const std::string got = Refusal(j, config);
    CHECK_MESSAGE(got == message, got);
  };
  Json j = ByteLevelLike();
  j["pre_tokenizer"]["pretokenizers"][1] = {{"type", "Digits"}, {"individual_digits", true}};
  refused(j, "tokenizer.json: pre_tokenizer.pretokenizers[1] \"Digits\" is not supported");
  j = ByteLevelLike();
  j["pre_tokenizer"] = {{"type", "Whitespace"}};
  refused(j, "tokenizer.json: pre_tokenizer \"Whitespace\" is not supported");
  j = LlamaLike();
  j["normalizer"]["normalizers"][0] = {{"type", "Lowercase"}};
  refused(j, "tokenizer.json: normalizer.normalizers[0] \"Lowercase\" is not supported");
  j = LlamaLike();
  j["model"]["type"] = "WordPiece";
  refused(j, "tokenizer.json: model \"WordPiece\" is not supported (only BPE)");
  j = LlamaLike();
  j["model"]["dropout"] = 0.1;
  refused(j, "tokenizer.json: model.dropout is set: not supported (encoding would be random)");
  j = LlamaLike();
  j["model"]["continuing_subword_prefix"] = "##";
  refused(j, "tokenizer.json: model.continuing_subword_prefix \"##\" is not supported");
  j = LlamaLike();
  j["model"]["end_of_word_suffix"] = "</w>";
  refused(j, "tokenizer.json: model.end_of_word_suffix \"</w>\" is not supported");
  j = LlamaLike();
  j["added_tokens"][1]["single_word"] = true;
  refused(j, "tokenizer.json: added_tokens[1].single_word = true is not supported");
  j = LlamaLike();
  j["post_processor"]["single"].push_back({{"SpecialToken", {{"id", "</s>"}, {"type_id", 0}}}});
  refused(j, "tokenizer.json: post_processor.single[2]: a token after $A is not supported (the lab adds nothing after a text)");
  j = LlamaLike();
  j["post_processor"] = {{"type", "BertProcessing"}};
  refused(j, "tokenizer.json: post_processor \"BertProcessing\" is not supported");
  j = LlamaLike();
  j["decoder"]["decoders"][0] = {{"type", "CTC"}};
  refused(j, "tokenizer.json: decoder.decoders[0] \"CTC\" is not supported");
  j = LlamaLike();
  j["decoder"]["decoders"][0]["pattern"] = {{"Regex", "x+"}};
  refused(j, "tokenizer.json: decoder.decoders[0].pattern: a Regex pattern is not supported here (only String)");
  j = ByteLevelLike();
  j["pre_tokenizer"]["pretokenizers"][0]["pattern"] = {{"Regex", R"(\w+|\s+)"}};
  refused(j, "tokenizer.json: pre_tokenizer.pretokenizers[0].pattern: the escape \\w is not supported (at character 1 of the pattern)");
  j = ByteLevelLike();
  j["pre_tokenizer"]["pretokenizers"][0]["behavior"] = "Sideways";
  refused(j, "tokenizer.json: pre_tokenizer.pretokenizers[0].behavior \"Sideways\" is not supported");
  j = LlamaLike();
  j["model"]["surprise"] = 1;
  refused(j, "tokenizer.json: model: the field \"surprise\" is not supported");
  j = LlamaLike();
  j["truncation"] = {{"max_length", 5}};
  refused(j, "tokenizer.json: truncation is set: not supported (ids are never cut or padded here)");
  j = LlamaLike();
  j["model"]["merges"].push_back("h x");
  refused(j, "tokenizer.json: model.merges[10] \"h x\": \"x\" is not in the vocabulary");
  const std::string eos = R"({"add_eos_token": true})";
  refused(LlamaLike(), "tokenizer_config.json: add_eos_token = true is not supported (the lab adds nothing after a text)", &eos);
  const std::string bos = R"({"add_bos_token": true, "bos_token": "<bos>"})";
  refused(LlamaLike(), "tokenizer_config.json: add_bos_token is true but bos_token \"<bos>\" is no token", &bos);
  CHECK(Refusal(Json::array()) == "tokenizer.json: not a JSON object");
  j = LlamaLike();
  j["extra"] = 1;
  refused(j, "tokenizer.json: the field \"extra\" is not supported");
}

TEST_CASE("hf tokenizer: a folder's tokenizer.json goes to GPT-2's reader when it is GPT-2's kind, else to this one") {
  std::map<std::string, std::string> files = {{"tokenizer.json", LlamaLike().dump()},
                                              {"tokenizer_config.json", R"({"add_bos_token": false})"}};
  std::shared_ptr<const Tokenizer> t;
  std::string error;
  REQUIRE_MESSAGE(HfTokenizerFromFiles(files, 2, 100, &t, &error), error);
  CHECK(std::string(t->Kind()) == "hf-bpe");
  CHECK(t->Begin() == -1);
  CHECK(t->EndOfText() == 2);
  files.erase("tokenizer_config.json");
  REQUIRE_MESSAGE(HfTokenizerFromFiles(files, 2, 100, &t, &error), error);
  CHECK(t->Begin() == 1);
  CHECK_FALSE(HfTokenizerFromFiles(files, 2, 10, &t, &error));
  CHECK(error == "tokenizer.json: the tokenizer has ids up to 23 but the model's vocabulary (config.json's vocab_size) is 10 tokens");
  files["tokenizer.json"] = "{";
  CHECK_FALSE(HfTokenizerFromFiles(files, 2, 100, &t, &error));
  CHECK(error == "tokenizer.json: not valid JSON");
}

TEST_CASE("hf tokenizer: a GPT-2-kind tokenizer.json that GPT-2's reader refuses (a begin token) is read by the general one") {
  Json j = ByteLevelLike();
  Json vocab = Json::object();  // every byte's symbol, as GPT-2's reader wants
  for (int b = 0; b < 256; ++b) {
    std::string symbol;
    const char32_t cp = Gpt2ByteSymbol(static_cast<unsigned char>(b));
    if (cp < 0x80) symbol += static_cast<char>(cp);
    else { symbol += static_cast<char>(0xC0 | (cp >> 6)); symbol += static_cast<char>(0x80 | (cp & 0x3F)); }
    vocab[symbol] = b;
  }
  vocab["<|x|>"] = 256;
  j["model"]["vocab"] = vocab;
  j["model"]["merges"] = Json::array();
  j["added_tokens"] = {{{"id", 256}, {"content", "<|x|>"}, {"special", true}, {"normalized", false}}};
  j["normalizer"] = nullptr;
  j["pre_tokenizer"] = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
  j["post_processor"] = nullptr;
  std::map<std::string, std::string> files = {{"tokenizer.json", j.dump()}};
  std::shared_ptr<const Tokenizer> t;
  std::string error;
  REQUIRE_MESSAGE(HfTokenizerFromFiles(files, -1, 1000, &t, &error), error);
  CHECK(std::string(t->Kind()) == "gpt2-bpe");
  j["post_processor"] = {{"type", "TemplateProcessing"},
                         {"single", {{{"SpecialToken", {{"id", "<|x|>"}, {"type_id", 0}}}}, {{"Sequence", {{"id", "A"}, {"type_id", 0}}}}}},
                         {"special_tokens", {{"<|x|>", {{"id", "<|x|>"}, {"ids", {256}}, {"tokens", {"<|x|>"}}}}}}};
  files["tokenizer.json"] = j.dump();
  REQUIRE_MESSAGE(HfTokenizerFromFiles(files, -1, 1000, &t, &error), error);
  CHECK(std::string(t->Kind()) == "hf-bpe");
  CHECK(t->Begin() == 256);
  CHECK(Ids(*t, "ab") == std::vector<int>{'a' , 'b'});  // the bytes' ids: no merges
  j["model"]["dropout"] = 0.5;  // refused by both: GPT-2's reader's message
  files["tokenizer.json"] = j.dump();
  CHECK_FALSE(HfTokenizerFromFiles(files, -1, 1000, &t, &error));
  CHECK(error == "tokenizer.json: post_processor \"TemplateProcessing\" is not supported (only ByteLevel)");
}
