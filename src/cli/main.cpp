// attnlab: the lab's engine on the command line, for course authors and engineers who check the
// numbers outside the browser. Reads JSON from a file (or stdin), writes JSON to stdout.
//
//   attnlab trace STATE.json   the same trace as window.attentionLab.getTrace() for that state
//   attnlab forward IN.json    attention weights and output of raw q, k, v (one head or h heads)
//   attnlab backward IN.json   the same plus dL/dq, dL/dk, dL/dv for a given dL/d output
//   attnlab collide IN.json    a second attention pattern with the same output that leans on a
//                              target token, and what the output alone tells about each weight
//
// forward, backward and collide compute in double and print every number in its shortest form
// that reads back as the same double. Bad input: one line on stderr naming the field, exit code
// 2, nothing on stdout; the output is written only once every number of it is known to be finite.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF  // WeightedSum below repeats the engine's bits (engine/linalg.h)
#endif
#include "api/state_json.h"
#include "cli/collide_input.h"
#include "cli/raw_input.h"
#include "engine/information.h"
#include "engine/multihead.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

constexpr int kExitBadInput = 2;

// Reads the whole file, or stdin for "" / "-". False (and a message) when it cannot be read.
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

// Messages are one line, whatever they quote.
std::string OneLine(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return s;
}

int RunTrace(const std::string& path) {
  std::string text, error;
  if (!ReadInput(path, &text, &error)) { std::cerr << "attnlab trace: " << error << "\n"; return kExitBadInput; }
  const attn::api::LabState defaults;  // missing fields take the lab's defaults
  const attn::api::PatchResult r = attn::api::ApplyStatePatchText(defaults, text);
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

// --- forward / backward on raw tensors ------------------------------------------------------

using attn::Mat;
using Heads = std::vector<Mat<double>>;  // H of (rows, cols)

struct RawResult {
  Heads weights;         // H of (N, M)
  Heads output;          // H of (N, Dv)
  Heads dq, dk, dv;      // H of (N, Dk), (M, Dk), (M, Dv); backward only
};

// Parses JSON text, refusing a top-level field given twice (the parser would keep the last).
// An error inside a field's value names the field, e.g. "q": number overflow parsing '1e400'.
bool ParseJson(const std::string& text, attn::cli::Json* out, std::string* error) {
  using attn::cli::Json;
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
    const std::string field = inside.empty() ? "" : attn::cli::detail::Describe(Json(inside)) + ": ";
    *error = field + "not valid JSON: " + what;
    return false;
  }
  if (!twice.empty()) {
    *error = attn::cli::detail::Describe(Json(twice)) + ": given twice";
    return false;
  }
  return true;
}

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

// The shortest decimal that reads back as the same double (C++17 to_chars).
void AppendNumber(std::string* out, double x) {
  char buf[32];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, x);
  out->append(buf, r.ptr);
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
        AppendNumber(&row, t[h](i, j));
      }
      row += "]";
      os << row;
    }
    os << "]";
  }
  os << "]";
}

// Reads the named file (or stdin) and parses it as JSON: the common start of every command
// that takes raw numbers. False with a message when either step fails.
bool ReadJson(const std::string& path, attn::cli::Json* out, std::string* error) {
  std::string text;
  return ReadInput(path, &text, error) && ParseJson(text, out, error);
}

