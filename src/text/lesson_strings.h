// The guided lesson's own words (panel_lesson.cpp) and the lines of numbers under each step's
// answer (app/lesson/lesson_readout.cpp: both languages at once, filled with the same printf
// arguments). The lesson's content is a document (web/lessons/*.json), not here.
#pragma once

#include "text/text.h"

namespace text::tr {

// the panel (panel_lesson.cpp)
inline constexpr Text kLesson{"Lesson", "Урок"};
inline constexpr Text kLessonStepOf{"Lesson: step %d of %d", "Урок: шаг %d из %d"};
inline constexpr Text kLessonBack{"◀ Back", "◀ Назад"};
inline constexpr Text kLessonNext{"Next ▶", "Далее ▶"};
inline constexpr Text kLessonClose{"×", "×"};
inline constexpr Text kLessonCloseTip{"Close the lesson (the free lab; lesson = 0)", "Закрыть урок (свободная лаборатория; lesson = 0)"};
inline constexpr Text kLessonSeedSays{"The question's answer says:", "В ответе на вопрос сказано:"};
inline constexpr Text kLessonRight{"Right.", "Верно."};
inline constexpr Text kLessonPartly{"Partly right.", "Отчасти верно."};
inline constexpr Text kLessonImprecise{"Imprecise.", "Неточно."};
inline constexpr Text kLessonPredict{"Predict first:", "Сначала предскажите:"};
inline constexpr Text kLessonYours{"your prediction", "ваш прогноз"};
inline constexpr Text kLessonCorrect{"right", "верно"};
inline constexpr Text kLessonAnswer{"The answer, from the lab:", "Ответ — по данным лаборатории:"};
inline constexpr Text kLessonNumbers{"The engine's numbers (they follow your changes):", "Числа движка (меняются вместе с вашими настройками):"};
inline constexpr Text kLessonRestore{"Back to this step's settings", "Вернуть настройки шага"};
inline constexpr Text kLessonTry{"Try: ", "Попробуйте: "};
inline constexpr Text kLessonKeys{"Keys (click here first): N or → next, B or ← back, 1–%d answer",
                                  "Клавиши (сначала нажмите сюда): N или → далее, B или ← назад, 1–%d — ответ"};
inline constexpr Text kLessonKeysNoQuestion{"Keys (click here first): N or → next, B or ← back",
                                            "Клавиши (сначала нажмите сюда): N или → далее, B или ← назад"};

// the engine's numbers under a step's answer (lesson_readout.cpp), one line each
inline constexpr Text kReadoutQuery{"Query %s, head %d. Word: q·kᵢ; sᵢ = q·kᵢ·c/T; αᵢ",
                                    "Запрос %s, голова %d. Слово: q·kᵢ; sᵢ = q·kᵢ·c/T; αᵢ"};
inline constexpr Text kReadoutTrained{"Trained layer, step %d, query «%s».", "Обученный слой, шаг %d, запрос «%s»."};
inline constexpr Text kReadoutWordGrad{"Word: αᵢ;  ∂L/∂αᵢ (backward);  vᵢ·∂L/∂A",
                                       "Слово: αᵢ;  ∂L/∂αᵢ (обратный проход);  vᵢ·∂L/∂A"};
inline constexpr Text kReadoutWord{"Word: αᵢ", "Слово: αᵢ"};
inline constexpr Text kReadoutModelLoading{"Loading the trained model (its numbers appear here when it is ready)…",
                                           "Загружается обученная модель (её числа появятся здесь, когда она будет готова)…"};
inline constexpr Text kReadoutSelfMean{"Trained model, the mean weight a token puts on itself (%d heads, rows t ≥ 1): %.3f; spread evenly: %.3f",
                                       "Обученная модель, средний вес токена на самом себе (голов: %d, строки t ≥ 1): %.3f; поровну было бы %.3f"};
inline constexpr Text kReadoutLayer{"  layer %d: %.3f", "  слой %d: %.3f"};
inline constexpr Text kReadoutSelfIdentity{"q = k = x (identity projections, the lab's %d words): %.3f on the word itself",
                                           "q = k = x (тождественные проекции, %d слова лаборатории): %.3f на самом слове"};
inline constexpr Text kReadoutInduction{"Head %d.%d: a repeated token's query; its weight on the token after its earlier copy (its largest weight besides <|endoftext|>, where the rest rests):",
                                        "Голова %d.%d: запрос повторного токена; его вес на токене после прошлой копии (его наибольший вес помимо <|endoftext|>, где лежит остальное):"};
inline constexpr Text kReadoutNoRepeat{"  (no token repeats: type a sentence twice)",
                                       "  (ни один токен не повторяется: введите предложение дважды)"};
inline constexpr Text kReadoutInductionMean{"mean over %d repeated tokens: %.2f; spread evenly: %.2f",
                                            "в среднем по %d повторным токенам: %.2f; поровну было бы %.2f"};
inline constexpr Text kReadoutSelfScore{"q·q = %.3f, the largest other q·k = %.3f",
                                        "q·q = %.3f, наибольшее другое q·k = %.3f"};
inline constexpr Text kReadoutFamily{"tokens: %d, d_v = %d; affine rank of the values: %d; patterns with the same A: a family of dimension %d",
                                     "токенов: %d, d_v = %d; аффинный ранг значений: %d; паттерны с тем же A: семейство размерности %d"};
inline constexpr Text kReadoutScenario1{"scenario 1: α  = %s", "сценарий 1: α  = %s"};
inline constexpr Text kReadoutScenario2{"scenario 2: α′ = %s (the most weight on %s)",
                                        "сценарий 2: α′ = %s (больше всего веса на %s)"};
inline constexpr Text kReadoutHeads{"heads: %d, d_v = %d each; [A¹; …] has length %d, W_O maps it to d_model = %d",
                                    "голов: %d, у каждой d_v = %d; длина [A¹; …]: %d, W_O переводит её в d_model = %d"};
inline constexpr Text kReadoutHeadTop{"  head %d: %s → %s (α = %.3f)", "  голова %d: %s → %s (α = %.3f)"};
inline constexpr Text kReadoutProbe{"Probe (%d of %d runs): a readout sees only A",
                                    "Зонд (%d из %d запусков): классификатор видит только A"};
inline constexpr Text kReadoutProbeRow{"  words: %d, d_v = %d, heads: %d: right %.0f%% (chance %.0f%%)",
                                       "  слов: %d, d_v = %d, голов: %d — верно %.0f%% (наугад %.0f%%)"};
inline constexpr Text kReadoutShift{"Word: sᵢ → sᵢ + 5;  αᵢ → αᵢ(s + 5)", "Слово: sᵢ → sᵢ + 5;  αᵢ → αᵢ(s + 5)"};
inline constexpr Text kReadoutShiftChange{"largest change of a weight: %.1e (rounding)",
                                          "наибольшее изменение веса: %.1e (округление)"};
inline constexpr Text kReadoutContributions{"What each word did to A: ‖αᵢvᵢ‖, and ‖A − A₋ᵢ‖ with the word masked out:",
                                            "Что каждое слово сделало с A: ‖αᵢvᵢ‖ и ‖A − A₋ᵢ‖, если слово замаскировать:"};
inline constexpr Text kReadoutNorm{"%s: ‖A‖ = %.2f (scores × %g), %.2f (× %g)",
                                   "%s: ‖A‖ = %.2f (оценки × %g), %.2f (× %g)"};
inline constexpr Text kReadoutBound{"bound: the longest ‖vᵢ‖, %.2f on average",
                                    "граница: самый длинный ‖vᵢ‖, в среднем %.2f"};
inline constexpr Text kReadoutVariance{"d_k = 64: Var(q·k) = %.1f; with ÷√d_k %.2f",
                                       "d_k = 64: Var(q·k) = %.1f; с ÷√d_k %.2f"};
inline constexpr Text kReadoutEntropy{"d_k = %d: entropy %.2f without ÷√d_k, %.2f with",
                                      "d_k = %d: энтропия %.2f без ÷√d_k, %.2f с ним"};
inline constexpr Text kReadoutUniform{"(rows of %d keys; uniform: ln %d = %.2f)",
                                      "(строки из %d ключей; равномерно: ln %d = %.2f)"};
inline constexpr Text kReadoutSum{"Σⱼ α for the query %s: %.6f", "Σⱼ α для запроса %s: %.6f"};
inline constexpr Text kReadoutPredictions{"Your predictions: %d right of %d made", "Ваши прогнозы: верно %d из %d"};
inline constexpr Text kReadoutRightAt{"right at steps %s", "верно на шагах %s"};

}  // namespace text::tr
