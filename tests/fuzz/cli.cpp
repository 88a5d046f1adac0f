// Fuzz target: one `attnlab` command (kFuzzCommand, cli_command.cpp: trace, forward, backward, collide, train) on
// any input file, through the tool's own main() (cli_main.cpp), in process. Properties: no crash,
// no sanitizer report, and the tool's contract (cli/common.h):
//   exit 0: stdout is JSON (train: JSON lines), stderr empty;
//   exit 2: a refusal, one line "attnlab COMMAND: ..." on stderr and nothing on stdout;
//   exit 3 (train only): a diverged run;
//   exit 1 (an internal error) or anything else is a bug.
// train runs at most kFuzzTrainSteps (2) steps: a larger or missing "steps" is set to 2 before the
// input is handed over (the steps themselves are the same; only their number is capped; under the
// sanitizers one step of the larger configurations takes a fraction of a second).
#include "fuzz_common.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>
#include <vector>

int attnlab_cli_main(int argc, char** argv);
// The command this target fuzzes: cli_command.cpp, compiled per target (this file only once).
extern const char kFuzzCommand[];

namespace {

constexpr int kFuzzTrainSteps = 2;

std::string CapTrainSteps(std::string text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return text;
  if (j.contains("steps") && (!j["steps"].is_number() || j["steps"].get<double>() <= kFuzzTrainSteps)) return text;
  j["steps"] = kFuzzTrainSteps;
  return j.dump();
}

bool IsJsonLines(const std::string& out) {
  std::istringstream in(out);
  std::string line;
  bool any = false;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (!nlohmann::json::accept(line)) return false;
    any = true;
  }
  return any;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using attn::fuzz::Check;
  const std::string command = kFuzzCommand;
  std::string input(attn::fuzz::AsText(data, size));
  if (command == "train") input = CapTrainSteps(std::move(input));
  const std::string& path = attn::fuzz::WriteScratch(input);

  std::vector<std::string> args = {"attnlab", command, path};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  // main() calls std::ios::sync_with_stdio(false), which (libstdc++) gives cout and cerr new
  // buffers the first time: do it here first, so that the capture below stays in place.
  static const bool unsynced = (std::ios::sync_with_stdio(false), true);
  (void)unsynced;
  std::ostringstream out, err;
  std::streambuf* old_out = std::cout.rdbuf(out.rdbuf());
  std::streambuf* old_err = std::cerr.rdbuf(err.rdbuf());
  const int code = attnlab_cli_main(static_cast<int>(args.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  std::cout.clear();

  const std::string o = out.str(), e = err.str();
  const std::string said = "exit " + std::to_string(code) + ", stderr: " + e.substr(0, 2000);
  if (code == 0) {
    Check(e.empty(), "stderr on success: " + said);
    if (command == "train") Check(IsJsonLines(o), "train's stdout is not JSON lines: " + said);
    else Check(nlohmann::json::accept(o), "stdout is not JSON: " + said);
  } else if (code == 2) {
    Check(o.empty(), "stdout on a refusal: " + said);
    const std::string prefix = "attnlab " + command + ": ";
    Check(e.compare(0, prefix.size(), prefix) == 0 && e.size() > prefix.size() + 1 &&
              e.find('\n') == e.size() - 1,
          "a refusal is not one line naming the command: " + said);
  } else if (code == 3 && command == "train") {
    Check(!o.empty(), "a diverged run printed nothing");
  } else {
    attn::fuzz::Fail("the command failed: " + said);
  }
  return 0;
}
