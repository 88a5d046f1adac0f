// The lab's own panels: sentence, settings, steps, weights, vectors, heads, information,
// share, the pages' tabs (panel_*.cpp), in identity, random and model mode.
// Each string in English and Russian side by side (text.h); tests/text checks every one.
#pragma once

#include "text/text.h"

namespace text::tr {

inline constexpr Text kTitle{"Attention Lab", "Лаборатория внимания"};
inline constexpr Text kTagline{"Does the sum A = Σ αᵢvᵢ lose which words mattered?",
                               "Теряется ли в сумме A = Σ αᵢvᵢ информация о том, какие слова были важны?"};
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
                               "sᵢ = q·kᵢ · c ÷ T, где c = 1/√d_k = %s (d_k = %d) и T = %s;   m = max sᵢ = %s (вычитается перед exp ради численной устойчивости и сокращается)"};
inline constexpr Text kScaleIsUnscaled{"sᵢ = q·kᵢ ÷ T with T = %s (no √d_k scaling);   m = max sᵢ = %s (subtracted before exp for stability; it cancels)",
                                       "sᵢ = q·kᵢ ÷ T, где T = %s (без деления на √d_k);   m = max sᵢ = %s (вычитается перед exp ради численной устойчивости и сокращается)"};
inline constexpr Text kFormula{"The formula with the current numbers", "Формула с текущими числами"};
inline constexpr Text kWhereInfo{"Which words mattered is in the weights αᵢ, i.e. in the scores q·kᵢ, before the sum.",
                                 "Какие слова важны, определяют веса αᵢ, а значит, оценки q·kᵢ — ещё до суммирования."};
inline constexpr Text kHeatmap{"Weights", "Веса"};
inline constexpr Text kHeatmapCaptionNoSum{"All weights αᵢⱼ: row = query i, column = key j (with this normalizer a row need not sum to 1)",
                                           "Все веса αᵢⱼ: строка — запрос i, столбец — ключ j (при этой нормировке сумма строки не обязана быть 1)"};
inline constexpr Text kHeatmapCaption{"All weights αᵢⱼ: row = query i, column = key j; each row sums to 1",
                                      "Все веса αᵢⱼ: строка — запрос i, столбец — ключ j; сумма по строке = 1"};
inline constexpr Text kHover{"query «%s» → key «%s»: α = %s", "запрос «%s» → ключ «%s»: α = %s"};
inline constexpr Text kVectors{"Vectors", "Векторы"};
inline constexpr Text kExport{"Export this picture or its numbers", "Сохранить картинку или числа"};
inline constexpr Text kExportPng{"PNG image (2×)", "Картинка PNG (2×)"};
inline constexpr Text kExportSvg{"SVG (vector, for papers and slides)", "SVG (вектор, для статей и слайдов)"};
inline constexpr Text kExportCsv{"CSV: the weights (a spreadsheet)", "CSV: веса (для таблиц)"};
inline constexpr Text kExportJson{"JSON: the whole trace", "JSON: весь расчёт"};
inline constexpr Text kVectorsCaption{"PCA of vᵢ, αᵢ·vᵢ and A: the first two components keep %.1f%% of the variance (PC1 %.1f%%)",
                                      "Главные компоненты (PCA) по vᵢ, αᵢ·vᵢ и A: первые две объясняют %.1f%% дисперсии (PC1 — %.1f%%)"};
inline constexpr Text kVectorsLegend{"● vᵢ (values)   ○ αᵢ·vᵢ (scaled)   ◆ A = Σ αᵢ·vᵢ   shaded: convex hull of the vᵢ",
                                     "● vᵢ (значения)   ○ αᵢ·vᵢ (взвешенные)   ◆ A = Σ αᵢ·vᵢ   заливка: выпуклая оболочка vᵢ"};
inline constexpr Text kVectorsNote{"A is a weighted average of the values (weights ≥ 0, sum 1), so it always lies inside their hull; the dashed path adds the αᵢ·vᵢ one by one from the origin.",
                                   "A — взвешенное среднее значений (веса ≥ 0, их сумма равна 1), поэтому A всегда лежит внутри их выпуклой оболочки; пунктир откладывает αᵢ·vᵢ по очереди от начала координат."};
