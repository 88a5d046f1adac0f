// The engine's messages on screen: the engine gives a code with its words and numbers, the
// interface says it in the current language, with the right plural forms.
#include "text/i18n.h"
#include "text/refusal_message.h"

#include "api/state_json.h"
#include "engine/training/tasks.h"
#include "engine/training/train.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using attn::api::ApplyStatePatch;
using attn::api::Json;
using attn::api::LabState;

// Sets the language for one test and back to English after it.
struct InLanguage {
  explicit InLanguage(text::Lang lang) { text::SetLang(lang); }
  ~InLanguage() { text::SetLang(text::Lang::kEn); }
};

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

attn::ExampleError Refusal(attn::TaskKind kind, int length, const std::string& text) {
  attn::Example ex;
  attn::ExampleError e;
  CHECK_FALSE(attn::LabelExample(attn::MakeTask(kind, length), text, &ex, &e));
  return e;
}

}  // namespace

TEST_CASE("Count and Word follow the current language") {
  {
    InLanguage ru(text::Lang::kRu);
    CHECK(text::Count(21, text::tr::kTokens) == "21\u00A0токен");
    CHECK(text::Count(3, text::tr::kTokensOf) == "3\u00A0токенов");
    CHECK(text::Count(1, text::tr::kTokensOf) == "1\u00A0токена");
    CHECK(text::Count(1, text::tr::kAffineDims) == "1\u00A0аффинное измерение");
    CHECK(std::string(text::Word(2, text::tr::kHeadsCount)) == "головы");
  }
  CHECK(text::Count(1, text::tr::kAffineDims) == "1\u00A0affine dimension");
  CHECK(text::Count(2, text::tr::kHeadsCount) == "2\u00A0heads");
}

TEST_CASE("a refused training example is explained in Russian, with its word or its numbers") {
  InLanguage ru(text::Lang::kRu);
  const std::string unknown = text::ExampleMessage(Refusal(attn::TaskKind::kVerbObject, 6, "я люблю пиццу"));
  CHECK(Has(unknown, "слова «пиццу» нет в словаре задачи"));
  const std::string length = text::ExampleMessage(Refusal(attn::TaskKind::kPreviousToken, 5, "a b c"));
  CHECK(Has(length, "должно быть 5\u00A0токенов"));
  CHECK(Has(length, "а не 3"));
  CHECK(Has(text::ExampleMessage(Refusal(attn::TaskKind::kPreviousToken, 2, "a b c")), "должно быть 2\u00A0токена"));
  CHECK(Has(text::ExampleMessage(Refusal(attn::TaskKind::kVerbObject, 6, "я очень очень очень очень люблю суши")),
            "в примере 7\u00A0слов"));
  CHECK(Has(text::ExampleMessage(Refusal(attn::TaskKind::kVerbObject, 6, "суши люблю я")), "один глагол"));
  CHECK(Has(text::ExampleMessage(Refusal(attn::TaskKind::kMax, 4, "9 1 9 2")), "наибольшая цифра"));
  CHECK(Has(text::ExampleMessage(Refusal(attn::TaskKind::kVerbObject, 6, "  ")), "пример пустой"));
}

TEST_CASE("the header's refusal of a training example or of run B is Russian too") {
  InLanguage ru(text::Lang::kRu);
  const auto example = ApplyStatePatch(LabState{}, Json{{"train", {{"example", "я люблю пиццу"}}}});
  REQUIRE_FALSE(example.ok);
  CHECK(text::RefusalMessage(example) == "Пример для обучения: " + text::ExampleMessage(example.example));
  const auto malformed = ApplyStatePatch(LabState{}, Json{{"train", {{"compare", "heads:2"}}}});
  REQUIRE_FALSE(malformed.ok);
  CHECK(Has(text::RefusalMessage(malformed), "ожидалось"));
  CHECK(Has(text::RefusalMessage(malformed), "получено \"heads:2\""));
  const auto value = ApplyStatePatch(LabState{}, Json{{"train", {{"compare", "lr:-1"}}}});
  REQUIRE_FALSE(value.ok);
  CHECK(Has(text::RefusalMessage(value), "«train.compare: lr»: ожидалось число"));
  CHECK(Has(text::RefusalMessage(value), "получено \u22121"));  // the minus sign, not the hyphen
}

TEST_CASE("English refusals stay the API's own line") {
  const auto example = ApplyStatePatch(LabState{}, Json{{"train", {{"example", "я люблю пиццу"}}}});
  CHECK(text::RefusalMessage(example) == example.message);
}

