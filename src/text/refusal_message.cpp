// A refused state change in the interface's language (refusal_message.h): the API's refusal
// codes, fields and rules said in English or Russian.
#include "text/refusal_message.h"

#include "api/fields_json.h"
#include "text/i18n.h"
#include "text/printf.h"

#include <cmath>
#include <string>

namespace text {

namespace {

// A number as Russian typography writes it: the minus sign − (U+2212), not the hyphen.
std::string Minus(std::string number) {
  if (!number.empty() && number[0] == '-') number.replace(0, 1, "\u2212");
  return number;
}

// What a settings row accepts, in Russian (ExpectedText's twin).
std::string ExpectedRu(const attn::FieldRule& r) {
  using attn::FieldKind;
  std::string out;
  switch (r.kind) {
    case FieldKind::kInteger:
      out = "целое число от " + Minus(attn::IntegerText(r.min)) + " до " + Minus(attn::IntegerText(r.max));
      break;
    case FieldKind::kNumber:
      if (r.min_open && std::isinf(r.max)) out = "число > " + Minus(attn::FormatShortest(r.min));
      else if (r.min_open) out = "число > " + Minus(attn::FormatShortest(r.min)) + " и ≤ " + Minus(attn::FormatShortest(r.max));
      else if (std::isinf(r.min) && std::isinf(r.max)) out = "конечное число";
      else out = "число от " + Minus(attn::FormatShortest(r.min)) + " до " + Minus(attn::FormatShortest(r.max));
      break;
    case FieldKind::kBoolean: out = "true или false"; break;
    case FieldKind::kName:
      out = "одно из значений ";
      for (std::size_t i = 0; i < r.names.size(); ++i) out += (i ? ", «" : "«") + r.names[i] + "»";
      break;
    case FieldKind::kText: out = "строка"; break;
    case FieldKind::kNameSet:
      out = "список из ";
      for (std::size_t i = 0; i < r.names.size(); ++i) out += (i ? ", «" : "«") + r.names[i] + "»";
      break;
  }
  return r.nullable ? out + " или null" : out;
}

constexpr Plural kCharacters{{"character", "characters"}, {"символ", "символа", "символов"}};
// The bound an engine message names ("... from 0 to 3, got 4" -> "3"; "at most 63 ..." -> "63"):
// the model's sizes, which the UI does not know apart from the message.
std::string RangeEnd(const std::string& message) {
  std::size_t at = message.find(" to ");
  if (at != std::string::npos) at += 4;
  else if ((at = message.find("at most ")) != std::string::npos) at += 8;
  else return "?";
  const std::size_t end = message.find_first_not_of("0123456789", at);
  return message.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// An edit refused by the engine (ConfigError::kEditInvalid, engine/whatif/whatif.h's CheckEdits):
// "<field>: expected <what>, got <value>", said in Russian phrase by phrase; the numbers and the
// learner's own text are kept as they are. A phrase not in the table keeps its English words.
std::string EditRefusalRu(const attn::LabError& e) {
  const std::string& m = e.message;
  const std::string head = e.field + ": expected ";
  const std::size_t got_at = m.rfind(", got ");
  if (m.compare(0, head.size(), head) != 0 || got_at == std::string::npos || got_at < head.size())
    return "«" + e.field + "»: " + m;
  std::string expected = m.substr(head.size(), got_at - head.size());
  std::string got = m.substr(got_at + 6);
  struct Phrase { const char* en; const char* ru; };
  static const Phrase kExpected[] = {
      {"-1 (none) or a token index from 0 to ", "−1 (нет) или номер токена от 0 до "},
      {"the word to insert", "слово, которое вставить"},
      {"valid UTF-8", "корректный UTF-8"},
      {"one word (one token)", "одно слово (один токен)"},
      {"a token of a sentence of at least 2 tokens to delete", "для удаления токен предложения хотя бы из 2 токенов"},
      {"a token other than the query (", "для удаления токен, отличный от запроса ("},
      {"a sentence of at most ", "после вставки не больше "},
      {" tokens after the insertion", " токенов"},
      {") to delete", ")"},
      {"token indices from 0 to ", "номера токенов от 0 до "},
      {", separated by commas", " через запятую"},
      {"layer:head pairs with layer 0 and head from 0 to ", "пары слой:голова со слоем 0 и головой от 0 до "},
      {"a token the what-if keeps", "токен, который «что если» сохраняет"},
      {" in model mode (knock-out runs in the identity and random modes)",
       " в режиме модели (выключение работает в тождественном и случайном режимах)"},
      {" in model mode (value edits run in the identity and random modes)",
       " в режиме модели (изменение значений работает в тождественном и случайном режимах)"},
      {" in model mode (what-if runs in the identity and random modes)",
       " в режиме модели («что если» работает в тождественном и случайном режимах)"},
      {" in model mode (shuffling runs in the identity and random modes)",
       " в режиме модели (перестановка работает в тождественном и случайном режимах)"},
  };
  static const Phrase kGot[] = {
      {"a bad byte at offset ", "плохой байт на позиции "},
      {"the only token ", "единственный токен "},
      {"the deleted token ", "удалённый токен "},
  };
  auto say = [](std::string text, const Phrase* table, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::string en = table[k].en;
      const std::size_t at = text.find(en);
      if (at != std::string::npos) text.replace(at, en.size(), table[k].ru);
    }
    return text;
  };
  expected = say(expected, kExpected, sizeof kExpected / sizeof kExpected[0]);
  got = say(got, kGot, sizeof kGot / sizeof kGot[0]);
  // "\"два слова\" (2 tokens)": the count with its Russian plural
  const std::size_t open = got.rfind(" (");
  if (open != std::string::npos && got.size() >= open + 2 + 8 && got.compare(got.size() - 8, 8, " tokens)") == 0) {
    const std::string digits = got.substr(open + 2, got.size() - 8 - open - 2);
    if (!digits.empty() && digits.size() <= 9 && digits.find_first_not_of("0123456789") == std::string::npos)
      got = got.substr(0, open) + " (" + Count(std::stoll(digits), tr::kTokens) + ")";
  }
  return "«" + e.field + "»: ожидалось " + Minus(expected) + ", получено " + Minus(got) + ".";
}

std::string RefusedRu(const std::string& field, const attn::FieldRule& rule, const std::string& got) {
  return "«" + field + "»: ожидалось " + ExpectedRu(rule) + ", получено " + Minus(got) + ".";
}

}  // namespace

std::string RefusalMessage(const attn::api::PatchResult& r) {
  if (CurrentLang() == Lang::kEn) return r.message;
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
        return "Предложение слишком длинное (не больше " + Count(attn::kMaxSentenceBytes, tr::kBytesOf) + ").";
      case ConfigError::kSentenceTooManyTokens:
        return "В предложении " + Count(static_cast<long long>(v), tr::kTokens) + ", а лаборатория берёт не больше " +
               std::to_string(attn::kMaxTokens) + ".";
      case ConfigError::kQueryOutOfRange: return "Номер запроса вне предложения (получено " + got + ").";
      case ConfigError::kHeadOutOfRange: return "Номер головы вне диапазона 0…h−1 (получено " + got + ").";
      case ConfigError::kTargetOutOfRange:
        return "«target»: ожидалось −1 (автоматически) или номер токена предложения, получено " + got + ".";
      case ConfigError::kNumericOverflow: return "Оценки вышли за пределы float: уменьшите величины.";
      case ConfigError::kLayerOutOfRange:  // "layer: expected a layer index from 0 to 3, got 4"
        return "«layer»: ожидался номер слоя от 0 до " + RangeEnd(r.engine_error.message) + ", получено " + got + ".";
      case ConfigError::kModelTooManyTokens:  // "sentence: expected at most 63 model tokens, got 70"
        return "«sentence»: ожидалось не больше " + RangeEnd(r.engine_error.message) + " токенов модели, получено " +
               got + ".";
      case ConfigError::kModelNotLoaded: return "«projection»: модель ещё не загружена.";
      case ConfigError::kDimOutOfRange:
      case ConfigError::kTemperatureInvalid:
      case ConfigError::kSeedOutOfRange:
      case ConfigError::kHeadsOutOfRange:
        if (const auto* f = attn::FindField(attn::LabFields(), r.engine_error.field))
          return RefusedRu(f->name, f->rule, r.engine_error.code == ConfigError::kTemperatureInvalid
                                                 ? attn::FormatShortest(v) : got);
        break;
      case ConfigError::kEditInvalid: return EditRefusalRu(r.engine_error);
      case ConfigError::kNone: break;
    }
  }
  if (r.example.code != attn::ExampleRefusal::kNone) return Printf(L(tr::kExampleFor), ExampleMessage(r.example).c_str());
  switch (r.compare.code) {
    case attn::api::CompareError::Code::kMalformed: return Printf(L(tr::kCompareMalformed), r.compare.got.c_str());
    case attn::api::CompareError::Code::kValue:
      if (r.compare.rule) return RefusedRu("train.compare: " + r.compare.field, *r.compare.rule, r.compare.got);
      break;
    case attn::api::CompareError::Code::kRunB:
      if (!r.compare.run_b.example.ok())
        return Printf(L(tr::kCompareRunB), ExampleMessage(r.compare.run_b.example).c_str());
      break;
    case attn::api::CompareError::Code::kNone: break;
  }
  // The state's own refusals that no settings row words (the English line is the API's).
  if (r.field == "train" && r.api_error == ApiError::kWrongType)
    return "«train»: ожидался объект, например {\"lr\": 0.01}, получено " + Minus(r.got) + ".";
  if (r.field == "predictions" && r.api_error == ApiError::kBadValue)
  {
    std::string letters;
    for (int i = 0; i < r.state.lesson_choices; ++i) letters += std::string(i ? ", " : "") + static_cast<char>('a' + i);
    return "«predictions»: ожидалось " + Count(r.state.lesson_steps, kCharacters) + ", каждый «-» (ещё не ответили) или " +
           letters + " (выбранный ответ), получено " + r.got + ".";
  }
  switch (r.api_error) {
    case ApiError::kMalformedJson: return "Состояние — не корректный JSON.";
    case ApiError::kNotAnObject: return "Состояние должно быть JSON-объектом.";
    case ApiError::kUnknownField: return Format("Неизвестное поле «%s».", attn::api::ShownName(r.field));
    case ApiError::kWrongType:
    case ApiError::kBadValue: return Format("Недопустимое значение поля «%s»: ", r.field) + r.message;
    default: return r.message;
  }
}

}  // namespace text
