// The lab as the engine sees it: one configuration in, every number the panels show out.
// The UI, the page API and the command-line tool all go through ComputeLab(), so that the
// browser and `attnlab trace` agree to the last bit for the same state.
#pragma once

#include "engine/attention/attention.h"
#include "engine/information/contribution.h"
#include "engine/base/fields.h"
#include "engine/geometry/geometry.h"
#include "engine/information/information.h"
#include "engine/base/limits.h"
#include "engine/attention/multihead.h"
#include "engine/text/tokenizer.h"
#include "engine/whatif/edit_lists.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// The limits the lab accepts (kMinDim, kMaxDim, ..., checked by ValidateConfig): limits.h.

// The learner's edits of a run (issue 23, "what if"; whatif.h applies them and compares the
// edited run with the plain one).
enum class WhatIfMode {
  kReplace,  // the token whatIfToken becomes the word whatIfWith ("" deletes it)
  kInsert    // the word whatIfWith is inserted before the token whatIfToken
};
enum class ShuffleMode {
  kOff,
  kReverse,  // the tokens in reverse order
  kSeeded    // a permutation drawn from shuffleSeed (Fisher-Yates on SplitMix64)
};
const char* WhatIfModeName(WhatIfMode m);  // "replace" / "insert"
bool ParseWhatIfMode(const std::string& name, WhatIfMode* out);
const char* ShuffleModeName(ShuffleMode m);  // "off" / "reverse" / "seeded"
bool ParseShuffleMode(const std::string& name, ShuffleMode* out);

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
  int heads = 1;                                // kMinHeads..kMaxHeads
  Normalizer normalizer = Normalizer::kSoftmax;  // how scaled scores become weights
  bool causal = false;                          // token i attends to tokens 0..i only
  int head = 0;                                 // the chosen head (0..heads-1): trace, steps,
                                                // vectors follow it
  int d_v = 8;     // width of the values: random W_V is (D, d_v); identity keeps the first
                   // min(d_v, d_model) coordinates of x ("project the values to fewer dimensions")
  int layer = 0;   // Projection::kModel: the layer of the chosen head (0..L-1 of the model)
  int target = -1; // the information panel's second scenario moves weight onto this token;
                   // -1 = the first key after the one the query leans on most that the query
                   // can see (the seed's t -> t+1; wrapping round). A target the query cannot
                   // see (masked) is moved: the automatic one is used (LabResult::target_moved)
  // ---- edits (whatif.h). Token indices name the tokens of `sentence` as typed; query and
  // target too, and they follow their token wherever the edits move it.
  int what_if_token = -1;           // -1 = no what-if; else the token replaced, deleted or
                                    // inserted before
  std::string what_if_with;         // the replacement word (one token); "" deletes the token
  WhatIfMode what_if_mode = WhatIfMode::kReplace;
  ShuffleMode shuffle = ShuffleMode::kOff;  // applied after the what-if
  std::uint64_t shuffle_seed = 1;   // ShuffleMode::kSeeded
  KeyList knockout_keys;            // "1,3": keys no query may attend to (the mask); "" = none
  HeadList knockout_heads;          // "0:1,0:3": layer:head pairs whose output A is set to 0
                                    // (the lab has one layer: 0); "" = none
  int value_token = -1;             // -1 = no value edit; else v_i of this token (chosen head)
  double value_a = 0, value_b = 0;  // ... moves by a p1 + b p2, p1 and p2 the unedited
                                    // vectors view's PCA directions (LabResult::vectors)
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
  kNumericOverflow,     // scores overflowed float
  kHeadsOutOfRange,     // heads not in kMinHeads..kMaxHeads
  kHeadOutOfRange,      // head not in 0..heads-1
  kTargetOutOfRange,    // target not in -1..N-1
  kLayerOutOfRange,     // Projection::kModel: layer not in 0..L-1 of the model
  kModelNotLoaded,      // Projection::kModel without a loaded model (ComputeLab, or while the
                        // page fetches the files): not a refusal of the settings
  kModelTooManyTokens,  // Projection::kModel: more BPE tokens than the context holds (value = count)
  kEditInvalid          // an edit (whatIf*, shuffle*, knockout*, value*) refused; `field` says
                        // which (value = the offending number, when there is one)
};

struct LabError {
  ConfigError code = ConfigError::kNone;
  std::string field;    // "sentence", "query", "dModel", "dK", "heads", "head", "temperature",
                        // "seed", "scores" (numeric overflow)
  std::string message;  // English, one line
  double value = 0;     // the offending number or count, for translated messages
  bool ok() const { return code == ConfigError::kNone; }
};

// One row of the steps panel: what token i contributes to the query's output. The names are
// softmax's; for every normalizer  weight == exp / exp_sum  (numerator / denominator, see the
// table in normalizers.h and AttentionTrace).
struct StepRow {
  std::string token;
  float score = 0;   // q . k_i
  float scaled = 0;  // score * scale / temperature
  float exp = 0;     // the numerator: softmax exp(scaled - max), sparsemax max(scaled - tau, 0),
                     // relunorm relu(scaled) (or 1), sigmoid sigmoid(scaled), none scaled,
                     // hardmax 1/k on the k maxima; 0 when masked
  float weight = 0;  // alpha_i = exp / exp_sum
  VecF weighted;     // (Dv) alpha_i * v_i
  bool masked = false;  // the query may not attend to token i (weight 0)
};