inline constexpr Text kOrigin{"0", "0"};
inline constexpr Text kHeads{"heads h", "число голов h"};
inline constexpr Text kHeadOf{"Head %d of %d", "Голова %d из %d"};
// The trained model's mode (issue 13)
inline constexpr Text kModelProjection{"trained model (4 layers × 6 heads)", "обученная модель (4 слоя × 6 голов)"};
inline constexpr Text kModelLoading{"Loading the trained model (%.0f%% of 2 MB)…", "Загружается обученная модель (%.0f%% из 2 МБ)…"};
inline constexpr Text kModelFailed{"The trained model could not be loaded: %s", "Не удалось загрузить обученную модель: %s"};
inline constexpr Text kModelFailedHint{"The rest of the lab works as before. Try again, or go back to the identity projections.",
                                       "Остальная лаборатория работает как раньше. Попробуйте ещё раз или вернитесь к тождественным проекциям."};
inline constexpr Text kModelRetry{"Try again", "Попробовать ещё раз"};
inline constexpr Text kModelBack{"Back to identity", "Вернуться к тождественным"};
inline constexpr Text kModelLayer{"layer", "слой"};
inline constexpr Text kModelHead{"head", "голова"};
inline constexpr Text kModelFixed{"Set by the model: d_model %d, d_k = d_v = %d, %d heads, softmax ÷√d_k, causal, learned positions, T = 1.",
                                  "Задано моделью: d_model %d, d_k = d_v = %d, %d головы, softmax ÷√d_k, каузальная, обученные позиции, T = 1."};
inline constexpr Text kSetByModel{"(set by the model)", "(задано моделью)"};
inline constexpr Text kModelTokensHint{"Model tokens (a word's pieces touch; click one to make it the query):",
                                       "Токены модели (куски слова вплотную; нажмите, чтобы сделать запросом):"};
inline constexpr Text kModelNext{"The model's next token after the sentence:", "Следующий токен по мнению модели:"};
inline constexpr Text kModelEot{"start of text", "начало текста"};
inline constexpr Text kHeadsTitle{"Every head (click one to follow it)", "Все головы (нажмите, чтобы следить)"};
inline constexpr Text kHeadsCaption{"Rows: layers, columns: heads. Labels, on validation text: mean weight on the previous token (prev), on itself (self), on the first (first); H: entropy when none reaches 0.2.",
                                    "Строки — слои, столбцы — головы. Подписи (проверочный текст): средний вес на предыдущем токене (пред), на себе (себя), на первом (перв); H — энтропия, если ни один не достигает 0,2."};
inline constexpr Text kHeadPrevious{"prev %.2f", "пред %.2f"};
inline constexpr Text kHeadSink{"first %.2f", "перв %.2f"};
inline constexpr Text kHeadSelf{"self %.2f", "себя %.2f"};
inline constexpr Text kHeadInduction{"ind %.2f", "инд %.2f"};
inline constexpr Text kHeadSpread{"H %.1f", "H %.1f"};
// The gallery's tooltip: a head's scores (heads.json, `attnlab model heads`).
inline constexpr Text kHeadScoresTip{"previous %.3f  first %.3f  self %.3f\ninduction %.3f  entropy %.2f",
                                     "на предыдущем %.3f  на первом %.3f  на себе %.3f\nиндукция %.3f  энтропия %.2f"};
inline constexpr Text kModelStepsLn{"1. LayerNorm of the query's residual stream x (layer %d): LN(x) = %s",
                                    "1. LayerNorm потока запроса x (слой %d): LN(x) = %s"};
inline constexpr Text kModelStepsQ{"2. q = W_Q·LN(x) (%d numbers) = %s", "2. q = W_Q·LN(x) (%d чисел) = %s"};
inline constexpr Text kModelStepsKV{"3. for every token i: kᵢ = W_K·LN(xᵢ), vᵢ = W_V·LN(xᵢ); the scores q·kᵢ, softmax and A in the table:",
                                    "3. для каждого токена i: kᵢ = W_K·LN(xᵢ), vᵢ = W_V·LN(xᵢ); оценки q·kᵢ, softmax и A — в таблице:"};
