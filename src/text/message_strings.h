// Counts (a number and its noun) and the engine's messages, which i18n.cpp builds from the
// engine's codes.
// Each string in English and Russian side by side (text.h); tests/text checks every one.
#pragma once

#include "text/text.h"

namespace text::tr {

// ---- counts: a number and its noun (Count(n, kTokens) is "3 tokens", «3 токена») -----------
// Russian takes the case the sentence asks for: «6 токенов» (nominative), «из 6 токенов»
// (genitive: the ...Of forms), «в 2 прогонах» (prepositional).
inline constexpr Plural kTokens{{"token", "tokens"}, {"токен", "токена", "токенов"}};
inline constexpr Plural kTokensOf{{"token", "tokens"}, {"токена", "токенов", "токенов"}};
inline constexpr Plural kAffineDims{{"affine dimension", "affine dimensions"},
                                    {"аффинное измерение", "аффинных измерения", "аффинных измерений"}};
inline constexpr Plural kHeadsCount{{"head", "heads"}, {"голова", "головы", "голов"}};
inline constexpr Plural kStepsCount{{"step", "steps"}, {"шаг", "шага", "шагов"}};
inline constexpr Plural kSeeds{{"seed", "seeds"}, {"запуск", "запуска", "запусков"}};  // a run per seed
inline constexpr Plural kRunsIn{{"run", "runs"}, {"прогоне", "прогонах", "прогонах"}};
inline constexpr Plural kKeys{{"key", "keys"}, {"ключ", "ключа", "ключей"}};
inline constexpr Plural kKeysOf{{"key", "keys"}, {"ключа", "ключей", "ключей"}};
inline constexpr Plural kSamples{{"sample", "samples"}, {"испытание", "испытания", "испытаний"}};
inline constexpr Plural kWords{{"word", "words"}, {"слово", "слова", "слов"}};
inline constexpr Plural kBytesOf{{"byte", "bytes"}, {"байта", "байт", "байт"}};

// ---- the engine's messages (i18n.cpp builds them from the engine's codes) ------------------
inline constexpr Text kDivergedAt{"Training diverged at step %d: %s.", "Обучение разошлось на шаге\u00A0%d: %s."};
// kPass: in English the pass's own line ("the attention scores overflowed the number type").
inline constexpr Text kCausePass{"a forward or backward pass produced infinity or NaN",
                                 "в прямом или обратном проходе получилась бесконечность или NaN"};
inline constexpr Text kCauseGradients{"the gradients are not finite", "градиенты не конечны (бесконечность или NaN)"};
inline constexpr Text kCauseParameters{"a parameter became non-finite",
                                       "после обновления параметр стал бы бесконечным или NaN"};
inline constexpr Text kCurveScaled{"%s ÷√d_k, d_k = %d", "%s ÷√d_k, d_k = %d"};
inline constexpr Text kCurveUnscaled{"%s without ÷√d_k, d_k = %d", "%s без ÷√d_k, d_k = %d"};
inline constexpr Text kExampleFor{"Training example: %s", "Пример для обучения: %s"};
inline constexpr Text kExampleEmpty{"the example is empty: type a sentence of the task",
                                    "пример пустой: введите предложение для этой задачи"};
inline constexpr Text kExampleUtf8{"the example is not valid UTF-8 (byte %lld)", "пример не в кодировке UTF-8 (байт %lld)"};
inline constexpr Text kExampleBytes{"the example is too long (at most %s)", "пример слишком длинный (не больше %s)"};
inline constexpr Text kExampleTokens{"the example has %s; at most %d are allowed", "в примере %s, а можно не больше %d"};
inline constexpr Text kExampleUnknown{"«%s» is not in the task's vocabulary (%s)", "слова «%s» нет в словаре задачи (%s)"};
inline constexpr Text kExampleLength{"the example must have %s (the task's length), not %lld",
                                     "в примере должно быть %s (длина задачи), а не %lld"};
inline constexpr Text kExampleTooLong{"the example has %s; sentences of this task have at most %lld",
                                      "в примере %s, а в предложениях этой задачи их не больше %lld"};
inline constexpr Text kExampleLargest{"the largest digit must occur once in the example",
                                      "наибольшая цифра должна встречаться в примере ровно один раз"};
inline constexpr Text kExampleVerbObject{"the example needs one verb followed by one object, e.g. «I love sushi» or «я люблю суши»",
                                         "в примере нужен один глагол и после него одно дополнение, например «я люблю суши» или «I love sushi»"};
inline constexpr Text kCompareMalformed{"«train.compare»: expected \"\", \"scaled\", \"normalizer:<name>\", \"optimizer:<name>\", \"lr:<number>\" or \"dK:<integer>\", got %s.",
                                        "«train.compare»: ожидалось \"\", \"scaled\", \"normalizer:<имя>\", \"optimizer:<имя>\", \"lr:<число>\" или \"dK:<целое>\", получено %s."};
inline constexpr Text kCompareRunB{"Run B cannot be trained: %s", "Прогон B не обучить: %s"};

}  // namespace text::tr
