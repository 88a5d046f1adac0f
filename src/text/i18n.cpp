#include "text/i18n.h"

#include "text/printf.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace text {

namespace {
Lang g_lang = Lang::kEn;

}  // namespace

void SetLang(Lang lang) { g_lang = lang; }
Lang CurrentLang() { return g_lang; }
Lang LangFromCode(const std::string& code) { return code == "ru" ? Lang::kRu : Lang::kEn; }

const char* L(const Text& t) { return g_lang == Lang::kRu ? t.ru : t.en; }
std::string Count(long long n, const Plural& p) { return CountText(g_lang, n, p); }
const char* Word(long long n, const Plural& p) { return PluralWord(g_lang, n, p); }

const char* Label(const Text& t, const char* id) {
  static char buf[8][256];  // a few labels may be alive within one widget call
  static int next = 0;
  char* out = buf[next];
  next = (next + 1) % 8;
  std::snprintf(out, sizeof buf[0], "%s###%s", L(t), id);
  return out;
}

std::string ExampleMessage(const attn::ExampleError& e) {
  using attn::ExampleRefusal;
  switch (e.code) {
    case ExampleRefusal::kNone: return "";
    case ExampleRefusal::kTokenizer:
      switch (e.tokenizer) {
        case attn::TokenizeError::kEmpty: return L(tr::kExampleEmpty);
        case attn::TokenizeError::kInvalidUtf8: return Printf(L(tr::kExampleUtf8), e.count);
        case attn::TokenizeError::kTooLong: return Printf(L(tr::kExampleBytes), Count(attn::kMaxSentenceBytes, tr::kBytesOf).c_str());
        case attn::TokenizeError::kTooManyTokens:
          return Printf(L(tr::kExampleTokens), Count(e.count, tr::kTokens).c_str(), attn::kMaxTokens);
        case attn::TokenizeError::kNone: break;
      }
      return e.message;
    case ExampleRefusal::kUnknownWord: return Printf(L(tr::kExampleUnknown), e.word.c_str(), e.vocabulary.c_str());
    case ExampleRefusal::kWrongLength: return Printf(L(tr::kExampleLength), Count(e.limit, tr::kTokens).c_str(), e.count);
    case ExampleRefusal::kTooLong: return Printf(L(tr::kExampleTooLong), Count(e.count, tr::kWords).c_str(), e.limit);
    case ExampleRefusal::kLargestNotUnique: return L(tr::kExampleLargest);
    case ExampleRefusal::kNeedsVerbThenObject: return L(tr::kExampleVerbObject);
  }
  return e.message;
}

std::string DivergenceMessage(const attn::Divergence& d) {
  using attn::DivergenceCause;
  std::string cause;
  switch (d.cause) {
    case DivergenceCause::kNone: return "";
    case DivergenceCause::kPass: cause = g_lang == Lang::kEn && !d.detail.empty() ? d.detail : L(tr::kCausePass); break;
    case DivergenceCause::kGradients: cause = L(tr::kCauseGradients); break;
    case DivergenceCause::kParameters: cause = L(tr::kCauseParameters); break;
  }
  return Printf(L(tr::kDivergedAt), d.step, cause.c_str());
}

const char* TaskLabel(attn::TaskKind k) {
  switch (k) {
    case attn::TaskKind::kVerbObject: return L(tr::kTaskVerbObject);
    case attn::TaskKind::kPreviousToken: return L(tr::kTaskPrevious);
    case attn::TaskKind::kReverse: return L(tr::kTaskReverse);
    case attn::TaskKind::kMax: return L(tr::kTaskMax);
  }
  return attn::TaskName(k);
}

std::string CurveLabel(const attn::TrainConfig& c) {
  return Printf(L(c.scaled ? tr::kCurveScaled : tr::kCurveUnscaled), attn::NormalizerName(c.normalizer), c.d_k);
}

}  // namespace text