inline constexpr Text kModelStepsNext{"Where A goes next: the %d heads' A are concatenated (%d numbers), multiplied by W_O (%d × %d) and added to the residual stream: x + attention = %s; then the MLP, and the next layer.",
                                      "Куда идёт A дальше: A всех %d голов склеиваются (%d чисел), умножаются на W_O (%d × %d) и прибавляются к потоку: x + внимание = %s; затем MLP и следующий слой."};
inline constexpr Text kHeadsStrip{"All heads (click one to follow it):", "Все головы (нажмите на голову, чтобы следить за ней):"};
inline constexpr Text kNormalizer{"normalizer", "нормировка"};
inline constexpr Text kNormSoftmax{"softmax", "softmax"};
inline constexpr Text kNormSparsemax{"sparsemax (exact zeros)", "sparsemax (точные нули)"};
inline constexpr Text kNormRelu{"relu(s) / Σ relu(s)", "relu(s) / Σ relu(s)"};
inline constexpr Text kNormSigmoid{"sigmoid (no normalization)", "сигмоида (без нормировки)"};
inline constexpr Text kNormNone{"none (raw scores as weights)", "нет (сырые оценки как веса)"};
inline constexpr Text kNormHardmax{"hardmax (one-hot)", "hardmax (one-hot)"};
inline constexpr Text kHardmaxNote{"hardmax is forward only: its gradient is zero almost everywhere (and undefined at ties), so nothing can be learned through it.",
                                   "hardmax — только прямой проход: его градиент почти всюду равен нулю (а при равенстве оценок не определён), через него ничему не научиться."};
inline constexpr Text kMask{"mask", "маска"};
inline constexpr Text kMaskNone{"none", "нет"};
inline constexpr Text kMaskCausal{"causal (this token and earlier ones)", "каузальная (текущий и предыдущие)"};
inline constexpr Text kEntropyHeader{"H", "H"};
inline constexpr Text kEntropyNote{"H = each row's entropy in nats (uniform over N keys: ln N; one-hot: 0)",
                                   "H — энтропия каждой строки в натах (равномерные веса по N ключам: ln N; one-hot: 0)"};
inline constexpr Text kMasked{"masked", "замаскирован"};
inline constexpr Text kColNumSparsemax{"max(sᵢ − τ, 0)", "max(sᵢ − τ, 0)"};
inline constexpr Text kColNumRelu{"relu(sᵢ)", "relu(sᵢ)"};
inline constexpr Text kColNumSigmoid{"σ(sᵢ)", "σ(sᵢ)"};
inline constexpr Text kColNumNone{"sᵢ", "sᵢ"};
inline constexpr Text kColNumHardmax{"one-hot", "one-hot"};
inline constexpr Text kRuleSoftmax{"scale(i) = αᵢ = exp(sᵢ) / Σⱼ exp(sⱼ) = exp(sᵢ − m) / Σⱼ exp(sⱼ − m)",
                                   "scale(i) = αᵢ = exp(sᵢ) / Σⱼ exp(sⱼ) = exp(sᵢ − m) / Σⱼ exp(sⱼ − m)"};
inline constexpr Text kRuleSparsemax{"αᵢ = max(sᵢ − τ, 0) with τ = %s chosen so that Σ αᵢ = 1: low scores get exactly 0",
                                     "αᵢ = max(sᵢ − τ, 0), где порог τ = %s подобран так, чтобы Σ αᵢ = 1: у малых оценок вес ровно 0"};
inline constexpr Text kRuleRelu{"αᵢ = relu(sᵢ) / Σⱼ relu(sⱼ) (no positive score: equal weights)",
                                "αᵢ = relu(sᵢ) / Σⱼ relu(sⱼ) (если положительных оценок нет — равные веса)"};
inline constexpr Text kRuleSigmoid{"αᵢ = σ(sᵢ) = 1 / (1 + e^(−sᵢ)), each on its own: the weights sum to %s, not 1",
                                   "αᵢ = σ(sᵢ) = 1 / (1 + e^(−sᵢ)), каждый вес независимо: сумма весов %s, а не 1"};
inline constexpr Text kRuleNone{"αᵢ = sᵢ: the raw scores, unbounded; they sum to %s",
                                "αᵢ = sᵢ: сами оценки, без ограничений; их сумма равна %s"};
