// The lesson's steps as data (texts EN/RU, patches, predictions), its state logic and the numbers
// it reads from the engine. Sections: the steps | state and moves | the readout | numbers.
#include "app/lesson.h"

#include "api/fields_json.h"
#include "engine/normalizers.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace app {

// ---- the steps ---------------------------------------------------------------------------------
// In the seed's order. Patches are over the lab's defaults («я люблю суши», query «люблю»,
// identity projections, d = 8, softmax ÷√d_k, positional encoding on) and the view "steps".

const std::vector<LessonStep>& LessonSteps() {
  static const std::vector<LessonStep> steps = {
      // 1 ------------------------------------------------------------------------------------
      {{"1. A weighted sum, and what q, k, v are", "1. Взвешенная сумма и что такое q, k, v"},
       {"A(q, K, V) = Σᵢ exp(q·k⟨i⟩) / Σⱼ exp(q·k⟨j⟩) · v⟨i⟩ … the word under consideration is q = v⟨1⟩, «люблю».",
        "A(q, K, V) = Σᵢ exp(q·k⟨i⟩) / Σⱼ exp(q·k⟨j⟩) · v⟨i⟩ … рассматриваемое слово q = v⟨1⟩, «люблю»."},
       Verdict::kPartlyRight,
       {"The formula is right: A = Σᵢ αᵢ·vᵢ with αᵢ = softmax of the scores q·kᵢ. But q is not v⟨1⟩: a "
        "transformer makes three vectors from each word's x (its embedding plus its position), with three "
        "learned matrices: q = W_Q·x, k = W_K·x, v = W_V·x. Glossary: v⟨i⟩ = vᵢ, the value of word i; "
        "q·k⟨i⟩ = the score of word i; scale(i) = αᵢ, its weight.",
        "Формула верна: A = Σᵢ αᵢ·vᵢ, где αᵢ — softmax от оценок q·kᵢ. Но q — не v⟨1⟩: трансформер делает из "
        "вектора x каждого слова (эмбеддинг плюс позиция) три разных вектора с помощью трёх обучаемых матриц: "
        "q = W_Q·x, k = W_K·x, v = W_V·x. Словарик: v⟨i⟩ = vᵢ — значение слова i; q·k⟨i⟩ — оценка слова i; "
        "scale(i) = αᵢ — его вес."},
       {"Take the seed literally: q = k = v = x (identity projections). Which word will «люблю» attend to most?",
        "Поймём ответ буквально: q = k = v = x (тождественные проекции). На какое слово «люблю» обратит больше "
        "всего внимания?"},
       {{"«я»", "«я»"}, {"«люблю» itself", "на само себя, «люблю»"}, {"«суши»", "«суши»"}},
       1,
       R"({"projection": "random"})", LessonAction::kNone,
       R"({"projection": "identity"})", LessonAction::kNone,
       {"To itself. With q = k = x the score of a word with itself is q·q = ‖x‖², while two different words "
        "give a much smaller q·k: softmax turns that gap into almost all the weight. A trained layer learns "
        "W_Q ≠ W_K, so that a verb's query meets its object's key: press the button to train one.",
        "На само себя. При q = k = x оценка слова с самим собой равна q·q = ‖x‖², а у двух разных слов q·k "
        "намного меньше, и softmax превращает этот разрыв почти во весь вес. Обученный слой выучивает "
        "W_Q ≠ W_K, чтобы запрос глагола совпадал с ключом дополнения: нажмите кнопку и обучите такой слой."},
       {"Train a layer (verb → object, 200 steps)", "Обучить слой (глагол → дополнение, 200 шагов)"},
       R"({"view": "training", "train": {"task": "verb_object", "example": "я люблю суши"}})", LessonAction::kTrain,
       {"Click another token to make it the query; switch the projections to random.",
        "Нажмите на другой токен, чтобы сделать его запросом; переключите проекции на случайные."}},
      // 2 ------------------------------------------------------------------------------------
      {{"2. Two scenarios with the same A", "2. Два сценария с одним и тем же A"},
       {"…in one, practically the whole output depends on x⟨t⟩; in the other, on x⟨t+1⟩. A(q, K, V) may have "
        "exactly the same values in both.",
        "…в одном практически весь выход зависит от x⟨t⟩, в другом — от x⟨t+1⟩. Возможно, что A(q, K, V) "
        "совпадает в обоих сценариях."},
       Verdict::kPartlyRight,
       {"Different patterns can give the same A, but only in exact cases: when the values the query can see "
        "are affinely dependent. That is always so when there are more of them than d_v + 1 (N > d_v + 1), "
        "and it happens when two values coincide. Masked words get weight 0 and do not count. The seed's "
        "extreme case needs v⟨t⟩ ≈ v⟨t+1⟩: with almost all weight on one word, A is almost that word's value.",
        "Разные паттерны внимания могут дать один и тот же A, но только в строго определённых случаях: когда "
        "значения, видимые запросу, аффинно зависимы. Так бывает всегда, если их больше, чем d_v + 1 "
        "(N > d_v + 1), и бывает, когда два значения совпадают. Замаскированные слова получают вес 0 и не "
        "участвуют. Крайний случай из вопроса требует v⟨t⟩ ≈ v⟨t+1⟩: если почти весь вес на одном слове, A почти "
        "равен его значению."},
       {"«я люблю суши», d_v = 8: can two patterns, almost all weight on «люблю» and almost all weight on "
        "«суши», give the same A?",
        "«я люблю суши», d_v = 8: могут ли два паттерна — почти весь вес на «люблю» и почти весь вес на "
        "«суши» — дать один и тот же A?"},
       {{"No: their values differ, so the two A differ", "Нет: их значения разные, значит, и A разные"},
        {"Yes: a sum always loses this", "Да: сумма всегда это теряет"},
        {"Only without ÷√d_k", "Только без деления на √d_k"}},
       0,
       R"({})", LessonAction::kNone,
       R"({"sentence": "я люблю суши суши", "positional": false, "query": 2, "target": 3, "view": "information"})",
       LessonAction::kNone,
       {"No. Almost all weight on «люблю» gives A ≈ v(люблю), on «суши» A ≈ v(суши), and these differ. The "
        "extreme case needs two (almost) equal values. Shown now: «я люблю суши суши» without positional "
        "encoding, so both «суши» have the same value: the weight moves from one to the other and A stays the "
        "same (the second scenario in the Information tab).",
        "Нет. Почти весь вес на «люблю» даёт A ≈ v(люблю), на «суши» — A ≈ v(суши), а они разные. Крайнему "
        "случаю нужны два (почти) равных значения. Сейчас показано «я люблю суши суши» без позиционного "
        "кодирования: у двух «суши» одно и то же значение, вес переходит с одного на другое, а A не меняется "
        "(второй сценарий на вкладке «Информация»)."},
       {"Fewer dimensions: d_v = 1 (N = 3 > d_v + 1)", "Меньше измерений: d_v = 1 (N = 3 > d_v + 1)"},
       R"({"sentence": "я люблю суши", "positional": true, "query": 1, "target": -1, "dV": 1})",
       LessonAction::kNone,
       {"Turn positional encoding on: the two «суши» differ again. Try d_v = 2 with three words.",
        "Включите позиционное кодирование — два «суши» снова различаются. Попробуйте d_v = 2 для трёх слов."}},
      // 3 ------------------------------------------------------------------------------------
      {{"3. What the next layer sees", "3. Что видит следующий слой"},
       {"Summing the scaled vectors makes a new vector A that encodes the relationships from q to the words "
        "of the sentence. A is passed on through a neural network…",
        "Агрегирование всех масштабированных векторов создаёт новый вектор A, который кодирует отношения от q к "
        "словам предложения. Вектор A проходит через нейронную сеть…"},
       Verdict::kImprecise,
       {"A does not store the pattern α: it is the message the head sends. The next layer only ever sees A "
        "(mixed by W_O and added to x), so two patterns with the same A are the same message, and nothing the "
        "network could use is lost. A layer has several heads, each with its own pattern and its own A: "
        "y = x + W_O·[A¹; A²; …].",
        "A не хранит паттерн внимания α — это сообщение, которое отправляет голова. Следующий слой видит только "
        "A (после W_O и сложения с x), поэтому два паттерна с одним A — это одно и то же сообщение, и ничего "
        "полезного для сети не теряется. В слое несколько голов, у каждой свой паттерн и свой A: "
        "y = x + W_O·[A¹; A²; …]."},
       {"A readout that sees only A (not the values) must name which of 3 words got the most weight, d_v = 8. "
        "How often is it right?",
        "Классификатор видит только A (но не значения) и должен назвать, какое из 3 слов получило больше всего "
        "веса, d_v = 8. Как часто он прав?"},
       {{"Always (100%)", "Всегда (100%)"},
        {"No better than chance (1 in 3)", "Не лучше, чем наугад (1 из 3)"},
        {"Mostly, but below 100%", "Чаще всего, но меньше 100%"}},
       2,
       R"({"projection": "random", "heads": 4, "dV": 2, "view": "weights"})", LessonAction::kNone,
       R"({"view": "information"})", LessonAction::kProbe,
       {"Mostly. The probe trains a readout on fresh random sentences; it does not know their values (they "
        "change with the content), so content noise and near-collisions cost it accuracy, even where the "
        "geometry says the pattern is recoverable for someone who knows every vᵢ. More d_v helps; more words "
        "than d_v + 1 hurt. Above: 4 heads of d_v = 2, each with its own pattern, concatenated and added to x.",
        "Чаще всего. Зонд обучает классификатор на новых случайных предложениях; значений слов он не знает (они "
        "меняются вместе с содержанием), поэтому шум и почти совпадения стоят ему точности — даже там, где "
        "геометрия говорит, что паттерн восстановим для того, кто знает все vᵢ. Большее d_v помогает, больше "
        "слов, чем d_v + 1, — мешает. Выше: 4 головы с d_v = 2, у каждой свой паттерн; они склеиваются и "
        "прибавляются к x."},
       {nullptr, nullptr}, nullptr, LessonAction::kNone,
       {"Change the number of heads and d_v; click a head's small heatmap to follow it.",
        "Меняйте число голов и d_v; нажмите на маленькую тепловую карту головы, чтобы следить за ней."}},
      // 4 ------------------------------------------------------------------------------------
      {{"4. The relations live in q·kᵢ", "4. Отношения записаны в q·kᵢ"},
       {"The information about which other words matter is already encoded in q·k⟨i⟩; scale(i) quantifies "
        "how strong the link between «люблю» and v⟨i⟩ is.",
        "Информация о том, какие слова важны, уже закодирована в q·k⟨i⟩; scale(i) количественно определяет, "
        "насколько сильна связь между «люблю» и v⟨i⟩."},
       Verdict::kRight,
       {"Right: which words matter is decided by the scores, before the sum. One precision: scale(i) = αᵢ is "
        "relative, not absolute. Adding the same m to every score changes nothing, "
        "exp(sᵢ − m) / Σⱼ exp(sⱼ − m) = exp(sᵢ) / Σⱼ exp(sⱼ): a word gets weight only by beating the others.",
        "Верно: какие слова важны, решают оценки, ещё до суммирования. Одно уточнение: scale(i) = αᵢ — "
        "величина относительная. Если прибавить одно и то же m ко всем оценкам, ничего не изменится: "
        "exp(sᵢ − m) / Σⱼ exp(sⱼ − m) = exp(sᵢ) / Σⱼ exp(sⱼ). Слово получает вес, только если опережает "
        "остальные."},
       {"Add 5 to every score of «люблю». What happens to its weights αᵢ?",
        "Прибавим 5 ко всем оценкам «люблю». Что станет с весами αᵢ?"},
       {{"Nothing changes", "Ничего не изменится"},
        {"They all grow", "Все вырастут"},
        {"The largest grows, the others shrink", "Наибольший вырастет, остальные уменьшатся"}},
       0,
       R"({"projection": "random"})", LessonAction::kNone,
       R"({})", LessonAction::kNone,
       {"Nothing changes: the engine recomputed the weights with every score + 5 (below). The lab itself "
        "subtracts m = max sᵢ before exp for stability, for the same reason. What does change the weights is "
        "multiplying the scores, e.g. the temperature.",
        "Ничего не изменится: движок пересчитал веса, прибавив 5 к каждой оценке (ниже). Сама лаборатория "
        "вычитает m = max sᵢ перед exp ради устойчивости — по той же причине. А вот умножение оценок, например "
        "температура, веса меняет."},
       {"Divide the scores by T = 0.5", "Разделить оценки на T = 0,5"},
       R"({"temperature": 0.5})", LessonAction::kNone,
       {"Change the temperature T and watch the steps table: sᵢ, exp(sᵢ − m) and αᵢ.",
        "Меняйте температуру T и смотрите на таблицу шагов: sᵢ, exp(sᵢ − m) и αᵢ."}},
      // 5 ------------------------------------------------------------------------------------
      {{"5. Backpropagation learns the relations", "5. Обратное распространение учит отношения"},
       {"A is passed on through a neural network; backpropagation through the scaling and the summation is "
        "how the Transformer learns the relationships.",
        "Вектор A проходит через нейронную сеть, а обратное распространение через масштабирование и "
        "суммирование — это то, как трансформер изучает отношения."},
       Verdict::kRight,
       {"Right. The sum passes a gradient to every weight: ∂L/∂αᵢ = vᵢ·∂L/∂A, how much the loss would change "
        "if more of vᵢ were added. The softmax passes it on to the scores sᵢ, and from there it reaches W_Q "
        "and W_K, which decide the pattern.",
        "Верно. Сумма передаёт градиент каждому весу: ∂L/∂αᵢ = vᵢ·∂L/∂A — насколько изменилась бы ошибка, "
        "если бы в A было больше vᵢ. Softmax передаёт его дальше, оценкам sᵢ, а оттуда он доходит до W_Q и "
        "W_K, которые и задают паттерн внимания."},
       {"A one-layer model learns verb → object on sentences like «я люблю суши». After 200 steps, where will "
        "«люблю» attend most?",
        "Однослойная модель учится задаче «глагол → дополнение» на предложениях вроде «я люблю суши». Куда "
        "«люблю» будет смотреть больше всего через 200 шагов?"},
       {{"«я»", "«я»"}, {"«люблю» itself", "на само себя, «люблю»"}, {"«суши»", "«суши»"}},
       2,
       R"({"view": "training", "train": {"task": "verb_object", "example": "я люблю суши"}})", LessonAction::kResetTraining,
       R"({})", LessonAction::kTrain,
       {"On «суши»: the task rewards it, and the gradient flowed there. Below, for the query row: each weight's "
        "gradient ∂L/∂αᵢ from the engine's backward pass, and the same number as vᵢ·∂L/∂A.",
        "На «суши»: этого требует задача, и туда направлял градиент. Ниже для строки запроса: градиент каждого "
        "веса ∂L/∂αᵢ из обратного прохода движка и то же число, посчитанное как vᵢ·∂L/∂A."},
       {nullptr, nullptr}, nullptr, LessonAction::kNone,
       {"Press ↺ Reset and ▶ Play to watch the weight on «суши» grow; try another normalizer.",
        "Нажмите «↺ Сначала» и «▶ Пуск», чтобы увидеть, как растёт вес «суши»; попробуйте другую нормировку."}},
      // 6 ------------------------------------------------------------------------------------
      {{"6. Normalization: a bound, not a size", "6. Нормировка: граница, а не размер"},
       {"My intuition: the same reason as normalization between layers: it speeds up and stabilizes training "
        "by keeping the outputs within bounds.",
        "Моя интуиция: та же причина, что и у нормализации между слоями, — ускоряет и стабилизирует обучение, "
        "удерживая выходы в рамках."},
       Verdict::kPartlyRight,
       {"Partly. Softmax makes the weights ≥ 0 with sum 1, so A is a convex combination: ‖A‖ never exceeds "
        "the longest vᵢ. But it does not normalize A's size: A can be short or as long as one vᵢ, which is why "
        "transformers also use LayerNorm. The ÷√d_k comes from Vaswani et al. 2017, not from the seed: it "
        "keeps the scores' variance near 1, so the softmax does not saturate.",
        "Отчасти. Softmax делает веса ≥ 0 с суммой 1, поэтому A — выпуклая комбинация: ‖A‖ никогда не больше "
        "самого длинного vᵢ. Но размер A softmax не нормирует: A может быть коротким или длиной с одно vᵢ, "
        "поэтому в трансформерах есть ещё LayerNorm. Деление на √d_k взято из статьи Vaswani et al. 2017, а "
        "не из вопроса: оно держит дисперсию оценок около 1, чтобы softmax не насыщался."},
       {"Make the scores 100 times larger. What happens to ‖A‖ with softmax?",
        "Увеличим оценки в 100 раз. Что станет с ‖A‖ при softmax?"},
       {{"It grows about 100 times", "Вырастет примерно в 100 раз"},
        {"It stays at most the longest ‖vᵢ‖", "Останется не больше самого длинного ‖vᵢ‖"},
        {"It becomes exactly 1", "Станет ровно 1"}},
       1,
       R"({})", LessonAction::kNone,
       R"({"view": "normalization"})", LessonAction::kNormalization,
       {"It stays within the bound; without a normalizer («none») it grows with the scores. The numbers below "
        "are the Normalization tab's experiments: where ÷√d_k helps (large d_k) and where it barely matters "
        "(small d_k).",
        "Остаётся в пределах границы; без нормировки («none») растёт вместе с оценками. Ниже — числа из "
        "экспериментов вкладки «Нормировка»: где деление на √d_k помогает (большое d_k), а где почти не "
        "важно (малое d_k)."},
       {nullptr, nullptr}, nullptr, LessonAction::kNone,
       {"Run the training curves in the Normalization tab: scaled vs unscaled at d_k = 4 and 64.",
        "Запустите кривые обучения на вкладке «Нормировка»: с делением и без при d_k = 4 и 64."}},
      // 7 ------------------------------------------------------------------------------------
      {{"7. A trained layer, for real", "7. Обученный слой — настоящий"},
       {"A is passed on through a neural network; backpropagation through the scaling and the summation is how "
        "the Transformer learns the relationships between q and the sentence.",
        "Вектор A проходит через нейронную сеть, а обратное распространение на масштабирование и агрегацию — это "
        "то, как Трансформер изучает отношения между q и предложением."},
       Verdict::kRight,
       {"Right, and step 1 showed why training is needed: with q = k = x every word attends mostly to itself. "
        "The lab ships a real trained model (4 layers × 4 heads, d_model 128, trained on English and Russian "
        "text by this engine): its W_Q and W_K are learned, not equal.",
        "Верно, и шаг 1 показал, зачем нужно обучение: при q = k = x каждое слово смотрит в основном на себя. "
        "В лаборатории есть настоящая обученная модель (4 слоя × 4 головы, d_model 128, обучена этим движком "
        "на английских и русских текстах): её W_Q и W_K выучены и не равны."},
       {"On «я люблю суши», how much of its weight does a head of the trained model put on the token itself, on "
        "average over its 16 heads?",
        "Сколько веса голова обученной модели отдаёт самому токену на «я люблю суши», в среднем по 16 головам?"},
       {{"Almost all, as with q = k = x", "Почти весь, как при q = k = x"},
        {"About a fifth: far less than with q = k = x", "Около пятой части — намного меньше, чем при q = k = x"},
        {"None: a token never attends to itself", "Нисколько: токен никогда не смотрит на себя"}},
       1,
       R"({"projection": "identity", "view": "weights"})", LessonAction::kNone,
       R"({"projection": "model", "layer": 0, "head": 0, "view": "weights"})", LessonAction::kNone,
       {"About a fifth (the numbers below, from the model's own weights on this sentence). Layer 0's heads look "
        "back at the previous token (` су` → ` люб`…); later heads spread their weight or park it on "
        "<|endoftext|>. Training made q·k mean \"this key is useful to me\", not \"this key looks like me\". "
        "In the Information tab the same question as step 2 is asked of this head: with d_head = 32 and "
        "6 tokens the pattern is recoverable; past 33 tokens it is not.",
        "Около пятой части (числа ниже — из весов самой модели на этом предложении). Головы слоя 0 смотрят "
        "на предыдущий токен (` су` → ` люб`…); головы выше распределяют вес или складывают его на "
        "<|endoftext|>. Обучение сделало q·k мерой «этот ключ мне полезен», а не «этот ключ похож на меня». "
        "На вкладке «Информация» вопрос шага 2 задан этой голове: при d_head = 32 и 6 токенах паттерн "
        "восстанавливается, а после 33 токенов — нет."},
       {"Information on this head", "Информация об этой голове"},
       R"({"view": "information"})", LessonAction::kNone,
       {"Click the gallery's heads to follow each one; type your own sentence.",
        "Нажимайте на головы в галерее, чтобы следить за каждой; введите своё предложение."}},
      // 8 ------------------------------------------------------------------------------------
      {{"8. SLP's αᵢⱼ, and the answer", "8. αᵢⱼ из SLP и ответ"},
       {"…normalize them with a softmax to create a vector of weights αᵢⱼ that indicates the proportional "
        "relevance of each input to the input element i that is the current focus of attention.",
        "…нормализуем их с помощью softmax, чтобы получить вектор весов αᵢⱼ, который указывает на "
        "пропорциональную значимость каждого входного элемента для элемента i, находящегося в фокусе внимания."},
       Verdict::kRight,
       {"Right, and it names both indices: i is the word in focus (the query), j runs over the words it "
        "attends to. Jurafsky & Martin, Speech and Language Processing, 3rd edition draft, chapter 9 «The "
        "Transformer» (the seed's «chapter 9»; older drafts put attention in other chapters).",
        "Верно, и здесь названы оба индекса: i — слово в фокусе (запрос), j пробегает слова, на которые оно "
        "смотрит. Jurafsky & Martin, Speech and Language Processing, черновик 3-го издания, глава 9 «The "
        "Transformer» («глава 9» из вопроса; в старых черновиках внимание было в других главах)."},
       {"In αᵢⱼ, over which index do the weights sum to 1?", "По какому индексу веса αᵢⱼ в сумме дают 1?"},
       {{"Over i: all queries, one key", "По i: все запросы, один ключ"},
        {"Over both", "По обоим"},
        {"Over j: one query, all keys", "По j: один запрос, все ключи"}},
       2,
       R"({})", LessonAction::kNone,
       R"({"view": "weights"})", LessonAction::kNone,
       {"Over j: each row of the weights heatmap sums to 1.\n"
        "The question: does the sum A = Σ αᵢvᵢ lose which words mattered?\n"
        "The answer:\n"
        "• which words matter is in the scores q·kᵢ, and it does its work before the sum (step 4);\n"
        "• A hides the pattern only in exact cases: more visible words than d_v + 1, or equal values (step 2);\n"
        "• then the patterns send the same message, and A is all the next layer sees; several heads and "
        "x + W_O·A keep more (step 3);\n"
        "• training shapes q·k through ∂L/∂αᵢ = vᵢ·∂L/∂A (steps 1 and 5), and a trained model does not simply "
        "attend to itself (step 7);\n"
        "• softmax bounds A, LayerNorm sizes it, ÷√d_k keeps softmax from saturating (step 6).",
        "По j: каждая строка тепловой карты весов в сумме даёт 1.\n"
        "Вопрос: теряет ли сумма A = Σ αᵢvᵢ информацию о том, какие слова были важны?\n"
        "Ответ:\n"
        "• какие слова важны, записано в оценках q·kᵢ, и работает это до суммирования (шаг 4);\n"
        "• A скрывает паттерн внимания только в строго определённых случаях: видимых слов больше, чем "
        "d_v + 1, или есть равные значения (шаг 2);\n"
        "• тогда разные паттерны передают одно и то же сообщение, а следующий слой видит только A; "
        "несколько голов и x + W_O·A сохраняют больше (шаг 3);\n"
        "• обучение настраивает q·k через ∂L/∂αᵢ = vᵢ·∂L/∂A (шаги 1 и 5), и обученная модель не смотрит "
        "просто на себя (шаг 7);\n"
        "• softmax ограничивает A, LayerNorm нормирует его размер, деление на √d_k не даёт softmax "
        "насыщаться (шаг 6)."},
       {nullptr, nullptr}, nullptr, LessonAction::kNone,
       {"Close the lesson (×) and explore the lab freely; your predictions stay.",
        "Закройте урок (×) и исследуйте лабораторию свободно; ваши прогнозы сохранятся."}},
  };
  return steps;
}

