// attnlab forward IN.json: attention weights and output of raw q, k, v (one head or h heads).
// attnlab backward IN.json: the same plus dL/dq, dL/dk, dL/dv for a given dL/d output.
// One code path (backward = forward + the gradients from the same trace), two commands.
#include "cli/common.h"
#include "cli/raw_input.h"
#include "engine/attention/multihead.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>

namespace attn::cli {

namespace {

using Heads = std::vector<Mat<double>>;  // H of (rows, cols)

struct RawResult {
  Heads weights;         // H of (N, M)
  Heads output;          // H of (N, Dv)
  Heads dq, dk, dv;      // H of (N, Dk), (M, Dk), (M, Dv); backward only
};

// "" when every entry is finite, else "name[h][i][j] = inf".
std::string FirstNonFinite(const Heads& t, const char* name) {
  for (size_t h = 0; h < t.size(); ++h)
    for (Eigen::Index i = 0; i < t[h].rows(); ++i)
      for (Eigen::Index j = 0; j < t[h].cols(); ++j)
        if (!std::isfinite(t[h](i, j))) {
          std::ostringstream m;
          m << name << "[" << h << "][" << i << "][" << j << "] = " << t[h](i, j);
          return m.str();
        }
  return "";
}

// "name": [[[...], ...], ...]  as H×rows×cols, one row at a time.
void WriteHeads(std::ostream& os, const char* name, const Heads& t, bool first) {
  os << (first ? "{" : ", ") << "\"" << name << "\": [";
  std::string row;
  for (size_t h = 0; h < t.size(); ++h) {
    os << (h ? ", [" : "[");
    for (Eigen::Index i = 0; i < t[h].rows(); ++i) {
      row.assign(i ? ", [" : "[");
      for (Eigen::Index j = 0; j < t[h].cols(); ++j) {
        if (j) row += ", ";
        AppendShortest(&row, t[h](i, j));
      }
      row += "]";
      os << row;
    }
    os << "]";
  }
  os << "]";
}

int RunRaw(const std::string& command, const std::string& path, bool backward) {
  std::string error;
  Json j;
  if (!ReadJson(path, &j, &error)) return RefuseCommand(command, error);
  RawInput in;
  if (!ParseRawInput(j, backward, &in, &error)) return RefuseCommand(command, error);
  j = Json();

  // Head by head: forward, then (backward) the gradients from the same trace.
  RawResult r;
  for (int h = 0; h < in.heads; ++h) {
    HeadTrace<double> fwd;
    // Everything but the size of the numbers is checked by now: a refusal here is an overflow
    // (the engine checks the scores before normalizing them, so no NaN reaches a sort).
    if (!HeadForward(fwd, in.q[h], in.k[h], in.v[h], in.mask, in.head, &error))
      return RefuseCommand(command, "head " + std::to_string(h) + ": " + error.substr(0, error.find(';')) +
                                 " (double); use smaller q, k, v or scale, or a larger temperature");
    if (backward) {
      HeadGrads<double> g;
      if (!HeadBackward(g, in.d_output[h], fwd, in.mask, in.head, &error))
        return RefuseCommand(command, "head " + std::to_string(h) + ": " + error);
      r.dq.push_back(std::move(g.dQ));
      r.dk.push_back(std::move(g.dK));
      r.dv.push_back(std::move(g.dV));
    }
    r.weights.push_back(std::move(fwd.weights));
    r.output.push_back(std::move(fwd.output));
  }

  // Every number finite before the first byte goes out.
  const std::pair<const char*, const Heads*> fields[] = {
      {"weights", &r.weights}, {"output", &r.output}, {"dq", &r.dq}, {"dk", &r.dk}, {"dv", &r.dv}};
  for (const auto& [name, t] : fields) {
    const std::string bad = FirstNonFinite(*t, name);
    if (!bad.empty())
      return RefuseCommand(command, "the result is not finite (" + bad +
                                 "): the numbers overflow a double; use smaller " +
                                 (backward ? "inputs or dOutput" : "inputs"));
  }
  bool first = true;
  for (const auto& [name, t] : fields) {
    if (!backward && t->empty()) continue;
    WriteHeads(std::cout, name, *t, first);
    first = false;
  }
  std::cout << "}\n";
  return Finish(command, 0);
}

const char* const kInputHelp = R"(Input: a JSON object (INPUT names the file; '-' or none reads stdin)
  "q"            n×d_k or h×n×d_k   queries, nested arrays of numbers      (required)
  "k"            m×d_k or h×m×d_k   keys; all three 2-D or all three 3-D   (required)
  "v"            m×d_v or h×m×d_v   values                                 (required)
  "mask"         n×m booleans       true = query i may attend to key j; shared by the heads
  "causal"       true or false      query i sees keys j <= i (top-left, as SDPA's is_causal:
                                    tril(ones(n, m))); combined (AND) with "mask"
  "scale"        number or null     the factor on q·kᵀ; null or absent = 1/sqrt(d_k)
  "temperature"  number > 0         default 1
  "normalizer"   string             softmax (default), sparsemax, relunorm, sigmoid, none, hardmax
  "dOutput"      h×n×d_v            dL/d output (n×d_v when q, k, v are 2-D); backward only
Conventions (PyTorch's scaled_dot_product_attention): rows = queries, columns = keys;
  scores = q·kᵀ·scale/temperature; masked weights are 0; a query with every key masked gets
  zero weights, a zero output and zero gradients.
)";

const char* const kForwardHelp = R"(Output (stdout): {"weights": h×n×m, "output": h×n×d_v}, always 3-D (h = 1 for 2-D input)
  weights[h][i] = normalizer(scores of query i), output[h] = weights[h]·v[h]
Example:
  echo '{"q": [[1, 0], [0, 1]], "k": [[1, 0], [0, 1]], "v": [[1, 2], [3, 4]], "causal": true}' | attnlab forward
  {"weights": [[[1, 0], [0.3302384506733431, 0.6697615493266569]]], "output": [[[1, 2], [2.3395230986533138, 3.3395230986533138]]]}
)";

const char* const kBackwardHelp = R"(Output (stdout): {"weights", "output" as forward, "dq": h×n×d_k, "dk": h×m×d_k, "dv": h×m×d_v}
  the exact gradients of L = sum(output · dOutput) with respect to q, k and v, always 3-D.
  hardmax has no gradient: its dq and dk are zeros (dv is exact).
Example:
  echo '{"q": [[1, 0]], "k": [[1, 0], [0, 1]], "v": [[1], [2]], "dOutput": [[1]]}' | attnlab backward
)";

