// attnlab: the lab's engine on the command line, for course authors and engineers who check the
// numbers outside the browser. Reads JSON from a file (or stdin), writes JSON to stdout.
//
//   attnlab trace STATE.json   the same trace as window.attentionLab.getTrace() for that state
//   attnlab forward IN.json    attention weights and output of raw q, k, v (one head or h heads)
//   attnlab backward IN.json   the same plus dL/dq, dL/dk, dL/dv for a given dL/d output
//   attnlab collide IN.json    a second attention pattern with the same output that leans on a
//                              target token, and what the output alone tells about each weight
//   attnlab train TASK.json [--format jsonl|csv] [--every K]
//                              trains the one-layer model of engine/train.h and prints the
//                              metrics of every K-th step, then the example's final attention
//   attnlab norm [--experiment variance|saturation|output|all] [--seed S] [--samples N]
//                              the normalization experiments (engine/normexp.h) as JSON
//
// forward, backward, collide, train and norm compute in double and print every number in its
// shortest form that reads back as the same double. Bad input: one line on stderr naming the
// field, exit code 2, nothing on stdout; the output is written only once every number of it is
// known to be finite (train streams its records, each finite by the trainer's own check). A
// training run that diverges prints its records up to there and a "diverged" record: exit code 3.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF  // WeightedSum below repeats the engine's bits (engine/linalg.h)
#endif
#include "api/state_json.h"
#include "cli/collide_input.h"
#include "cli/raw_input.h"
#include "cli/train_input.h"
#include "engine/information.h"
#include "engine/multihead.h"
#include "engine/normexp.h"
#include "engine/train.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitDiverged = 3;  // attnlab train: the run stopped on a non-finite number

// attnlab train: the final evaluation, on fresh examples from a fixed stream of the run's seed.
constexpr int kTrainEvalExamples = 512;
constexpr std::uint64_t kTrainEvalSeed = 1;

// attnlab norm: the points of each experiment (the samples and the seed are options).
const std::vector<int> kNormDks = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
constexpr int kNormKeys = 16;  // M, keys per row (saturation and output)
constexpr int kNormDv = 16;    // the output experiment's d_v
const std::vector<double> kNormMagnitudes = {0, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64};
const std::vector<attn::Normalizer> kNormNormalizers = {
    attn::Normalizer::kSoftmax, attn::Normalizer::kSparsemax, attn::Normalizer::kReluNorm,
    attn::Normalizer::kSigmoid, attn::Normalizer::kNone,      attn::Normalizer::kHardmax};
constexpr int kDefaultNormSamples = 2000;
constexpr int kMaxCliNormSamples = 100000;  // all three at 2000 samples take ~1 s; at 100000 ~45 s

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

// Bad input: "attnlab COMMAND: message" on one line of stderr; returns the exit code for it.
int Refuse(const std::string& command, const std::string& message) {
  std::cerr << "attnlab " << command << ": " << OneLine(message) << "\n";
  return kExitBadInput;
}

// Flushes stdout; a full disk or a closed pipe is said so (exit 1) rather than exiting `code`.
int Finish(const std::string& command, int code) {
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "attnlab " << command << ": cannot write the output\n";
    return 1;
  }
  return code;
}