// ---- state and moves ---------------------------------------------------------------------------

namespace {

const LessonStep* StepAt(int step) {
  const auto& steps = LessonSteps();
  return step >= 1 && step <= static_cast<int>(steps.size()) ? &steps[step - 1] : nullptr;
}

Json Parse(const char* text) { return text ? Json::parse(text) : Json::object(); }

// The lab's defaults: every row of the lab's settings table at its initial value.
Json LabDefaults() {
  Json out = Json::object();
  attn::api::FieldsToJson(attn::LabFields(), attn::LabConfig{}, out);
  out["view"] = "steps";
  return out;
}

void RunAction(AppState& s, LessonAction a) {
  switch (a) {
    case LessonAction::kNone: break;
    case LessonAction::kResetTraining: ResetTraining(s); break;
    case LessonAction::kTrain:
      if (s.training.a.trainer.step() < kLessonTrainSteps)
        TrainSteps(s, kLessonTrainSteps - s.training.a.trainer.step());
      break;
    case LessonAction::kNormalization: EnsureNormalization(s); break;
    case LessonAction::kProbe:
      if (s.probe.empty() && s.probe_queue.empty()) StartProbeSweep(s);
      break;
  }
}

}  // namespace

const LessonStep* CurrentLessonStep(const AppState& s) { return StepAt(s.lab.lesson); }

