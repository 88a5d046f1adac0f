// The validation streams of a shipped run (validation.h).
#include "model/corpus/validation.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

namespace attn {
namespace model {

std::string RunFolder(const std::string& folder, const std::string& dir) {
  if (folder.empty() || folder[0] == '/' || std::filesystem::exists(folder)) return folder;
  const std::filesystem::path repo = std::filesystem::path(dir) / ".." / "..";
  return std::filesystem::exists(repo / folder) ? (repo / folder).lexically_normal().string() : folder;
}

bool LoadValidationEntries(const Bundle& b, const std::string& dir, std::vector<CorpusEntry>* entries,
                           bool* with_docs, std::string* error) {
  using Json = nlohmann::json;
  const Json config = Json::parse(b.config_json, nullptr, false);
  const Json run = config.is_object() && config.contains("run") && config["run"].is_object() ? config["run"]
                                                                                               : Json::object();
  auto folder = [&](const char* key, const char* fallback) {
    const Json& f = run.contains(key) && run[key].is_string() ? run[key] : Json(fallback);
    return RunFolder(f.get<std::string>(), dir);
  };
  std::vector<SourceFile> files;
  *with_docs = false;
  if (!ReadFortuneFolder(folder("enFolder", "/usr/share/games/fortunes"), Lang::kEn, &files, error) ||
      !ReadFortuneFolder(folder("ruFolder", "/usr/share/games/fortunes/ru"), Lang::kRu, &files, error))
    return false;
  for (const auto& [key, lang] : {std::pair{"enDocs", Lang::kEn}, std::pair{"ruDocs", Lang::kRu}}) {
    const std::string docs = folder(key, "");
    if (docs.empty()) continue;
    if (!ReadDocumentFolder(docs, lang, &files, error)) {
      if (error) *error += " (scripts/corpus.sh makes the documents from Debian's manuals)";
      return false;
    }
    *with_docs = true;
  }
  *entries = BuildCorpus(std::move(files)).validation;
  return true;
}

bool LoadValidation(const Bundle& b, const std::string& dir, Validation* v, std::string* error) {
  Corpus corpus;
  if (!LoadValidationEntries(b, dir, &corpus.validation, &v->with_docs, error)) return false;
  const auto fortunes = std::optional<Source>(Source::kFortunes);
  return EncodeEntries(*b.tokenizer, corpus.validation, Lang::kEn, false, &v->en, error) &&
         EncodeEntries(*b.tokenizer, corpus.validation, Lang::kRu, false, &v->ru, error) &&
         EncodeEntries(*b.tokenizer, corpus.validation, Lang::kEn, false, &v->fortunes_en, error, fortunes) &&
         EncodeEntries(*b.tokenizer, corpus.validation, Lang::kRu, false, &v->fortunes_ru, error, fortunes);
}

}  // namespace model
}  // namespace attn
