// Continuing the model's training on one text, unit by unit (finetune.h).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "model/training/finetune.h"

#include "engine/base/format.h"
#include "engine/linalg/linalg.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace attn {
namespace model {

bool TuneStream(const Tokenizer& tokenizer, std::string_view text, std::string_view field, std::vector<int>* ids,
                std::string* error, TuneTextProblem* problem) {
  using Code = TuneTextProblem::Code;
  TuneTextProblem local;
  TuneTextProblem& why = problem ? *problem : local;
  why = TuneTextProblem{};
  const std::string expected = "a text of at least " + std::to_string(kMinTuneTokens) + " tokens";
  auto refuse = [&](const std::string& got) {
    return linalg::Fail(error, std::string(field) + ": expected " + expected + ", got " + got);
  };
  const bool blank = std::all_of(text.begin(), text.end(), [](char ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
  });
  if (blank) {
    why.code = Code::kEmpty;
    return refuse(text.empty() ? "an empty text" : "only spaces");
  }
  if (text.size() > static_cast<std::size_t>(kMaxTuneTextBytes)) {
    why = {Code::kTooLong, static_cast<int>(text.size())};
    return linalg::Fail(error, std::string(field) + ": expected a text of at most " +
                                   std::to_string(kMaxTuneTextBytes) + " bytes, got " +
                                   std::to_string(text.size()) + " bytes");
  }
  std::vector<int> body;
  if (!tokenizer.Encode(text, &body, nullptr)) {
    why.code = Code::kInvalidUtf8;
    return linalg::Fail(error, std::string(field) + ": expected UTF-8 text, got invalid bytes");
  }
  ids->clear();
  if (tokenizer.EndOfText() >= 0) ids->push_back(tokenizer.EndOfText());
  ids->insert(ids->end(), body.begin(), body.end());
  if (ids->size() < static_cast<std::size_t>(kMinTuneTokens)) {
    why = {Code::kTooShort, static_cast<int>(ids->size())};
    return refuse(std::to_string(ids->size()) + " tokens (with <|endoftext|>)");
  }
  return true;
}

std::string ParamsChecksum(const Params<float>& p) {
  Params<float> copy = Widened(p);  // Tensors wants non-const access; stored weights: every number
  std::uint64_t h = 1469598103934665603ULL;
  for (const TensorRef<float>& t : Tensors(copy)) {
    const std::size_t n = static_cast<std::size_t>(t.size());
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, &t.data[i], sizeof bits);
      for (int b = 0; b < 4; ++b) {  // little-endian bytes, whatever the machine
        h ^= (bits >> (8 * b)) & 0xFFu;
        h *= 1099511628211ULL;
      }
    }
  }
  static const char* const kHex = "0123456789abcdef";
  std::string out(16, '0');
  for (int k = 15; k >= 0; --k, h >>= 4) out[static_cast<std::size_t>(k)] = kHex[h & 0xF];
  return out;
}

TuneMemory TuneMemoryOf(const ModelConfig& c) {
  TuneMemory m;
  m.parameters = ParameterCount(c);
  m.bytes = m.parameters * kTuneBytesPerParameter;
  return m;
}

std::string TuneMemoryRefusal(const TuneMemory& m) {
  if (m.fits()) return std::string();
  return "a model of " + FormatShortest(m.millions()) + " M parameters needs " + std::to_string(m.mib()) +
         " MiB to train (" + std::to_string(kTuneBytesPerParameter) +
         " bytes a parameter: the weights in float, two gradients, AdamW's moments), more than the limit of " +
         std::to_string(m.limit_mib()) + " MiB";
}

bool TuneSession::Start(const ModelConfig& model, std::vector<int> stream, const TuneConfig& cfg,
                        std::string* error) {
  if (!Trainable(model)) return linalg::Fail(error, kNotTrainable);
  if (const TuneMemory memory = TuneMemoryOf(model); !memory.fits())
    return linalg::Fail(error, TuneMemoryRefusal(memory));
  if (const Field<TuneConfig>* bad = FirstRefusedField(TuneFields(), cfg))
    return linalg::Fail(error, RefusalText(bad->name, bad->rule, FieldText(*bad, cfg)));
  if (stream.size() < static_cast<std::size_t>(kMinTuneTokens))
    return linalg::Fail(error, "the text's stream is shorter than " + std::to_string(kMinTuneTokens) + " tokens");
  for (int id : stream) {
    if (id < 0 || id >= model.vocab) return linalg::Fail(error, "token id out of the vocabulary");
  }
  Clear();
  model_ = model;
  cfg_ = cfg;
  // A window is length + 1 tokens and SampleBatch needs the stream longer than `length`.
  length_ = std::min({cfg.length, model.context, static_cast<int>(stream.size()) - 1});
  stream_ = std::move(stream);
  opt_ = AdamW<float>(AdamWHyper{});
  return true;
}

void TuneSession::Clear() {
  stream_.clear();
  length_ = 0;
  step_ = unit_ = 0;
  batch_.clear();
  targets_ = 0;
  loss_sum_ = 0;
  grad_ = Params<float>();
  seq_grad_ = Params<float>();
  opt_ = AdamW<float>(AdamWHyper{});
  history_.clear();
}

bool TuneSession::Work(Params<float>& p, bool* step_done, StepMetrics* done, std::string* error) {
  *step_done = false;
  if (!started()) return linalg::Fail(error, "no text to train on");
  if (unit_ == 0) {  // a new step: its batch, a zero gradient (LossAndGrad's order)
    batch_ = SampleBatch(stream_, cfg_.batch, length_, cfg_.seed, step_);
    targets_ = static_cast<std::size_t>(cfg_.batch) * static_cast<std::size_t>(length_);
    loss_sum_ = 0;
    grad_ = ZeroParams<float>(model_);
  }
  const Sequence& s = batch_[static_cast<std::size_t>(unit_)];
  const float scale = static_cast<float>(1.0 / static_cast<double>(targets_));
  SequenceActs<float> acts;
  seq_grad_ = ZeroParams<float>(model_);
  if (!Forward(acts, p, model_, s, error) || !Backward(seq_grad_, acts, p, model_, s, scale, error)) {
    unit_ = 0;
    return false;
  }
  loss_sum_ += acts.loss_sum;
  std::vector<TensorRef<float>> gt = Tensors(grad_), st = Tensors(seq_grad_);
  for (std::size_t t = 0; t < gt.size(); ++t) {
    for (Eigen::Index e = 0; e < gt[t].size(); ++e) gt[t].data[e] = gt[t].data[e] + st[t].data[e];
  }
  if (++unit_ < cfg_.batch) return true;

  unit_ = 0;
  const double loss = loss_sum_ / static_cast<double>(targets_);
  if (!std::isfinite(loss)) return linalg::Fail(error, "loss is not finite");
  const double norm = ClipGradNorm(grad_, 1.0);  // the shipped training's clip
  opt_.Step(p, grad_, cfg_.lr);
  const StepMetrics m{step_, loss, cfg_.lr, norm};
  history_.push_back(m);
  if (done) *done = m;
  ++step_;
  *step_done = true;
  return true;
}

}  // namespace model
}  // namespace attn