const char* const kOutputHelp = R"(Numbers are computed in double and printed so that they read back exactly.
Limits: h, n, m, d_k, d_v <= 4096, and at most 16777216 numbers in and out in total.
Bad input: one line on stderr naming the field, exit code 2, nothing on stdout.)";

// One of the two commands and its input file.
Command RegisterRaw(CLI::App& app, bool backward) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd;
  if (backward) {
    cmd = app.add_subcommand(
        "backward", "The same as forward plus the exact gradients dq, dk, dv for a given dOutput");
    cmd->add_option("INPUT", *path, "JSON input (below), with \"dOutput\"; '-' or none reads stdin");
    cmd->footer(std::string(kInputHelp) + kBackwardHelp + kOutputHelp);
  } else {
    cmd = app.add_subcommand(
        "forward", "Attention weights and output of raw q, k, v (one head or h heads), in double");
    cmd->add_option("INPUT", *path, "JSON input (below); '-' or none reads stdin");
    cmd->footer(std::string(kInputHelp) + kForwardHelp + kOutputHelp);
  }
  return {cmd, [path, backward] { return RunRaw(backward ? "backward" : "forward", *path, backward); }};
}

}  // namespace

Command RegisterForward(CLI::App& app) { return RegisterRaw(app, false); }
Command RegisterBackward(CLI::App& app) { return RegisterRaw(app, true); }

}  // namespace attn::cli