TEST_CASE("a training divergence is told from its step and cause, in both languages") {
  attn::Divergence d;
  d.step = 42;
  d.cause = attn::DivergenceCause::kGradients;
  CHECK(text::DivergenceMessage(d) == "Training diverged at step 42: the gradients are not finite.");
  d.cause = attn::DivergenceCause::kPass;
  d.detail = "the attention scores overflowed the number type";
  CHECK(text::DivergenceMessage(d) == "Training diverged at step 42: the attention scores overflowed the number type.");
  InLanguage ru(text::Lang::kRu);
  CHECK(text::DivergenceMessage(d) == "Обучение разошлось на шаге\u00A042: в прямом или обратном проходе получилась бесконечность или NaN.");
  d.cause = attn::DivergenceCause::kParameters;
  CHECK(Has(text::DivergenceMessage(d), "на шаге\u00A042: после обновления параметр"));
}

TEST_CASE("a real divergence reaches the interface as a code it can translate") {
  attn::TrainConfig cfg;
  cfg.optimizer = attn::Optimizer::kSgd;
  cfg.lr = 10.0;
  cfg.normalizer = attn::Normalizer::kNone;
  cfg.scaled = false;
  cfg.d_k = 64;
  attn::Trainer t;
  REQUIRE(t.Reset(cfg));
  for (int k = 0; k < 500 && t.Step(); ++k) {
  }
  REQUIRE(t.diverged());
  InLanguage ru(text::Lang::kRu);
  CHECK(text::DivergenceMessage(t.divergence()).rfind("Обучение разошлось на шаге\u00A0" + std::to_string(t.step() + 1) + ": ", 0) == 0);
}

TEST_CASE("curve labels and task names in Russian") {
  attn::TrainConfig c;
  c.scaled = false;
  c.d_k = 64;
  CHECK(text::CurveLabel(c) == "softmax without ÷√d_k, d_k = 64");
  InLanguage ru(text::Lang::kRu);
  CHECK(text::CurveLabel(c) == "softmax без ÷√d_k, d_k = 64");
  CHECK(std::string(text::TaskLabel(attn::TaskKind::kVerbObject)) == "глагол → дополнение");
}

TEST_CASE("too many tokens in the sentence: the count agrees with its noun") {
  std::string sentence;
  for (int i = 0; i < attn::kMaxTokens + 1; ++i) sentence += "a ";
  const auto r = ApplyStatePatch(LabState{}, Json{{"sentence", sentence}});
  REQUIRE_FALSE(r.ok);
  InLanguage ru(text::Lang::kRu);
  const std::string text = text::RefusalMessage(r);
  CAPTURE(text);
  CHECK(Has(text, "В предложении " + text::Count(attn::kMaxTokens + 1, text::tr::kTokens)));
}

namespace {

// The Latin words of a Russian message outside what it quotes («...», "...") and the names a
// reader types as they are (JSON's true/false/null, UTF-8, JSON, float): "" when there are none.
std::string EnglishWords(const std::string& text) {
  std::string out, word;
  bool in_guillemets = false, in_quotes = false;
  auto flush = [&]() {
    if (word.size() >= 3 && word != "true" && word != "false" && word != "null" && word != "UTF" && word != "JSON" &&
        word != "float")
      out += (out.empty() ? "" : " ") + word;
    word.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "«") == 0) in_guillemets = true;
    if (text.compare(i, 2, "»") == 0) in_guillemets = false;
    if (text[i] == '"') in_quotes = !in_quotes;
    const char c = text[i];
    if (!in_guillemets && !in_quotes && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) word += c;
    else flush();
  }
  flush();
  return out;
}

}  // namespace

