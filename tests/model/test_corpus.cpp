// The corpus step on a small inline sample (not the real files): entries, attributions,
// overstrike, layout, pictures, duplicates, the hash split and the sizes.
#include <doctest/doctest.h>

#include <string>

#include "model/corpus.h"

using namespace attn::model;

TEST_CASE("corpus: fortune entries are split on % lines and cleaned") {
  const std::string file =
      "A first\tfortune,\n   on two lines.\n\t\t-- Some Author, \"A Book\"\n\t\t   (1999)\n%\n"
      "Q: Why?\nA: -- because --\n%\n"
      "It's a very *__\b\bUN*lucky week.\n%\n"
      "   ____\n  /    \\ ..\n  \\____/ ##\n%\n"
      "\n\nFirst paragraph.\n\n\n\nSecond paragraph.   \n\n%\n"
      "— Привет!\n— Пока.\n\t\t— Автор\n%\n"
      "Без подписи\n";
  const std::vector<std::string> raw = SplitFortunes(file);
  REQUIRE(raw.size() == 7);
  CHECK(CleanFortune(raw[0]) == "A first fortune,\non two lines.");
  CHECK(CleanFortune(raw[1]) == "Q: Why?\nA: -- because --");  // "--" inside a line stays
  CHECK(CleanFortune(raw[2]) == "It's a very *UN*lucky week.");
  CHECK(CleanFortune(raw[3]) == "");  // a picture
  CHECK(CleanFortune(raw[4]) == "First paragraph.\n\nSecond paragraph.");
  CHECK(CleanFortune(raw[5]) == "— Привет!\n— Пока.");  // dialogue stays, the indented author goes
  CHECK(CleanFortune(raw[6]) == "Без подписи");
  CHECK(CleanFortune("bad \xFF byte") == "");
  CHECK(CleanFortune("-- only an attribution-like first line") ==
        "-- only an attribution-like first line");
}

TEST_CASE("corpus: deduplication, the hash split and the sizes") {
  std::string en, ru;
  for (int i = 0; i < 200; ++i) en += "Fortune number " + std::to_string(i) + ".\n%\n";
  en += "Fortune number 7.\n\t\t-- a duplicate once cleaned\n%\n";
  for (int i = 0; i < 100; ++i) ru += "Предсказание номер " + std::to_string(i) + ".\n%\n";
  const Corpus c = BuildCorpus({{Lang::kRu, "b", ru}, {Lang::kEn, "a", en}});
  CHECK(c.en.files == 1);
  CHECK(c.en.raw_entries == 201);
  CHECK(c.en.duplicates == 1);
  CHECK(c.en.train_entries + c.en.validation_entries == 200);
  CHECK(c.ru.train_entries + c.ru.validation_entries == 100);
  CHECK(c.en.validation_entries > 0);  // about 5%: 10 of 200 expected
  CHECK(c.en.validation_entries < 30);
  CHECK(c.train.front().lang == Lang::kEn);  // English files first
  for (const CorpusEntry& e : c.validation) CHECK(IsValidation(e.text));
  for (const CorpusEntry& e : c.train) CHECK_FALSE(IsValidation(e.text));
  // characters vs bytes: Cyrillic letters are two bytes each
  CHECK(c.ru.train_bytes > c.ru.train_chars);
  // the split is a property of the text: building again from the Russian file alone moves none
  const Corpus ru_only = BuildCorpus({{Lang::kRu, "b", ru}});
  CHECK(ru_only.ru.validation_entries == c.ru.validation_entries);
  CHECK(EntryHash("abc") == EntryHash("abc"));
  CHECK(EntryHash("abc") != EntryHash("abd"));
  CHECK(DescribeCorpus(c).find("en: 1 files, 201 entries (0 dropped, 1 duplicates)") == 0);
}
