// Every limit the engine accepts, in one place: the validators (ValidateConfig,
// ValidateTrainConfig, the normalization experiments) check against these, and the page API and
// the command-line tool quote them in their messages. Names are part of the engine's interface.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn {

// ---- the lab's sentence (Tokenize, ValidateConfig) --------------------------------------------
constexpr std::size_t kMaxTokens = 64;           // tokens per sentence: a phone stays responsive
constexpr std::size_t kMaxSentenceBytes = 4096;  // bytes per sentence: a sentence, not a book

// ---- the lab's settings (ValidateConfig, the page API) ----------------------------------------
constexpr int kMinDim = 1;                         // smallest d_model, d_k and d_v of the lab
constexpr int kMaxDim = 64;                        // largest d_model, d_k and d_v of the lab
constexpr double kMinTemperature = 1e-3;           // smallest temperature
constexpr double kMaxTemperature = 1e3;            // largest temperature
constexpr std::uint64_t kMaxSeed = 4294967295ull;  // 2^32 - 1, exact in a JS number (also training)
constexpr int kMinHeads = 1;                       // fewest attention heads (also training)
constexpr int kMaxHeads = 8;                       // most attention heads (also training)
constexpr int kMaxLayers = 16;                     // most layers of a trained model the lab shows
constexpr double kMaxValueOffset = 100;            // |valueA|, |valueB|: a value dragged in the
                                                   // vectors view (values are ~1; room to spare)

// ---- training (ValidateTrainConfig) -------------------------------------------------------------
constexpr int kMinLength = 2;              // shortest example of the previous, reverse, max tasks
constexpr int kMaxLength = 16;             // longest example of the previous, reverse, max tasks
constexpr int kMaxTrainDModel = 128;       // largest d_model of the trained model (smallest: 2)
constexpr int kMaxTrainDk = 256;           // largest d_k of the trained model (smallest: 1)
constexpr int kMaxTrainDv = 128;           // largest d_v of the trained model (smallest: 1)
constexpr int kMaxBatch = 256;             // most examples per optimizer step
constexpr double kMaxLearningRate = 10.0;  // largest learning rate (it must be > 0)

// ---- normalization experiments (normexp.h) -----------------------------------------------------
constexpr int kMaxNormSamples = 1000000;  // samples per point
constexpr int kMaxNormDk = 4096;          // d_k of the variance and saturation experiments
constexpr int kMaxNormKeys = 4096;        // keys per row (M) of the saturation and output ones
constexpr int kMaxNormDv = 4096;          // Dv of the output experiment
constexpr int kMaxCurveSeeds = 100;       // CurveExperiment: seeds per spec
constexpr int kMaxCurveSteps = 100000;    // CurveExperiment: steps per run

}  // namespace attn