inline constexpr Text kRuleHardmax{"αᵢ = 1 on the largest score (shared on ties), 0 elsewhere",
                                   "αᵢ = 1 у наибольшей оценки (при равенстве — поровну), у остальных 0"};
inline constexpr Text kVectorsNoteUnnormalized{"With this normalizer the weights need not be ≥ 0 or sum to 1, so A is not an average and can leave the hull of the values: that is what softmax guarantees against.",
                                               "С этой нормировкой веса не обязаны быть ≥ 0 и давать в сумме 1, поэтому A — не среднее и может выйти за пределы оболочки значений; от этого и защищает softmax."};
inline constexpr Text kInformation{"Information", "Информация"};
inline constexpr Text kInfoTitle{"Is information lost in the sum A = Σ αᵢ·vᵢ?", "Теряется ли информация в сумме A = Σ αᵢ·vᵢ?"};
inline constexpr Text kVerdictKept{"Nothing is lost here, for a reader who knows every vᵢ: the %d visible values (d_v = %d) are affinely independent (affine rank %d), so only one weight pattern on the simplex gives this A — read it back from A with error %s.",
                                   "Здесь ничего не теряется для того, кто знает все vᵢ: значения видимых токенов (их %d; d_v = %d) аффинно независимы (аффинный ранг %d), поэтому этот A даёт только один набор весов на симплексе — он восстанавливается из A с ошибкой %s."};
inline constexpr Text kVerdictLost{"The sum hides part of the pattern, even from a reader who knows every vᵢ: %d visible tokens, but their values span only %d affine dimensions (d_v = %d), so a %d-dimensional family of weight patterns on the simplex gives exactly this A.",
                                   "Сумма скрывает часть паттерна внимания даже от того, кто знает все vᵢ: видимых токенов: %d, но их значения занимают аффинное подпространство размерности лишь %d (d_v = %d), поэтому этот же A дают веса на симплексе из целого %d-мерного семейства."};
inline constexpr Text kVerdictBoxKept{"Nothing is lost here, for a reader who knows every vᵢ: the %d visible values (d_v = %d) are linearly independent (rank %d), so only one pattern of sigmoid weights gives this A — read it back from A with error %s.",
                                      "Здесь ничего не теряется для того, кто знает все vᵢ: значения видимых токенов (их %d; d_v = %d) линейно независимы (ранг %d), поэтому этот A даёт только один набор весов сигмоиды — он восстанавливается из A с ошибкой %s."};
inline constexpr Text kVerdictBoxLost{"The sum hides part of the pattern, even from a reader who knows every vᵢ: %d visible tokens, but their values span only %d dimensions (d_v = %d), so a %d-dimensional family of sigmoid patterns gives exactly this A.",
                                      "Сумма скрывает часть паттерна внимания даже от того, кто знает все vᵢ: видимых токенов: %d, но их значения занимают подпространство размерности лишь %d (d_v = %d), поэтому этот же A дают веса сигмоиды из целого %d-мерного семейства."};
inline constexpr Text kVerdictAffineKept{"With «none» the weights are any numbers. The %d visible values (d_v = %d) are linearly independent (rank %d), so A still fixes every weight, for a reader who knows every vᵢ — read back with error %s.",
                                         "С «нет» веса — любые числа. Значения видимых токенов (их %d; d_v = %d) линейно независимы (ранг %d), поэтому A всё же задаёт каждый вес для того, кто знает все vᵢ, — ошибка восстановления %s."};
inline constexpr Text kVerdictAffineLost{"With «none» the weights are any numbers: %d visible tokens, but their values span only %d dimensions (d_v = %d), so the patterns giving this A form an unbounded %d-dimensional flat. A bounds no weight it does not fix exactly, so from A alone nothing follows about which of those words matters most.",
                                         "С «нет» веса — любые числа: видимых токенов: %d, но их значения занимают подпространство размерности лишь %d (d_v = %d), поэтому наборы весов с этим A образуют неограниченную %d-мерную плоскость. A не ограничивает ни один вес, который не задаёт точно, так что по одному A нельзя сказать, какое из этих слов важнее."};