int RunRaw(const std::string& command, const std::string& path, bool backward) {
  const std::string prefix = "attnlab " + command + ": ";
  auto refuse = [&](const std::string& message) {
    std::cerr << prefix << OneLine(message) << "\n";
    return kExitBadInput;
  };
  std::string error;
  attn::cli::Json j;
  if (!ReadJson(path, &j, &error)) return refuse(error);
  attn::cli::RawInput in;
  if (!attn::cli::ParseRawInput(j, backward, &in, &error)) return refuse(error);
  j = attn::cli::Json();

  // Head by head: forward, then (backward) the gradients from the same trace.
  RawResult r;
  for (int h = 0; h < in.heads; ++h) {
    attn::HeadTrace<double> fwd;
    // Everything but the size of the numbers is checked by now: a refusal here is an overflow
    // (the engine checks the scores before normalizing them, so no NaN reaches a sort).
    if (!attn::HeadForward(fwd, in.q[h], in.k[h], in.v[h], in.mask, in.head, &error))
      return refuse("head " + std::to_string(h) + ": " + error.substr(0, error.find(';')) +
                    " (double); use smaller q, k, v or scale, or a larger temperature");
    if (backward) {
      attn::HeadGrads<double> g;
      if (!attn::HeadBackward(g, in.d_output[h], fwd, in.mask, in.head, &error))
        return refuse("head " + std::to_string(h) + ": " + error);
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
      return refuse("the result is not finite (" + bad + "): the numbers overflow a double; use smaller " +
                    (backward ? "inputs or dOutput" : "inputs"));
  }
  bool first = true;
  for (const auto& [name, t] : fields) {
    if (!backward && t->empty()) continue;
    WriteHeads(std::cout, name, *t, first);
    first = false;
  }
  std::cout << "}\n";
  std::cout.flush();
  if (!std::cout) {  // a full disk or a closed pipe: say so rather than exit 0
    std::cerr << prefix << "cannot write the output\n";
    return 1;
  }
  return 0;
}

// --- collide: two attention patterns, one output ----------------------------------------------

// out = V^T a in the engine's loop order (information.cpp), so that "output" is the engine's
// bits. V: (N, Dv), a: (N) -> (Dv).
attn::VecD WeightedSum(const attn::MatD& V, const attn::VecD& a) {
  attn::VecD out = attn::VecD::Zero(V.cols());
  for (Eigen::Index i = 0; i < V.rows(); ++i)
    for (Eigen::Index k = 0; k < V.cols(); ++k) out(k) += a(i) * V(i, k);
  return out;
}

// "name": [x, ...]; `weights`: -0 prints as 0 (a weight is never negative).
void AppendVector(std::string* out, const char* name, const attn::VecD& x, bool weights) {
  *out += "\"" + std::string(name) + "\": [";
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (i) *out += ", ";
    AppendNumber(out, weights ? x(i) + 0.0 : x(i));
  }
  *out += "]";
}