int LessonPrediction(const attn::api::LabState& lab, int step) {
  if (step < 1 || step > static_cast<int>(lab.predictions.size())) return -1;
  const char c = lab.predictions[step - 1];
  return c >= 'a' && c < 'a' + kLessonChoices ? c - 'a' : -1;
}

bool LessonRevealed(const AppState& s) { return LessonPrediction(s.lab, s.lab.lesson) >= 0; }

Json LessonStepPatch(int step, bool revealed) {
  const LessonStep* st = StepAt(step);
  Json patch = LabDefaults();
  if (st) {
    patch.merge_patch(Parse(st->setup));
    if (revealed) patch.merge_patch(Parse(st->reveal));
  }
  patch["lesson"] = step;
  return patch;
}

Json WithLessonStep(const AppState& s, const Json& patch) {
  // A number (a link's text arrives as a double); the row refuses what is not a step.
  if (!patch.is_object() || !patch.contains("lesson") || !patch["lesson"].is_number()) return patch;
  const double value = patch["lesson"].get<double>();
  if (value != std::floor(value) || value < 0 || value > kLessonSteps) return patch;
  const int step = static_cast<int>(value);
  if (step == s.lab.lesson || !StepAt(step)) return patch;
  attn::api::LabState lab = s.lab;
  if (patch.contains("predictions") && patch["predictions"].is_string())
    lab.predictions = patch["predictions"].get<std::string>();
  Json merged = LessonStepPatch(step, LessonPrediction(lab, step) >= 0);
  merged.merge_patch(patch);
  return merged;
}

