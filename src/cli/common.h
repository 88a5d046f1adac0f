// What every `attnlab` command shares: the exit codes, the one way to refuse bad input, reading
// the input (a file, or stdin for "" / "-") as JSON, and printing numbers.
//
// Refusals, the same for every command: one line "attnlab COMMAND: MESSAGE" on stderr, exit code
// 2, nothing on stdout. MESSAGE starts with the field at fault, quoted as JSON quotes it
// ("q": ..., "temperature": ...; an option as CLI11 names it, --every: ...); a problem with the
// input as a whole (an unreadable file, text that is not JSON) names no field.
#pragma once

#include "cli/raw_input.h"  // Json
#include "engine/base/format.h"  // AppendShortest: every number the CLI prints

#include <functional>
#include <string>

namespace CLI {
class App;
class Validator;
}

namespace attn::cli {

constexpr int kExitInternal = 1;  // a bug, or the output could not be written
constexpr int kExitBadInput = 2;  // a refusal: nothing on stdout
constexpr int kExitDiverged = 3;  // attnlab train: the run stopped on a non-finite number

// One command of the tool: its CLI11 subcommand (holding its options) and what runs it once the
// command line is parsed, returning the exit code. Each cmd_*.cpp registers its own.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};
Command RegisterTrace(CLI::App& app);     // cmd_trace.cpp
Command RegisterForward(CLI::App& app);   // cmd_forward_backward.cpp
Command RegisterBackward(CLI::App& app);  // cmd_forward_backward.cpp
Command RegisterCollide(CLI::App& app);   // cmd_collide.cpp
Command RegisterTrain(CLI::App& app);     // cmd_train.cpp
Command RegisterNorm(CLI::App& app);      // cmd_norm.cpp
Command RegisterFields(CLI::App& app);    // cmd_fields.cpp
Command RegisterModel(CLI::App& app);     // cmd_model.cpp
Command RegisterLesson(CLI::App& app);    // cmd_lesson.cpp

// A command-line option checked by a settings row's rule, refused in the one wording:
// "--samples: expected an integer from 1 to 100000, got 0".
CLI::Validator RuleCheck(const FieldRule& rule);

// Messages are one line, whatever they quote: control characters become spaces.
std::string OneLine(std::string s);

// `"field": message` (JSON quotes the field), or the message alone when no field is at fault. A
// message that already starts with "field: " (the settings tables' wording) is quoted in place.
std::string FieldMessage(const std::string& field, const std::string& message);

// Bad input: "attnlab COMMAND: message" on one line of stderr ("attnlab: message" when no
// command is known); returns kExitBadInput.
int RefuseCommand(const std::string& command, const std::string& message);

// A bug, not bad input: "attnlab COMMAND: internal error: message"; returns kExitInternal.
int InternalError(const std::string& command, const std::string& message);

// Flushes stdout; a full disk or a closed pipe is said so (kExitInternal) rather than exiting
// with `code`.
int Finish(const std::string& command, int code);

// Reads the whole file, or stdin for "" / "-". False (and a message) when it cannot be read.
bool ReadInput(const std::string& path, std::string* text, std::string* error);

// Reads the named file (or stdin) and parses it as JSON, refusing a top-level field given twice:
// the common start of every command that takes raw numbers. False with a message (naming the
// field when the error is inside one) when either step fails.
bool ReadJson(const std::string& path, Json* out, std::string* error);

// A finite number in shortest round-trip form; null for NaN or infinity (JSON has neither).
void AppendJsonNumber(std::string* out, double x);

}  // namespace attn::cli