int RunCollide(const std::string& path) {
  const std::string prefix = "attnlab collide: ";
  auto refuse = [&](const std::string& message) {
    std::cerr << prefix << OneLine(message) << "\n";
    return kExitBadInput;
  };
  std::string error;
  attn::cli::Json j;
  if (!ReadJson(path, &j, &error)) return refuse(error);
  attn::cli::CollideInput in;
  if (!attn::cli::ParseCollideInput(j, &in, &error)) return refuse(error);
  j = attn::cli::Json();

  // The engine squares differences of values (its QR's column norms), which overflow beyond
  // ~1e154 and underflow below ~1e-154. Scaling every value by the same power of two is exact
  // and changes none of the answers (weights, ranges, ranks), so far-out values are brought to
  // [1, 2) first; in between they go to the engine untouched, bit for bit.
  double vmax = 0;
  for (Eigen::Index i = 0; i < in.values.rows(); ++i)
    for (Eigen::Index k = 0; k < in.values.cols(); ++k) vmax = std::max(vmax, std::abs(in.values(i, k)));
  attn::MatD scaled;
  const attn::MatD* engine_values = &in.values;
  if (vmax > 0 && (vmax > std::ldexp(1.0, 400) || vmax < std::ldexp(1.0, -400))) {
    const int e = std::ilogb(vmax);
    scaled = in.values;
    for (Eigen::Index i = 0; i < scaled.rows(); ++i)
      for (Eigen::Index k = 0; k < scaled.cols(); ++k) scaled(i, k) = std::ldexp(scaled(i, k), -e);
    engine_values = &scaled;
  }
  const attn::InformationReport rep =
      attn::AnalyzeInformation(*engine_values, in.weights, in.target, in.minimize_top);
  const attn::Collision& c = rep.collision;
  auto internal = [&](const std::string& message) {  // a bug, not bad input: exit 1, as main's
    std::cerr << "attnlab: internal error: " << message << "\n";
    return 1;
  };
  if (c.alpha2.size() != in.n || rep.ranges.rows() != in.n || rep.ranges.cols() != 2)
    return internal("collide: the engine gave no answer for these shapes");
  // The outputs in the units of the input values.
  const attn::VecD output = WeightedSum(in.values, in.weights);
  const attn::VecD output2 = WeightedSum(in.values, c.alpha2);
  double max_diff = 0;
  for (Eigen::Index k = 0; k < output.size(); ++k) max_diff = std::max(max_diff, std::abs(output(k) - output2(k)));

  // Every number finite before the first byte goes out (only the outputs can overflow: the
  // weights and ranges are at most 1 + 1e-6).
  auto first_non_finite = [](const attn::VecD& x) {
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (!std::isfinite(x(i))) return static_cast<int>(i);
    return -1;
  };
  for (const auto& [name, x] : {std::pair<const char*, const attn::VecD*>{"output", &output},
                                {"output2", &output2}, {"weights2", &c.alpha2}}) {
    const int bad = first_non_finite(*x);
    if (bad >= 0) {
      std::ostringstream m;
      m << "the result is not finite (" << name << "[" << bad << "] = " << (*x)(bad)
        << "): the weighted sum overflows a double; use smaller values";
      return refuse(m.str());
    }
  }
  for (Eigen::Index i = 0; i < rep.ranges.rows(); ++i)
    if (!std::isfinite(rep.ranges(i, 0)) || !std::isfinite(rep.ranges(i, 1)))
      return internal("collide: ranges[" + std::to_string(i) + "] is not finite");

  std::string out = "{";
  AppendVector(&out, "weights2", c.alpha2, true);
  out += ", ";
  AppendVector(&out, "output", output, false);
  out += ", ";
  AppendVector(&out, "output2", output2, false);
  out += ", \"ranges\": [";
  for (Eigen::Index i = 0; i < rep.ranges.rows(); ++i) {
    out += i ? ", [" : "[";
    AppendNumber(&out, rep.ranges(i, 0) + 0.0);
    out += ", ";
    AppendNumber(&out, rep.ranges(i, 1) + 0.0);
    out += "]";
  }
  out += "], \"affineRank\": " + std::to_string(rep.info.affine_rank);
  out += std::string(", \"recoverable\": ") + (rep.info.recoverable ? "true" : "false");
  out += ", \"sameOutputDim\": " + std::to_string(rep.info.same_output_dim);
  out += std::string(", \"unique\": ") + (c.unique ? "true" : "false");
  out += ", \"top\": " + std::to_string(c.top);
  out += ", \"maxOutputDiff\": ";
  AppendNumber(&out, max_diff);
  out += "}\n";
  std::cout << out;
  std::cout.flush();
  if (!std::cout) {  // a full disk or a closed pipe: say so rather than exit 0
    std::cerr << prefix << "cannot write the output\n";
    return 1;
  }
  return 0;
}

// --- help -------------------------------------------------------------------------------------

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

const char* const kCollideHelp = R"(Input: a JSON object (INPUT names the file; '-' or none reads stdin)
  "values"        n×d      nested arrays of numbers: row i = the value vector v_i  (required)
  "weights"       n        the attention weights α: numbers >= 0 summing to 1     (required)
                           (within 1e-6; a weight in [-1e-12, 0) counts as 0)
  "target"        integer  the token j to move weight onto, 0..n-1                (required)
  "minimizeTop"   boolean  then, among the patterns with the most weight on j, take one with
                           the least on the token α leans on most (default false)
Output (stdout): the output A = Σᵢ αᵢ·vᵢ and a second pattern α' that gives the same A:
  "weights2"      n        α' >= 0, same sum as α, Vᵀα' = A, the most weight on j: α itself
                           when nothing can move, else a vertex (<= affineRank + 1 nonzeros)
  "output"        d        A  = Vᵀα
  "output2"       d        A' = Vᵀα'
  "ranges"        n×2      [min, max] of α'ᵢ over every such α': what A alone tells about the
                           weight of token i (a single point: fully known from A)
  "affineRank"    integer  r = dimension of the values' affine hull (0: one token or equal values)
  "recoverable"   boolean  r = n - 1: the values are affinely independent, A determines α
  "sameOutputDim" integer  n - 1 - r: dimension of the set of weights that give the same A
  "unique"        boolean  no other weights give this A (recoverable, or α on a vertex)
  "top"           integer  the token α leans on most (lowest index on ties)
  "maxOutputDiff" number   max over the d entries of |A - A'| (rounding only)