inline constexpr Text kSetSimplex{"Compared with: weights ≥ 0 summing to 1 (the simplex), as this normalizer makes them.",
                                  "Сравниваем с весами ≥ 0 с суммой 1 (симплекс), как их даёт эта нормировка."};
inline constexpr Text kSetBox{"Compared with: sigmoid's weights, each in [0, 1], any sum (the box [0, 1]^N) — not the simplex.",
                              "Сравниваем с весами сигмоиды: каждый в [0, 1], сумма любая (куб [0, 1]^N), — не симплекс."};
inline constexpr Text kSetAffine{"Compared with: any real weights (with «none» nothing bounds them).",
                                 "Сравниваем с любыми вещественными весами (с «нет» их ничто не ограничивает)."};
inline constexpr Text kMaskedKeys{"%d of %d keys are masked for this query: they get weight 0 and are left out of everything below.",
                                  "Замаскировано ключей для этого запроса: %d (из %d); их вес 0, и ниже они не участвуют."};
inline constexpr Text kTargetMoved{"«%s» is masked for this query, so the automatic target is used.",
                                   "«%s» замаскирован для этого запроса, поэтому цель выбрана автоматически."};
inline constexpr Text kVerdictUniqueHere{"This particular A still pins the weights down (the pattern sits on the boundary), but most patterns would not be.",
                                         "Этот конкретный A всё же однозначно задаёт веса (паттерн на границе), но для большинства паттернов это не так."};
inline constexpr Text kShiftOnto{"shift the weight onto", "перенести вес на"};
inline constexpr Text kAuto{"automatic (the visible token after the most-weighted one)", "автоматически (видимый токен после самого весомого)"};
inline constexpr Text kAutoShort{"auto", "авто"};
inline constexpr Text kDV{"d_v (value width)", "d_v (размерность значений)"};
inline constexpr Text kScenario1{"Scenario 1: the query's weights α", "Сценарий 1: веса запроса α"};
inline constexpr Text kScenario1Custom{"Scenario 1: your weights α (dragged)", "Сценарий 1: ваши веса α (заданы вручную)"};
inline constexpr Text kDragHint{"drag the orange bars to try your own pattern", "перетаскивайте оранжевые столбики, чтобы задать свой паттерн внимания"};
inline constexpr Text kBackToQuery{"back to the query's weights", "вернуть веса запроса"};
inline constexpr Text kScenario2{"Scenario 2: α′ with the most weight on «%s»", "Сценарий 2: α′ с наибольшим весом на «%s»"};
inline constexpr Text kScenario2Affine{"Scenario 2: α′ with one more unit of weight on «%s» (there is no most)",
                                       "Сценарий 2: α′ с весом на «%s» больше на единицу (наибольшего нет)"};
inline constexpr Text kSameA{"max |A − A′| = %s: the two outputs are the same vector", "max |A − A′| = %s: два выхода — один и тот же вектор"};
inline constexpr Text kDifferentPattern{"…from patterns that differ by up to %s in a weight.", "…хотя веса различаются на величину до %s."};
inline constexpr Text kRanges{"What A alone tells about each word (to a reader who knows every vᵢ)", "Что один A говорит о каждом слове (тому, кто знает все vᵢ)"};
inline constexpr Text kRangeMasked{"«%s»: masked, weight 0", "«%s»: замаскирован, вес 0"};
inline constexpr Text kRangeUnbounded{"«%s»: no bound, any number (it is %s)", "«%s»: без границ, любое число (на деле %s)"};
inline constexpr Text kMaskedBar{"(masked)", "(замаскирован)"};
inline constexpr Text kRangeLine{"«%s»: the weight could be anything from %s to %s (it is %s)", "«%s»: вес может быть любым от %s до %s (на деле %s)"};
inline constexpr Text kRangePoint{"«%s»: the weight is exactly %s, recoverable from A", "«%s»: вес ровно %s, восстанавливается из A"};
inline constexpr Text kSimplex{"The weights as a point in the simplex; the line/area through it gives the same A",
                               "Веса — точка симплекса; все точки зелёного отрезка или области через неё дают тот же A"};
