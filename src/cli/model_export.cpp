// The lab's model for others' tools:
//   attnlab model export DIR --to hf OUT [--dtype F16] [--allow-rounding] [--force]
//       the folder as a GPT-2 checkpoint in the Hugging Face layout (model/format/hf_gpt2_write.h)
//   attnlab model encode DIR --text "..." | --texts FILE.jsonl | --validation
//       the folder's tokenizer's ids of a text, of each JSON line's "text", or of every
//       validation entry (JSON lines): what scripts/hf_tokenizer_check.sh compares the exported
//       tokenizer.json with, and tests/cli/test_hf_tokenizers.py and
//       scripts/hf_tokenizers_check.sh compare Llama's and Qwen's tokenizers with tokenizers.js
#include "cli/common.h"
#include "cli/model_commands.h"
#include "model/corpus/validation.h"
#include "model/format/bundle.h"
#include "model/format/model_folder.h"
#include "model/format/hf_gpt2_write.h"
#include "model/format/read_file.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace attn::cli {

namespace {

struct ExportOptions {
  std::string dir, to, out, dtype;
  bool allow_rounding = false, force = false;
};

struct EncodeOptions {
  std::string dir, text, texts;
  bool validation = false;
};

model::Dtype DtypeNamed(const std::string& name) {
  return name == "F32" ? model::Dtype::kF32 : name == "F16" ? model::Dtype::kF16 : model::Dtype::kBF16;
}

// The run's dropout from the folder's config.json ("run": {"dropout"}), for config.json's
// resid_pdrop and embd_pdrop; 0 when it is not there.
double RunDropout(const model::Bundle& b) {
  const Json j = Json::parse(b.config_json, nullptr, false);
  if (!j.is_object() || !j.contains("run") || !j["run"].is_object() || !j["run"].contains("dropout")) return 0;
  const Json& d = j["run"]["dropout"];
  return d.is_number() ? d.get<double>() : 0;
}

bool SameFolder(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::exists(b, ec) && std::filesystem::equivalent(a, b, ec);
}

int RunExport(const ExportOptions& o) {
  const std::string cmd = "model export";
  std::error_code ec;
  if (!std::filesystem::is_directory(o.dir, ec)) return RefuseCommand(cmd, o.dir + ": no such folder");
  if (!std::filesystem::exists(std::filesystem::path(o.dir) / "MANIFEST.sha256", ec))
    return RefuseCommand(cmd, o.dir + ": not the lab's own model folder (no MANIFEST.sha256): export writes the lab's model");
  model::Bundle b;
  std::string error;
  if (!model::LoadBundle(o.dir, &b, &error)) return RefuseCommand(cmd, error);
  if (SameFolder(o.dir, o.out)) return RefuseCommand(cmd, o.out + ": is the model's own folder; choose another");
  model::Gpt2ExportOptions options;
  options.dtype = o.dtype.empty() ? model::ExactDtype(b.params) : DtypeNamed(o.dtype);
  options.allow_rounding = o.allow_rounding;
  options.dropout = RunDropout(b);
  model::NamedFiles files;
  if (!model::Gpt2FolderFiles(b.config, b.params, *b.tokenizer->Own(), options, &files, &error))
    return RefuseCommand(cmd, error + (error.find(" would round ") != std::string::npos
                                           ? "; --allow-rounding writes them rounded, or choose another --dtype"
                                           : ""));
  if (!model::WriteGpt2Folder(o.out, files, o.force, &error))
    return RefuseCommand(cmd, error + (error.find("not empty") != std::string::npos
                                           ? " (--force replaces the export's files in it)"
                                           : ""));
  Json written = Json::object();
  for (const auto& [name, bytes] : files) written[name] = bytes.size();
  const Json out = {{"out", o.out},
                    {"format", "huggingface"},
                    {"architecture", "gpt2"},
                    {"dtype", model::DtypeName(options.dtype)},
                    {"rounded", model::RoundedValues(b.params, options.dtype)},
                    {"files", written},
                    {"tokenizer", {{"exact", "attnlab-tokenizer.json"},
                                   {"huggingface", "tokenizer.json (close, not exact: docs/models.md)"}}}};
  std::cout << out.dump(2) << "\n";
  return Finish(cmd, 0);
}

// One text's line: the ids, the token before them (Begin: what a run starts with; null when
// none), and the ids decoded back.
Json EncodedLine(const model::Tokenizer& tok, const std::vector<int>& ids) {
  const int begin = tok.Begin();
  return {{"ids", ids}, {"begin", begin >= 0 ? Json(begin) : Json(nullptr)}, {"decoded", tok.Decode(ids)}};
}

int RunEncode(const EncodeOptions& o) {
  const std::string cmd = "model encode";
  if (o.validation + !o.text.empty() + !o.texts.empty() != 1)
    return RefuseCommand(cmd, "give one of --text, --texts or --validation");
  std::string error;
  std::vector<int> ids;
  if (!o.validation) {  // the tokenizer alone: a folder of tokenizer files is enough
    std::shared_ptr<const model::Tokenizer> tok;
    if (!model::OpenTokenizerFolder(o.dir, &tok, &error)) return RefuseCommand(cmd, error);
    const Json::error_handler_t replace = Json::error_handler_t::replace;  // bytes that are not whole characters
    if (!o.text.empty()) {
      if (!tok->Encode(o.text, &ids, &error)) return RefuseCommand(cmd, "--text: " + error);
      Json tokens = Json::array();
      for (int id : ids) tokens.push_back(tok->Label(id));  // a byte by its name, "<0xD0>"
      Json line = EncodedLine(*tok, ids);
      line["tokens"] = tokens;
      std::cout << line.dump(-1, ' ', false, replace) << "\n";
      return Finish(cmd, 0);
    }
    std::string lines;
    if (!model::ReadFileBytes(o.texts, &lines, &error)) return RefuseCommand(cmd, "--texts: " + error);
    std::size_t number = 0;
    for (std::size_t start = 0; start < lines.size();) {
      std::size_t end = lines.find('\n', start);
      if (end == std::string::npos) end = lines.size();
      const std::string_view text_line(lines.data() + start, end - start);
      start = end + 1;
      ++number;
      if (text_line.empty()) continue;
      Json line = Json::parse(text_line, nullptr, /*allow_exceptions=*/false);
      if (!line.is_object() || !line.contains("text") || !line["text"].is_string())
        return RefuseCommand(cmd, "--texts: " + o.texts + ": line " + std::to_string(number) +
                                      " is not a JSON object with a \"text\" string");
      if (!tok->Encode(line["text"].get<std::string>(), &ids, &error))
        return RefuseCommand(cmd, "--texts: " + o.texts + ": line " + std::to_string(number) + ": " + error);
      line.update(EncodedLine(*tok, ids));
      std::cout << line.dump(-1, ' ', false, replace) << "\n";
    }
    return Finish(cmd, 0);
  }
  model::Bundle b;
  if (!model::OpenModelFolder(o.dir, &b, &error)) return RefuseCommand(cmd, error);  // ours or a GPT-2 checkpoint
  const model::Tokenizer& tok = *b.tokenizer;
  std::vector<model::CorpusEntry> entries;
  bool with_docs = false;
  if (!model::LoadValidationEntries(b, o.dir, &entries, &with_docs, &error)) return RefuseCommand(cmd, error);
  for (const model::CorpusEntry& e : entries) {
    if (!tok.Encode(e.text, &ids, &error)) return InternalError(cmd, error);  // the corpus holds valid UTF-8
    const Json line = {{"lang", model::LangName(e.lang)},
                       {"source", e.source == model::Source::kFortunes ? "fortunes" : "docs"},
                       {"text", e.text},
                       {"ids", ids}};
    std::cout << line.dump() << "\n";
  }
  return Finish(cmd, 0);
}

}  // namespace