int RunTrace(const std::string& path) {
  std::string text, error;
  if (!ReadInput(path, &text, &error)) return Refuse("trace", error);
  const attn::api::LabState defaults;  // missing fields take the lab's defaults
  const attn::api::PatchResult r = attn::api::ApplyStatePatchText(defaults, text);
  if (!r.ok) return Refuse("trace", (r.field.empty() ? "" : r.field + ": ") + r.message);
  const attn::LabResult res = attn::ComputeLab(r.state.config);
  if (!res.error.ok()) return Refuse("trace", res.error.field + ": " + res.error.message);
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
  std::string error;
  attn::cli::Json j;
  if (!ReadJson(path, &j, &error)) return Refuse(command, error);
  attn::cli::RawInput in;
  if (!attn::cli::ParseRawInput(j, backward, &in, &error)) return Refuse(command, error);
  j = attn::cli::Json();

  // Head by head: forward, then (backward) the gradients from the same trace.
  RawResult r;
  for (int h = 0; h < in.heads; ++h) {
    attn::HeadTrace<double> fwd;
    // Everything but the size of the numbers is checked by now: a refusal here is an overflow
    // (the engine checks the scores before normalizing them, so no NaN reaches a sort).
    if (!attn::HeadForward(fwd, in.q[h], in.k[h], in.v[h], in.mask, in.head, &error))
      return Refuse(command, "head " + std::to_string(h) + ": " + error.substr(0, error.find(';')) +
                                 " (double); use smaller q, k, v or scale, or a larger temperature");
    if (backward) {
      attn::HeadGrads<double> g;
      if (!attn::HeadBackward(g, in.d_output[h], fwd, in.mask, in.head, &error))
        return Refuse(command, "head " + std::to_string(h) + ": " + error);
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
      return Refuse(command, "the result is not finite (" + bad +
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
  std::string error;
  attn::cli::Json j;
  if (!ReadJson(path, &j, &error)) return Refuse("collide", error);
  attn::cli::CollideInput in;
  if (!attn::cli::ParseCollideInput(j, &in, &error)) return Refuse("collide", error);
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
      return Refuse("collide", m.str());
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
  return Finish("collide", 0);
}

// --- train: the one-layer model of engine/train.h, step by step ------------------------------

// A JSON string (UTF-8 kept, control characters escaped; invalid bytes replaced).
std::string JsonString(const std::string& s) {
  return attn::cli::Json(s).dump(-1, ' ', false, attn::cli::Json::error_handler_t::replace);
}

// A finite number in shortest round-trip form; null for NaN or infinity (JSON has neither).
void AppendJsonNumber(std::string* out, double x) {
  if (std::isfinite(x)) AppendNumber(out, x);
  else *out += "null";
}

// A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

const char* const kCsvHeader =
    "step,loss,accuracy,attentionOnSource,gradNormWQ,gradNormWK,gradNormWV,gradNormWO,gradNormTotal";

// One step's record: a JSON object on one line, or a CSV row in kCsvHeader's order.
std::string MetricsRecord(const attn::StepMetrics& m, bool csv) {
  std::string out;
  const double gn[] = {m.grad_norm_q, m.grad_norm_k, m.grad_norm_v, m.grad_norm_o, m.grad_norm};
  if (csv) {
    out = std::to_string(m.step);
    for (const double x : {m.loss, m.accuracy, m.attention_on_source}) {
      out += ",";
      AppendNumber(&out, x);
    }
    for (const double x : gn) {
      out += ",";
      AppendNumber(&out, x);
    }
    return out + "\n";
  }
  out = "{\"step\": " + std::to_string(m.step) + ", \"loss\": ";
  AppendJsonNumber(&out, m.loss);
  out += ", \"accuracy\": ";
  AppendJsonNumber(&out, m.accuracy);
  out += ", \"attentionOnSource\": ";
  AppendJsonNumber(&out, m.attention_on_source);
  const char* names[] = {"WQ", "WK", "WV", "WO", "total"};
  out += ", \"gradNorm\": {";
  for (int i = 0; i < 5; ++i) {
    out += std::string(i ? ", \"" : "\"") + names[i] + "\": ";
    AppendJsonNumber(&out, gn[i]);
  }
  return out + "}}\n";
}

// After the last step: the evaluation and the example's attention weights per head, (N, N) each.
std::string FinalRecord(const attn::Trainer& trainer, bool csv) {
  const attn::BatchResult eval = trainer.Evaluate(kTrainEvalExamples, kTrainEvalSeed);
  const attn::ExampleView view = trainer.View();
  std::string out;
  if (csv) {
    out = "\n# final evaluation (" + std::to_string(kTrainEvalExamples) + " fresh examples)\n";
    out += "evalAccuracy,evalLoss\n";
    AppendNumber(&out, eval.accuracy);
    out += ",";
    AppendNumber(&out, eval.loss);
    out += "\n";
    for (std::size_t h = 0; h < view.forward.attn.heads.size(); ++h) {
      const attn::MatD& w = view.forward.attn.heads[h].weights;  // (N, N) rows = queries
      out += "# final weights head " + std::to_string(h) + "\nquery";
      for (const std::string& t : view.tokens) out += "," + CsvField(t);
      out += "\n";
      for (Eigen::Index i = 0; i < w.rows(); ++i) {
        out += CsvField(view.tokens[static_cast<std::size_t>(i)]);
        for (Eigen::Index j = 0; j < w.cols(); ++j) {
          out += ",";
          AppendNumber(&out, w(i, j) + 0.0);
        }
        out += "\n";
      }
    }
    return out;
  }
  out = "{\"final\": {\"step\": " + std::to_string(trainer.step()) + ", \"tokens\": [";
  for (std::size_t i = 0; i < view.tokens.size(); ++i) out += (i ? ", " : "") + JsonString(view.tokens[i]);
  out += "], \"heads\": [";
  for (std::size_t h = 0; h < view.forward.attn.heads.size(); ++h) {
    const attn::MatD& w = view.forward.attn.heads[h].weights;  // (N, N) rows = queries
    out += h ? ", [" : "[";
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
      out += i ? ", [" : "[";
      for (Eigen::Index j = 0; j < w.cols(); ++j) {
        if (j) out += ", ";
        AppendJsonNumber(&out, w(i, j) + 0.0);
      }
      out += "]";
    }
    out += "]";
  }
  out += "], \"evalAccuracy\": ";
  AppendJsonNumber(&out, eval.accuracy);
  out += ", \"evalLoss\": ";
  AppendJsonNumber(&out, eval.loss);
  return out + "}}\n";
}

int RunTrain(const std::string& path, const std::string& format, int every) {
  std::string error;
  attn::cli::Json j;
  if (!ReadJson(path, &j, &error)) return Refuse("train", error);
  attn::cli::TrainInput in;
  if (!attn::cli::ParseTrainInput(j, &in, &error)) return Refuse("train", error);
  attn::Trainer trainer;
  attn::TrainError refused;
  if (!trainer.Reset(in.config, &refused)) return Refuse("train", refused.message);  // checked above

  const bool csv = format == "csv";
  if (csv) std::cout << kCsvHeader << "\n";
  int printed = 0;  // the last step whose record is out
  for (int k = 1; k <= in.steps; ++k) {
    if (!trainer.Step()) {
      // The records up to the last good step (that one always), then why it stopped.
      const int last = trainer.step();
      if (last > printed && !trainer.history().empty())
        std::cout << MetricsRecord(trainer.history().back(), csv);
      const std::string message = OneLine(trainer.message());
      if (csv)
        std::cout << "\n# diverged at step " << last + 1 << ": " << message << "\n";
      else
        std::cout << "{\"diverged\": {\"step\": " << last + 1 << ", \"message\": " << JsonString(message)
                  << "}}\n";
      return Finish("train", kExitDiverged);
    }
    if (k % every == 0 || k == in.steps) {
      std::cout << MetricsRecord(trainer.history().back(), csv);
      std::cout.flush();  // a long run shows its progress
      printed = k;
    }
  }
  std::cout << FinalRecord(trainer, csv);
  return Finish("train", 0);
}

// --- norm: the normalization experiments --------------------------------------------------

// One point of an experiment: {"key": number, ...} in the given order.
struct Field {
  const char* name;
  double value;
};
void AppendPoint(std::string* out, const std::vector<Field>& fields) {
  *out += "{";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    *out += std::string(i ? ", \"" : "\"") + fields[i].name + "\": ";
    AppendJsonNumber(out, fields[i].value);
  }
  *out += "}";
}

int RunNorm(const std::string& experiment, std::uint64_t seed, int samples) {
  const bool all = experiment == "all";
  std::string out = "{\"seed\": " + std::to_string(seed) + ", \"samples\": " + std::to_string(samples);
  bool sound = true;  // every number finite, every point there
  auto check = [&](double x) { sound = sound && std::isfinite(x); return x; };
  if (all || experiment == "variance") {
    const auto points = attn::ScoreVarianceExperiment(kNormDks, samples, seed);
    out += ", \"variance\": {\"points\": [";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      if (i) out += ", ";
      AppendPoint(&out, {{"dK", static_cast<double>(p.d_k)}, {"varUnscaled", check(p.var_unscaled)},
                         {"varScaled", check(p.var_scaled)}, {"analyticUnscaled", p.analytic_unscaled},
                         {"analyticScaled", p.analytic_scaled}});
    }
    out += "]}";
    sound = sound && points.size() == kNormDks.size();
  }
  if (all || experiment == "saturation") {
    const auto points = attn::SoftmaxSaturationExperiment(kNormDks, kNormKeys, samples, seed);
    out += ", \"saturation\": {\"keys\": " + std::to_string(kNormKeys) + ", \"logKeys\": ";
    AppendNumber(&out, std::log(static_cast<double>(kNormKeys)));
    out += ", \"points\": [";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      if (i) out += ", ";
      AppendPoint(&out, {{"dK", static_cast<double>(p.d_k)},
                         {"entropyUnscaled", check(p.entropy_unscaled)},
                         {"entropyScaled", check(p.entropy_scaled)},
                         {"gradUnscaled", check(p.grad_unscaled)},
                         {"gradScaled", check(p.grad_scaled)},
                         {"maxWeightUnscaled", check(p.max_weight_unscaled)},
                         {"maxWeightScaled", check(p.max_weight_scaled)}});
    }
    out += "]}";
    sound = sound && points.size() == kNormDks.size();
  }
  if (all || experiment == "output") {
    const auto points =
        attn::OutputNormExperiment(kNormMagnitudes, kNormNormalizers, kNormKeys, kNormDv, samples, seed);
    out += ", \"output\": {\"keys\": " + std::to_string(kNormKeys) + ", \"dV\": " + std::to_string(kNormDv) +
           ", \"normalizers\": [";
    for (std::size_t i = 0; i < kNormNormalizers.size(); ++i)
      out += std::string(i ? ", \"" : "\"") + attn::NormalizerName(kNormNormalizers[i]) + "\"";
    out += "], \"points\": [";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      out += i ? ", {\"magnitude\": " : "{\"magnitude\": ";
      AppendNumber(&out, p.magnitude);
      out += ", \"norm\": [";
      for (std::size_t n = 0; n < p.norm.size(); ++n) {
        if (n) out += ", ";
        AppendJsonNumber(&out, check(p.norm[n]));
      }
      out += "], \"bound\": ";
      AppendJsonNumber(&out, check(p.bound));
      out += "}";
    }
    out += "]}";
    sound = sound && points.size() == kNormMagnitudes.size();
  }
  if (!sound) {  // a bug, not bad input: exit 1
    std::cerr << "attnlab: internal error: norm: the engine gave no finite answer\n";
    return 1;
  }
  std::cout << out << "}\n";
  return Finish("norm", 0);
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