inline constexpr Text kSimplexTooMany{"(the simplex picture is drawn for 3 or 4 visible tokens)", "(симплекс рисуется для 3 или 4 видимых токенов)"};
inline constexpr Text kSimplexNotHere{"(no simplex picture: these weights need not sum to 1)", "(симплекса нет: эти веса не обязаны давать в сумме 1)"};
inline constexpr Text kSeedAnswer{"The seed's answer, made concrete: which words mattered is decided in the scores q·kᵢ before the sum (see Steps); the sum keeps only d_v numbers, and several heads keep several patterns.",
                                  "Ответ автора вопроса, наглядно: какие слова важны, решается в оценках q·kᵢ ещё до суммы (см. «Шаги»); сумма хранит лишь d_v чисел, а несколько голов хранят несколько паттернов."};
inline constexpr Text kProbeRun{"Run the probe", "Запустить зонд"};
inline constexpr Text kProbeExplain{"A readout trained to name the most-weighted token from A alone, on random sentences of %s (unlike the verdict above it does not know the vᵢ of each sentence, so it stays below 1 even where the verdict says nothing is lost):",
                                    "Классификатор, который по одному A учится называть токен с наибольшим весом (случайные предложения из %s; в отличие от вердикта выше он не знает vᵢ каждого предложения, поэтому остаётся ниже 1 даже там, где вердикт говорит, что ничего не теряется):"};
inline constexpr Text kProbeRow{"d_v = %2d, %s: accuracy %s (chance %s)", "d_v = %2d, %s: точность %s (наугад %s)"};  // Count(heads, kHeadsCount)
inline constexpr Text kTryTitle{"Try this", "Попробуйте"};
// Share / embed (panel_share.cpp).
inline constexpr Text kShare{"Share", "Поделиться"};
inline constexpr Text kShareTitle{"Share this lab", "Поделиться лабораторией"};
inline constexpr Text kShareLink{"Link to this state:", "Ссылка на это состояние:"};
inline constexpr Text kShareSnippet{"Embed in a course page (iframe; hidden and locked parts included):",
                                    "Встроить в страницу курса (iframe; со скрытыми и закреплёнными частями):"};
inline constexpr Text kCopy{"Copy", "Копировать"};
inline constexpr Text kCopied{"Copied.", "Скопировано."};
inline constexpr Text kCopyByHand{"The browser did not allow copying: the text is selected on the page, copy it with Ctrl+C (⌘C).",
                                  "Браузер не разрешил копирование: текст выделен на странице, скопируйте его сами (Ctrl+C, ⌘C)."};
inline constexpr Text kShareHint{"Hide or lock parts with hide=… and lock=… in the link (see docs/embedding.md).",
                                 "Скрыть или закрепить части можно через hide=… и lock=… в ссылке (см. docs/embedding.md)."};
inline constexpr Text kShareClose{"Close", "Закрыть"};
inline constexpr Text kLockedPanel{"(locked by the lesson)", "(закреплено уроком)"};
inline constexpr Text kTry{
    "• Click «суши»: each token's row of weights is its own pattern.\n"
    "• Lower the temperature: the weights approach one-hot; raise it: they flatten.\n"
    "• Switch off ÷√d_k and raise d_model: the scores grow and the softmax saturates.\n"
    "• Random projections: q, k, v differ from x, as in a trained layer.\n"
    "• The sum A keeps only d_v numbers; the pattern itself is in the scores q·kᵢ.",
    "• Нажмите «суши»: у каждого токена своя строка весов — свой паттерн внимания.\n"
    "• Понизьте температуру: веса стремятся к one-hot; повысьте — выравниваются.\n"
    "• Выключите ÷√d_k и увеличьте d_model: оценки растут, softmax насыщается.\n"
    "• Случайные проекции: q, k, v отличаются от x, как в обученном слое.\n"
    "• Сумма A хранит лишь d_v чисел; сам паттерн — в оценках q·kᵢ."};
inline constexpr Text kRefused{"Not applied", "Не применено"};
inline constexpr Text kShowing{"The lab still shows the last valid state.", "Показано последнее корректное состояние."};

// ---- pages -------------------------------------------------------------------------------
inline constexpr Text kAttentionTab{"Attention", "Внимание"};
inline constexpr Text kTraining{"Training", "Обучение"};
inline constexpr Text kNormalization{"Normalization", "Нормировка"};

}  // namespace text::tr
