#include "ui/i18n.h"

#include <cstdio>

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

std::string RefusalMessage(const attn::api::PatchResult& r) {
  if (g_lang == Lang::kEn) return r.message;
  using attn::ConfigError;
  using attn::api::ApiError;
  const double v = r.engine_error.value;
  if (r.api_error == ApiError::kEngine) {
    switch (r.engine_error.code) {
      case ConfigError::kSentenceEmpty: return "Предложение пустое: введите хотя бы одно слово.";
      case ConfigError::kSentenceInvalidUtf8: return Format("%sПредложение не в UTF-8 (байт %.0f).", "", v);
      case ConfigError::kSentenceTooLong: return "Предложение слишком длинное (не больше 4096 байт).";
      case ConfigError::kSentenceTooManyTokens:
        return Format("%sВ предложении %.0f токенов; лаборатория берёт не больше 64.", "", v);
      case ConfigError::kQueryOutOfRange: return "Номер запроса вне предложения.";
      case ConfigError::kDimOutOfRange: return Format("%s должно быть целым от 1 до 64.", r.field);
      case ConfigError::kTemperatureInvalid: return "Температура должна быть конечным числом от 0.001 до 1000.";
      case ConfigError::kSeedOutOfRange: return "seed должен быть целым от 0 до 4294967295.";
      case ConfigError::kNumericOverflow: return "Оценки вышли за пределы float: уменьшите величины.";
      case ConfigError::kHeadsOutOfRange: return "Число голов должно быть целым от 1 до 8.";
      case ConfigError::kHeadOutOfRange: return "Номер головы вне диапазона 0..h−1.";
      case ConfigError::kTargetOutOfRange: return "target должен быть −1 (автоматически) или номером токена.";
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
