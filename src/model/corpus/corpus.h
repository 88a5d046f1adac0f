// The model's text: Debian's `fortunes` (English, /usr/share/games/fortunes) and `fortunes-ru`
// (Russian, UTF-8, /usr/share/games/fortunes/ru), and documents: plain text that
// scripts/corpus.sh makes from Debian's manuals (manual pages, GIMP's and LibreOffice's help, in
// both languages), one file per source in the same "%"-separated format; cleaned, deduplicated
// and split.
//
// A fortune file is entries separated by lines holding only "%". Cleaning one entry:
//   1. an entry that is not valid UTF-8 is dropped;
//   2. overstrike markup (x BACKSPACE y, old terminals' bold and underline) keeps y only;
//   3. the attribution goes: from the first line after the first whose text (after leading
//      spaces and tabs) starts with "--" followed by a space, a tab or the line's end, or an
//      indented line starting with "—" (U+2014; at column 0 it is Russian dialogue and stays),
//      to the end of the entry;
//   4. layout: every run of spaces and tabs becomes one space, lines are trimmed, a carriage
//      return goes, blank lines at the start and end go and inner runs of blank lines become one;
//   5. pictures go: an entry whose letters (ASCII letters and every non-ASCII character) are
//      fewer than half of its visible characters is dropped (ASCII art, tables);
//   6. an entry left empty is dropped.
// A document entry is cleaned by the same rules without 2 and 3 (a manual's "--option" is text).
// Deduplication: the first occurrence of each cleaned text is kept (files sorted by name,
// entries in file order, English files before Russian). Split: an entry goes to validation
// when Mix64(FNV-1a 64 of its cleaned UTF-8 bytes) % 20 == 0 (about 5%), else to training:
// a property of the text itself, so adding or removing files moves no other entry.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn {
namespace model {

enum class Lang { kEn, kRu };
const char* LangName(Lang l);  // "en", "ru"
enum class Source { kFortunes, kDocs };

// The entries of one file's contents, each raw (before cleaning), "%" lines removed.
std::vector<std::string> SplitFortunes(std::string_view contents);
// One entry cleaned by the rules above; empty when it is dropped.
std::string CleanFortune(std::string_view raw);
std::string CleanDocument(std::string_view raw);  // the rules without 2 and 3
std::uint64_t EntryHash(std::string_view text);  // Mix64(FNV-1a 64)
bool IsValidation(std::string_view cleaned);     // EntryHash % 20 == 0

struct CorpusEntry {
  Lang lang;
  std::string text;
  Source source = Source::kFortunes;
};

struct LangStats {
  int files = 0;
  int raw_entries = 0;   // before cleaning
  int dropped = 0;       // invalid UTF-8, pictures, empty
  int duplicates = 0;    // the same cleaned text seen before
  int train_entries = 0, validation_entries = 0;
  std::int64_t train_bytes = 0, validation_bytes = 0;  // UTF-8 bytes of the cleaned texts
  std::int64_t train_chars = 0, validation_chars = 0;  // code points
  std::int64_t doc_train_chars = 0, doc_validation_chars = 0;  // of which documents
};

struct Corpus {
  std::vector<CorpusEntry> train, validation;
  LangStats en, ru;
};

struct SourceFile {
  Lang lang;
  std::string name;      // for the order (sorted by name within a language)
  std::string contents;
  Source source = Source::kFortunes;
};

// Cleans, deduplicates and splits the files' entries (files in the order above).
Corpus BuildCorpus(std::vector<SourceFile> files);

// The training entries with the fortunes `fortune_copies` times (the rest once): how a run
// weights its mix towards the fortunes (RunConfig::fortune_copies). Same order every time.
std::vector<CorpusEntry> WeightedTrain(const Corpus& c, int fortune_copies);

// Reads every fortune file of a folder: regular files, sorted by name, without the index files
// (*.dat) and the *.u8 links; not recursive. Returns false with a message when the folder
// cannot be read or holds no file.
bool ReadFortuneFolder(const std::string& folder, Lang lang, std::vector<SourceFile>* out,
                       std::string* error = nullptr);

// Reads every *.txt file of a folder of documents (scripts/corpus.sh), sorted by name; the
// names are prefixed "~docs/" so that they sort after the fortune files of the language.
bool ReadDocumentFolder(const std::string& folder, Lang lang, std::vector<SourceFile>* out,
                        std::string* error = nullptr);

// One line per language: "en: 120 files, 15000 entries (300 dropped, 40 duplicates);
// train 14000 entries, 2400000 bytes, ...; validation ...".
std::string DescribeCorpus(const Corpus& c);

}  // namespace model
}  // namespace attn
