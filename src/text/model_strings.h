// The trained model's own analyses: Information on a real head, "Probe this head", "Train it
// more" (panel_information.cpp, panel_model_train.cpp).
// Each string in English and Russian side by side (text.h); tests/text checks every one.
#pragma once

#include "text/text.h"

namespace text::tr {

// ---- Information on a real head (model mode): what the layer passes on (panel_information.cpp) --
inline constexpr Text kLayerInfoTitle{"Through the layer: layer %d, head %d", "Через слой: слой %d, голова %d"};
inline constexpr Text kLayerInfoIntro{
    "Does what the layer passes on tell more about this head's pattern than A does? As above, the reader knows every head's values. The query sees %s; a head has d_head = %d numbers, so at most %d keys can be told apart exactly.",
    "Говорит ли то, что слой передаёт дальше, о паттерне этой головы больше, чем A? Как и выше, читатель знает значения всех голов. Запрос видит %s; у головы d_head = %d чисел, так что точно различимы не больше %d ключей."};
inline constexpr Text kLayerKept{"recoverable (0 dimensions free)", "восстанавливается (0 свободных измерений)"};
inline constexpr Text kLayerLost{"not recoverable: the patterns giving the same form a set of dimension %d",
                                 "не восстанавливается: тот же результат дают паттерны из множества размерности %d"};
inline constexpr Text kLayerFromA{"From A (%d numbers): %s.", "Из A (%d чисел): %s."};
inline constexpr Text kLayerFromConcat{
    "From the concatenation of all %d heads (%d numbers): %s. The heads are separate equations, so the other heads add nothing (all heads together: dimension %d).",
    "Из конкатенации всех %d голов (%d чисел): %s. Головы — отдельные уравнения, поэтому другие головы ничего не добавляют (все головы вместе: размерность %d)."};
inline constexpr Text kLayerFromOutput{
    "From the layer's output concat·W_O (%d numbers): %s. W_O has rank %d of %d (condition number %s): the concatenation is read back from the output exactly.",
    "Из выхода слоя concat·W_O (%d чисел): %s. Ранг W_O равен %d из %d (число обусловленности %s): конкатенация однозначно восстанавливается по выходу."};
inline constexpr Text kLayerFromOutputLow{
    "From the layer's output concat·W_O (%d numbers): %s. W_O has rank %d of %d: the heads are coupled, one head's change can hide in another's.",
    "Из выхода слоя concat·W_O (%d чисел): %s. Ранг W_O равен %d из %d: головы связаны, изменение одной может спрятаться в другой."};
inline constexpr Text kLayerFromResidual{
    "With the residual, x + concat·W_O, the reader knowing LN(x) (the values come from it) but not the mean and scale LayerNorm removed (2 more unknowns): %s.",
    "С остаточной связью, x + concat·W_O, если читатель знает LN(x) (значения вычислены из него), но не среднее и масштаб, которые убрал LayerNorm (ещё 2 неизвестных): %s."};
inline constexpr Text kLayerXUnknown{"With x not known at all, nothing: any output fits. With x known, as from the output.",
                                     "Если x совсем неизвестен — ничего: подходит любой выход. Если x известен — как из выхода."};
inline constexpr Text kLayerAfterMlp{
    "After the MLP, y + MLP(LN(y)): its Jacobian at this token has rank %d of %d (condition number %s), so near this point it tells as much as y.",
    "После MLP, y + MLP(LN(y)): его якобиан в этом токене имеет ранг %d из %d (число обусловленности %s), так что вблизи этой точки он говорит столько же, сколько y."};
inline constexpr Text kLayerResidualScenario{
    "Second scenario through the residual: «%s» can get up to %s (from A alone: %s; it is %s).",
    "Второй сценарий через остаточную связь: «%s» может получить до %s (из одного A: %s; на деле %s)."};
inline constexpr Text kLayerResidualRanges{"Per word, through the residual:", "По словам, через остаточную связь:"};
inline constexpr Text kLayerTryLonger{
    "Here every key fits in d_head + 1 = %d: type a sentence of more than %d tokens and choose the last one as the query to see A lose the pattern.",
    "Здесь все ключи укладываются в d_head + 1 = %d: введите предложение длиннее %d токенов и сделайте запросом последний, чтобы увидеть, как A теряет паттерн."};
inline constexpr Text kLayerNotReady{"The layer's analysis appears when the model has computed this sentence.",
                                     "Анализ слоя появится, когда модель посчитает это предложение."};
// "Probe this head" (panel_information.cpp, model mode; app model_probe.cpp).
inline constexpr Text kHeadProbeRun{"Probe this head", "Проверить голову пробой"};
inline constexpr Text kHeadProbeRunning{"probing…", "проверяем…"};
inline constexpr Text kHeadProbeExplain{
    "The seed: past d_head + 1 = %d keys A cannot fix the pattern. What a readout of A alone recovers (how far back the top key is; built-in text, %d tokens, not trained on; 70%% trains, 30%% tests):",
    "Автор вопроса: дальше d_head + 1 = %d ключей A не задаёт паттерн. Что восстанавливает классификатор по одному A (насколько назад главный ключ; встроенный текст, %d токенов, не из обучения; 70%% учат, 30%% проверяют):"};
inline constexpr Text kHeadProbeRow{"%s %d keys: %s (chance %s, position only %s; n = %d)",
                                    "%s %d ключей: %s (наугад %s, только позиция %s; n = %d)"};
// "Train it more" (panel_model_train.cpp): the loaded model's training continued on a text.
inline constexpr Text kTuneTitle{"Train it more", "Дообучить модель"};
inline constexpr Text kTuneIntro{"Continue the model's training on a text and watch the chosen head change.",
                                 "Продолжите обучение модели на тексте и смотрите, как меняется выбранная голова."};
inline constexpr Text kTuneText{"text", "текст"};
inline constexpr Text kTuneAuto{"built-in text (interface language)", "встроенный текст (язык интерфейса)"};
inline constexpr Text kTuneEn{"built-in English text", "встроенный английский текст"};
inline constexpr Text kTuneRu{"built-in Russian text", "встроенный русский текст"};
inline constexpr Text kTuneOwn{"my own text", "свой текст"};
inline constexpr Text kTuneOwnHint{"type or paste a text (at least a sentence)", "введите или вставьте текст (хотя бы предложение)"};
inline constexpr Text kTuneSteps{"steps", "шаги"};
inline constexpr Text kTuneLr{"learning rate", "скорость обучения"};
inline constexpr Text kTuneTrain{"▶ Train %s", "▶ Обучить: %s"};  // Count(steps, kStepsCount)
inline constexpr Text kTuneReset{"Reset to the shipped weights", "Вернуть исходные веса"};
inline constexpr Text kTuneProgress{"step %d / %d · loss %.3f", "шаг %d / %d · потеря %.3f"};
inline constexpr Text kTuneProgressFirst{"step %d / %d", "шаг %d / %d"};
inline constexpr Text kTuneShipped{"Weights: as shipped.", "Веса: исходные."};
inline constexpr Text kTuneTrained{"Weights: trained %s more on this page; loss %.3f → %.3f (nats per token).",
                                   "Веса: дообучены на этой странице, %s; потеря %.3f → %.3f (нат на токен)."};
inline constexpr Text kTuneFrame{"%d × %d-token sequence per frame, %.0f ms", "%d × последовательность из %d токенов за кадр, %.0f мс"};
inline constexpr Text kTuneLoading{"The built-in texts are still loading.", "Встроенные тексты ещё загружаются."};
inline constexpr Text kTuneNoModel{"Choose the trained model (projections) to train it more.",
                                   "Выберите обученную модель (проекции), чтобы дообучить её."};
inline constexpr Text kTuneEmpty{"The text is empty: type or paste a text.", "Текст пуст: введите или вставьте текст."};
inline constexpr Text kTuneTooShort{"The text is too short: %s, at least %d are needed.",
                                    "Текст слишком короткий: %s, нужно хотя бы %d."};  // Count(tokens, kTokens)
inline constexpr Text kTuneTooLong{"The text is too long: %s, at most %d.", "Текст слишком длинный: %s, не больше %d."};  // Count(bytes, kBytes)
inline constexpr Plural kBytes{{"byte", "bytes"}, {"байт", "байта", "байт"}};
inline constexpr Text kTuneBadUtf8{"The text is not valid UTF-8.", "Текст — не корректный UTF-8."};
inline constexpr Text kTuneFailed{"Training stopped: %s", "Обучение остановлено: %s"};

}  // namespace text::tr
