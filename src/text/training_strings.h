// The Training and Normalization pages (panel_training*.cpp, panel_normalization.cpp).
// Each string in English and Russian side by side (text.h); tests/text checks every one.
#pragma once

#include "text/text.h"

namespace text::tr {

// ---- training panel ----------------------------------------------------------------------
inline constexpr Text kPlay{"▶ Play", "▶ Пуск"};
inline constexpr Text kPause{"▮▮ Pause", "▮▮ Пауза"};
inline constexpr Text kOneStep{"+1 step", "+1 шаг"};
inline constexpr Text kRunSteps{"+500 steps", "+500 шагов"};
inline constexpr Text kStopRun{"■ Stop", "■ Стоп"};
inline constexpr Text kReset{"↺ Reset", "↺ Сначала"};
inline constexpr Text kSpeed{"speed", "скорость"};
inline constexpr Text kSpeed1{"1 step / frame", "1 шаг / кадр"};
inline constexpr Text kSpeed4{"4 steps / frame", "4 шага / кадр"};
inline constexpr Text kSpeed16{"16 steps / frame", "16 шагов / кадр"};
inline constexpr Text kSpeedMax{"as fast as possible", "как можно быстрее"};
inline constexpr Text kStepCounter{"Step %d", "Шаг %d"};
inline constexpr Text kSpeedOther{"%s / frame", "%s / кадр"};  // Count(speed, kStepsCount): a speed the menu does not list
inline constexpr Text kFrameCost{"(%s in %.1f ms this frame)", "(%s за %.1f\u00A0мс в этом кадре)"};
inline constexpr Text kStoppedAtCap{"Stopped at step %d: press Reset to start again.", "Остановлено на шаге\u00A0%d: нажмите «Сначала», чтобы начать заново."};
inline constexpr Text kDivergedHint{"The numbers left the range of a double. Lower the learning rate, switch ÷√d_k on or pick softmax: changing a setting starts again.",
                                    "Числа вышли за пределы типа double. Уменьшите скорость обучения, включите ÷√d_k или выберите softmax: при смене настройки обучение начнётся заново."};
inline constexpr Text kNoView{"The example cannot be computed with these parameters (not finite).", "При этих параметрах пример не посчитать: получаются бесконечности или NaN."};
inline constexpr Text kTask{"task", "задача"};
inline constexpr Text kTaskVerbObject{"verb → object", "глагол → дополнение"};
inline constexpr Text kTaskPrevious{"previous token", "предыдущий токен"};
inline constexpr Text kTaskReverse{"reverse the sequence", "обратный порядок"};
inline constexpr Text kTaskMax{"largest digit", "наибольшая цифра"};
inline constexpr Text kLength{"length", "длина"};
inline constexpr Text kExample{"Example to watch:", "Пример для наблюдения:"};
inline constexpr Text kExampleHint{"a sentence of the task", "предложение для этой задачи"};
inline constexpr Text kTrainQueryHint{"Query row to explain (click):", "Какой запрос разобрать (нажмите на токен):"};
inline constexpr Text kTokenTask{"«%s» must predict «%s»; the right key to attend to is «%s»",
                                 "Токен «%s» должен предсказать «%s»; правильный ключ — «%s»"};
inline constexpr Text kTokenNoTask{"«%s» has nothing to predict in this task", "Токен «%s» в этой задаче ничего не предсказывает"};
inline constexpr Text kOptimizer{"optimizer", "оптимизатор"};
inline constexpr Text kLearningRate{"learning rate", "скорость обучения"};
inline constexpr Text kBatch{"batch", "батч"};
inline constexpr Text kCausalShort{"causal mask", "каузальная маска"};
inline constexpr Text kDVShort{"d_v", "d_v"};
inline constexpr Text kCompare{"Compare with run B", "Сравнить с прогоном B"};
inline constexpr Text kCompareTip{"Run B trains the same model from the same seed with one setting changed, in lockstep with run A.", "Прогон B обучает ту же модель с тем же seed, но с одной изменённой настройкой, шаг в шаг с прогоном A."};
inline constexpr Text kCmpWhat{"B changes", "что меняется в B"};
inline constexpr Text kCmpScaled{"÷√d_k (the other way)", "÷√d_k (наоборот)"};
inline constexpr Text kCmpNormalizer{"normalizer", "нормировка"};
inline constexpr Text kCmpLr{"learning rate", "скорость обучения"};
inline constexpr Text kCmpOptimizer{"optimizer (the other one)", "оптимизатор (другой)"};
inline constexpr Text kCmpDk{"d_k", "d_k"};
inline constexpr Text kCmpBNormalizer{"B's normalizer", "нормировка в B"};
inline constexpr Text kCmpBLr{"B's learning rate", "скорость обучения в B"};
inline constexpr Text kCmpBDk{"B's d_k", "d_k в B"};
inline constexpr Text kBScaled{"B: with ÷√d_k", "B: с ÷√d_k"};
inline constexpr Text kBUnscaled{"B: no ÷√d_k", "B: без ÷√d_k"};
inline constexpr Text kBSame{"B: same settings", "B: те же настройки"};
inline constexpr Text kRunA{"A", "A"};
inline constexpr Text kExampleAttention{"The example's attention (row = query, column = key)", "Внимание на примере (строка — запрос, столбец — ключ)"};
inline constexpr Text kTrainCaption{"A one-layer model (embeddings → attention → readout) learns the task from random sentences; the heatmap is its attention on the example, after the latest step.",
                                    "Однослойная модель (эмбеддинги → внимание → выходной слой) учится решать задачу на случайных предложениях; тепловая карта — её внимание на примере после последнего шага."};
inline constexpr Text kBpTitle{"Backprop through the weights of «%s»", "Обратный проход через веса «%s»"};
inline constexpr Text kBpCaption{"The example's loss, differentiated: how it would change if each weight scale(i) = αᵢ grew (∂L/∂αᵢ), and what reaches each score sᵢ through the normalizer's backward (∂L/∂sᵢ). Negative ∂L/∂sᵢ: the loss would fall if sᵢ rose. ◀ marks the right key.",
                                 "Производная потерь на примере: как они изменились бы при росте каждого веса scale(i) = αᵢ (∂L/∂αᵢ) и что доходит до каждой оценки sᵢ после обратного прохода нормировки (∂L/∂sᵢ). Отрицательная ∂L/∂sᵢ: потери уменьшились бы, если бы sᵢ выросла. ◀ — правильный ключ."};
inline constexpr Text kBpNoTarget{"«%s» has nothing to predict in this task, so the loss does not depend on its row: every gradient here is 0; pick another row.",
                                  "Токен «%s» в этой задаче ничего не предсказывает, поэтому потери не зависят от его строки: все градиенты здесь равны 0; выберите другую строку."};
inline constexpr Text kHeadN{"head %d", "голова %d"};
inline constexpr Text kBpAlpha{"scale(i) = αᵢ", "scale(i) = αᵢ"};
inline constexpr Text kBpDAlpha{"∂L/∂αᵢ", "∂L/∂αᵢ"};
inline constexpr Text kBpDScore{"∂L/∂sᵢ", "∂L/∂sᵢ"};
inline constexpr Text kCurveLoss{"loss", "потери"};
inline constexpr Text kCurveAccuracy{"accuracy", "точность"};
inline constexpr Text kCurveAttention{"attention on the right key", "внимание на правильный ключ"};
inline constexpr Text kCurveGradNorms{"‖∂L/∂W‖", "‖∂L/∂W‖"};
inline constexpr Text kStepAxis{"step", "шаг"};
inline constexpr Text kLogScale{"log scale", "лог. шкала"};
inline constexpr Text kSummary{"%sstep %d: loss %s, accuracy %.0f%%, attention on the right key %.2f",
                               "%sшаг %d: потери %s, точность %.0f%%, внимание на правильный ключ %.2f"};
inline constexpr Text kSummaryNone{"%snot trained yet: press ▶ Play", "%sмодель ещё не обучалась: нажмите ▶ Пуск"};
inline constexpr Text kGradCaption{"‖∂L/∂W‖ of the batch at each step. When the softmax saturates (large scores, no ÷√d_k) the gradients into W_Q and W_K become very small: the attention pattern stops changing even where it is wrong. Curves: the batch's numbers before each update (noisy); run B dashed.",
                                   "‖∂L/∂W‖ батча на каждом шаге. Когда softmax насыщается (большие оценки, без ÷√d_k), градиенты в W_Q и W_K становятся очень малыми: паттерн внимания перестаёт меняться, даже если он неверен. Кривые — числа батча до каждого обновления (с шумом); прогон B — пунктир."};
inline constexpr Text kTrainTry{
    "• Press ▶ Play and watch the row «love» move onto «sushi» (the attention on the right key passes 0.8 within about a hundred steps).\n"
    "• Tick «Compare» (÷√d_k): run B has no factor. At d_k = 16 it is slower for most seeds (seed 1: about twice as many steps); raise the learning rate to 0.03 and B's loss keeps jumping back up after it has learned, while A stays down.\n"
    "• Compare normalizers: sparsemax and relu(s)/Σrelu(s) learn more slowly here; sigmoid and «none» fit the task as fast, but on average their attention does not concentrate on the right key (third curve), and «none» may even learn a large negative weight on it (see the numbers in the heatmap).\n"
    "• A learning rate of 0.1 or more makes even the scaled run unstable.",
    "• Нажмите ▶ Пуск и смотрите, как внимание строки «люблю» переходит на «суши» (внимание на правильный ключ превышает 0.8 примерно за сотню шагов).\n"
    "• Отметьте «Сравнить с прогоном B» (÷√d_k): у прогона B нет множителя. При d_k = 16 он медленнее для большинства seed (seed 1: примерно вдвое больше шагов); поднимите скорость обучения до 0.03 — и потери B снова и снова подскакивают уже после обучения, а у A остаются внизу.\n"
    "• Сравните нормировки: sparsemax и relu(s)/Σrelu(s) учатся здесь медленнее; сигмоида и «нет» решают задачу так же быстро, но в среднем их внимание не сосредотачивается на правильном ключе (третья кривая), а «нет» может даже выучить на нём большой отрицательный вес (см. числа на тепловой карте).\n"
    "• Скорость обучения 0.1 и больше делает неустойчивым даже прогон с ÷√d_k."};

// ---- normalization panel -----------------------------------------------------------------
inline constexpr Text kNormIntro{"Why divide by √d_k, and why softmax? Four experiments the engine runs on random vectors and on the training task. The orange dashed line marks your training d_k; your normalizer and scaling are drawn thicker.",
                                 "Зачем делить на √d_k и зачем softmax? Четыре эксперимента на случайных векторах и на задаче обучения. Оранжевый пунктир — d_k с вкладки «Обучение»; выбранные там нормировка и масштабирование нарисованы толще."};
inline constexpr Text kNormComputing{"Computing the experiments…", "Эксперименты считаются…"};
inline constexpr Text kYourDk{"your d_k = %d", "ваш d_k = %d"};
inline constexpr Text kVarTitle{"1. Variance of the score q·k", "1. Дисперсия оценки q·k"};
inline constexpr Text kVarMeasuredUnscaled{"measured, q·k", "измерено, q·k"};
inline constexpr Text kVarExactUnscaled{"exact: d_k", "теория: d_k"};
inline constexpr Text kVarMeasuredScaled{"measured, q·k/√d_k", "измерено, q·k/√d_k"};
inline constexpr Text kVarExactScaled{"exact: 1", "теория: 1"};
inline constexpr Text kVarCaption{"q and k have d_k independent N(0, 1) entries, so q·k is a sum of d_k products and its variance is d_k: the dots follow the line. Divided by √d_k, the variance is 1 at every d_k. This part of the intuition holds exactly: without the factor, larger heads give larger scores.",
                                  "У q и k по d_k независимых компонент N(0, 1), поэтому q·k — сумма d_k произведений, и её дисперсия равна d_k: точки лежат на прямой. После деления на √d_k дисперсия равна 1 при любом d_k. Эта часть интуиции верна точно: без множителя чем больше d_k, тем больше оценки."};
inline constexpr Text kSatEntropy{"2. Row entropy (nats)", "2. Энтропия строки (наты)"};
inline constexpr Text kSatGrad{"gradient reaching the scores", "градиент, доходящий до оценок"};
inline constexpr Text kUnscaledShort{"no ÷√d_k", "без ÷√d_k"};
inline constexpr Text kScaledShort{"÷√d_k", "÷√d_k"};
inline constexpr Text kSatSizes{"rows of %s, %s per point", "строки из %s, %s на точку"};  // Count(keys, kKeysOf), Count(samples, kSamples)
inline constexpr Text kSatCaption{"Without the factor the softmax rows get peakier as d_k grows: the mean entropy falls from about 2.4 nats at d_k = 1 (a uniform row would have ln 16 ≈ 2.77) towards 0 and one weight takes almost everything; the gradient at the softmax's input (the scaled scores, not q·k itself) shrinks several-fold. With ÷√d_k both stay flat. Saturation makes learning slower, not impossible: the gradient is smaller, not zero.",
                                  "Без множителя строки softmax с ростом d_k становятся острее: средняя энтропия падает примерно от 2.4 нат при d_k = 1 (у равномерной строки было бы ln 16 ≈ 2.77) к 0, и один вес забирает почти всё; градиент на входе softmax (масштабированные оценки, а не само q·k) уменьшается в разы. С ÷√d_k обе кривые ровные. Насыщение замедляет обучение, но не делает его невозможным: градиент меньше, но не ноль."};
inline constexpr Text kOutTitle{"3. ‖output‖ as the scores grow", "3. ‖выход‖ при росте оценок"};
inline constexpr Text kOutAxis{"score magnitude c (scores = c·z)", "величина оценок c (оценки = c·z)"};
inline constexpr Text kBound{"max ‖vᵢ‖ (bound)", "max ‖vᵢ‖ (граница)"};
inline constexpr Text kOutSizes{"%s, values with d_v = %d", "%s, значения с d_v = %d"};  // Count(keys, kKeys)
inline constexpr Text kOutCaption{"softmax, sparsemax and relu(s)/Σrelu(s) make weights ≥ 0 that sum to 1, so the output is an average of the values and never longer than the longest value (dashed), however large the scores. As the scores grow softmax turns one-hot and picks one value, so its output tends to that one value's length (a typical ‖vᵢ‖, about √d_v = 4 here), below the bound, which is the longest of the 16. relu-norm ignores a common factor, so its line is flat. sigmoid weighs every key on its own (its weights need not sum to 1), so its output is above the bound here; with «none» the output grows in proportion to the scores. Bounded outputs, whatever the scale, are what normalizing buys.",
                                  "softmax, sparsemax и relu(s)/Σrelu(s) дают веса ≥ 0 с суммой 1, поэтому выход — среднее значений и никогда не длиннее самого длинного значения (пунктир), как бы ни росли оценки. С ростом оценок softmax становится one-hot и выбирает одно значение, поэтому его выход стремится к длине этого одного значения (типичная ‖vᵢ‖, здесь около √d_v = 4), ниже границы — самого длинного из 16. relu-нормировка не замечает общего множителя, поэтому её линия ровная. Сигмоида взвешивает каждый ключ отдельно (сумма весов не обязана быть 1), и её выход здесь выше границы; с «нет» выход растёт пропорционально оценкам. Ограниченный выход при любом масштабе — вот что даёт нормировка."};
inline constexpr Text kCurvesTitle{"4. Training curves over several seeds (mean, shaded: min–max)", "4. Кривые обучения по нескольким seed (среднее; заливка: мин–макс)"};
inline constexpr Text kCurvesRun{"Run the experiment", "Запустить эксперимент"};

inline constexpr Text kCurvesNotRun{"Trains the model of the Training tab (its task, learning rate, optimizer, sizes) several times: softmax with and without ÷√d_k at d_k = 4 and 64, then the other normalizers. It takes a few seconds to a minute; the page stays usable meanwhile.",
                                    "Обучает модель со вкладки «Обучение» (её задача, скорость обучения, оптимизатор, размеры) несколько раз: softmax с ÷√d_k и без при d_k = 4 и 64, затем другие нормировки. Это занимает от нескольких секунд до минуты; страницей можно пользоваться и в это время."};
inline constexpr Text kCurvesScaling{"softmax: ÷√d_k (solid) vs none (dashed)", "softmax: ÷√d_k (сплошная) и без (пунктир)"};
inline constexpr Text kCurvesNormalizers{"normalizers, with ÷√d_k", "нормировки, с ÷√d_k"};
inline constexpr Text kCurvesSettings{"%s × %s; learning rate %g, %s, task «%s»", "%s × %s; скорость обучения %g, %s, задача «%s»"};  // Count(seeds, kSeeds), Count(steps, kStepsCount)
// kCurvesDiverged: the curve, Count(runs, kRunsIn), the first diverged seed, DivergenceMessage.
inline constexpr Text kCurvesDiverged{"%s — diverged in %s. Seed %d: %s", "%s — расходимость в %s. Seed %d: %s"};
inline constexpr Text kCurvesCaption{"What we saw with the default settings (verb → object, Adam, learning rate 0.01, 3 seeds × 300 steps): at d_k = 64 the runs without ÷√d_k need more steps and spread more between seeds; at d_k = 4 the difference is smaller (in our runs about 2× more steps without the factor, against about 6× at d_k = 64): the factor matters where the scores grow, which is why Vaswani et al. (2017) introduced it (the seed does not mention it). Sparsemax and relu(s)/Σrelu(s) learn this task more slowly. sigmoid and «none» fit the task as fast as softmax, but their attention does not concentrate: with sigmoid the right key keeps only about half of the weight, and «none» learns a large negative weight on it, which its readout uses just as well (the curve counts only positive weight). So here softmax is what makes the attention itself pick the word; its other gift is plot 3: bounded, averaged outputs.",
                                     "Что мы видели при настройках по умолчанию (глагол → дополнение, Adam, скорость 0.01, 3 запуска × 300 шагов): при d_k = 64 прогонам без ÷√d_k нужно больше шагов, и разброс между seed больше; при d_k = 4 разница меньше (в наших прогонах без множителя нужно примерно в 2 раза больше шагов, а при d_k = 64 — примерно в 6 раз): множитель важен там, где растут оценки, поэтому его и ввели Vaswani et al. (2017); в вопросе о нём не говорится. Sparsemax и relu(s)/Σrelu(s) учат эту задачу медленнее. Сигмоида и «нет» решают задачу так же быстро, как softmax, но их внимание не сосредотачивается: у сигмоиды правильному ключу достаётся лишь около половины веса, а «нет» учит на нём большой отрицательный вес, который выходному слою подходит не хуже (кривая считает только положительный вес). Так что здесь именно softmax заставляет само внимание выбрать слово; второй его выигрыш — график 3: ограниченный, усреднённый выход."};

}  // namespace text::tr