void RunLessonActions(AppState& s, int previous_lesson) {
  const LessonStep* st = CurrentLessonStep(s);
  if (!st || s.lab.lesson == previous_lesson) return;
  RunAction(s, st->setup_action);
  if (LessonRevealed(s)) RunAction(s, st->reveal_action);
}

attn::api::PatchResult GoToLesson(AppState& s, int step) { return ApplyPatch(s, Json{{"lesson", step}}); }

attn::api::PatchResult AnswerLesson(AppState& s, int choice) {
  const LessonStep* st = CurrentLessonStep(s);
  std::string predictions = s.lab.predictions;
  if (st && choice >= 0 && choice < kLessonChoices && predictions.size() == static_cast<std::size_t>(kLessonSteps))
    predictions[s.lab.lesson - 1] = static_cast<char>('a' + choice);
  // Bad input is refused by the predictions row, in the one wording.
  else predictions = "?";
  Json patch = st ? LessonStepPatch(s.lab.lesson, true) : Json::object();
  patch["predictions"] = predictions;
  attn::api::PatchResult r = ApplyPatch(s, patch);
  if (r.ok && st) RunAction(s, st->reveal_action);
  return r;
}

namespace {
attn::api::PatchResult Unchanged(const AppState& s) {
  attn::api::PatchResult r;
  r.state = s.lab;
  return r;
}
}  // namespace

