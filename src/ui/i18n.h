// Interface text in English and Russian. Every string a panel shows is a `Text` here, so the two
// languages stay side by side and a missing translation is visible in review.
#pragma once

#include "api/state_json.h"

#include <string>

namespace ui {

enum class Lang { kEn, kRu };

struct Text {
  const char* en;
  const char* ru;
};

void SetLang(Lang lang);
Lang CurrentLang();
Lang LangFromCode(const std::string& code);  // "ru" -> kRu, anything else -> kEn

const char* L(const Text& t);  // the text in the current language
// A widget label with a stable ImGui ID across languages: "<text>###<id>".
const char* Label(const Text& t, const char* id);

// A refused state change, in the current language.
std::string RefusalMessage(const attn::api::PatchResult& r);

namespace tr {
inline constexpr Text kTitle{"Attention Lab", "Лаборатория внимания"};
inline constexpr Text kTagline{"Does the sum A = Σ αᵢ·vᵢ lose which words mattered?",
                               "Теряет ли сумма A = Σ αᵢ·vᵢ, какие слова были важны?"};
inline constexpr Text kSentence{"Sentence", "Предложение"};
inline constexpr Text kSentenceHint{"type a sentence (Latin or Cyrillic)", "введите предложение (латиница или кириллица)"};
inline constexpr Text kTokensHint{"Tokens (click one to make it the query):", "Токены (нажмите, чтобы сделать запросом):"};
inline constexpr Text kQuery{"query", "запрос"};
inline constexpr Text kSettings{"Settings", "Настройки"};
inline constexpr Text kProjection{"projections", "проекции"};
inline constexpr Text kIdentity{"identity: q = k = v = x", "тождественные: q = k = v = x"};
inline constexpr Text kRandom{"random W_Q, W_K, W_V", "случайные W_Q, W_K, W_V"};
inline constexpr Text kScaled{"divide by √d_k", "делить на √d_k"};
inline constexpr Text kTemperature{"temperature T", "температура T"};
inline constexpr Text kDModel{"d_model", "d_model"};
inline constexpr Text kDK{"d_k", "d_k"};
inline constexpr Text kSeed{"seed", "seed"};
inline constexpr Text kPositional{"positional encoding", "позиционное кодирование"};
inline constexpr Text kIdentityDk{"identity: d_k = d_model", "тождественные: d_k = d_model"};
inline constexpr Text kResetSeed{"Seed example", "Пример из вопроса"};
inline constexpr Text kLanguage{"Language", "Язык"};
inline constexpr Text kSteps{"Steps", "Шаги"};
inline constexpr Text kStepsFor{"Attention of the query «%s» (token %d), step by step",
                                "Внимание запроса «%s» (токен %d), шаг за шагом"};
inline constexpr Text kColToken{"token i", "токен i"};
inline constexpr Text kColScore{"q·kᵢ", "q·kᵢ"};
inline constexpr Text kColScaled{"sᵢ = q·kᵢ·c/T", "sᵢ = q·kᵢ·c/T"};
inline constexpr Text kColExp{"exp(sᵢ − m)", "exp(sᵢ − m)"};
inline constexpr Text kColWeight{"scale(i) = αᵢ", "scale(i) = αᵢ"};
inline constexpr Text kColWeighted{"αᵢ·vᵢ", "αᵢ·vᵢ"};
inline constexpr Text kSum{"Σ", "Σ"};
inline constexpr Text kScaleIs{"sᵢ = q·kᵢ · c ÷ T with c = 1/√d_k = %s (d_k = %d) and T = %s;   m = max sᵢ = %s (subtracted before exp for stability; it cancels)",
                               "sᵢ = q·kᵢ · c ÷ T, где c = 1/√d_k = %s (d_k = %d) и T = %s;   m = max sᵢ = %s (вычитается перед exp для устойчивости и сокращается)"};
inline constexpr Text kScaleIsUnscaled{"sᵢ = q·kᵢ ÷ T with T = %s (no √d_k scaling);   m = max sᵢ = %s (subtracted before exp for stability; it cancels)",
                                       "sᵢ = q·kᵢ ÷ T, где T = %s (без деления на √d_k);   m = max sᵢ = %s (вычитается перед exp для устойчивости и сокращается)"};
inline constexpr Text kFormula{"The formula with the current numbers", "Формула с текущими числами"};
inline constexpr Text kOutputA{"Output A (a vector of d_v = %d numbers)", "Выход A (вектор из d_v = %d чисел)"};
inline constexpr Text kWhereInfo{"Which words mattered is in the weights αᵢ, i.e. in the scores q·kᵢ, before the sum.",
                                 "Какие слова важны, записано в весах αᵢ, то есть в оценках q·kᵢ, до суммирования."};
inline constexpr Text kHeatmap{"Weights", "Веса"};
inline constexpr Text kHeatmapCaption{"All weights αᵢⱼ: row = query i, column = key j; each row sums to 1",
                                      "Все веса αᵢⱼ: строка — запрос i, столбец — ключ j; сумма по строке = 1"};
inline constexpr Text kHover{"query «%s» → key «%s»: α = %s", "запрос «%s» → ключ «%s»: α = %s"};
inline constexpr Text kVectors{"Vectors", "Векторы"};
inline constexpr Text kVectorsCaption{"PCA of vᵢ, αᵢ·vᵢ and A: the first two components keep %.1f%% of the variance (PC1 %.1f%%)",
                                      "PCA по vᵢ, αᵢ·vᵢ и A: две первые компоненты сохраняют %.1f%% дисперсии (PC1 %.1f%%)"};
inline constexpr Text kVectorsLegend{"● vᵢ (values)   ○ αᵢ·vᵢ (scaled)   ◆ A = Σ αᵢ·vᵢ   shaded: convex hull of the vᵢ",
                                     "● vᵢ (значения)   ○ αᵢ·vᵢ (масштабированные)   ◆ A = Σ αᵢ·vᵢ   тень: выпуклая оболочка vᵢ"};
inline constexpr Text kVectorsNote{"A is a weighted average of the values (weights ≥ 0, sum 1), so it always lies inside their hull; the dashed path adds the αᵢ·vᵢ one by one from the origin.",
                                   "A — взвешенное среднее значений (веса ≥ 0, сумма 1), поэтому A всегда внутри их оболочки; пунктир складывает αᵢ·vᵢ по очереди от начала координат."};
inline constexpr Text kOrigin{"0", "0"};
inline constexpr Text kHeads{"heads h", "головы h"};
inline constexpr Text kHeadOf{"Head %d of %d", "Голова %d из %d"};
inline constexpr Text kHeadsStrip{"All heads (click one to follow it):", "Все головы (нажмите, чтобы выбрать):"};
inline constexpr Text kNormalizer{"normalizer", "нормировка"};
inline constexpr Text kNormSoftmax{"softmax", "softmax"};
inline constexpr Text kNormSparsemax{"sparsemax (exact zeros)", "sparsemax (точные нули)"};
inline constexpr Text kNormRelu{"relu(s) / Σ relu(s)", "relu(s) / Σ relu(s)"};
inline constexpr Text kNormSigmoid{"sigmoid (no normalization)", "сигмоида (без нормировки)"};
inline constexpr Text kNormNone{"none (raw scores as weights)", "нет (сырые оценки как веса)"};
inline constexpr Text kNormHardmax{"hardmax (one-hot)", "hardmax (one-hot)"};
inline constexpr Text kHardmaxNote{"hardmax is forward only: its gradient is zero everywhere, so nothing can be learned through it.",
                                   "hardmax — только прямой проход: его градиент всюду равен нулю, через него ничему не научиться."};
inline constexpr Text kMask{"mask", "маска"};
inline constexpr Text kMaskNone{"none", "нет"};
inline constexpr Text kMaskCausal{"causal (earlier tokens only)", "каузальная (только предыдущие)"};
inline constexpr Text kEntropyHeader{"H", "H"};
inline constexpr Text kEntropyNote{"H = each row's entropy in nats (uniform over N keys: ln N; one-hot: 0)",
                                   "H = энтропия каждой строки в натах (равномерно по N ключам: ln N; one-hot: 0)"};
inline constexpr Text kMasked{"masked", "маска"};
inline constexpr Text kColNumSparsemax{"max(sᵢ − τ, 0)", "max(sᵢ − τ, 0)"};
inline constexpr Text kColNumRelu{"relu(sᵢ)", "relu(sᵢ)"};
inline constexpr Text kColNumSigmoid{"σ(sᵢ)", "σ(sᵢ)"};
inline constexpr Text kColNumNone{"sᵢ", "sᵢ"};
inline constexpr Text kColNumHardmax{"one-hot", "one-hot"};
inline constexpr Text kRuleSoftmax{"scale(i) = αᵢ = exp(sᵢ) / Σⱼ exp(sⱼ) = exp(sᵢ − m) / Σⱼ exp(sⱼ − m)",
                                   "scale(i) = αᵢ = exp(sᵢ) / Σⱼ exp(sⱼ) = exp(sᵢ − m) / Σⱼ exp(sⱼ − m)"};
inline constexpr Text kRuleSparsemax{"αᵢ = max(sᵢ − τ, 0) with τ = %s chosen so that Σ αᵢ = 1: low scores get exactly 0",
                                     "αᵢ = max(sᵢ − τ, 0), где τ = %s подобран так, что Σ αᵢ = 1: малые оценки дают ровно 0"};
inline constexpr Text kRuleRelu{"αᵢ = relu(sᵢ) / Σⱼ relu(sⱼ) (no positive score: equal weights)",
                                "αᵢ = relu(sᵢ) / Σⱼ relu(sⱼ) (нет положительных оценок — равные веса)"};
inline constexpr Text kRuleSigmoid{"αᵢ = σ(sᵢ) = 1 / (1 + e^(−sᵢ)), each on its own: the weights sum to %s, not 1",
                                   "αᵢ = σ(sᵢ) = 1 / (1 + e^(−sᵢ)), каждая сама по себе: сумма весов %s, а не 1"};
inline constexpr Text kRuleNone{"αᵢ = sᵢ: the raw scores, unbounded; they sum to %s",
                                "αᵢ = sᵢ: сырые оценки без ограничений; их сумма %s"};
inline constexpr Text kRuleHardmax{"αᵢ = 1 on the largest score (shared on ties), 0 elsewhere",
                                   "αᵢ = 1 у наибольшей оценки (поровну при равенстве), иначе 0"};
inline constexpr Text kVectorsNoteUnnormalized{"With this normalizer the weights need not be ≥ 0 or sum to 1, so A is not an average and can leave the hull of the values: that is what softmax guarantees against.",
                                               "С этой нормировкой веса не обязаны быть ≥ 0 и давать в сумме 1, поэтому A — не среднее и может выйти из оболочки значений: именно от этого защищает softmax."};
inline constexpr Text kInformation{"Information", "Информация"};
inline constexpr Text kInfoTitle{"Is information lost in the sum A = Σ αᵢ·vᵢ?", "Теряется ли информация в сумме A = Σ αᵢ·vᵢ?"};
inline constexpr Text kVerdictKept{"Nothing is lost here: the %d values (d_v = %d) are affinely independent (affine rank %d), so only one weight pattern gives this A — read it back from A with error %s.",
                                   "Здесь ничего не теряется: %d значений (d_v = %d) аффинно независимы (аффинный ранг %d), поэтому этот A даёт только один набор весов — он восстанавливается из A с ошибкой %s."};
inline constexpr Text kVerdictLost{"The sum hides part of the pattern: %d tokens, but the values span only %d affine dimensions (d_v = %d), so a %d-dimensional family of weight patterns gives exactly this A.",
                                   "Сумма скрывает часть шаблона: токенов %d, но значения занимают лишь %d аффинных измерений (d_v = %d), поэтому этот же A дают веса из целого %d-мерного семейства."};
inline constexpr Text kVerdictUniqueHere{"This particular A still pins the weights down (the pattern sits on a corner), but most patterns would not be.",
                                         "Этот конкретный A всё же однозначно задаёт веса (шаблон в вершине), но большинство шаблонов — нет."};
inline constexpr Text kShiftOnto{"shift the weight onto", "перенести вес на"};
inline constexpr Text kAuto{"automatic (the next token)", "автоматически (следующий токен)"};
inline constexpr Text kDV{"d_v (value width)", "d_v (ширина значений)"};
inline constexpr Text kScenario1{"Scenario 1: the query's weights α", "Сценарий 1: веса запроса α"};
inline constexpr Text kScenario1Custom{"Scenario 1: your weights α (dragged)", "Сценарий 1: ваши веса α (перетащены)"};
inline constexpr Text kDragHint{"drag the orange bars to try your own pattern", "перетащите оранжевые полосы, чтобы задать свой шаблон"};
inline constexpr Text kBackToQuery{"back to the query's weights", "вернуть веса запроса"};
inline constexpr Text kScenario2{"Scenario 2: α′ with the most weight on «%s»", "Сценарий 2: α′ с наибольшим весом на «%s»"};
inline constexpr Text kSameA{"max |A − A′| = %s: the two outputs are the same vector", "max |A − A′| = %s: два выхода — один и тот же вектор"};
inline constexpr Text kDifferentPattern{"…from patterns that differ by up to %s in a weight.", "…при весах, отличающихся до %s."};
inline constexpr Text kRanges{"What A alone tells about each word", "Что один A говорит о каждом слове"};
inline constexpr Text kRangeLine{"«%s»: the weight could be anything from %s to %s (it is %s)", "«%s»: вес может быть любым от %s до %s (на деле %s)"};
inline constexpr Text kRangePoint{"«%s»: the weight is exactly %s, recoverable from A", "«%s»: вес ровно %s, восстанавливается из A"};
inline constexpr Text kSimplex{"The weights as a point in the simplex; the line/area through it gives the same A",
                               "Веса как точка симплекса; линия/область через неё даёт тот же A"};
inline constexpr Text kSimplexTooMany{"(the simplex picture is drawn for 3 or 4 tokens)", "(симплекс рисуется для 3 или 4 токенов)"};
inline constexpr Text kSeedAnswer{"The seed's answer, made concrete: which words mattered is decided in the scores q·kᵢ before the sum (see Steps); the sum keeps only d_v numbers, and several heads keep several patterns.",
                                  "Ответ из вопроса, наглядно: какие слова важны, решается в оценках q·kᵢ до суммы (см. «Шаги»); сумма хранит лишь d_v чисел, а несколько голов хранят несколько шаблонов."};
inline constexpr Text kProbeRun{"Run the probe", "Запустить зонд"};
inline constexpr Text kProbeExplain{"A readout trained to name the most-weighted token from A alone, on random sentences of %d tokens:",
                                    "Классификатор, обученный по одному A назвать токен с наибольшим весом, на случайных предложениях из %d токенов:"};
inline constexpr Text kProbeRow{"d_v = %2d, %d head(s): accuracy %s (chance %s)", "d_v = %2d, голов %d: точность %s (случайно %s)"};
inline constexpr Text kTryTitle{"Try this", "Попробуйте"};
inline constexpr Text kTry{
    "• Click «суши»: each token's row of weights is its own pattern.\n"
    "• Lower the temperature: the weights approach one-hot; raise it: they flatten.\n"
    "• Switch off ÷√d_k and raise d_model: the scores grow and the softmax saturates.\n"
    "• Random projections: q, k, v differ from x, as in a trained layer.\n"
    "• The sum A keeps only d_v numbers; the pattern itself is in the scores q·kᵢ.",
    "• Нажмите «суши»: у каждого токена своя строка весов — свой шаблон.\n"
    "• Понизьте температуру: веса стремятся к one-hot; повысьте — выравниваются.\n"
    "• Выключите ÷√d_k и увеличьте d_model: оценки растут, softmax насыщается.\n"
    "• Случайные проекции: q, k, v отличаются от x, как в обученном слое.\n"
    "• Сумма A хранит лишь d_v чисел; сам шаблон — в оценках q·kᵢ."};
inline constexpr Text kRefused{"Not applied", "Не применено"};
inline constexpr Text kShowing{"The lab still shows the last valid state.", "Показано последнее корректное состояние."};
}  // namespace tr

}  // namespace ui