TEST_CASE("Russian refusals have no English words: every kind of bad state the API refuses") {
  InLanguage ru(text::Lang::kRu);
  CHECK(EnglishWords("«train»: ожидался объект, получено \"abc\"") == "");
  CHECK(EnglishWords("Недопустимое значение: train: expected an object") == "train expected object");  // can fail
  const char* const patches[] = {
      R"({"sentence": 5})", R"({"sentence": ""})", R"({"query": 99})", R"({"query": "x"})", R"({"temperature": 0})",
      R"({"heads": 0})", R"({"dV": 99})", R"({"seed": -1})", R"({"normalizer": "foo"})", R"({"foo": 1})", R"([1])",
      R"({"train": 5})", R"({"train": "lr"})", R"({"train": {"lr": -1}})", R"({"train": {"foo": 1}})",
      R"({"train": {"task": "bar"}})", R"({"train": {"query": 40}})", R"({"train": {"example": 5}})",
      R"({"train": {"compare": "heads:2"}})", R"({"train": {"compare": "lr:-1"}})", R"({"hide": "nothing"})",
      R"({"hide": 5})", R"({"lock": ["x"]})", R"({"lang": "de"})", R"({"view": "x"})", R"({"predictions": "zzz"})",
      R"({"predictions": "abc"})", R"({"lesson": 99})", R"({"target": 99})", R"({"head": 9})", R"({"play": 3})"};
  for (const char* patch : patches) {
    const auto r = ApplyStatePatch(LabState{}, Json::parse(patch));
    REQUIRE_FALSE(r.ok);
    const std::string message = text::RefusalMessage(r);
    INFO(patch, " -> ", message);
    CHECK(EnglishWords(message) == "");
  }
}

TEST_CASE("the three refusals that were English inside Russian: train, train.query, predictions") {
  InLanguage ru(text::Lang::kRu);
  CHECK(text::RefusalMessage(ApplyStatePatch(LabState{}, Json{{"train", 5}})) ==
        "«train»: ожидался объект, например {\"lr\": 0.01}, получено 5.");
  const auto query = ApplyStatePatch(LabState{}, Json{{"train", {{"query", 40}}}});
  REQUIRE_FALSE(query.ok);
  CHECK(Has(text::RefusalMessage(query), "«train.query»: ожидалось целое число от \u22121 до "));
  CHECK(Has(text::RefusalMessage(query), "получено 40."));
  CHECK(Has(query.message, "train.query: expected -1 (automatic) or a token index of the example from 0 to "));
  const auto predictions = ApplyStatePatch(LabState{}, Json{{"predictions", "zzz"}});
  REQUIRE_FALSE(predictions.ok);
  CHECK(text::RefusalMessage(predictions) ==
        "«predictions»: ожидалось 9\u00A0символов, каждый «-» (ещё не ответили) или a, b, c (выбранный ответ), получено \"zzz\".");
}

TEST_CASE("a refused edit (what if, knock-out, value) is said in Russian, phrase by phrase, with its numbers") {
  struct Case {
    attn::LabConfig cfg;
    const char* field;
    const char* ru_part;
  };
  auto with = [](auto set) {
    attn::LabConfig c;  // «я люблю суши», query 1
    set(c);
    return c;
  };
  const Case cases[] = {
      {with([](attn::LabConfig& c) { c.what_if_token = 7; c.what_if_with = "рис"; }), "whatIfToken", "номер токена от 0 до 2, получено 7"},
      {with([](attn::LabConfig& c) { c.what_if_token = 1; c.what_if_mode = attn::WhatIfMode::kInsert; }), "whatIfWith", "слово, которое вставить"},
      {with([](attn::LabConfig& c) { c.what_if_token = 2; c.what_if_with = "два слова"; }), "whatIfWith", "одно слово (один токен), получено \"два слова\" (2\u00A0токена)"},
      {with([](attn::LabConfig& c) { c.what_if_token = 1; }), "whatIfToken", "токен, отличный от запроса (1)"},
      {with([](attn::LabConfig& c) { c.knockout_keys = "0,9"; }), "knockoutKeys", "номера токенов от 0 до 2 через запятую"},
      {with([](attn::LabConfig& c) { c.knockout_heads = "1:0"; }), "knockoutHeads", "пары слой:голова со слоем 0"},
      {with([](attn::LabConfig& c) { c.value_token = 3; }), "valueToken", "−1 (нет) или номер токена от 0 до 2, получено 3"},
  };
  InLanguage ru(text::Lang::kRu);
  for (const Case& k : cases) {
    const attn::LabResult res = attn::ComputeLab(k.cfg);
    REQUIRE(res.error.code == attn::ConfigError::kEditInvalid);
    attn::api::PatchResult r;
    r.api_error = attn::api::ApiError::kEngine;
    r.engine_error = res.error;
    r.field = res.error.field;
    r.message = res.error.message;
    const std::string said = text::RefusalMessage(r);
    CAPTURE(res.error.message);
    CAPTURE(said);
    CHECK(r.field == k.field);
    CHECK(Has(said, std::string("«") + k.field + "»: ожидалось "));
    CHECK(Has(said, k.ru_part));
    CHECK_FALSE(Has(said, "expected"));
  }
}
