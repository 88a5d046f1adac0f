// attnlab: the lab's engine on the command line, for course authors and engineers who check the
// numbers outside the browser. Reads JSON from a file (or stdin), writes JSON to stdout.
//
//   attnlab trace STATE.json   the same trace as window.attentionLab.getTrace() for that state
//   attnlab forward IN.json    attention weights and output of raw q, k, v (one head or h heads)
//   attnlab backward IN.json   the same plus dL/dq, dL/dk, dL/dv for a given dL/d output
//   attnlab collide IN.json    a second attention pattern with the same output that leans on a
//                              target token, and what the output alone tells about each weight
//   attnlab train TASK.json [--format jsonl|csv] [--every K]
//                              trains the one-layer model of engine/training/train.h and prints the
//                              metrics of every K-th step, then the example's final attention
//   attnlab norm [--experiment variance|saturation|output|all] [--seed S] [--samples N]
//                              the normalization experiments (engine/training/normexp.h) as JSON
//   attnlab fields [--format markdown|json]
//                              every field of the state, from the settings tables
//
// forward, backward, collide, train and norm compute in double and print every number in its
// shortest form that reads back as the same double. Bad input: one line on stderr naming the
// field, exit code 2, nothing on stdout; the output is written only once every number of it is
// known to be finite (train streams its records, each finite by the trainer's own check). A
// training run that diverges prints its records up to there and a "diverged" record: exit code 3.
//
// This file only wires the commands up: each lives in its own cmd_*.cpp (its options, its help,
// its run) and shares common.h (reading the input, refusing bad input, printing numbers).
#include "cli/common.h"
#include "cli/keep_freed_memory.h"

#include <CLI/CLI.hpp>

#include <cstddef>
#include <exception>
#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  using namespace attn::cli;
  KeepFreedMemory();  // training reuses its large blocks instead of faulting in fresh pages
  std::ios::sync_with_stdio(false);  // whole-file reads and writes: no need to interleave with stdio
  CLI::App app{"Attention Lab on the command line: JSON in, JSON out"};
  app.require_subcommand(1);
  const std::vector<Command> commands = {RegisterTrace(app),   RegisterForward(app), RegisterBackward(app),
                                         RegisterCollide(app), RegisterTrain(app),   RegisterNorm(app),
                                         RegisterFields(app),  RegisterModel(app),  RegisterLesson(app)};
  app.footer(
      "Examples:\n"
      "  attnlab trace state.json\n"
      "  echo '{\"q\": [[1, 0]], \"k\": [[1, 0], [0, 1]], \"v\": [[1], [2]]}' | attnlab forward\n"
      "  attnlab backward input.json       (attnlab forward --help: the input format)\n"
      "  echo '{\"values\": [[0], [1], [2]], \"weights\": [0, 1, 0], \"target\": 2}' | attnlab collide\n"
      "  echo '{\"task\": \"reverse\", \"steps\": 300}' | attnlab train --format csv --every 10\n"
      "  attnlab norm --experiment saturation --samples 5000\n"
      "  attnlab fields --format json\n"
      "  attnlab lesson check web/lessons/seed.json");

  // A command line CLI11 refuses is bad input like any other: the command's name when the line
  // starts with one, else none; the message names the option or argument at fault.
  const std::string first = argc > 1 ? argv[1] : "";
  std::string command, names;  // names: "trace, forward, ... or norm"
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const std::string& name = commands[i].app->get_name();
    if (name == first) command = name;
    names += (i == 0 ? "" : i + 1 < commands.size() ? ", " : " or ") + name;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::string what = e.what();
    if (!first.empty() && first[0] != '-' && command.empty())
      what = "unknown command " + attn::api::DescribeJson(Json(first)) + ", expected " + names;
    return RefuseCommand(command, what + (command.empty() ? " (attnlab --help lists the commands)"
                                                   : " (attnlab " + command + " --help)"));
  }
  for (const Command& c : commands) {
    if (!*c.app) continue;
    try {
      return c.run();
    } catch (const std::exception& e) {  // never a crash, never partial JSON
      return InternalError(c.app->get_name(), e.what());
    }
  }
  return 0;
}
