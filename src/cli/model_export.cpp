// The lab's model for others' tools:
//   attnlab model export DIR --to hf OUT [--dtype F16] [--allow-rounding] [--force]
//       the folder as a GPT-2 checkpoint in the Hugging Face layout (model/format/hf_gpt2_write.h)
//   attnlab model encode DIR --text "..." | --validation
//       the lab's BPE ids of a text, or of every validation entry (JSON lines): what
//       scripts/hf_tokenizer_check.sh compares the exported tokenizer.json with
#include "cli/common.h"
#include "cli/model_commands.h"
#include "model/corpus/validation.h"
#include "model/format/bundle.h"
#include "model/format/model_folder.h"
#include "model/format/hf_gpt2_write.h"

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
  std::string dir, text;
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

int RunEncode(const EncodeOptions& o) {
  const std::string cmd = "model encode";
  if (o.validation == !o.text.empty()) return RefuseCommand(cmd, "give either --text or --validation");
  model::Bundle b;
  std::string error;
  if (!model::OpenModelFolder(o.dir, &b, &error)) return RefuseCommand(cmd, error);  // ours or a GPT-2 checkpoint
  const model::Tokenizer& tok = *b.tokenizer;
  std::vector<int> ids;
  if (!o.validation) {
    if (!tok.Encode(o.text, &ids, &error)) return RefuseCommand(cmd, "--text: " + error);
    Json tokens = Json::array();
    for (int id : ids) tokens.push_back(tok.Label(id));  // a byte by its name, "<0xD0>"
    std::cout << Json({{"ids", ids}, {"tokens", tokens}}).dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
    return Finish(cmd, 0);
  }
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
  CLI::App* c = model->add_subcommand("encode", "The lab's BPE ids of a text, or of every validation entry (JSON lines)");
  c->add_option("dir", o->dir, "the model's folder")->required();
  c->add_option("--text", o->text, "the text (UTF-8)");
  c->add_flag("--validation", o->validation, "every validation entry of the model's run: lang, source, text, ids");
  return {c, [o] { return RunEncode(*o); }};
}

}  // namespace attn::cli
