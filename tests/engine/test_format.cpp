// One way to write a number: the shortest text that reads back as the same double.
#include "engine/format.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <limits>

TEST_CASE("format: shortest text that reads back as the same double") {
  CHECK(attn::FormatShortest(0.1) == "0.1");
  CHECK(attn::FormatShortest(1000) == "1000");
  CHECK(attn::FormatShortest(0.001) == "0.001");
  CHECK(attn::FormatShortest(4294967295.0) == "4294967295");
  CHECK(attn::FormatShortest(-0.5) == "-0.5");
  CHECK(attn::FormatShortest(std::nan("")) == "nan");
  CHECK(attn::FormatShortest(-std::nan("")) == "nan");
  CHECK(attn::FormatShortest(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(attn::FormatShortest(-std::numeric_limits<double>::infinity()) == "-inf");
  for (double x : {1.0 / 3, 1e-300, 5e-324, 123456789012345678.0, -0.0, 0.30000000000000004, 6.02214076e23,
                   std::nextafter(1.0, 2.0)}) {
    CAPTURE(x);
    const std::string s = attn::FormatShortest(x);
    CHECK(std::strtod(s.c_str(), nullptr) == x);
    CHECK(std::signbit(std::strtod(s.c_str(), nullptr)) == std::signbit(x));
    // Never longer than the 17 significant digits that always read back.
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    CHECK(s.size() <= std::string(buf).size());
  }
  CHECK(attn::FormatShortest(1.0 / 3) == "0.3333333333333333");
  std::string out = "x=";
  attn::AppendShortest(&out, 2.5);
  CHECK(out == "x=2.5");
}