const char* const kTrainHelp = R"(Input: a JSON object (TASK names the file; '-' or none reads stdin); every field is optional
  "task"        "previous" | "reverse" | "verb_object" (default) | "max"
  "length"      integer 2..16     tokens per example (previous, reverse, max; default 6)
  "optimizer"   "adam" (default) | "sgd"
  "lr"          number in (0, 10] learning rate (default 0.01)
  "batch"       integer 1..256    examples per step (default 16)
  "seed"        integer 0..4294967295: parameters and batches (default 1)
  "normalizer"  softmax (default), sparsemax, relunorm, sigmoid, none, hardmax
  "scaled"      true (default) or false: 1/sqrt(d_k) on the scores
  "dModel"      integer 2..128 (default 32)  "dK" 1..256 (default 16)  "dV" 1..128 (default 16)
  "heads"       integer 1..8 (default 1)     "causal"  true or false (default false)
  "example"     string: the sentence whose attention is printed at the end (default: the
                task's own, e.g. "я люблю суши")
  "steps"       integer 1..100000 (default 200)
Output (stdout), --format jsonl (default): one JSON object per line
  {"step": k, "loss": .., "accuracy": .., "attentionOnSource": .., "gradNorm": {"WQ": .., "WK": ..,
   "WV": .., "WO": .., "total": ..}}    for every K-th step (--every K, default 1) and the last;
  the batch's loss and accuracy before the step's update, attention on the right key (best
  head), the Frobenius norms of the gradients (W_Q, W_K, W_V over all heads, W_O, every parameter)
  then {"final": {"step": .., "tokens": [..], "heads": [h of N×N, rows = queries],
  "evalAccuracy": .., "evalLoss": ..}} (the evaluation: 512 fresh examples).
--format csv: the header step,loss,accuracy,attentionOnSource,gradNormWQ,gradNormWK,gradNormWV,
  gradNormWO,gradNormTotal and one row per record, then a blank line, "# final evaluation ...",
  evalAccuracy,evalLoss and their row, and per head "# final weights head h", a row
  query,<tokens> and one row per query token.
Divergence (a non-finite number): the records up to the last good step (that one always), then
  {"diverged": {"step": k, "message": ".."}} (csv: a blank line and "# diverged at step k: ..."),
  exit code 3.
Example:
  echo '{"task": "verb_object", "steps": 200}' | attnlab train --every 50
Numbers are computed in double and printed so that they read back exactly; a seed repeats a run
bit for bit. Bad input: one line on stderr naming the field, exit code 2, nothing on stdout.)";

