#include "format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace attn {

void AppendShortest(std::string* out, double x) {
  if (std::isnan(x)) { *out += "nan"; return; }
  if (std::isinf(x)) { *out += x > 0 ? "inf" : "-inf"; return; }
  char buf[40];
#if defined(__cpp_lib_to_chars)
  // libstdc++: exact shortest round trip, fast.
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, x);
  out->append(buf, r.ptr);
#else
  // Libraries without floating-point to_chars (emscripten's libc++): the fewest %g digits
  // that read back, from 6 up ("1000" and "0.001" rather than "1e+03").
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  *out += buf;
#endif
}

std::string FormatShortest(double x) {
  std::string s;
  AppendShortest(&s, x);
  return s;
}

}  // namespace attn
