// attnlab collide IN.json: a second attention pattern with the same output that leans on a
// target token, and what the output alone tells about each weight (engine/information/information.h).
#include "cli/collide_input.h"
#include "cli/common.h"
#include "engine/information/information.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>

namespace attn::cli {

namespace {

// "name": [x, ...]; `weights`: -0 prints as 0 (a weight is never negative).
void AppendVector(std::string* out, const char* name, const VecD& x, bool weights) {
  *out += "\"" + std::string(name) + "\": [";
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (i) *out += ", ";
    AppendShortest(out, weights ? x(i) + 0.0 : x(i));
  }
  *out += "]";
}

int RunCollide(const std::string& path) {
  std::string error;
  Json j;
  if (!ReadJson(path, &j, &error)) return RefuseCommand("collide", error);
  CollideInput in;
  if (!ParseCollideInput(j, &in, &error)) return RefuseCommand("collide", error);
  j = Json();

  // The engine squares differences of values (its QR's column norms), which overflow beyond
  // ~1e154 and underflow below ~1e-154. Scaling every value by the same power of two is exact
  // and changes none of the answers (weights, ranges, ranks), so far-out values are brought to
  // [1, 2) first; in between they go to the engine untouched, bit for bit.
  double vmax = 0;
  for (Eigen::Index i = 0; i < in.values.rows(); ++i)
    for (Eigen::Index k = 0; k < in.values.cols(); ++k) vmax = std::max(vmax, std::abs(in.values(i, k)));
  MatD scaled;
  const MatD* engine_values = &in.values;
  int e = 0;  // the engine saw the values times 2^-e
  if (vmax > 0 && (vmax > std::ldexp(1.0, 400) || vmax < std::ldexp(1.0, -400))) {
    e = std::ilogb(vmax);
    scaled = in.values;
    for (Eigen::Index i = 0; i < scaled.rows(); ++i)
      for (Eigen::Index k = 0; k < scaled.cols(); ++k) scaled(i, k) = std::ldexp(scaled(i, k), -e);
    engine_values = &scaled;
  }
  InformationScope scope;
  scope.set = FeasibleSetOf(in.normalizer);
  scope.then_minimize_top = in.minimize_top;
  const InformationReport rep = AnalyzeInformation(*engine_values, in.weights, in.target, scope);
  const Collision& c = rep.collision;
  if (c.alpha2.size() != in.n || rep.ranges.rows() != in.n || rep.ranges.cols() != 2 ||
      c.output.size() != in.d || c.output2.size() != in.d)
    return InternalError("collide", "the engine gave no answer for these shapes");
  // The outputs A = Vᵀα and A' = Vᵀα' are the engine's (Collide's, as the lab shows them), back
  // in the units of the input values: times 2^e. In the values' usual range e = 0 and these are
  // the engine's bits; far out, the power of two is exact unless a number is subnormal in one of
  // the two scales.
  VecD output = c.output, output2 = c.output2;
  for (Eigen::Index k = 0; k < in.d; ++k) {
    output(k) = std::ldexp(output(k), e);
    output2(k) = std::ldexp(output2(k), e);
  }
  double max_diff = 0;
  for (Eigen::Index k = 0; k < output.size(); ++k) max_diff = std::max(max_diff, std::abs(output(k) - output2(k)));

  // Every number finite before the first byte goes out (only the outputs can overflow: the
  // weights and ranges are at most 1 + 1e-6, or for none the weights plus one unit; a range of
  // none's that A does not bound is infinite on purpose and printed as null).
  auto first_non_finite = [](const VecD& x) {
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (!std::isfinite(x(i))) return static_cast<int>(i);
    return -1;
  };
  for (const auto& [name, x] : {std::pair<const char*, const VecD*>{"output", &output},
                                {"output2", &output2}, {"weights2", &c.alpha2}}) {
    const int bad = first_non_finite(*x);
    if (bad >= 0) {
      std::ostringstream m;
      m << "the result is not finite (" << name << "[" << bad << "] = " << (*x)(bad)
        << "): the weighted sum overflows a double; use smaller values";
      return RefuseCommand("collide", m.str());
    }
  }
  for (Eigen::Index i = 0; i < rep.ranges.rows(); ++i)
    if (std::isnan(rep.ranges(i, 0)) || std::isnan(rep.ranges(i, 1)) ||
        (scope.set != FeasibleSet::kAffine && (std::isinf(rep.ranges(i, 0)) || std::isinf(rep.ranges(i, 1)))))
      return InternalError("collide", "ranges[" + std::to_string(i) + "] is not finite");

  std::string out = "{";
  AppendVector(&out, "weights2", c.alpha2, true);
  out += ", ";
  AppendVector(&out, "output", output, false);
  out += ", ";
  AppendVector(&out, "output2", output2, false);
  out += ", \"ranges\": [";
  auto end = [&](double x) {  // an unbounded end (none) is null
    if (std::isinf(x)) out += "null";
    else AppendShortest(&out, x + 0.0);
  };
  for (Eigen::Index i = 0; i < rep.ranges.rows(); ++i) {
    out += i ? ", [" : "[";
    end(rep.ranges(i, 0));
    out += ", ";
    end(rep.ranges(i, 1));
    out += "]";
  }
  out += "], \"affineRank\": " + std::to_string(rep.info.affine_rank);
  out += std::string(", \"recoverable\": ") + (rep.info.recoverable ? "true" : "false");
  out += ", \"sameOutputDim\": " + std::to_string(rep.info.same_output_dim);
  out += std::string(", \"unique\": ") + (c.unique ? "true" : "false");
  out += ", \"top\": " + std::to_string(c.top);
  out += ", \"maxOutputDiff\": ";
  AppendShortest(&out, max_diff);
  out += std::string(", \"feasibleSet\": \"") + FeasibleSetName(scope.set) + "\"";
  out += ", \"linearRank\": " + std::to_string(rep.info.linear_rank);
  out += "}\n";
  std::cout << out;
  return Finish("collide", 0);
}

const char* const kCollideHelp = R"(Input: a JSON object (INPUT names the file; '-' or none reads stdin)
  "values"        n×d      nested arrays of numbers: row i = the value vector v_i  (required)
  "weights"       n        the attention weights α: numbers >= 0 summing to 1     (required)
                           (within 1e-6; a weight in [-1e-12, 0) counts as 0)
  "target"        integer  the token j to move weight onto, 0..n-1                (required)
  "minimizeTop"   boolean  then, among the patterns with the most weight on j, take one with
                           the least on the token α leans on most (default false)
  "normalizer"    name     where the weights came from, which says where the other patterns may
                           be (default softmax): softmax, sparsemax, relunorm, hardmax: >= 0
                           summing to 1 (the simplex); sigmoid: each in [0, 1], any sum (the
                           box); none: any numbers (the affine set Vᵀa = A, unbounded)
Output (stdout): the output A = Σᵢ αᵢ·vᵢ and a second pattern α' that gives the same A:
  "weights2"      n        α' in the same set, Vᵀα' = A, the most weight on j: α itself when
                           nothing can move, else a vertex (<= affineRank + 1 nonzeros on the
                           simplex); none: α plus one unit on j (there is no most)
  "output"        d        A  = Vᵀα
  "output2"       d        A' = Vᵀα'
  "ranges"        n×2      [min, max] of α'ᵢ over every such α': what A alone tells about the
                           weight of token i (a single point: fully known from A, given every
                           vᵢ); none: [null, null] when A does not bound it
  "affineRank"    integer  r = dimension of the values' affine hull (0: one token or equal values)
  "recoverable"   boolean  A determines α: the values are affinely independent (r = n - 1);
                           for sigmoid and none linearly independent (linearRank = n)
  "sameOutputDim" integer  dimension of the set of weights that give the same A: n - 1 - r, or
                           n - linearRank for sigmoid and none
  "unique"        boolean  no other weights give this A (recoverable, or α on a vertex)
  "top"           integer  the token α leans on most (lowest index on ties)
  "maxOutputDiff" number   max over the d entries of |A - A'| (rounding only)
  "feasibleSet"   name     the set used: simplex, box or affine
  "linearRank"    integer  rank of the values (their linear span's dimension)
Example: three tokens on a line; all weight on the middle one gives the same A as half on each end
  echo '{"values": [[0], [1], [2]], "weights": [0, 1, 0], "target": 2}' | attnlab collide
  {"weights2": [0.5, 0, 0.5], "output": [1], "output2": [1], "ranges": [[0, 0.5], [0, 1], [0, 0.5]], "affineRank": 1, "recoverable": false, "sameOutputDim": 1, "unique": false, "top": 1, "maxOutputDiff": 0, "feasibleSet": "simplex", "linearRank": 1}
Numbers are computed in double (the linear programs to ~1e-9) and printed so that they read back
exactly; values of any size (up to 1e308) are fine.
Limits: n <= 512 tokens, d <= 4096. Each linear program costs ~n²·d and the ranges solve up to
2n of them: 64 tokens take milliseconds, 512 tokens seconds (up to ~30 s when d is near n).
Bad input: one line on stderr naming the field, exit code 2, nothing on stdout.)";


}  // namespace

Command RegisterCollide(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  CLI::App* collide = app.add_subcommand(
      "collide", "A second attention pattern with the same output, leaning on a target token; "
                 "what the output alone tells about each weight");
  collide->add_option("INPUT", *path,
                      "JSON {\"values\": n×d, \"weights\": n, \"target\": j} (below); '-' or none reads stdin");
  collide->footer(kCollideHelp);
  return {collide, [path] { return RunCollide(*path); }};
}

}  // namespace attn::cli
