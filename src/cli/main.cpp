// attnlab: the lab's engine on the command line, for course authors and engineers who check the
// numbers outside the browser. Reads JSON from a file (or stdin), writes JSON to stdout.
//
//   attnlab trace STATE.json   the same trace as window.attentionLab.getTrace() for that state
//
// Bad input: one line on stderr naming the field, exit code 2, nothing on stdout.
#include "api/state_json.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace {

constexpr int kExitBadInput = 2;

// Reads the whole file, or stdin for "" / "-". False (and a message) when it cannot be read.
bool ReadInput(const std::string& path, std::string* text, std::string* error) {
  if (path.empty() || path == "-") {
    text->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) { *error = "cannot read " + path; return false; }
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

int RunTrace(const std::string& path) {
  std::string text, error;
  if (!ReadInput(path, &text, &error)) { std::cerr << "attnlab trace: " << error << "\n"; return kExitBadInput; }
  const attn::api::PatchResult r = attn::api::ApplyStatePatchText(attn::api::LabState{}, text);
  if (!r.ok) {
    std::cerr << "attnlab trace: " << (r.field.empty() ? "" : r.field + ": ") << r.message << "\n";
    return kExitBadInput;
  }
  const attn::LabResult res = attn::ComputeLab(r.state.config);
  if (!res.error.ok()) {
    std::cerr << "attnlab trace: " << res.error.field << ": " << res.error.message << "\n";
    return kExitBadInput;
  }
  std::cout << attn::api::Dump(attn::api::TraceToJson(r.state, res)) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Attention Lab on the command line: JSON in, JSON out"};
  app.require_subcommand(1);

  std::string trace_path;
  CLI::App* trace = app.add_subcommand(
      "trace", "Every intermediate of the lab for a state (as window.attentionLab.getTrace())");
  trace->add_option("STATE", trace_path,
                    "JSON state, e.g. {\"sentence\": \"я люблю суши\", \"query\": 1}; "
                    "missing fields take the lab's defaults; '-' or none reads stdin");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitBadInput;
  }
  try {
    if (*trace) return RunTrace(trace_path);
  } catch (const std::exception& e) {  // never a crash, never partial JSON
    std::cerr << "attnlab: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
