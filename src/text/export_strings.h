// The exported pictures' and tables' words (src/app/exports/*_svg.cpp), in the state's language
// (text::In(lab.lang, ...)). The exports also say some of the panels' own strings (kScenario1,
// kMaskedBar, kHeadOf, ...), so that a figure and its panel read the same.
#pragma once

#include "text/text.h"

namespace text::tr {

// the weights (weights_svg.cpp)
inline constexpr Text kSvgWeightsTitle{"Attention weights αᵢⱼ: row = query i, column = key j",
                                       "Веса внимания αᵢⱼ: строка — запрос i, столбец — ключ j"};
inline constexpr Text kSvgKeyAxis{"key j", "ключ j"};
inline constexpr Text kCsvCorner{"query \\ key", "запрос \\ ключ"};  // the CSV's top-left cell

// weight against contribution, the simplex (information_svg.cpp)
inline constexpr Text kSvgContributionsTitle{"Attention weights and each word's contribution wᵢvᵢ to the output A: two scenarios",
                                             "Веса внимания и вклад каждого слова wᵢvᵢ в выход A: два сценария"};
inline constexpr Text kSvgScenario2Affine{"Scenario 2: α′ with one more unit of weight on «%s»",
                                          "Сценарий 2: α′ с весом на «%s» больше на единицу"};
inline constexpr Text kSvgSameOutput{": the two outputs are the same vector", ": два выхода — один и тот же вектор"};  // after "max |A − A′| = 1e-16"
inline constexpr Text kSvgSimplexTitle{"The weights as a point in the simplex; the green segment or area through it gives the same A",
                                       "Веса — точка симплекса; все точки зелёного отрезка или области через неё дают тот же A"};
inline constexpr Text kSvgSimplexHeading{"The weights as a point in the simplex", "Веса — точка симплекса"};
inline constexpr Text kSvgLegendAlpha{"α: the query's weights", "α: веса запроса"};
inline constexpr Text kSvgLegendAlphaCustom{"α: your weights", "α: ваши веса"};
inline constexpr Text kSvgLegendAlpha2{"α′: the same A, the most weight on another word", "α′: тот же A, наибольший вес на другом слове"};
inline constexpr Text kSvgLegendSameA{"green: every weight pattern with the same A", "зелёным: все веса с тем же A"};

// the training example's attention (training_svg.cpp)
inline constexpr Text kSvgExampleRun{"The example's attention (row = query, column = key)",
                                     "Внимание на примере (строка — запрос, столбец — ключ)"};
inline constexpr Text kSvgCompareRun{"B (compare: %s)", "B (сравнение: %s)"};
inline constexpr Text kSvgExampleTitle{"Attention on the training example: row = query, column = key",
                                       "Внимание на обучающем примере: строка — запрос, столбец — ключ"};

// what if: Δα (whatif_svg.cpp)
inline constexpr Text kSvgLayerHead{"layer %d, head %d", "слой %d, голова %d"};
inline constexpr Text kCsvDeltaCorner{"Δα: query \\ key", "Δα: запрос \\ ключ"};
inline constexpr Text kCsvDeltaCornerHead{"Δα (%s): query \\ key", "Δα (%s): запрос \\ ключ"};  // kSvgLayerHead
inline constexpr Text kSvgDeltaTitle{"Δα = α′ − α (the edited run minus the plain one): row = query, column = key",
                                     "Δα = α′ − α (изменённый прогон минус исходный): строка — запрос, столбец — ключ"};

}  // namespace text::tr
