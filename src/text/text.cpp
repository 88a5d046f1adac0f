#include "text/text.h"

namespace text {

RussianForm RussianFormOf(long long n) {
  const unsigned long long a = n < 0 ? 0ULL - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
  const unsigned long long last = a % 10, last_two = a % 100;
  if (last == 1 && last_two != 11) return RussianForm::kOne;
  if (last >= 2 && last <= 4 && (last_two < 12 || last_two > 14)) return RussianForm::kFew;
  return RussianForm::kMany;
}

const char* PluralWord(Lang lang, long long n, const Plural& p) {
  if (lang == Lang::kEn) return n == 1 || n == -1 ? p.en.one : p.en.other;
  switch (RussianFormOf(n)) {
    case RussianForm::kOne: return p.ru.one;
    case RussianForm::kFew: return p.ru.few;
    case RussianForm::kMany: return p.ru.many;
  }
  return p.ru.many;
}

std::string CountText(Lang lang, long long n, const Plural& p) {
  return std::to_string(n) + kNoBreakSpace + PluralWord(lang, n, p);
}

}  // namespace text