struct StepTable {
  int query = 0;
  float row_max = 0;  // the shift: softmax the max m subtracted before exp, sparsemax the
                      // threshold tau, the others 0
  float exp_sum = 0;  // the denominator: softmax sum_i exp(scaled_i - m), relunorm sum_i
                      // relu(scaled_i) (or the number of allowed tokens), the others 1
  std::vector<StepRow> rows;
  VecF output;        // (Dv) A = sum_i alpha_i v_i
  float entropy = 0;     // the row's entropy in nats (HeadTrace::entropy)
  float weight_sum = 0;  // sum_i alpha_i, in order (1 for softmax, sparsemax, relunorm, hardmax
                         // up to rounding; anything for sigmoid and none; 0 if all masked)
};

// What a run's edits did (whatif.h fills it): the panels and the trace say the run is edited.
// "Typed" indices name the tokens of LabConfig::sentence; "run" indices the tokens of this run.
struct RunEdits {
  bool edited = false;             // any edit below
  std::vector<int> from_typed;     // (N) the typed token each token of the run is (or replaces);
                                   // -1 = inserted
  std::vector<int> to_run;         // (N_typed) where each typed token went; -1 = deleted
  int replaced = -1;               // run index of the replaced token; -1 = none
  int inserted = -1;               // run index of the inserted token; -1 = none
  int deleted = -1;                // typed index of the deleted token; -1 = none
  bool shuffled = false;
  std::vector<int> knocked_keys;   // run indices, ascending: masked for every query and head
  std::vector<int> knocked_heads;  // head indices, ascending: their output A set to zero
  int value_token = -1;            // run index of the edited value (chosen head); -1 = none
  VecF value_offset;               // (Dv) a p1 + b p2, added to that v_i
  Pca2D plane;                     // the unedited run's vectors plane the offset was read in;
                                   // the vectors view stays in it (a dragged point moves by
                                   // exactly (a, b) up to rounding)
};

struct LabResult {
  LabError error;              // when !error.ok() nothing below is valid
  std::vector<Token> tokens;
  AttentionTrace<float> trace;  // the chosen head (config.head), its output before W_O
  MultiHeadTrace<float> mha;    // every head, their concatenation and the projected output
  MultiHeadWeights<float> projections;  // W_Q, W_K, W_V of every head, and W_O
  StepTable steps;             // for config.query, in the chosen head
  // Vectors panel (chosen head): PCA over the rows [v_0..v_{N-1}; alpha_0 v_0..; A].
  Pca2D vectors;               // points: (2N + 1, 2)
  std::vector<int> value_hull; // hull of the first N projected points (the values)
  // Information panel (chosen head, the query's row): is the pattern recoverable from A?
  int target = 0;                       // the target actually used (config.target resolved)
  bool target_moved = false;            // config.target is masked for the query: automatic used
  InformationReport information;        // AnalyzeInformation(V, alpha, target, scope): over the
                                        // keys the query sees, in the normalizer's FeasibleSet
  std::vector<char> visible;            // (N) 1 = the query may attend to key i
  std::vector<VecD> same_output_vertices;  // vertices of the weights giving the same A (at most
                                           // 6 visible keys, simplex only; N entries each)
  MatD contributions;   // (N, Dv) alpha_i v_i of the query's weights (double, as the analysis)
  MatD contributions2;  // (N, Dv) alpha'_i v_i of the second scenario
  // Weight against contribution (contribution.h): the query's keys, in the chosen head.
  ContributionTable contribution;
  // The edits this run carries (whatif.h; all empty/off for a plain run).
  RunEdits edits;
};

// The settings table: every field's JSON name, rule (from the limits above) and description.
// The page's state, the URL, the CLI and the checks below all walk it.
const FieldTable<LabConfig>& LabFields();

// Validates, tokenizes, embeds and runs multi-head self-attention (MultiHeadForward<float>):
// identity projection = IdentityWeights(d_model, heads) (every head q = k = v = x, W_O the
// average), random = RandomWeights(d_model, heads, d_k, d_k, seed). Never throws for bad input.
// Projection::kModel needs the model: ComputeLab returns error kModelNotLoaded (field
// "projection"); model::ComputeModelLab computes it. The checks (ValidateConfig): validate.h.
LabResult ComputeLab(const LabConfig& cfg);

// The second half of ComputeLab, shared with the trained model's lab (model/lab/model_lab.h): from a
// finished multi-head pass, the chosen head's trace, the steps, the vectors and the information
// panel. On entry result->tokens (N), result->mha and result->projections are set and x (N, D)
// is what the heads read (the embeddings here; LN(x) of the layer in the model); cfg.head,
// cfg.query and cfg.target must index them (validated) and cfg.normalizer is the heads' own.
void FinishLab(const LabConfig& cfg, const MatF& x, LabResult* result);

// The vectors panel's points of one query: [v_0..v_{N-1}; alpha_0 v_0..; A], (2N + 1, Dv).
MatF VectorPoints(const AttentionTrace<float>& trace, int query);

// Step table of one query from a finished trace.
StepTable MakeStepTable(const AttentionTrace<float>& trace, const std::vector<Token>& tokens,
                        int query);

const char* ProjectionName(Projection p);  // "identity" / "random" / "model"
bool ParseProjection(const std::string& name, Projection* out);

}  // namespace attn