attn::api::PatchResult ShowLessonExtra(AppState& s) {
  const LessonStep* st = CurrentLessonStep(s);
  if (!st || !st->extra) return Unchanged(s);
  attn::api::PatchResult r = ApplyPatch(s, Parse(st->extra));
  if (r.ok) RunAction(s, st->extra_action);
  return r;
}

attn::api::PatchResult RestoreLessonStep(AppState& s) {
  if (!CurrentLessonStep(s)) return Unchanged(s);
  const bool revealed = LessonRevealed(s);
  attn::api::PatchResult r = ApplyPatch(s, LessonStepPatch(s.lab.lesson, revealed));
  if (r.ok) RunLessonActions(s, 0);
  return r;
}

// ---- the readout -------------------------------------------------------------------------------

namespace {

std::string Format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

// A line in both languages from two formats with the same arguments.
template <class... A>
LessonLine Line(const char* en, const char* ru, A... args) {
  return {Format(en, args...), Format(ru, args...)};
}

std::string Tok(const std::vector<attn::Token>& tokens, int i) {
  return i >= 0 && i < static_cast<int>(tokens.size()) ? "«" + tokens[i].text + "»" : "?";
}

void QueryRows(const AppState& s, std::vector<LessonLine>& out) {
  const attn::LabResult& r = s.result;
  if (!r.error.ok()) return;
  const std::string q = Tok(r.tokens, r.steps.query);
  out.push_back(Line("Query %s, head %d. Word: q·kᵢ; sᵢ = q·kᵢ·c/T; αᵢ", "Запрос %s, голова %d. Слово: q·kᵢ; sᵢ = q·kᵢ·c/T; αᵢ",
                     q.c_str(), s.lab.config.head + 1));
  for (std::size_t i = 0; i < r.steps.rows.size(); ++i) {
    const attn::StepRow& row = r.steps.rows[i];
    out.push_back(Line("  %s: %.3f;  %.3f;  %.3f", "  %s: %.3f;  %.3f;  %.3f",
                       ("«" + row.token + "»").c_str(), row.score, row.scaled, row.weight));
  }
}

// The training example's query row (run A): the weights, and the gradient into each weight.
void TrainingRows(const AppState& s, std::vector<LessonLine>& out, bool gradients) {
  const AppState::TrainRun& a = s.training.a;
  if (!a.has_view || a.view.forward.attn.heads.empty()) return;
  const int q = s.training.query;
  const auto& w = a.view.forward.attn.heads[0].weights;
  if (q < 0 || q >= w.rows()) return;
  out.push_back(Line("Trained layer, step %d, query «%s».", "Обученный слой, шаг %d, запрос «%s».",
                     a.trainer.step(), a.view.tokens[q].c_str()));
  out.push_back(gradients ? Line("Word: αᵢ;  ∂L/∂αᵢ (backward);  vᵢ·∂L/∂A", "Слово: αᵢ;  ∂L/∂αᵢ (обратный проход);  vᵢ·∂L/∂A")
                          : Line("Word: αᵢ", "Слово: αᵢ"));
  const attn::VecD via_values = WeightGradientFromValues(a.view, 0, q);
  for (Eigen::Index j = 0; j < w.cols(); ++j) {
    const std::string t = "«" + a.view.tokens[j] + "»";
    if (gradients && j < via_values.size())
      out.push_back(Line("  %s: %.3f;  %.3g;  %.3g", "  %s: %.3f;  %.3g;  %.3g", t.c_str(), w(q, j),
                         a.view.grads.heads[0].dweights(q, j), via_values(j)));
    else
      out.push_back(Line("  %s: %.3f", "  %s: %.3f", t.c_str(), w(q, j)));
  }
}

// Step 7: the trained model's weight on the token itself on this sentence (every layer and head,
// the rows t >= 1: row 0 can only attend to itself), against q = k = x on the lab's words.
void ModelSelfRows(const AppState& s, std::vector<LessonLine>& out) {
  if (!s.model) {
    out.push_back(Line("Loading the trained model (its numbers appear here when it is ready)…",
                       "Загружается обученная модель (её числа появятся здесь, когда она будет готова)…"));
    return;
  }
  const auto& blocks = s.model_result.acts.blocks;
  double sum = 0, even = 0;
  int rows = 0;
  std::vector<double> per_layer;
  for (const auto& block : blocks) {
    double layer_sum = 0;
    int layer_rows = 0;
    for (const auto& h : block.attn.heads) {
      for (Eigen::Index t = 1; t < h.weights.rows(); ++t) {
        layer_sum += h.weights(t, t);
        even += 1.0 / static_cast<double>(t + 1);
        ++layer_rows;
      }
    }
    per_layer.push_back(layer_rows > 0 ? layer_sum / layer_rows : 0.0);
    sum += layer_sum;
    rows += layer_rows;
  }
  if (rows == 0) return;
  out.push_back(Line("Trained model, the mean weight a token puts on itself (16 heads, rows t ≥ 1): %.3f; spread evenly: %.3f",
                     "Обученная модель, средний вес токена на самом себе (16 голов, строки t ≥ 1): %.3f; поровну было бы %.3f",
                     sum / rows, even / rows));
  for (std::size_t l = 0; l < per_layer.size(); ++l)
    out.push_back(Line("  layer %d: %.3f", "  слой %d: %.3f", static_cast<int>(l), per_layer[l]));
  attn::LabConfig c;  // the lab's defaults: identity projections, q = k = v = x
  c.sentence = s.lab.config.sentence;
  const attn::LabResult id = attn::ComputeLab(c);
  if (!id.error.ok()) return;
  double diag = 0;
  const Eigen::Index n = id.trace.weights.rows();
  for (Eigen::Index i = 0; i < n; ++i) diag += id.trace.weights(i, i);
  out.push_back(Line("q = k = x (identity projections, the lab's %d words): %.3f on the word itself",
                     "q = k = x (тождественные проекции, %d слова лаборатории): %.3f на самом слове",
                     static_cast<int>(n), diag / static_cast<double>(n)));
}

std::string VecText(const attn::VecD& v) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (i ? ", " : "") + Format("%.2f", v(i));
  return out + "]";
}

}  // namespace

