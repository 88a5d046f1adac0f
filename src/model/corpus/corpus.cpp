// The corpus step (corpus.h).
#include "model/corpus/corpus.h"

#include "engine/base/rng.h"
#include "engine/text/tokenizer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace attn {
namespace model {

const char* LangName(Lang l) { return l == Lang::kEn ? "en" : "ru"; }

std::vector<std::string> SplitFortunes(std::string_view contents) {
  std::vector<std::string> out;
  std::string current;
  std::size_t pos = 0;
  while (pos < contents.size()) {
    std::size_t end = contents.find('\n', pos);
    if (end == std::string_view::npos) end = contents.size();
    std::string_view line = contents.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line == "%") {
      out.push_back(current);
      current.clear();
    } else {
      current.append(line.data(), line.size());
      current.push_back('\n');
    }
    pos = end + 1;
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

namespace {

bool ValidUtf8(std::string_view s) {
  for (std::size_t pos = 0; pos < s.size();) {
    char32_t cp;
    if (!DecodeUtf8(s, pos, cp)) return false;
  }
  return true;
}

// x BACKSPACE y -> y: drops each backspace and the code point before it.
std::string RemoveOverstrike(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '\b') {
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
      if (!out.empty()) out.pop_back();
    } else {
      out.push_back(ch);
    }
  }
  return out;
}

bool IsAttribution(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  const std::string_view rest = line.substr(i);
  if (rest.size() >= 2 && rest[0] == '-' && rest[1] == '-' &&
      (rest.size() == 2 || rest[2] == ' ' || rest[2] == '\t'))
    return true;
  return i > 0 && rest.substr(0, 3) == "\xE2\x80\x94";  // an indented em dash
}

// One space for each run of spaces and tabs, trimmed.
std::string Squeeze(std::string_view line) {
  std::string out;
  bool space = false;
  for (char ch : line) {
    if (ch == ' ' || ch == '\t') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out.push_back(' ');
    space = false;
    out.push_back(ch);
  }
  return out;
}

}  // namespace

namespace {

std::string Clean(std::string_view raw, bool fortune) {
  if (!ValidUtf8(raw)) return "";
  const std::string text = fortune ? RemoveOverstrike(raw) : std::string(raw);
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    line.erase(std::remove(line.begin(), line.end(), '\r'), line.end());
    lines.push_back(line);
    pos = end + 1;
  }
  // the attribution: from the first attribution line after the first line to the end
  for (std::size_t i = 1; fortune && i < lines.size(); ++i) {
    if (IsAttribution(lines[i])) {
      lines.resize(i);
      break;
    }
  }
  std::string out;
  bool pending_blank = false;
  for (const std::string& line : lines) {
    const std::string s = Squeeze(line);
    if (s.empty()) {
      pending_blank = !out.empty();
      continue;
    }
    if (!out.empty()) out += pending_blank ? "\n\n" : "\n";
    pending_blank = false;
    out += s;
  }
  // pictures: letters fewer than half of the visible characters
  std::size_t letters = 0, visible = 0;
  for (std::size_t p = 0; p < out.size();) {
    char32_t cp = 0;
    DecodeUtf8(out, p, cp);
    if (cp == ' ' || cp == '\n') continue;
    ++visible;
    if (cp >= 0x80 || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) ++letters;
  }
  if (visible == 0 || 2 * letters < visible) return "";
  return out;
}

}  // namespace

std::string CleanFortune(std::string_view raw) { return Clean(raw, true); }
std::string CleanDocument(std::string_view raw) { return Clean(raw, false); }

std::uint64_t EntryHash(std::string_view text) {
  std::uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a 64
  for (char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001B3ull;
  }
  return rng::Mix64(h);
}

bool IsValidation(std::string_view cleaned) { return EntryHash(cleaned) % 20 == 0; }

