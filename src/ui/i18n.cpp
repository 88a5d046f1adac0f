#include "ui/i18n.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace ui {

namespace {
Lang g_lang = Lang::kEn;

std::string Format(const char* fmt, const std::string& a, double b = 0) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, a.c_str(), b);
  return buf;
}
}  // namespace

void SetLang(Lang lang) { g_lang = lang; }
Lang CurrentLang() { return g_lang; }
Lang LangFromCode(const std::string& code) { return code == "ru" ? Lang::kRu : Lang::kEn; }

const char* L(const Text& t) { return g_lang == Lang::kRu ? t.ru : t.en; }

const char* Label(const Text& t, const char* id) {
  static char buf[8][256];  // a few labels may be alive within one widget call
  static int next = 0;
  char* out = buf[next];
  next = (next + 1) % 8;
  std::snprintf(out, sizeof buf[0], "%s###%s", L(t), id);
  return out;
}

namespace {

// What a settings row accepts, in Russian (ExpectedText's twin).
std::string ExpectedRu(const attn::FieldRule& r) {
  using attn::FieldKind;
  std::string out;
  switch (r.kind) {
    case FieldKind::kInteger:
      out = "целое число от " + attn::IntegerText(r.min) + " до " + attn::IntegerText(r.max);
      break;
    case FieldKind::kNumber:
      if (r.min_open && std::isinf(r.max)) out = "число > " + attn::FormatShortest(r.min);
      else if (r.min_open) out = "число > " + attn::FormatShortest(r.min) + " и ≤ " + attn::FormatShortest(r.max);
      else if (std::isinf(r.min) && std::isinf(r.max)) out = "конечное число";
      else out = "число от " + attn::FormatShortest(r.min) + " до " + attn::FormatShortest(r.max);
      break;
    case FieldKind::kBoolean: out = "true или false"; break;
    case FieldKind::kName:
      out = "одно из значений ";
      for (std::size_t i = 0; i < r.names.size(); ++i) out += (i ? ", «" : "«") + r.names[i] + "»";
      break;
    case FieldKind::kText: out = "строка"; break;
  }
  return r.nullable ? out + " или null" : out;
}

std::string RefusedRu(const std::string& field, const attn::FieldRule& rule, const std::string& got) {
  return "«" + field + "»: ожидалось " + ExpectedRu(rule) + ", получено " + got + ".";
}

}  // namespace

std::string RefusalMessage(const attn::api::PatchResult& r) {
  if (g_lang == Lang::kEn) return r.message;
  using attn::ConfigError;
  using attn::api::ApiError;
  if (r.rule) return RefusedRu(r.field, *r.rule, r.got);  // a settings row refused the value
  const double v = r.engine_error.value;
  if (r.api_error == ApiError::kEngine) {
    const std::string got = attn::IntegerText(v);
    switch (r.engine_error.code) {
      case ConfigError::kSentenceEmpty: return "Предложение пустое: введите хотя бы одно слово.";
      case ConfigError::kSentenceInvalidUtf8: return Format("%sПредложение не в UTF-8 (байт %.0f).", "", v);
      case ConfigError::kSentenceTooLong:
        return "Предложение слишком длинное (не больше " + std::to_string(attn::kMaxSentenceBytes) + " байт).";
      case ConfigError::kSentenceTooManyTokens:
        return "В предложении " + got + " токенов; лаборатория берёт не больше " + std::to_string(attn::kMaxTokens) + ".";
      case ConfigError::kQueryOutOfRange: return "Номер запроса вне предложения (получено " + got + ").";
      case ConfigError::kHeadOutOfRange: return "Номер головы вне диапазона 0…h−1 (получено " + got + ").";
      case ConfigError::kTargetOutOfRange:
        return "«target»: ожидалось −1 (автоматически) или номер токена предложения, получено " + got + ".";
      case ConfigError::kNumericOverflow: return "Оценки вышли за пределы float: уменьшите величины.";
      case ConfigError::kDimOutOfRange:
      case ConfigError::kTemperatureInvalid:
      case ConfigError::kSeedOutOfRange:
      case ConfigError::kHeadsOutOfRange:
        if (const auto* f = attn::FindField(attn::LabFields(), r.engine_error.field))
          return RefusedRu(f->name, f->rule, r.engine_error.code == ConfigError::kTemperatureInvalid
                                                 ? attn::FormatShortest(v) : got);
        break;
      case ConfigError::kNone: break;
    }
  }
  switch (r.api_error) {
    case ApiError::kMalformedJson: return "Состояние — не корректный JSON.";
    case ApiError::kNotAnObject: return "Состояние должно быть JSON-объектом.";
    case ApiError::kUnknownField: return Format("Неизвестное поле «%s».", r.field);
    case ApiError::kWrongType:
    case ApiError::kBadValue: return Format("Недопустимое значение поля «%s»: ", r.field) + r.message;
    default: return r.message;
  }
}

}  // namespace ui
