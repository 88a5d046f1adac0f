#include "cli/common.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

namespace attn::cli {

namespace {

// Parses JSON text, refusing a top-level field given twice (the parser would keep the last).
// An error inside a field's value names the field, e.g. "q": number overflow parsing '1e400'.
bool ParseJson(const std::string& text, Json* out, std::string* error) {
  using Event = Json::parse_event_t;
  std::vector<std::string> keys;
  std::string twice, inside;
  auto on_event = [&](int depth, Event event, Json& parsed) {
    if (depth != 1) return true;
    if (event == Event::key) {
      inside = parsed.get<std::string>();
      for (const std::string& k : keys)
        if (k == inside && twice.empty()) twice = inside;
      keys.push_back(inside);
    } else if (event == Event::value || event == Event::array_end || event == Event::object_end) {
      inside.clear();
    }
    return true;
  };
  try {
    *out = Json::parse(text, on_event);
  } catch (const Json::exception& e) {
    std::string what = e.what();  // "[json.exception.parse_error.101] parse error at ..."
    const size_t tag = what.find("] ");
    if (!what.empty() && what[0] == '[' && tag != std::string::npos) what = what.substr(tag + 2);
    *error = FieldMessage(inside, "not valid JSON: " + what);
    return false;
  }
  if (!twice.empty()) {
    *error = FieldMessage(twice, "given twice");
    return false;
  }
  return true;
}

}  // namespace

CLI::Validator RuleCheck(const FieldRule& rule) {
  return CLI::Validator(
      [rule](std::string& text) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        const bool number = !text.empty() && end && *end == '\0';
        if (number && AcceptsNumber(rule, x)) return "";
        return "expected " + ExpectedText(rule) + ", got " + text;
      },
      ExpectedText(rule));
}

std::string OneLine(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return s;
}

std::string FieldMessage(const std::string& field, const std::string& message) {
  if (field.empty()) return message;
  const std::string quoted = api::DescribeJson(Json(field));
  // The tables' messages already start with the field ("batch: expected ..."): quote it there.
  const std::string prefix = field + ": ";
  if (message.compare(0, prefix.size(), prefix) == 0) return quoted + ": " + message.substr(prefix.size());
  return quoted + ": " + message;
}

int RefuseCommand(const std::string& command, const std::string& message) {
  std::cerr << "attnlab" << (command.empty() ? "" : " " + command) << ": " << OneLine(message) << "\n";
  return kExitBadInput;
}

int InternalError(const std::string& command, const std::string& message) {
  std::cerr << "attnlab" << (command.empty() ? "" : " " + command) << ": internal error: " << OneLine(message)
            << "\n";
  return kExitInternal;
}

int Finish(const std::string& command, int code) {
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "attnlab " << command << ": cannot write the output\n";
    return kExitInternal;
  }
  return code;
}

bool ReadInput(const std::string& path, std::string* text, std::string* error) {
  if (path.empty() || path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();  // an empty stdin reads as "" (and sets ss's failbit, unused)
    *text = ss.str();
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) { *error = "cannot read " + path; return false; }
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

bool ReadJson(const std::string& path, Json* out, std::string* error) {
  std::string text;
  return ReadInput(path, &text, error) && ParseJson(text, out, error);
}

void AppendJsonNumber(std::string* out, double x) {
  if (std::isfinite(x)) AppendShortest(out, x);
  else *out += "null";
}

}  // namespace attn::cli
