// The lab's checks and its one refusal (validate.h): a configuration against the settings
// table, its sentence, its heads and its edits.
#include "engine/lab/validate.h"

#include "engine/whatif/whatif.h"

#include <string>
#include <utility>

namespace attn {

LabError Refuse(ConfigError code, std::string field, std::string message, double value) {
  LabError e;
  e.code = code;
  e.field = std::move(field);
  e.message = std::move(message);
  e.value = value;
  return e;
}

LabError RefuseIndex(ConfigError code, const char* field, const char* what, int count, int got) {
  return Refuse(code, field,
                std::string(field) + ": expected " + what + " from 0 to " + std::to_string(count - 1) + ", got " +
                    std::to_string(got),
                got);
}

LabError CheckQueryTarget(int query, int target, int n) {
  if (query >= n) return RefuseIndex(ConfigError::kQueryOutOfRange, "query", "a token index", n, query);
  if (target >= n)
    return Refuse(ConfigError::kTargetOutOfRange, "target",
                  "target: expected -1 (automatic) or a token index from 0 to " + std::to_string(n - 1) + ", got " +
                      std::to_string(target),
                  target);
  return LabError();
}

LabError CheckLayerHead(int layers, int heads, int layer, int head) {
  if (layer < 0 || layer >= layers) return RefuseIndex(ConfigError::kLayerOutOfRange, "layer", "a layer index", layers, layer);
  if (head < 0 || head >= heads) return RefuseIndex(ConfigError::kHeadOutOfRange, "head", "a head index", heads, head);
  return LabError();
}

namespace {

// Which refusal code the UI translates for a field the table refuses.
ConfigError CodeOf(const std::string& field) {
  if (field == "query") return ConfigError::kQueryOutOfRange;
  if (field == "temperature") return ConfigError::kTemperatureInvalid;
  if (field == "seed") return ConfigError::kSeedOutOfRange;
  if (field == "heads") return ConfigError::kHeadsOutOfRange;
  if (field == "head") return ConfigError::kHeadOutOfRange;
  if (field == "target") return ConfigError::kTargetOutOfRange;
  if (field == "layer") return ConfigError::kLayerOutOfRange;
  if (field == "whatIfToken" || field == "valueToken" || field == "valueA" || field == "valueB" ||
      field == "shuffleSeed")
    return ConfigError::kEditInvalid;
  return ConfigError::kDimOutOfRange;  // dModel, dK, dV
}

// Validation of everything but the sentence, once its token count is known.
LabError CheckNumbers(const LabConfig& cfg, int n_tokens) {
  // 1. every field against its row of the table (written so that NaN fails)
  if (const Field<LabConfig>* f = FirstRefusedField(LabFields(), cfg)) {
    const double got = f->get_number(cfg);
    return Refuse(CodeOf(f->name), f->name.c_str(), RefusalText(f->name, f->rule, FieldText(*f, cfg)), got);
  }
  // 2. what depends on the sentence and on the number of heads (the model's tokens and heads:
  //    model::ComputeModelLab)
  if (cfg.projection == Projection::kModel) return CheckEdits(cfg, n_tokens);
  if (LabError e = CheckQueryTarget(cfg.query, cfg.target, n_tokens); !e.ok()) return e;
  // The lab is one layer: only its head can be out of range.
  if (LabError e = CheckLayerHead(1, cfg.heads, 0, cfg.head); !e.ok()) return e;
  // 3. the edits (whatif.h), once the indices they follow are known to be tokens
  return CheckEdits(cfg, n_tokens);
}

LabError SentenceError(const TokenizeResult& t) {
  const double detail = static_cast<double>(t.detail);
  switch (t.error) {
    case TokenizeError::kNone:
      break;
    case TokenizeError::kEmpty:
      return Refuse(ConfigError::kSentenceEmpty, "sentence",
                    "sentence: expected at least one word, got an empty or whitespace-only sentence", 0);
    case TokenizeError::kInvalidUtf8:
      return Refuse(ConfigError::kSentenceInvalidUtf8, "sentence",
                    "sentence: expected valid UTF-8, got a bad byte at offset " + std::to_string(t.detail),
                    detail);
    case TokenizeError::kTooLong:
      return Refuse(ConfigError::kSentenceTooLong, "sentence",
                    "sentence: expected at most " + std::to_string(kMaxSentenceBytes) + " bytes, got " +
                        std::to_string(t.detail),
                    detail);
    case TokenizeError::kTooManyTokens:
      return Refuse(ConfigError::kSentenceTooManyTokens, "sentence",
                    "sentence: expected at most " + std::to_string(kMaxTokens) + " tokens, got " +
                        std::to_string(t.detail),
                    detail);
  }
  return LabError();
}

}  // namespace

LabError ValidateConfig(const LabConfig& cfg) {
  const TokenizeResult t = Tokenize(cfg.sentence);
  // The model counts its own (BPE) tokens against its context: the words' limit is not its own.
  if (!t.ok() && !(cfg.projection == Projection::kModel && t.error == TokenizeError::kTooManyTokens))
    return SentenceError(t);
  return CheckNumbers(cfg, static_cast<int>(t.tokens.size()));
}


LabError ValidateTokenized(const LabConfig& cfg, const TokenizeResult& t) {
  return t.ok() ? CheckNumbers(cfg, static_cast<int>(t.tokens.size())) : SentenceError(t);
}

}  // namespace attn
