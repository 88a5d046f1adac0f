// Plural forms: the Russian rule (one / few / many) on the numbers where it turns, and the
// English one (1 -> singular, everything else plural), through the Plural the panels use.
#include "text/text.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using text::Lang;
using text::RussianForm;

constexpr text::Plural kTokens{{"token", "tokens"}, {"токен", "токена", "токенов"}};
constexpr text::Plural kDims{{"affine dimension", "affine dimensions"},
                           {"аффинное измерение", "аффинных измерения", "аффинных измерений"}};

struct Case {
  long long n;
  RussianForm ru;
  const char* ru_word;  // kTokens
  const char* en_word;
};

// The brief's numbers: 0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112, 121, 1000, and a
// few more where the rule turns (13, 20, 24, 100, 102, 104, 105, 1001, 1011).
const Case kCases[] = {
    {0, RussianForm::kMany, "токенов", "tokens"},    {1, RussianForm::kOne, "токен", "token"},
    {2, RussianForm::kFew, "токена", "tokens"},      {3, RussianForm::kFew, "токена", "tokens"},
    {4, RussianForm::kFew, "токена", "tokens"},      {5, RussianForm::kMany, "токенов", "tokens"},
    {11, RussianForm::kMany, "токенов", "tokens"},   {12, RussianForm::kMany, "токенов", "tokens"},
    {13, RussianForm::kMany, "токенов", "tokens"},   {14, RussianForm::kMany, "токенов", "tokens"},
    {20, RussianForm::kMany, "токенов", "tokens"},   {21, RussianForm::kOne, "токен", "tokens"},
    {22, RussianForm::kFew, "токена", "tokens"},     {24, RussianForm::kFew, "токена", "tokens"},
    {25, RussianForm::kMany, "токенов", "tokens"},   {100, RussianForm::kMany, "токенов", "tokens"},
    {101, RussianForm::kOne, "токен", "tokens"},     {102, RussianForm::kFew, "токена", "tokens"},
    {104, RussianForm::kFew, "токена", "tokens"},    {105, RussianForm::kMany, "токенов", "tokens"},
    {111, RussianForm::kMany, "токенов", "tokens"},  {112, RussianForm::kMany, "токенов", "tokens"},
    {114, RussianForm::kMany, "токенов", "tokens"},  {121, RussianForm::kOne, "токен", "tokens"},
    {1000, RussianForm::kMany, "токенов", "tokens"}, {1001, RussianForm::kOne, "токен", "tokens"},
    {1011, RussianForm::kMany, "токенов", "tokens"},
};

}  // namespace

TEST_CASE("the Russian form of n follows its last two digits (1, 21, 101: one; 2-4, 22: few; 0, 5-20, 25, 111-114: many)") {
  for (const Case& c : kCases) {
    CAPTURE(c.n);
    CHECK(text::RussianFormOf(c.n) == c.ru);
    CHECK(std::string(text::PluralWord(Lang::kRu, c.n, kTokens)) == c.ru_word);
  }
}

TEST_CASE("English uses the singular for 1 only") {
  for (const Case& c : kCases) {
    CAPTURE(c.n);
    CHECK(std::string(text::PluralWord(Lang::kEn, c.n, kTokens)) == c.en_word);
  }
}

TEST_CASE("a negative count takes the form of its absolute value") {
  CHECK(text::RussianFormOf(-1) == RussianForm::kOne);
  CHECK(text::RussianFormOf(-3) == RussianForm::kFew);
  CHECK(text::RussianFormOf(-11) == RussianForm::kMany);
  CHECK(std::string(text::PluralWord(Lang::kEn, -1, kTokens)) == "token");
}

TEST_CASE("CountText joins the number and the phrase with a no-break space, so they never wrap apart") {
  CHECK(text::CountText(Lang::kRu, 1, kDims) == "1\u00A0аффинное измерение");
  CHECK(text::CountText(Lang::kRu, 3, kDims) == "3\u00A0аффинных измерения");
  CHECK(text::CountText(Lang::kRu, 5, kDims) == "5\u00A0аффинных измерений");
  CHECK(text::CountText(Lang::kRu, 21, kDims) == "21\u00A0аффинное измерение");
  CHECK(text::CountText(Lang::kEn, 1, kDims) == "1\u00A0affine dimension");
  CHECK(text::CountText(Lang::kEn, 2, kDims) == "2\u00A0affine dimensions");
  CHECK(text::CountText(Lang::kEn, 0, kTokens) == "0\u00A0tokens");
}
