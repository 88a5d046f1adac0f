// Interface text in English and Russian. Every string a panel shows is a `Text` here, so the two
// languages stay side by side and a missing translation is visible in review.
#pragma once

#include "api/state_json.h"
#include "text/text.h"  // Lang, Text, Plural and the plural rules

#include <string>

namespace text {

void SetLang(Lang lang);
Lang CurrentLang();
Lang LangFromCode(const std::string& code);  // "ru" -> kRu, anything else -> kEn

const char* L(const Text& t);  // the text in the current language
// A count and its noun in the current language: Count(3, tr::kTokens) is "3 tokens" or
// «3 токена» (no-break space between them); Word gives the noun alone.
std::string Count(long long n, const Plural& p);
const char* Word(long long n, const Plural& p);
// A widget label with a stable ImGui ID across languages: "<text>###<id>".
const char* Label(const Text& t, const char* id);

// A refused state change, in the current language.
std::string RefusalMessage(const attn::api::PatchResult& r);

// The engine's messages in the current language. The engine says what happened as a code with its
// numbers and words (language-free); the English line it also gives is used as it is.
std::string ExampleMessage(const attn::ExampleError& e);     // why a training example was refused
std::string DivergenceMessage(const attn::Divergence& d);    // "Training diverged at step 4: ..."
std::string CurveLabel(const attn::TrainConfig& c);          // "softmax ÷√d_k, d_k = 64"
const char* TaskLabel(attn::TaskKind k);                     // "verb → object"

namespace tr {
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

// ---- What if, and what mattered (issue 23): panel_whatif.cpp, the chips' menu, the
// Information panel's contributions, the vectors' dragged value ----
inline constexpr Text kWhatIf{"What if", "Что если"};
inline constexpr Text kWhatIfTitle{"What if: the edited run against the plain one", "Что если: изменённый прогон против исходного"};
inline constexpr Text kWhatIfIntro{
    "Change one thing and see what it does: replace, delete or insert a word (also from a token's menu: right-click it), shuffle the tokens, knock out keys or heads, drag a value in the Vectors view. Every Δ is the edited run minus the plain one, by the engine.",
    "Измените одно и посмотрите, что это даёт: замените, удалите или вставьте слово (или из меню токена: правый щелчок), перемешайте токены, выключите ключи или головы, перетащите значение в панели «Векторы». Каждое Δ — изменённый прогон минус исходный, посчитанное движком."};
inline constexpr Text kToolsLoading{"Loading the what-if tools (the lab's full build): %.0f %%. The lab keeps working meanwhile.",
                                     "Загружаются инструменты «Что если» (полная сборка лаборатории): %.0f %%. Лаборатория пока работает как прежде."};
inline constexpr Text kToolsFailed{"The what-if tools could not be loaded: %s", "Инструменты «Что если» не загрузились: %s"};
inline constexpr Text kWhatIfWord{"word", "слово"};
inline constexpr Text kWhatIfWith{"new word", "новое слово"};
inline constexpr Text kWhatIfWithHint{"one word", "одно слово"};
inline constexpr Text kWhatIfReplace{"Replace", "Заменить"};
inline constexpr Text kWhatIfDelete{"Delete", "Удалить"};
inline constexpr Text kWhatIfInsert{"Insert before", "Вставить перед"};
inline constexpr Text kWhatIfReset{"Undo every edit", "Отменить все изменения"};
inline constexpr Text kShuffle{"order", "порядок"};
inline constexpr Text kShuffleOff{"as typed", "как введено"};
inline constexpr Text kShuffleReverse{"reversed", "обратный"};
inline constexpr Text kShuffleSeeded{"shuffled", "перемешанный"};
inline constexpr Text kShuffleSeed{"shuffle seed", "seed перемешивания"};
inline constexpr Text kKnockKeys{"knock out keys (no query may attend to them):", "выключить ключи (ни один запрос их не видит):"};
inline constexpr Text kKnockHeads{"knock out heads (their A set to 0):", "выключить головы (их A = 0):"};
inline constexpr Text kNoEdit{"No edit yet: the lab shows the plain run.", "Изменений пока нет: показан исходный прогон."};
inline constexpr Text kEditsModel{
    "In the trained model: a word edit (the model runs the edited sentence), or knock-outs: keys of the chosen head "
    "(masked for every query of it), whole heads (their A set to 0). One kind at a time; the other panels show the plain run.",
    "В обученной модели: изменение слова (модель прогоняет изменённое предложение) или выключения: ключи выбранной "
    "головы (скрыты от всех её запросов), головы целиком (их A = 0). По одному виду за раз; остальные панели показывают исходный прогон."};
inline constexpr Text kKnockModelKeys{"knock out keys of head %d.%d:", "выключить ключи головы %d.%d:"};
inline constexpr Text kModelEditRefused{"The edited run is refused: %s", "Изменённый прогон отклонён: %s"};
inline constexpr Text kModelNextDelta{"The next token after the sentence, before → after:", "Следующий токен после предложения, до → после:"};
inline constexpr Text kModelEditedSentence{"after: %s", "после: %s"};
inline constexpr Text kModelDeltaHeads{"Δα of every head (layer.head), on the plain run's tokens: red gained weight, blue lost it. Largest |Δα| = %s. Click a head to choose it; its Δα is what ↓ saves as SVG and CSV.",
                                       "Δα каждой головы (слой.голова) на токенах исходного прогона: красное получило вес, синее потеряло. Наибольшее |Δα| = %s. Щелчок выбирает голову; её Δα сохраняет ↓ в SVG и CSV."};
inline constexpr Text kEditReplaced{"«%s» replaced by «%s»", "«%s» заменено на «%s»"};
inline constexpr Text kEditDeleted{"«%s» deleted", "«%s» удалено"};
inline constexpr Text kEditInserted{"«%s» inserted before «%s»", "«%s» вставлено перед «%s»"};
inline constexpr Text kEditShuffled{"tokens reordered", "токены переставлены"};
inline constexpr Text kEditKnockedKeys{"keys knocked out: %s", "выключены ключи: %s"};
inline constexpr Text kEditKnockedHeads{"heads knocked out: %s", "выключены головы: %s"};
inline constexpr Text kEditValue{"the value of «%s» moved by (%s, %s) in the Vectors plane", "значение «%s» сдвинуто на (%s, %s) в плоскости «Векторов»"};
inline constexpr Text kEdits{"Edits:", "Изменения:"};
inline constexpr Text kBefore{"before", "до"};
inline constexpr Text kAfter{"after", "после"};
inline constexpr Text kDeltaCaption{
    "Δαᵢⱼ = α′ − α of head %d, on the plain run's tokens (rows: queries, columns: keys): red gained weight, blue lost it. Largest |Δα| = %s.",
    "Δαᵢⱼ = α′ − α головы %d, по токенам исходного прогона (строки — запросы, столбцы — ключи): красное получило вес, синее потеряло. Наибольшее |Δα| = %s."};
inline constexpr Text kDeltaHover{"Δα(«%s» → «%s») = %s   (%s → %s)", "Δα(«%s» → «%s») = %s   (%s → %s)"};
inline constexpr Text kDeltaRowGone{"the query «%s» was deleted: no row", "запрос «%s» удалён: строки нет"};
inline constexpr Text kInsertedTook{"The inserted «%s» took α = %s of the query's weight.", "Вставленное «%s» забрало α = %s веса запроса."};
inline constexpr Text kDeltaHeads{"Δα of every head (same colour scale; click one to follow it):",
                                  "Δα каждой головы (та же шкала цвета; щелчок выбирает голову):"};
inline constexpr Text kDeltaA{"ΔA of the query «%s» per dimension (head %d): ‖ΔA‖ = %s; after W_O ‖Δ‖ = %s",
                              "ΔA запроса «%s» по координатам (голова %d): ‖ΔA‖ = %s; после W_O ‖Δ‖ = %s"};
inline constexpr Text kVerdictChange{"Verdict: %s → %s.", "Вывод: %s → %s."};
inline constexpr Text kVerdictSame{"Verdict unchanged: %s.", "Вывод не изменился: %s."};
inline constexpr Text kVerdictRecoverable{"α recoverable from A", "α восстановима по A"};
inline constexpr Text kVerdictNotRecoverable{"α not recoverable from A (the same A for a %d-dimensional set of weights)",
                                             "α не восстановима по A (то же A у %d-мерного множества весов)"};
inline constexpr Text kShuffleSame{
    "No positional encoding and no causal mask: the weights moved with their tokens, and each token's A is unchanged up to the rounding of reordered sums (largest |Δα| = %s in float; both runs again in double: largest difference of any weight or A = %s).",
    "Без позиционного кодирования и без каузальной маски веса переставились вместе с токенами, и A каждого токена не изменилось с точностью до округления переставленных сумм (наибольшее |Δα| = %s во float; оба прогона заново в double: наибольшая разница любого веса или A = %s)."};
inline constexpr Text kShuffleDiffers{
    "With %s the order matters: the weights do not simply move with their tokens (largest |Δα| = %s; in double %s).",
    "С %s порядок важен: веса не просто переставились вместе с токенами (наибольшее |Δα| = %s; в double %s)."};
inline constexpr Text kShufflePositional{"positional encoding", "позиционным кодированием"};
inline constexpr Text kShuffleCausal{"a causal mask", "каузальной маской"};
inline constexpr Text kShuffleBoth{"positional encoding and a causal mask", "позиционным кодированием и каузальной маской"};
inline constexpr Text kDeltaLegend{"Δαᵢⱼ", "Δαᵢⱼ"};
// the chips' menu
inline constexpr Text kChipQuery{"Make it the query", "Сделать запросом"};
inline constexpr Text kChipTools{"What if… (loads the what-if tools)", "Что если… (загрузит инструменты «Что если»)"};
inline constexpr Text kChipReplace{"Replace with…", "Заменить на…"};
inline constexpr Text kChipDelete{"Delete it", "Удалить"};
inline constexpr Text kChipInsert{"Insert a word before it…", "Вставить слово перед ним…"};
inline constexpr Text kChipKnock{"Knock it out (mask this key)", "Выключить (замаскировать ключ)"};
inline constexpr Text kChipUnknock{"Bring it back (unmask this key)", "Вернуть (снять маску ключа)"};
inline constexpr Text kChipValue{"Drag its value (Vectors view)", "Двигать его значение («Векторы»)"};
inline constexpr Text kChipOk{"OK", "OK"};
inline constexpr Text kTokensHintMenu{"Tokens (click: query; right-click: what if…):", "Токены (щелчок — запрос; правый щелчок — что если…):"};
// the Information panel: weight against contribution
inline constexpr Text kMattered{"Which words mattered: weight against contribution", "Какие слова были важны: вес против вклада"};
inline constexpr Text kMatteredNote{
    "αᵢ is the share of weight; ‖αᵢvᵢ‖ is what key i adds to A, ‖αᵢvᵢW_O‖ what of it reaches the output after W_O, and ‖A − A₋ᵢ‖ how far A moves when key i is masked out and the others renormalized. A heavy word with a short value, or one close to what the others average to, moves A little. Click a column to sort.",
    "αᵢ — доля веса; ‖αᵢvᵢ‖ — что ключ i добавляет к A, ‖αᵢvᵢW_O‖ — что из этого доходит до выхода после W_O, ‖A − A₋ᵢ‖ — насколько сдвигается A, если ключ i замаскировать, а остальные веса перенормировать. Тяжёлое слово с коротким значением или близким к среднему остальных почти не сдвигает A. Щелчок по столбцу сортирует."};
inline constexpr Text kColKnock{"mask", "маска"};
// model mode: each key's effect on the next token (app/model/model_effects.cpp)
inline constexpr Text kMatteredModelNote{
    "Δ log p: how the log-probability of the likeliest next token %s changes when key i is masked out of this head (one run of the model per key; negative = the key helped the prediction).",
    "Δ log p: как меняется логарифм вероятности самого вероятного следующего токена %s, если ключ i замаскировать в этой голове (по прогону модели на ключ; отрицательное — ключ помогал предсказанию)."};
inline constexpr Text kEffectsProgress{"computing Δ log p: %d of %d keys", "считаю Δ log p: %d из %d ключей"};
inline constexpr Text kColTokenShort{"token", "токен"};
// the vectors view: dragging a value
inline constexpr Text kValueDragHint{"Drag a value vᵢ (a blue dot): A, the hull and the verdict follow.",
                                     "Перетащите значение vᵢ (синюю точку): A, оболочка и вывод следуют за ним."};
inline constexpr Text kValueEdited{"Values edited: v of «%s» moved by (%s, %s) in this plane.",
                                   "Значения изменены: v токена «%s» сдвинуто на (%s, %s) в этой плоскости."};
inline constexpr Text kValueReset{"Reset the values", "Вернуть значения"};
}  // namespace tr

}  // namespace text
