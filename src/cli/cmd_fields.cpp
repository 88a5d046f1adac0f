// attnlab fields [--format markdown|json]: every setting the lab accepts, from the settings
// tables themselves (the page's state and its `train` object). The field tables of docs/page-api.md are this
// command's markdown output (a test checks that they agree), and course authors can read the
// JSON to build their own controls.
#include "api/state_json.h"
#include "cli/common.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace attn::cli {

namespace {

template <class C>
void RowsToJson(const FieldTable<C>& table, const std::string& prefix, Json& out) {
  for (const Field<C>& f : table) {
    Json row = {{"name", prefix + f.name}, {"accepts", ExpectedText(f.rule)}, {"default", DefaultText(f)},
                {"help", f.help}};
    out.push_back(std::move(row));
  }
}

template <class C>
void RowsToMarkdown(const FieldTable<C>& table, const std::string& prefix, std::string& out) {
  for (const Field<C>& f : table) {
    const bool text = f.rule.kind == FieldKind::kName || f.rule.kind == FieldKind::kText ||
                      f.rule.kind == FieldKind::kNameSet;
    const std::string def = text ? "`\"" + DefaultText(f) + "\"`" : "`" + DefaultText(f) + "`";
    std::string accepts = ExpectedText(f.rule);
    for (char& c : accepts)
      if (c == '|') c = '/';
    out += "| `" + prefix + f.name + "` | " + accepts + " | " + def + " | " + f.help + " |\n";
  }
}

int RunFields(const std::string& format) {
  if (format == "json") {
    Json state = Json::array(), train = Json::array();
    RowsToJson(LabFields(), "", state);
    RowsToJson(api::StateFields(), "", state);
    RowsToJson(TrainFields(), "train.", train);
    RowsToJson(api::TrainStateFields(), "train.", train);
    std::cout << api::Dump(Json{{"state", state}, {"train", train}}) << "\n";
  } else {
    std::string out = "| field | accepts | default | what it does |\n|---|---|---|---|\n";
    RowsToMarkdown(LabFields(), "", out);
    RowsToMarkdown(api::StateFields(), "", out);
    out += "\n| field | accepts | default | what it does |\n|---|---|---|---|\n";
    RowsToMarkdown(TrainFields(), "train.", out);
    RowsToMarkdown(api::TrainStateFields(), "train.", out);
    std::cout << out;
  }
  return Finish("fields", 0);
}

}  // namespace

Command RegisterFields(CLI::App& app) {
  auto format = std::make_shared<std::string>("markdown");
  CLI::App* fields = app.add_subcommand(
      "fields", "Every field of the lab's state (and its train object): what it accepts, its default, "
                "what it does");
  fields->add_option("--format", *format, "markdown (default) or json")->check(CLI::IsMember({"markdown", "json"}));
  return {fields, [format] { return RunFields(*format); }};
}

}  // namespace attn::cli