std::vector<LessonLine> LessonReadout(const AppState& s) {
  std::vector<LessonLine> out;
  if (!CurrentLessonStep(s) || !LessonRevealed(s)) return out;
  const attn::LabResult& r = s.result;
  switch (s.lab.lesson) {
    case 1:
      QueryRows(s, out);
      if (r.error.ok() && r.steps.query < static_cast<int>(r.steps.rows.size())) {
        float other = -1e30f;
        for (std::size_t i = 0; i < r.steps.rows.size(); ++i)
          if (static_cast<int>(i) != r.steps.query) other = std::max(other, r.steps.rows[i].score);
        out.push_back(Line("q·q = %.3f, the largest other q·k = %.3f", "q·q = %.3f, наибольшее другое q·k = %.3f",
                           r.steps.rows[r.steps.query].score, other));
      }
      if (s.training.a.trainer.step() > 0) TrainingRows(s, out, false);
      break;
    case 2: {
      if (!r.error.ok()) break;
      const attn::InformationReport& info = r.information;
      out.push_back(Line("tokens: %d, d_v = %d; affine rank of the values: %d; patterns with the same A: a family of dimension %d",
                         "токенов: %d, d_v = %d; аффинный ранг значений: %d; паттерны с тем же A: семейство размерности %d",
                         static_cast<int>(r.tokens.size()), r.trace.d_v, info.info.affine_rank,
                         info.info.same_output_dim));
      const attn::VecD alpha = r.trace.weights.row(r.steps.query).transpose().cast<double>();
      out.push_back(Line("scenario 1: α  = %s", "сценарий 1: α  = %s", VecText(alpha).c_str()));
      out.push_back(Line("scenario 2: α′ = %s (the most weight on %s)", "сценарий 2: α′ = %s (больше всего веса на %s)",
                         VecText(info.collision.alpha2).c_str(), Tok(r.tokens, r.target).c_str()));
      out.push_back(Line("max |A − A′| = %.1e", "max |A − A′| = %.1e", info.collision.max_output_diff));
      break;
    }
    case 3: {
      if (!r.error.ok()) break;
      const int q = r.steps.query;
      out.push_back(Line("heads: %d, d_v = %d each; [A¹; …] has length %d, W_O maps it to d_model = %d",
                         "голов: %d, у каждой d_v = %d; длина [A¹; …]: %d, W_O переводит её в d_model = %d",
                         static_cast<int>(r.mha.heads.size()), r.trace.d_v, static_cast<int>(r.mha.concat.cols()),
                         static_cast<int>(r.mha.output.cols())));
      for (std::size_t h = 0; h < r.mha.heads.size(); ++h) {
        Eigen::Index top = 0;
        r.mha.heads[h].weights.row(q).maxCoeff(&top);
        out.push_back(Line("  head %d: %s → %s (α = %.3f)", "  голова %d: %s → %s (α = %.3f)", static_cast<int>(h) + 1,
                           Tok(r.tokens, q).c_str(), Tok(r.tokens, static_cast<int>(top)).c_str(),
                           r.mha.heads[h].weights(q, top)));
      }
      out.push_back(Line("x      = %s", "x      = %s", VecText(r.trace.X.row(q).transpose().cast<double>()).c_str()));
      out.push_back(Line("x + W_O·[A¹; …] = %s", "x + W_O·[A¹; …] = %s", VecText(ResidualOutput(r)).c_str()));
      if (!s.probe.empty() || !s.probe_queue.empty())
        out.push_back(Line("Probe (%d of %d runs): a readout sees only A", "Зонд (%d из %d запусков): классификатор видит только A",
                           static_cast<int>(s.probe.size()), s.probe_total));
      for (const AppState::ProbePoint& p : s.probe)
        out.push_back(Line("  words: %d, d_v = %d, heads: %d: right %.0f%% (chance %.0f%%)",
                           "  слов: %d, d_v = %d, голов: %d — верно %.0f%% (наугад %.0f%%)", p.tokens, p.d_v, p.heads,
                           100 * p.accuracy, 100 * p.chance));
      break;
    }
    case 4: {
      if (!r.error.ok()) break;
      const attn::VecD shifted = ShiftedWeights(r, s.lab.config.normalizer, 5.0);
      out.push_back(Line("m = max sᵢ = %.3f", "m = max sᵢ = %.3f", r.steps.row_max));
      out.push_back(Line("Word: sᵢ → sᵢ + 5;  αᵢ → αᵢ(s + 5)", "Слово: sᵢ → sᵢ + 5;  αᵢ → αᵢ(s + 5)"));
      double diff = 0;
      for (std::size_t i = 0; i < r.steps.rows.size() && static_cast<Eigen::Index>(i) < shifted.size(); ++i) {
        const attn::StepRow& row = r.steps.rows[i];
        diff = std::max(diff, std::abs(shifted(i) - row.weight));
        out.push_back(Line("  %s: %.3f → %.3f;  %.4f → %.4f", "  %s: %.3f → %.3f;  %.4f → %.4f",
                           ("«" + row.token + "»").c_str(), row.scaled, row.scaled + 5.0, row.weight, shifted(i)));
      }
      out.push_back(Line("largest change of a weight: %.1e (rounding)", "наибольшее изменение веса: %.1e (округление)", diff));
      break;
    }
    case 5: TrainingRows(s, out, true); break;
    case 6: {
      const AppState::Normalization& n = s.normalization;
      if (!n.computed) break;
      if (!n.output_norm.empty() && !n.normalizers.empty()) {
        const attn::OutputNormPoint& p = n.output_norm.back();
        const attn::OutputNormPoint& p0 = n.output_norm.front();
        for (std::size_t k = 0; k < n.normalizers.size() && k < p.norm.size(); ++k) {
          const attn::Normalizer z = n.normalizers[k];
          if (z != attn::Normalizer::kSoftmax && z != attn::Normalizer::kNone) continue;
          out.push_back(Line("%s: ‖A‖ = %.2f (scores × %g), %.2f (× %g)", "%s: ‖A‖ = %.2f (оценки × %g), %.2f (× %g)",
                             attn::NormalizerName(z), p0.norm[k], p0.magnitude, p.norm[k], p.magnitude));
        }
      }
      if (!n.output_norm.empty())
        out.push_back(Line("bound: the longest ‖vᵢ‖, %.2f on average", "граница: самый длинный ‖vᵢ‖, в среднем %.2f",
                           n.output_norm.back().bound));
      for (const attn::ScoreVariancePoint& v : n.variance)
        if (v.d_k == 64)
          out.push_back(Line("d_k = 64: Var(q·k) = %.1f; with ÷√d_k %.2f", "d_k = 64: Var(q·k) = %.1f; с ÷√d_k %.2f",
                             v.var_unscaled, v.var_scaled));
      for (const attn::SaturationPoint& p : n.saturation)
        if (p.d_k == 4 || p.d_k == 64)
          out.push_back(Line("d_k = %d: entropy %.2f without ÷√d_k, %.2f with", "d_k = %d: энтропия %.2f без ÷√d_k, %.2f с ним",
                             p.d_k, p.entropy_unscaled, p.entropy_scaled));
      if (!n.saturation.empty())
        out.push_back(Line("(rows of %d keys; uniform: ln %d = %.2f)", "(строки из %d ключей; равномерно: ln %d = %.2f)", n.keys,
                           n.keys, std::log(static_cast<double>(n.keys))));
      break;
    }
    case 7: ModelSelfRows(s, out); break;
    case 8: {
      if (r.error.ok())
        out.push_back(Line("Σⱼ α for the query %s: %.6f", "Σⱼ α для запроса %s: %.6f", Tok(r.tokens, r.steps.query).c_str(),
                           r.steps.weight_sum));
      int answered = 0, right = 0;
      for (int k = 1; k <= kLessonSteps; ++k) {
        const int p = LessonPrediction(s.lab, k);
        if (p < 0) continue;
        ++answered;
        right += p == LessonSteps()[k - 1].right ? 1 : 0;
      }
      out.push_back(Line("Your predictions: %d right of %d made", "Ваши прогнозы: верно %d из %d", right, answered));
      std::string where;
      for (int k = 1; k <= kLessonSteps; ++k)
        if (LessonPrediction(s.lab, k) == LessonSteps()[k - 1].right) where += (where.empty() ? "" : ", ") + std::to_string(k);
      if (!where.empty()) out.push_back(Line("right at steps %s", "верно на шагах %s", where.c_str()));
      break;
    }
    default: break;
  }
  return out;
}

