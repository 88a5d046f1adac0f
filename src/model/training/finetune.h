// "Train it more": continuing the loaded model's training on one text (issue 13), in the page
// and in `attnlab model tune`, with the same bits.
//
// The text becomes one token stream, as the validation streams are written (evaluate.h):
// <|endoftext|> then the text's BPE tokens. Step k draws `batch` windows of `length` + 1 tokens
// from the stream (SampleBatch: from the seed and k alone), and the update is the shipped
// training's: the mean cross-entropy's gradient, the global norm clipped to 1, AdamW with
// GPT-2's betas and decay 0.1 on the matrices, at a constant learning rate (no schedule: a run
// can be continued by any number of steps, and N steps then M more are the same bits as N + M).
//
// The work is cut into units a browser frame can afford: one unit is one sequence's forward
// and backward (about 0.1 s in the page for 32 tokens of the shipped model); the batch's last
// unit also sums the sequences' gradients (in sequence order, as LossAndGrad does, so a step is
// the same bits as LossAndGrad + ClipGradNorm + AdamW::Step on the same batch), clips and
// updates. However the app slices the units into frames, the result is the same.
#pragma once

#include "model/tokenizer/tokenizer.h"
#include "engine/base/fields.h"
#include "model/arch/model.h"
#include "model/training/train.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn {
namespace model {

constexpr int kMinTuneTokens = 8;       // a text shorter than this (with <|endoftext|>) is refused
constexpr int kMaxTuneSteps = 2000;     // steps per run
constexpr int kMaxTuneTextBytes = 65536;

// The memory a run needs, known from the config alone, so that a model too large is refused
// before anything is allocated or widened: per parameter the weights widened to float (4 bytes),
// the step's gradient and one sequence's (4 + 4) and AdamW's two moments in double (8 + 8). On
// top come the weights as loaded, one sequence's activations, and ParamsChecksum's widened copy
// (4 bytes a parameter) whenever the status is read. Measured (docs/models.md): GPT-2 small's
// shape, 124.4 M parameters, needs 3323 MiB by this count; `attnlab model tune` peaks at
// 4087 MiB resident = 329 MiB loaded + 3323 + 475 (the checksum's copy) within 40 MiB.
constexpr std::int64_t kTuneBytesPerParameter = 28;
// The most a run may need, page and CLI alike (the same session, the same bits). The page's wasm
// heap ends at 2 GiB (emscripten's MAXIMUM_MEMORY) and holds, beside the run, the lab, the loaded
// weights (2 or 4 bytes a parameter) and the checksum's copy: at 1 GiB (38.3 M parameters) that
// comes to about 1.4 GiB, at 1.5 GiB past 2 GiB. (The same count in the page: the lab's own
// model, 2.6 M parameters, needs 69 MiB, and a run grew the heap from 46.1 to 115.0 MiB.)
constexpr std::int64_t kMaxTuneBytes = std::int64_t{1} << 30;

struct TuneMemory {
  std::int64_t parameters = 0;  // ParameterCount(config)
  std::int64_t bytes = 0;       // parameters * kTuneBytesPerParameter
  std::int64_t limit = kMaxTuneBytes;
  bool fits() const { return bytes <= limit; }
  // For messages: the counts in millions and MiB, rounded to one decimal and to whole MiB.
  double millions() const { return std::round(static_cast<double>(parameters) / 1e5) / 10; }
  std::int64_t mib() const { return (bytes + (1 << 19)) >> 20; }
  std::int64_t limit_mib() const { return (limit + (1 << 19)) >> 20; }
};
TuneMemory TuneMemoryOf(const ModelConfig& c);
// The refusal, one line, e.g. "a model of 124.4 M parameters needs 3323 MiB to train (28 bytes
// a parameter: the weights in float, two gradients, AdamW's moments), more than the limit of
// 1024 MiB". Empty when it fits.
std::string TuneMemoryRefusal(const TuneMemory& m);

struct TuneConfig {
  int batch = 4;           // sequences per step
  int length = 32;         // tokens per sequence (at most the context; shorter when the text is)
  double lr = 1e-3;        // constant learning rate
  std::uint32_t seed = 1;  // the batches
};
// The rows (batch, length, lr, seed): the page's state and `attnlab model tune` read them.
const FieldTable<TuneConfig>& TuneFields();

// Why a text cannot be trained on (for an interface that says it in its own language).
struct TuneTextProblem {
  enum class Code { kNone, kEmpty, kTooLong, kInvalidUtf8, kTooShort };
  Code code = Code::kNone;
  int got = 0;  // kTooLong: bytes; kTooShort: tokens with <|endoftext|>
};

// The text's stream: <|endoftext|> then its tokens. False with a refusal in the one wording,
// naming `field`, for an empty text, invalid UTF-8, a text over kMaxTuneTextBytes, or fewer
// than kMinTuneTokens tokens (and the reason as a code in *problem when asked for).
bool TuneStream(const Tokenizer& tokenizer, std::string_view text, std::string_view field, std::vector<int>* ids,
                std::string* error, TuneTextProblem* problem = nullptr);

// FNV-1a 64 over every tensor's float bytes in Tensors' order, as 16 hex digits: two sets of
// weights with the same checksum are (for all practical purposes) the same bits.
std::string ParamsChecksum(const Params<float>& p);

class TuneSession {
 public:
  // Starts a run on `stream` (TuneStream's); the optimizer's moments start at zero. False with
  // a message when the model needs more memory than kMaxTuneBytes (TuneMemoryRefusal: before
  // anything is allocated) or the config does not fit the model or the stream.
  bool Start(const ModelConfig& model, std::vector<int> stream, const TuneConfig& cfg,
             std::string* error = nullptr);
  bool started() const { return !stream_.empty(); }
  void Clear();  // back to "not started": the moments and the history go

  // One unit on the weights p (the same weights every unit of a step: they change only at the
  // step's end). True when this unit finished a step (*done filled); false and a message in
  // *error on a numeric failure (then the step is abandoned and p is unchanged).
  bool Work(Params<float>& p, bool* step_done, StepMetrics* done = nullptr, std::string* error = nullptr);

  int step() const { return step_; }                // steps finished
  int unit() const { return unit_; }                // units of the current step done
  int units_per_step() const { return cfg_.batch; }
  int length() const { return length_; }            // the sequence length in use
  const TuneConfig& config() const { return cfg_; }
  const std::vector<int>& stream() const { return stream_; }
  const std::vector<StepMetrics>& history() const { return history_; }

 private:
  ModelConfig model_;
  TuneConfig cfg_;
  std::vector<int> stream_;
  int length_ = 0;
  int step_ = 0, unit_ = 0;
  std::vector<Sequence> batch_;  // the current step's
  std::size_t targets_ = 0;
  double loss_sum_ = 0;          // the current step's sequences', in order
  Params<float> grad_, seq_grad_;
  AdamW<float> opt_;
  std::vector<StepMetrics> history_;
};

}  // namespace model
}  // namespace attn
