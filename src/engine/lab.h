// The lab as the engine sees it: one configuration in, every number the panels show out.
// The UI, the page API and the command-line tool all go through ComputeLab(), so that the
// browser and `attnlab trace` agree to the last bit for the same state.
#pragma once

#include "attention.h"
#include "geometry.h"
#include "tokenizer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// Limits the lab accepts (also checked by ValidateConfig and the page API).
constexpr int kMinDim = 1;
constexpr int kMaxDim = 64;
constexpr double kMinTemperature = 1e-3;
constexpr double kMaxTemperature = 1e3;
constexpr std::uint64_t kMaxSeed = 4294967295ull;  // 2^32 - 1: exact in a JS number

struct LabConfig {
  std::string sentence = "я люблю суши";
  int query = 1;  // token index of the query word ("люблю")
  Projection projection = Projection::kIdentity;
  double temperature = 1.0;
  bool scaled = true;
  int d_model = 8;
  int d_k = 8;  // used by Projection::kRandom; identity uses d_model
  std::uint64_t seed = 1;
  bool positional = true;
};

// A refusal: which field, and why (English, one line). `code` lets the UI translate it.
enum class ConfigError {
  kNone,
  kSentenceEmpty,
  kSentenceInvalidUtf8,
  kSentenceTooLong,
  kSentenceTooManyTokens,
  kQueryOutOfRange,
  kDimOutOfRange,       // d_model or d_k
  kTemperatureInvalid,  // NaN, infinite, <= 0 or out of range
  kSeedOutOfRange,
  kNumericOverflow      // scores overflowed float
};

struct LabError {
  ConfigError code = ConfigError::kNone;
  std::string field;    // "sentence", "query", "dModel", "dK", "temperature", "seed", ...
  std::string message;  // English, one line
  double value = 0;     // the offending number or count, for translated messages
  bool ok() const { return code == ConfigError::kNone; }
};

// One row of the steps panel: what token i contributes to the query's output.
struct StepRow {
  std::string token;
  float score = 0;   // q . k_i
  float scaled = 0;  // score * scale / temperature
  float exp = 0;     // exp(scaled - max)
  float weight = 0;  // scale(i) = alpha_i
  VecF weighted;     // (Dv) alpha_i * v_i
};

struct StepTable {
  int query = 0;
  float row_max = 0;  // the shift m subtracted before exp
  float exp_sum = 0;  // sum_i exp(scaled_i - m)
  std::vector<StepRow> rows;
  VecF output;        // (Dv) A = sum_i alpha_i v_i
};

struct LabResult {
  LabError error;              // when !error.ok() nothing below is valid
  std::vector<Token> tokens;
  AttentionTrace<float> trace;
  StepTable steps;             // for config.query
  // Vectors panel: PCA over the rows [v_0..v_{N-1}; alpha_0 v_0..alpha_{N-1} v_{N-1}; A].
  Pca2D vectors;               // points: (2N + 1, 2)
  std::vector<int> value_hull; // hull of the first N projected points (the values)
};

// Checks every field; the first problem found is returned (sentence first).
LabError ValidateConfig(const LabConfig& cfg);

// Validates, tokenizes, embeds and runs attention. Never throws for bad input.
LabResult ComputeLab(const LabConfig& cfg);

// Step table of one query from a finished trace.
StepTable MakeStepTable(const AttentionTrace<float>& trace, const std::vector<Token>& tokens,
                        int query);

const char* ProjectionName(Projection p);  // "identity" / "random"
bool ParseProjection(const std::string& name, Projection* out);

}  // namespace attn