Command AddModelExport(CLI::App* model) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App* c = model->add_subcommand(
      "export", "The model's folder as a GPT-2 checkpoint in the Hugging Face layout (weights, config, tokenizer)");
  c->add_option("dir", o->dir, "the model's folder")->required();
  c->add_option("--to", o->to, "the layout to write: hf (what save_pretrained writes)")
      ->required()
      ->check(CLI::IsMember({"hf"}));
  c->add_option("out", o->out, "the folder to write (created when missing; must be empty unless --force)")->required();
  c->add_option("--dtype", o->dtype, "F32, F16 or BF16 (default: the narrowest that holds every weight exactly)")
      ->check(CLI::IsMember({"F32", "F16", "BF16"}));
  c->add_flag("--allow-rounding", o->allow_rounding, "let --dtype round weights (refused otherwise)");
  c->add_flag("--force", o->force, "write into a folder that holds files, replacing the export's own");
  return {c, [o] { return RunExport(*o); }};
}

Command AddModelEncode(CLI::App* model) {
  auto o = std::make_shared<EncodeOptions>();
  CLI::App* c = model->add_subcommand(
      "encode", "The folder's tokenizer's ids of a text, of each line of a file, or of every validation entry (JSON lines)");
  c->add_option("dir", o->dir, "the model's folder (for --text and --texts, its tokenizer files are enough)")->required();
  c->add_option("--text", o->text, "the text (UTF-8)");
  c->add_option("--texts", o->texts, "a file of JSON lines, each with a \"text\": each line again with its ids");
  c->add_flag("--validation", o->validation, "every validation entry of the model's run: lang, source, text, ids");
  return {c, [o] { return RunEncode(*o); }};
}

}  // namespace attn::cli
