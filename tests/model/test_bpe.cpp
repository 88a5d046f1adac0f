// The BPE tokenizer: pre-splitting on the lab's words, round trips in English and Russian,
// deterministic merges, whole characters in every token, the vocabulary limit, JSON.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/text/tokenizer.h"
#include "model/tokenizer/bpe.h"

using namespace attn;
using namespace attn::model;

namespace {

const std::vector<std::string>& Texts() {
  static const std::vector<std::string> texts = {
      "The cat sat on the mat. The cat sat on the hat.\nThe dog didn't sit; the dog ran!",
      "I love sushi. I love the sea, and the sea loves me.\n\n\tA well-known saying.",
      "Кошка сидела на коврике. Кошка сидела на шляпе.\nСобака не сидела — собака бежала!",
      "Я люблю суши. Я люблю море, и море любит меня. Кто-то сказал «ёлка».",
      "Повторение — мать учения. Повторение — мать учения. Repetition, repetition.",
  };
  return texts;
}

std::vector<std::string> ChunkTexts(const std::string& text) {
  std::vector<Chunk> chunks;
  REQUIRE(PreSplit(text, &chunks));
  std::vector<std::string> out;
  for (const Chunk& c : chunks) out.push_back(text.substr(c.begin, c.end - c.begin));
  return out;
}

bool WholeUtf8(const std::string& s) {
  for (std::size_t pos = 0; pos < s.size();) {
    char32_t cp;
    if (!DecodeUtf8(s, pos, cp)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("bpe: pre-splitting follows the lab's words and keeps every byte") {
  const std::string text = "I don't  love\tsushi!\n Кто-то, «ёлка».  ";
  const std::vector<std::string> chunks = ChunkTexts(text);
  const std::vector<std::string> want = {"I", " don't", " ", " love", "\t", "sushi", "!", "\n",
                                         " Кто-то", ",", " «", "ёлка", "»", ".", "  "};
  CHECK(chunks == want);
  std::string joined;
  for (const std::string& c : chunks) joined += c;
  CHECK(joined == text);
  // a line of more lab tokens than the lab accepts is cut, never refused
  std::string long_line;
  for (int i = 0; i < 300; ++i) long_line += "a, ";
  const std::vector<std::string> many = ChunkTexts(long_line);
  CHECK(many.size() == 600 + 1);
  std::vector<Chunk> chunks_out;
  std::string error;
  CHECK_FALSE(PreSplit(std::string("ok \xC3"), &chunks_out, &error));
  CHECK(error == "bpe: invalid UTF-8 at byte 3");
}

TEST_CASE("bpe: trained merges round-trip English and Russian, whole characters, within the limit") {
  Bpe bpe;
  std::string error;
  REQUIRE_MESSAGE(bpe.Train(Texts(), 400, 1, &error), error);
  CHECK(bpe.size() <= 400);
  CHECK(bpe.size() > Bpe::kFirstChar + bpe.char_count());  // some merges happened
  for (int id = 0; id < bpe.size(); ++id) {
    INFO("token " << id);
    CHECK(WholeUtf8(bpe.Text(id)));  // never a piece of a character, never "\xEF\xBF\xBD"
    CHECK(bpe.Text(id).find("\xEF\xBF\xBD") == std::string::npos);
  }
  const std::vector<std::string> samples = {
      "The cat sat on the hat, and I love sushi.", "Я люблю суши. Кошка сидела на шляпе.",
      "Unseen: 寿司 🙂 ÿ — mixed Кот and cat\n", ""};
  for (const std::string& s : samples) {
    std::vector<int> ids;
    REQUIRE(bpe.Encode(s, &ids, &error));
    CHECK(bpe.Decode(ids) == s);
  }
  // merges never cross a pre-split boundary: encoding the text is encoding its chunks one by one
  const std::string t = Texts()[3];
  std::vector<int> whole, part, pieces;
  REQUIRE(bpe.Encode(t, &whole));
  for (const std::string& c : ChunkTexts(t)) {
    REQUIRE(bpe.Encode(c, &part));
    pieces.insert(pieces.end(), part.begin(), part.end());
  }
  CHECK(whole == pieces);
  // a frequent word becomes one token, with its leading space
  std::vector<int> ids;
  REQUIRE(bpe.Encode(" сидела", &ids));
  CHECK(ids.size() == 1);
  REQUIRE(bpe.Encode(" the", &ids));
  CHECK(ids.size() == 1);
  // unseen characters go through the byte fallback, shown as <0x..>
  REQUIRE(bpe.Encode("寿", &ids));
  REQUIRE(ids.size() == 3);
  CHECK(bpe.Text(ids[0]) == "<0xE5>");
}

TEST_CASE("bpe: training is deterministic and the vocabulary limit is respected") {
  Bpe a, b;
  REQUIRE(a.Train(Texts(), 330, 1));
  REQUIRE(b.Train(Texts(), 330, 1));
  CHECK(a.tokens() == b.tokens());
  REQUIRE(a.merges().size() == b.merges().size());
  for (std::size_t r = 0; r < a.merges().size(); ++r) {
    CHECK(a.merges()[r].left == b.merges()[r].left);
    CHECK(a.merges()[r].right == b.merges()[r].right);
  }
  CHECK(a.size() == 330);
  // every merge made a new token (none of these texts repeats a merge's text)
  CHECK(a.merges()[0].result == Bpe::kFirstChar + a.char_count());
  Bpe small;
  std::string error;
  CHECK_FALSE(small.Train(Texts(), 100, 1, &error));
  CHECK(error.find("smaller than the base") != std::string::npos);
  // characters seen fewer than min_char_count times are left to the byte fallback
  Bpe rare;
  REQUIRE(rare.Train(Texts(), 300, 3));
  CHECK(rare.char_count() < a.char_count());
}

TEST_CASE("bpe: the vocabulary survives JSON, and a broken one is refused") {
  Bpe bpe;
  REQUIRE(bpe.Train(Texts(), 380, 1));
  const std::string json = BpeToJson(bpe);
  Bpe back;
  std::string error;
  REQUIRE_MESSAGE(BpeFromJson(json, &back, &error), error);
  CHECK(back.tokens() == bpe.tokens());
  std::vector<int> x, y;
  for (const std::string& s : Texts()) {
    REQUIRE(bpe.Encode(s, &x));
    REQUIRE(back.Encode(s, &y));
    CHECK(x == y);
  }
  CHECK_FALSE(BpeFromJson("{", &back, &error));
  CHECK(error == "bpe: the vocabulary is not a JSON object");
  CHECK_FALSE(BpeFromJson(R"({"format": 3})", &back, &error));
  CHECK(error == "bpe: format is not \"attnlab-bpe\"");
  // a merge whose result is not the pair's text
  std::vector<std::string> tokens = bpe.tokens();
  std::vector<BpeMerge> merges = bpe.merges();
  std::swap(tokens[static_cast<std::size_t>(merges[0].result)],
            tokens[static_cast<std::size_t>(merges[1].result)]);
  CHECK_FALSE(back.Load(tokens, bpe.char_count(), merges, &error));
  CHECK(error.find("is not the pair's") != std::string::npos);
}

namespace {

// The merges by the definition: every pair recounted before each merge (the trainer keeps the
// counts up to date instead). `base` is the same texts' trainer stopped at its base vocabulary,
// so the characters have the trainer's ids.
std::vector<BpeMerge> RecountMerges(const std::vector<std::string>& texts, const Bpe& base, int vocab) {
  std::map<std::string, std::int64_t> chunk_counts;
  for (const std::string& t : texts) {
    std::vector<Chunk> chunks;
    REQUIRE(PreSplit(t, &chunks));
    for (const Chunk& c : chunks) ++chunk_counts[t.substr(c.begin, c.end - c.begin)];
  }
  std::vector<std::vector<int>> words;
  std::vector<std::int64_t> counts;
  for (const auto& [chunk, count] : chunk_counts) {
    words.emplace_back();
    REQUIRE(base.Encode(chunk, &words.back()));
    counts.push_back(count);
  }
  std::vector<std::string> texts_of = base.tokens();
  std::vector<BpeMerge> merges;
  while (static_cast<int>(texts_of.size()) < vocab) {
    std::map<std::pair<int, int>, std::int64_t> pairs;  // ordered: ties go to the smaller pair
    for (std::size_t w = 0; w < words.size(); ++w) {
      for (std::size_t i = 0; i + 1 < words[w].size(); ++i) {
        const int a = words[w][i], b = words[w][i + 1];
        if (a == 0 || b == 0 || base.IsByte(a) || base.IsByte(b)) continue;
        pairs[{a, b}] += counts[w];
      }
    }
    std::pair<int, int> best{};
    std::int64_t best_count = 0;
    for (const auto& [pair, count] : pairs) {
      if (count > best_count) best = pair, best_count = count;
    }
    if (best_count < 2) break;
    const std::string text = texts_of[static_cast<std::size_t>(best.first)] + texts_of[static_cast<std::size_t>(best.second)];
    int result = static_cast<int>(std::find(texts_of.begin(), texts_of.end(), text) - texts_of.begin());
    if (result == static_cast<int>(texts_of.size())) texts_of.push_back(text);
    merges.push_back({best.first, best.second, result});
    for (std::vector<int>& ids : words) {
      std::vector<int> out;
      for (std::size_t i = 0; i < ids.size();) {
        if (i + 1 < ids.size() && ids[i] == best.first && ids[i + 1] == best.second) {
          out.push_back(result);
          i += 2;
        } else {
          out.push_back(ids[i++]);
        }
      }
      ids = out;
    }
  }
  return merges;
}

}  // namespace

TEST_CASE("bpe: the trainer's kept-up-to-date counts give the merges of a full recount before each merge") {
  // Repetitive text makes long merge chains, ties and pairs of equal tokens ("aaaa").
  std::vector<std::string> texts = Texts();
  texts.push_back("aaaa aaa aa a ababab abab ba ba — ааааа ааа");
  texts.push_back("ммм мама мыла раму, мама мыла раму; the theme then thence there");
  for (int vocab : {300, 420, 2000}) {
    INFO("vocab " << vocab);
    Bpe base, bpe;
    REQUIRE(base.Train(texts, 0x7fffffff, 1) == true);  // sizes only: the base is what we need below
    Bpe only_base;
    const int base_size = Bpe::kFirstChar + base.char_count();
    REQUIRE(only_base.Train(texts, base_size, 1));
    REQUIRE(only_base.merges().empty());
    REQUIRE(bpe.Train(texts, vocab, 1));
    const std::vector<BpeMerge> want = RecountMerges(texts, only_base, vocab);
    REQUIRE(bpe.merges().size() == want.size());
    int differ = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      const BpeMerge& a = bpe.merges()[i];
      differ += a.left != want[i].left || a.right != want[i].right || a.result != want[i].result;
    }
    CHECK(differ == 0);
    CHECK(!want.empty());
  }
}