Corpus BuildCorpus(std::vector<SourceFile> files) {
  std::stable_sort(files.begin(), files.end(), [](const SourceFile& a, const SourceFile& b) {
    if (a.lang != b.lang) return a.lang == Lang::kEn;
    return a.name < b.name;
  });
  Corpus c;
  std::set<std::string> seen;
  for (const SourceFile& f : files) {
    LangStats& st = f.lang == Lang::kEn ? c.en : c.ru;
    ++st.files;
    for (const std::string& raw : SplitFortunes(f.contents)) {
      ++st.raw_entries;
      std::string text = f.source == Source::kDocs ? CleanDocument(raw) : CleanFortune(raw);
      if (text.empty()) {
        ++st.dropped;
        continue;
      }
      if (!seen.insert(text).second) {
        ++st.duplicates;
        continue;
      }
      std::int64_t chars = 0;
      for (char ch : text) chars += (static_cast<unsigned char>(ch) & 0xC0) != 0x80 ? 1 : 0;
      const std::int64_t bytes = static_cast<std::int64_t>(text.size());
      if (IsValidation(text)) {
        ++st.validation_entries;
        st.validation_bytes += bytes;
        st.validation_chars += chars;
        if (f.source == Source::kDocs) st.doc_validation_chars += chars;
        c.validation.push_back({f.lang, std::move(text), f.source});
      } else {
        ++st.train_entries;
        st.train_bytes += bytes;
        st.train_chars += chars;
        if (f.source == Source::kDocs) st.doc_train_chars += chars;
        c.train.push_back({f.lang, std::move(text), f.source});
      }
    }
  }
  return c;
}

namespace {

// The regular files of a folder that `keep` accepts, sorted by name, read whole.
template <typename Keep>
bool ReadFolder(const std::string& folder, Lang lang, Source source, const std::string& prefix, Keep keep,
                std::vector<SourceFile>* out, std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    const std::string name = it->path().filename().string();
    const auto ends = [&](const std::string& suffix) {
      return name.size() >= suffix.size() &&
             name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (keep(ends)) names.push_back(name);
  }
  if (ec) {
    if (error) *error = "cannot read " + folder + ": " + ec.message();
    return false;
  }
  if (names.empty()) {
    if (error) *error = std::string(source == Source::kDocs ? "no *.txt documents" : "no fortune files") + " in " + folder;
    return false;
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    std::ifstream f(folder + "/" + name, std::ios::binary);
    std::ostringstream ss;
    ss << f.rdbuf();
    if (!f) {
      if (error) *error = "cannot read " + folder + "/" + name;
      return false;
    }
    out->push_back({lang, prefix + name, ss.str(), source});
  }
  return true;
}

}  // namespace

bool ReadFortuneFolder(const std::string& folder, Lang lang, std::vector<SourceFile>* out,
                       std::string* error) {
  return ReadFolder(folder, lang, Source::kFortunes, "",
                    [](auto ends) { return !ends(".dat") && !ends(".u8"); }, out, error);
}

bool ReadDocumentFolder(const std::string& folder, Lang lang, std::vector<SourceFile>* out,
                        std::string* error) {
  return ReadFolder(folder, lang, Source::kDocs, "~docs/", [](auto ends) { return ends(".txt"); }, out, error);
}

std::string DescribeCorpus(const Corpus& c) {
  std::string out;
  for (Lang l : {Lang::kEn, Lang::kRu}) {
    const LangStats& s = l == Lang::kEn ? c.en : c.ru;
    out += std::string(LangName(l)) + ": " + std::to_string(s.files) + " files, " +
           std::to_string(s.raw_entries) + " entries (" + std::to_string(s.dropped) +
           " dropped, " + std::to_string(s.duplicates) + " duplicates); train " +
           std::to_string(s.train_entries) + " entries, " + std::to_string(s.train_bytes) +
           " bytes, " + std::to_string(s.train_chars) + " characters; validation " +
           std::to_string(s.validation_entries) + " entries, " +
           std::to_string(s.validation_bytes) + " bytes, " + std::to_string(s.validation_chars) +
           " characters";
    if (s.doc_train_chars + s.doc_validation_chars > 0)
      out += " (documents: train " + std::to_string(s.doc_train_chars) + " characters, validation " +
             std::to_string(s.doc_validation_chars) + ")";
    out += "\n";
  }
  return out;
}

std::vector<CorpusEntry> WeightedTrain(const Corpus& c, int fortune_copies) {
  std::vector<CorpusEntry> out = c.train;
  for (int k = 1; k < fortune_copies; ++k) {
    for (const CorpusEntry& e : c.train) {
      if (e.source == Source::kFortunes) out.push_back(e);
    }
  }
  return out;
}

}  // namespace model
}  // namespace attn