const char* const kNormHelp = R"(Output (stdout): one JSON object {"seed", "samples", and per experiment asked for:
  "variance":   {"points": [{"dK", "varUnscaled", "varScaled", "analyticUnscaled" (= dK),
                 "analyticScaled" (= 1)}]}   mean of s² over `samples` pairs, s = q·k,
                 q, k ~ N(0, I_dK), and of (s/sqrt(dK))²
  "saturation": {"keys": 16, "logKeys": log 16, "points": [{"dK", "entropyUnscaled",
                 "entropyScaled", "gradUnscaled", "gradScaled", "maxWeightUnscaled",
                 "maxWeightScaled"}]}   softmax rows of 16 scores q·k_j: mean entropy (nats), mean
                 norm of the gradient at the scores for g ~ N(0, I), mean largest weight
  "output":     {"keys": 16, "dV": 16, "normalizers": [6 names], "points": [{"magnitude": c,
                 "norm": [mean ||normalize(c z) V|| per normalizer], "bound": mean max_i ||v_i||}]}
                 z ~ N(0, I_16), V ~ N(0, I) 16×16, the same draws for every c
dK = 1, 2, 4, ..., 512; c = 0, 0.25, 0.5, 1, 2, 4, ..., 64. The engine's own softmax and
normalizers; a seed gives the same numbers everywhere.)";

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

  std::string train_path, train_format = "jsonl";
  int train_every = 1;
  CLI::App* train = app.add_subcommand(
      "train", "Train the one-layer attention model on a task; print its metrics step by step and "
               "the example's final attention");
  train->add_option("TASK", train_path, "JSON training config (below); '-' or none reads stdin");
  train->add_option("--format", train_format, "jsonl (default) or csv")
      ->check(CLI::IsMember({"jsonl", "csv"}));
  train->add_option("--every", train_every, "print every K-th step (and always the last); default 1")
      ->check(CLI::Range(1, attn::cli::kMaxTrainSteps));
  train->footer(kTrainHelp);

  std::string norm_experiment = "all";
  long long norm_seed = 1;
  int norm_samples = kDefaultNormSamples;
  CLI::App* norm = app.add_subcommand(
      "norm", "The normalization experiments: score variance, softmax saturation, output norm");
  norm->add_option("--experiment", norm_experiment, "variance, saturation, output or all (default)")
      ->check(CLI::IsMember({"variance", "saturation", "output", "all"}));
  norm->add_option("--seed", norm_seed, "0..4294967295 (default 1)")
      ->check(CLI::Range(0LL, static_cast<long long>(attn::kMaxSeed)));
  norm->add_option("--samples", norm_samples,
                   "samples per point, 1.." + std::to_string(kMaxCliNormSamples) + " (default " +
                       std::to_string(kDefaultNormSamples) + ")")
      ->check(CLI::Range(1, kMaxCliNormSamples));
  norm->footer(kNormHelp);

  app.footer(
      "Examples:\n"
      "  attnlab trace state.json\n"
      "  echo '{\"q\": [[1, 0]], \"k\": [[1, 0], [0, 1]], \"v\": [[1], [2]]}' | attnlab forward\n"
      "  attnlab backward input.json       (attnlab forward --help: the input format)\n"
      "  echo '{\"values\": [[0], [1], [2]], \"weights\": [0, 1, 0], \"target\": 2}' | attnlab collide\n"
      "  echo '{\"task\": \"reverse\", \"steps\": 300}' | attnlab train --format csv --every 10\n"
      "  attnlab norm --experiment saturation --samples 5000");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::string what = e.what();
    const std::string arg1 = argc > 1 ? argv[1] : "";
    const char* const commands[] = {"trace", "forward", "backward", "collide", "train", "norm"};
    bool known = false;
    for (const char* c : commands) known = known || arg1 == c;
    if (!arg1.empty() && arg1[0] != '-' && !known)
      what = "unknown command " + attn::cli::detail::Describe(attn::cli::Json(arg1)) +
             ", expected trace, forward, backward, collide, train or norm";
    std::cerr << "attnlab: " << OneLine(what) << " (attnlab --help lists the commands)\n";
    return kExitBadInput;
  }
  try {
    if (*trace) return RunTrace(trace_path);
    if (*forward) return RunRaw("forward", forward_path, false);
    if (*backward) return RunRaw("backward", backward_path, true);
    if (*collide) return RunCollide(collide_path);
    if (*train) return RunTrain(train_path, train_format, train_every);
    if (*norm) return RunNorm(norm_experiment, static_cast<std::uint64_t>(norm_seed), norm_samples);
  } catch (const std::exception& e) {  // never a crash, never partial JSON
    std::cerr << "attnlab: internal error: " << OneLine(e.what()) << "\n";
    return 1;
  }
  return 0;
}
