// FormatShortest / AppendShortest: the shortest text that reads back as the same double, on
// hand-picked values, and the same text as the "%g" rule on many doubles (so natively, where
// to_chars finds the digits, and in wasm, where printf does, the text is the same).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "engine/base/format.h"
#include "engine/base/rng.h"

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

// The rule for normal doubles: the first "%.*g" with precision 6, 7, ..., 17 that reads back.
std::string FirstG(double x) {
  char buf[40];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
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
      {1e-3, "0.001"},  // the lab's temperature limits, as its messages print them
      {1e3, "1000"},
      {4294967295.0, "4294967295"},  // kMaxSeed
      {100000.0, "100000"},
      {1e6, "1e+06"},
      {1e-4, "0.0001"},
      {1e-5, "1e-05"},
      {-0.5, "-0.5"},
      {6.02214076e23, "6.02214076e+23"},
      {0.30000000000000004, "0.30000000000000004"},
      {std::nextafter(1.0, 2.0), "1.0000000000000002"},
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

TEST_CASE("FormatShortest: the '%g' rule's text on 100000 doubles, powers of two and their neighbours") {
  attn::rng::SplitMix64 stream(2026);
  int checked = 0, differ = 0;
  auto check = [&](double x) {
    if (!std::isnormal(x)) return;
    ++checked;
    const std::string text = attn::FormatShortest(x);
    if (text != FirstG(x)) {
      if (++differ <= 5) CHECK_MESSAGE(false, "x = " << FirstG(x) << ": got " << text);
    }
  };
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t bits = stream.Next();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    check(x);
  }
  for (int e = -1022; e <= 1023; ++e) {  // where the rounding interval is lopsided
    const double p = std::ldexp(1.0, e);
    check(p);
    check(std::nextafter(p, 0.0));
    check(std::nextafter(p, 2 * p));
  }
  CHECK(differ == 0);
  MESSAGE(checked << " doubles, " << differ << " differ from the '%g' rule");
}

TEST_CASE("AppendShortest appends the same text") {
  std::string out = "x=";
  attn::AppendShortest(&out, 2.5);
  CHECK(out == "x=2.5");
  attn::AppendShortest(&out, 1e-300);
  CHECK(out == "x=2.51e-300");
}
