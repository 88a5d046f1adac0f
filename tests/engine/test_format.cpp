// FormatShortest: the shortest text that reads back as the same double, on hand-picked values.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "engine/format.h"

namespace {

// The number of significant digits of a decimal text ("1.25e-05" -> 3, "-0" -> 1).
int SignificantDigits(const std::string& s) {
  std::string digits;
  for (char ch : s) {
    if (ch == 'e') break;
    if (ch >= '0' && ch <= '9') digits += ch;
  }
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 1;
  const std::size_t last = digits.find_last_not_of('0');
  return static_cast<int>(last - first + 1);
}

// No text with fewer significant digits reads back as x.
bool NoShorterText(double x, int digits) {
  char buf[40];
  for (int k = 1; k < digits; ++k) {
    std::snprintf(buf, sizeof(buf), "%.*e", k - 1, x);
    if (std::strtod(buf, nullptr) == x) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("FormatShortest: hand-picked values read back bit for bit, in the fewest digits") {
  struct Case {
    double x;
    const char* text;
  };
  const Case cases[] = {
      {0.1, "0.1"},
      {1e-300, "1e-300"},
      {5e-324, "5e-324"},  // the smallest subnormal: one digit, not printf's "4.94066e-324"
      {1.0 / 3.0, "0.3333333333333333"},
      {123456789012345678.0, "1.2345678901234568e+17"},
      {-0.0, "-0"},
      {0.0, "0"},
      {1e-3, "0.001"},     // the lab's temperature limits, as its messages print them
      {1e3, "1000"},
      {100000.0, "100000"},
      {1e6, "1e+06"},
      {1e-5, "1e-05"},
      {-2.5, "-2.5"},
      {0.30000000000000004, "0.30000000000000004"},
      {std::numeric_limits<double>::max(), "1.7976931348623157e+308"},
  };
  for (const Case& c : cases) {
    const std::string text = attn::FormatShortest(c.x);
    CAPTURE(text);
    CHECK(text == c.text);
    const double back = std::strtod(text.c_str(), nullptr);
    CHECK(back == c.x);
    CHECK(std::signbit(back) == std::signbit(c.x));
    CHECK(NoShorterText(c.x, SignificantDigits(text)));
  }
}

TEST_CASE("FormatShortest: nan and the infinities are spelled the same on every C library") {
  CHECK(attn::FormatShortest(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(attn::FormatShortest(-std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(attn::FormatShortest(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(attn::FormatShortest(-std::numeric_limits<double>::infinity()) == "-inf");
}
