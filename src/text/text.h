// The lab's text types and the plural rules of its two languages, without the strings (the
// tables, src/text/strings/*.json, generated into text/*_strings.h) and without ImGui, so that
// tests/text checks them without a window.
#pragma once

#include <string>

namespace text {

enum class Lang { kEn, kRu };

// One interface string in both languages.
struct Text {
  const char* en;
  const char* ru;
};

// A noun (or a phrase ending in one) after a number, in the forms each language needs:
//   English  one: 1                        other: 0, 2, 5, 11, 21, 1.5 ...
//   Russian  one: 1, 21, 101, 1001         few: 2–4, 22–24, 102   many: 0, 5–20, 25–30, 111–114
// In Russian the case follows the sentence: «из 1 токена, из 3 токенов» (genitive) is a
// different Plural from «1 токен, 3 токена, 5 токенов» (nominative).
struct Plural {
  struct English { const char* one; const char* other; } en;
  struct Russian { const char* one; const char* few; const char* many; } ru;
};

// Russian: n % 10 == 1 and n % 100 != 11 -> one; n % 10 in 2..4 and n % 100 not in 12..14 ->
// few; everything else -> many. Negative numbers take the form of |n|.
enum class RussianForm { kOne, kFew, kMany };
RussianForm RussianFormOf(long long n);

// The form of `p` for `n` in `lang` ("tokens", «токена»).
const char* PluralWord(Lang lang, long long n, const Plural& p);
// The number and its noun, joined by a no-break space so a line never wraps between them:
// "3 tokens", «21 токен».
std::string CountText(Lang lang, long long n, const Plural& p);

// The text in a language given explicitly: the app layer writes its exports and the lesson's
// readout in the state's language (lab.lang, "en" or "ru"), not in the interface's current one.
inline const char* In(Lang lang, const Text& t) { return lang == Lang::kRu ? t.ru : t.en; }
inline const char* In(const std::string& lang_code, const Text& t) { return In(lang_code == "ru" ? Lang::kRu : Lang::kEn, t); }

inline constexpr const char* kNoBreakSpace = "\u00A0";

}  // namespace text
