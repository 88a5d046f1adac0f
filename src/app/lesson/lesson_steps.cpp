// The lesson's eight steps as data: per step the seed's claim, the verdict and why, the
// prediction asked with its choices, the patches that set the question's and the answer's state,
// an optional second demonstration and what to try next, in English and Russian (lesson.h).
#include "app/lesson/lesson_steps.h"

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
       {"Where a trained head's q·k points: the induction head", "Куда указывает q·k обученной головы: индукционная голова"},
       // The model's strongest induction head (heads.json; test_lesson.cpp checks it is), on a
       // sentence typed twice: each repeated token's query finds the token after its earlier copy.
       R"({"projection": "model", "sentence": "я люблю суши, я люблю суши", "layer": 1, "head": 4, "view": "weights"})",
       LessonAction::kNone,
       {"Type any sentence twice and watch this head's rows in the second copy; change the temperature T "
        "(identity or random projections) and watch the steps table: sᵢ, exp(sᵢ − m) and αᵢ.",
        "Введите любое предложение дважды и смотрите на строки этой головы во второй копии; меняйте "
        "температуру T (тождественные или случайные проекции) и смотрите на таблицу шагов: sᵢ, exp(sᵢ − m) и αᵢ."}},
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
        "The lab ships a real trained model (4 layers × 6 heads, d_model 192, trained on English and Russian "
        "text by this engine): its W_Q and W_K are learned, not equal.",
        "Верно, и шаг 1 показал, зачем нужно обучение: при q = k = x каждое слово смотрит в основном на себя. "
        "В лаборатории есть настоящая обученная модель (4 слоя × 6 голов, d_model 192, обучена этим движком "
        "на английских и русских текстах): её W_Q и W_K выучены и не равны."},
       {"On «я люблю суши», how much of its weight does a head of the trained model put on the token itself, on "
        "average over all its heads?",
        "Сколько веса голова обученной модели отдаёт самому токену на «я люблю суши», в среднем по всем её головам?"},
       {{"Almost all, as with q = k = x", "Почти весь, как при q = k = x"},
        {"About a fifth: far less than with q = k = x", "Около пятой части — намного меньше, чем при q = k = x"},
        {"None: a token never attends to itself", "Нисколько: токен никогда не смотрит на себя"}},
       1,
       R"({"projection": "identity", "view": "weights"})", LessonAction::kNone,
       R"({"projection": "model", "layer": 0, "head": 1, "view": "weights"})", LessonAction::kNone,
       {"About a fifth (the numbers below, from the model's own weights on this sentence). Layer 0's head 1 looks "
        "back at the previous token (` су` → `лю`, `лю` → ` люб`); later heads spread their weight or park it on "
        "<|endoftext|>. Training made q·k mean \"this key is useful to me\", not \"this key looks like me\". "
        "In the Information tab the same question as step 2 is asked of this head: with d_head = 32 and "
        "6 tokens the pattern is recoverable; past 33 tokens it is not.",
        "Около пятой части (числа ниже — из весов самой модели на этом предложении). Голова 1 слоя 0 смотрит "
        "на предыдущий токен (` су` → `лю`, `лю` → ` люб`); головы выше распределяют вес или складывают его на "
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

}  // namespace app
