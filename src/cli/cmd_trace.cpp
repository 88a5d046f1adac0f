// attnlab trace STATE.json: the same trace as window.attentionLab.getTrace() for that state
// (the page's state JSON; missing fields take the lab's defaults), through the same ComputeLab.
// --compare: the state's edits (whatIf*, shuffle*, knockout*, value*) against the plain run
// (engine/whatif/whatif.h's CompareLab): {"state", "plain": trace, "edited": trace, "comparison"}.
#include "api/state_json.h"
#include "api/whatif_json.h"
#include "cli/common.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace attn::cli {

namespace {

int RunTrace(const std::string& path, bool compare) {
  std::string text, error;
  if (!ReadInput(path, &text, &error)) return RefuseCommand("trace", error);
  const api::LabState defaults;  // missing fields take the lab's defaults
  const api::PatchResult r = api::ApplyStatePatchText(defaults, text);
  if (!r.ok) return RefuseCommand("trace", FieldMessage(r.field, r.message));
  if (compare) {
    const LabComparison c = CompareLab(r.state.config);
    if (!c.error.ok()) return RefuseCommand("trace", FieldMessage(c.error.field, c.error.message));
    api::LabState plain = r.state;
    plain.config = WithoutEdits(r.state.config);
    api::Json out;
    out["state"] = api::StateToJson(r.state);
    out["plain"] = api::TraceToJson(plain, c.plain);
    out["edited"] = api::TraceToJson(r.state, c.edited);
    out["comparison"] = api::ComparisonToJson(c);
    std::cout << api::Dump(out) << "\n";
    return Finish("trace", 0);
  }
  const LabResult res = ComputeLab(r.state.config);
  if (!res.error.ok()) return RefuseCommand("trace", FieldMessage(res.error.field, res.error.message));
  std::cout << api::Dump(api::TraceToJson(r.state, res)) << "\n";
  return Finish("trace", 0);
}

}  // namespace

Command RegisterTrace(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto compare = std::make_shared<bool>(false);
  CLI::App* trace = app.add_subcommand(
      "trace", "Every intermediate of the lab for a state (as window.attentionLab.getTrace())");
  trace->add_option("STATE", *path,
                    "JSON state, e.g. {\"sentence\": \"я люблю суши\", \"query\": 1}; "
                    "missing fields take the lab's defaults; '-' or none reads stdin");
  trace->add_flag("--compare", *compare,
                  "the state's edits (whatIfToken, shuffle, knockoutKeys, valueToken, ...) against the "
                  "plain run: both traces and their difference (Δα per head, ΔA, the verdict)");
  // The state's fields come from the settings tables (the same rows the page's state uses).
  trace->footer("State fields (all optional; the page's state JSON, so \"lang\", \"view\" and \"train\" are "
                "accepted too):\n" + FieldsHelp(LabFields()));
  return {trace, [path, compare] { return RunTrace(*path, *compare); }};
}

}  // namespace attn::cli