// ---- numbers -----------------------------------------------------------------------------------

attn::VecD ShiftedWeights(const attn::LabResult& r, attn::Normalizer normalizer, double shift) {
  if (!r.error.ok() || r.steps.query >= r.trace.scaled.rows()) return {};
  // The chosen head is the trace's: its scaled scores and the mask actually used.
  const int q = r.steps.query;
  attn::MatD scaled = r.trace.scaled.row(q).cast<double>();
  scaled.array() += shift;
  attn::Mask mask;
  if (r.mha.mask.rows() > q) mask = r.mha.mask.row(q);
  return attn::NormalizeRows<double>(scaled, mask, normalizer).row(0).transpose();
}

attn::VecD ResidualOutput(const attn::LabResult& r) {
  if (!r.error.ok()) return {};
  const int q = r.steps.query;
  return (r.trace.X.row(q).cast<double>() + r.mha.output.row(q).cast<double>()).transpose();
}

attn::VecD WeightGradientFromValues(const attn::ExampleView& v, int head, int query) {
  const auto& heads = v.forward.attn.heads;
  if (head < 0 || head >= static_cast<int>(heads.size())) return {};
  Eigen::Index offset = 0;
  for (int h = 0; h < head; ++h) offset += heads[h].V.cols();
  const attn::MatD& V = heads[head].V;  // (N, Dv)
  if (query < 0 || query >= v.grads.dconcat.rows()) return {};
  const attn::VecD dA = v.grads.dconcat.row(query).segment(offset, V.cols()).transpose();  // (Dv)
  attn::VecD out(V.rows());
  for (Eigen::Index i = 0; i < V.rows(); ++i) {
    double sum = 0;
    for (Eigen::Index k = 0; k < V.cols(); ++k) sum += V(i, k) * dA(k);
    out(i) = sum;
  }
  return out;
}

}  // namespace app