Example: three tokens on a line; all weight on the middle one gives the same A as half on each end
  echo '{"values": [[0], [1], [2]], "weights": [0, 1, 0], "target": 2}' | attnlab collide
  {"weights2": [0.5, 0, 0.5], "output": [1], "output2": [1], "ranges": [[0, 0.5], [0, 1], [0, 0.5]], "affineRank": 1, "recoverable": false, "sameOutputDim": 1, "unique": false, "top": 1, "maxOutputDiff": 0}
Numbers are computed in double (the linear programs to ~1e-9) and printed so that they read back
exactly; values of any size (up to 1e308) are fine.
Limits: n <= 512 tokens, d <= 4096. Each linear program costs ~n²·d and the ranges solve up to
2n of them: 64 tokens take milliseconds, 512 tokens seconds (up to ~30 s when d is near n).
Bad input: one line on stderr naming the field, exit code 2, nothing on stdout.)";

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);  // whole-file reads and writes: no need to interleave with stdio
  CLI::App app{"Attention Lab on the command line: JSON in, JSON out"};
  app.require_subcommand(1);

  std::string trace_path;
  CLI::App* trace = app.add_subcommand(
      "trace", "Every intermediate of the lab for a state (as window.attentionLab.getTrace())");
  trace->add_option("STATE", trace_path,
                    "JSON state, e.g. {\"sentence\": \"я люблю суши\", \"query\": 1}; "
                    "missing fields take the lab's defaults; '-' or none reads stdin");

  std::string forward_path, backward_path;
  CLI::App* forward = app.add_subcommand(
      "forward", "Attention weights and output of raw q, k, v (one head or h heads), in double");
  forward->add_option("INPUT", forward_path, "JSON input (below); '-' or none reads stdin");
  forward->footer(std::string(kInputHelp) + kForwardHelp + kOutputHelp);
  CLI::App* backward = app.add_subcommand(
      "backward", "The same as forward plus the exact gradients dq, dk, dv for a given dOutput");
  backward->add_option("INPUT", backward_path, "JSON input (below), with \"dOutput\"; '-' or none reads stdin");
  backward->footer(std::string(kInputHelp) + kBackwardHelp + kOutputHelp);

  std::string collide_path;
  CLI::App* collide = app.add_subcommand(
      "collide", "A second attention pattern with the same output, leaning on a target token; "
                 "what the output alone tells about each weight");
  collide->add_option("INPUT", collide_path,
                      "JSON {\"values\": n×d, \"weights\": n, \"target\": j} (below); '-' or none reads stdin");
  collide->footer(kCollideHelp);

  app.footer(
      "Examples:\n"
      "  attnlab trace state.json\n"
      "  echo '{\"q\": [[1, 0]], \"k\": [[1, 0], [0, 1]], \"v\": [[1], [2]]}' | attnlab forward\n"
      "  attnlab backward input.json       (attnlab forward --help: the input format)\n"
      "  echo '{\"values\": [[0], [1], [2]], \"weights\": [0, 1, 0], \"target\": 2}' | attnlab collide");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::string what = e.what();
    const std::string arg1 = argc > 1 ? argv[1] : "";
    if (!arg1.empty() && arg1[0] != '-' && arg1 != "trace" && arg1 != "forward" && arg1 != "backward" &&
        arg1 != "collide")
      what = "unknown command " + attn::cli::detail::Describe(attn::cli::Json(arg1)) +
             ", expected trace, forward, backward or collide";
    std::cerr << "attnlab: " << OneLine(what) << " (attnlab --help lists the commands)\n";
    return kExitBadInput;
  }
  try {
    if (*trace) return RunTrace(trace_path);
    if (*forward) return RunRaw("forward", forward_path, false);
    if (*backward) return RunRaw("backward", backward_path, true);
    if (*collide) return RunCollide(collide_path);
  } catch (const std::exception& e) {  // never a crash, never partial JSON
    std::cerr << "attnlab: internal error: " << OneLine(e.what()) << "\n";
    return 1;
  }
  return 0;
}
