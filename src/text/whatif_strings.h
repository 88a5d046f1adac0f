// What if, and what mattered (panel_whatif*.cpp, the chips' menu, the Information panel's
// contributions, the vectors' dragged value).
// Each string in English and Russian side by side (text.h); tests/text checks every one.
#pragma once

#include "text/text.h"

namespace text::tr {

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
    "Δ log p: how the log-probability of the likeliest next token %s changes when key i is masked out of this head for every query (one run of the model per key; negative = the key helped the prediction). The prediction is read at the last token, so a key the chosen query cannot see still counts.",
    "Δ log p: как меняется логарифм вероятности самого вероятного следующего токена %s, если ключ i замаскировать в этой голове для всех запросов (по прогону модели на ключ; отрицательное — ключ помогал предсказанию). Предсказание читается на последнем токене, поэтому считается и ключ, невидимый выбранному запросу."};
inline constexpr Text kEffectsProgress{"computing Δ log p: %d of %d keys", "считаю Δ log p: %d из %d ключей"};
inline constexpr Text kColTokenShort{"token", "токен"};
// the vectors view: dragging a value
inline constexpr Text kValueDragHint{"Drag a value vᵢ (a blue dot): A, the hull and the verdict follow.",
                                     "Перетащите значение vᵢ (синюю точку): A, оболочка и вывод следуют за ним."};
inline constexpr Text kValueEdited{"Values edited: v of «%s» moved by (%s, %s) in this plane.",
                                   "Значения изменены: v токена «%s» сдвинуто на (%s, %s) в этой плоскости."};
inline constexpr Text kValueReset{"Reset the values", "Вернуть значения"};

}  // namespace text::tr
