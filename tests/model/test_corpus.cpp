// The corpus step on a small inline sample (not the real files): entries, attributions,
// overstrike, layout, pictures, duplicates, the hash split and the sizes.
#include <doctest/doctest.h>

#include <string>

#include "model/corpus/corpus.h"

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

TEST_CASE("corpus: documents keep their option lines, sort after the fortunes and are counted apart") {
  // A manual's "--option" line and a backspace are text in a document; in a fortune they are an
  // attribution and overstrike.
  const std::string doc = "NAME\nls - list\n-- end of options\n  --all  do not ignore\nab\bc\n";
  CHECK(CleanDocument(doc) == "NAME\nls - list\n-- end of options\n--all do not ignore\nab\bc");
  CHECK(CleanFortune(doc) == "NAME\nls - list");
  CHECK(CleanDocument("bad \xFF byte") == "");
  CHECK(CleanDocument("| | | |\n+-+-+-+\n") == "");  // a table of rules is a picture

  std::string docs, fortunes;
  for (int i = 0; i < 60; ++i) docs += "Document page " + std::to_string(i) + " --help\n%\n";
  for (int i = 0; i < 40; ++i) fortunes += "Fortune " + std::to_string(i) + "\n%\n";
  docs += "Fortune 3\n%\n";  // the same text as a fortune: a duplicate, the fortune kept
  SourceFile d{Lang::kEn, "~docs/manual.txt", docs, Source::kDocs};
  const Corpus c = BuildCorpus({d, {Lang::kEn, "zzz", fortunes}});
  CHECK(c.en.files == 2);
  CHECK(c.en.duplicates == 1);
  CHECK(c.train.front().source == Source::kFortunes);  // "zzz" < "~docs/..."
  CHECK(c.train.back().source == Source::kDocs);
  std::int64_t doc_chars = 0, all_chars = 0;
  for (const auto* part : {&c.train, &c.validation}) {
    for (const CorpusEntry& e : *part) {
      std::int64_t n = 0;
      for (char ch : e.text) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
      all_chars += n;
      if (e.source == Source::kDocs) doc_chars += n;
    }
  }
  CHECK(c.en.doc_train_chars + c.en.doc_validation_chars == doc_chars);
  CHECK(c.en.train_chars + c.en.validation_chars == all_chars);
  CHECK(doc_chars > 0);
  CHECK(DescribeCorpus(c).find("(documents: train ") != std::string::npos);
}

TEST_CASE("corpus: WeightedTrain repeats the fortunes, the documents once, validation untouched") {
  std::string docs, fortunes;
  for (int i = 0; i < 30; ++i) docs += "Document page " + std::to_string(i) + "\n%\n";
  for (int i = 0; i < 20; ++i) fortunes += "Fortune " + std::to_string(i) + "\n%\n";
  const Corpus c = BuildCorpus({{Lang::kEn, "~docs/manual.txt", docs, Source::kDocs},
                                {Lang::kEn, "zzz", fortunes}});
  int fortunes_once = 0, docs_once = 0;
  for (const CorpusEntry& e : c.train) (e.source == Source::kFortunes ? fortunes_once : docs_once)++;
  REQUIRE(fortunes_once > 0);
  REQUIRE(docs_once > 0);
  CHECK(WeightedTrain(c, 1).size() == c.train.size());
  const std::vector<CorpusEntry> w = WeightedTrain(c, 3);
  REQUIRE(w.size() == c.train.size() + 2 * static_cast<std::size_t>(fortunes_once));
  int fortunes_w = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (i < c.train.size()) CHECK(w[i].text == c.train[i].text);  // the original order first
    fortunes_w += w[i].source == Source::kFortunes;
  }
  CHECK(fortunes_w == 3 * fortunes_once);
}
