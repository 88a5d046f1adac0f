// The engine's messages on screen: the engine gives a code with its words and numbers, the
// interface says it in the current language, with the right plural forms.
#include "ui/i18n.h"

#include "api/state_json.h"
#include "engine/tasks.h"
#include "engine/train.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using attn::api::ApplyStatePatch;
using attn::api::Json;
using attn::api::LabState;

// Sets the language for one test and back to English after it.
struct InLanguage {
  explicit InLanguage(ui::Lang lang) { ui::SetLang(lang); }
  ~InLanguage() { ui::SetLang(ui::Lang::kEn); }
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
    InLanguage ru(ui::Lang::kRu);
    CHECK(ui::Count(21, ui::tr::kTokens) == "21\u00A0токен");
    CHECK(ui::Count(3, ui::tr::kTokensOf) == "3\u00A0токенов");
    CHECK(ui::Count(1, ui::tr::kTokensOf) == "1\u00A0токена");
    CHECK(ui::Count(1, ui::tr::kAffineDims) == "1\u00A0аффинное измерение");
    CHECK(std::string(ui::Word(2, ui::tr::kHeadsCount)) == "головы");
  }
  CHECK(ui::Count(1, ui::tr::kAffineDims) == "1\u00A0affine dimension");
  CHECK(ui::Count(2, ui::tr::kHeadsCount) == "2\u00A0heads");
}

TEST_CASE("a refused training example is explained in Russian, with its word or its numbers") {
  InLanguage ru(ui::Lang::kRu);
  const std::string unknown = ui::ExampleMessage(Refusal(attn::TaskKind::kVerbObject, 6, "я люблю пиццу"));
  CHECK(Has(unknown, "слова «пиццу» нет в словаре задачи"));
  const std::string length = ui::ExampleMessage(Refusal(attn::TaskKind::kPreviousToken, 5, "a b c"));
  CHECK(Has(length, "должно быть 5\u00A0токенов"));
  CHECK(Has(length, "а не 3"));
  CHECK(Has(ui::ExampleMessage(Refusal(attn::TaskKind::kPreviousToken, 2, "a b c")), "должно быть 2\u00A0токена"));
  CHECK(Has(ui::ExampleMessage(Refusal(attn::TaskKind::kVerbObject, 6, "я очень очень очень очень люблю суши")),
            "в примере 7\u00A0слов"));
  CHECK(Has(ui::ExampleMessage(Refusal(attn::TaskKind::kVerbObject, 6, "суши люблю я")), "один глагол"));
  CHECK(Has(ui::ExampleMessage(Refusal(attn::TaskKind::kMax, 4, "9 1 9 2")), "наибольшая цифра"));
  CHECK(Has(ui::ExampleMessage(Refusal(attn::TaskKind::kVerbObject, 6, "  ")), "пример пустой"));
}

TEST_CASE("the header's refusal of a training example or of run B is Russian too") {
  InLanguage ru(ui::Lang::kRu);
  const auto example = ApplyStatePatch(LabState{}, Json{{"train", {{"example", "я люблю пиццу"}}}});
  REQUIRE_FALSE(example.ok);
  CHECK(ui::RefusalMessage(example) == "Пример для обучения: " + ui::ExampleMessage(example.example));
  const auto malformed = ApplyStatePatch(LabState{}, Json{{"train", {{"compare", "heads:2"}}}});
  REQUIRE_FALSE(malformed.ok);
  CHECK(Has(ui::RefusalMessage(malformed), "ожидалось"));
  CHECK(Has(ui::RefusalMessage(malformed), "получено \"heads:2\""));
  const auto value = ApplyStatePatch(LabState{}, Json{{"train", {{"compare", "lr:-1"}}}});
  REQUIRE_FALSE(value.ok);
  CHECK(Has(ui::RefusalMessage(value), "«train.compare: lr»: ожидалось число"));
  CHECK(Has(ui::RefusalMessage(value), "получено \u22121"));  // the minus sign, not the hyphen
}

TEST_CASE("English refusals stay the API's own line") {
  const auto example = ApplyStatePatch(LabState{}, Json{{"train", {{"example", "я люблю пиццу"}}}});
  CHECK(ui::RefusalMessage(example) == example.message);
}

TEST_CASE("a training divergence is told from its step and cause, in both languages") {
  attn::Divergence d;
  d.step = 42;
  d.cause = attn::DivergenceCause::kGradients;
  CHECK(ui::DivergenceMessage(d) == "Training diverged at step 42: the gradients are not finite.");
  d.cause = attn::DivergenceCause::kPass;
  d.detail = "the attention scores overflowed the number type";
  CHECK(ui::DivergenceMessage(d) == "Training diverged at step 42: the attention scores overflowed the number type.");
  InLanguage ru(ui::Lang::kRu);
  CHECK(ui::DivergenceMessage(d) == "Обучение разошлось на шаге\u00A042: в прямом или обратном проходе получилась бесконечность или NaN.");
  d.cause = attn::DivergenceCause::kParameters;
  CHECK(Has(ui::DivergenceMessage(d), "на шаге\u00A042: после обновления параметр"));
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
  InLanguage ru(ui::Lang::kRu);
  CHECK(ui::DivergenceMessage(t.divergence()).rfind("Обучение разошлось на шаге\u00A0" + std::to_string(t.step() + 1) + ": ", 0) == 0);
}

TEST_CASE("curve labels and task names in Russian") {
  attn::TrainConfig c;
  c.scaled = false;
  c.d_k = 64;
  CHECK(ui::CurveLabel(c) == "softmax without ÷√d_k, d_k = 64");
  InLanguage ru(ui::Lang::kRu);
  CHECK(ui::CurveLabel(c) == "softmax без ÷√d_k, d_k = 64");
  CHECK(std::string(ui::TaskLabel(attn::TaskKind::kVerbObject)) == "глагол → дополнение");
}

TEST_CASE("too many tokens in the sentence: the count agrees with its noun") {
  std::string sentence;
  for (int i = 0; i < attn::kMaxTokens + 1; ++i) sentence += "a ";
  const auto r = ApplyStatePatch(LabState{}, Json{{"sentence", sentence}});
  REQUIRE_FALSE(r.ok);
  InLanguage ru(ui::Lang::kRu);
  const std::string text = ui::RefusalMessage(r);
  CAPTURE(text);
  CHECK(Has(text, "В предложении " + ui::Count(attn::kMaxTokens + 1, ui::tr::kTokens)));
}
