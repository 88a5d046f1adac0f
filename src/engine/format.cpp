// FormatShortest (format.h).
#include "format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace attn {

std::string FormatShortest(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  // 1. The fewest significant digits that read back as x: "%.{k-1}e" is the correctly rounded
  //    k-digit decimal, "d.ddde+XX". 17 digits always round-trip.
  char buf[40];
  int k = 1;
  for (; k < 17; ++k) {
    std::snprintf(buf, sizeof(buf), "%.*e", k - 1, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  if (k == 17) std::snprintf(buf, sizeof(buf), "%.*e", k - 1, x);
  // 2. Split it into sign, digits (trailing zeros dropped) and decimal exponent.
  const std::string e = buf;
  const std::size_t epos = e.find('e');
  const bool negative = e[0] == '-';
  std::string digits;
  for (std::size_t i = negative ? 1 : 0; i < epos; ++i) {
    if (e[i] != '.') digits += e[i];
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exponent = std::atoi(e.c_str() + epos + 1);
  // 3. Lay it out as "%g" with precision P = max(k, 6) would.
  const int p = std::max(k, 6);
  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= p) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    const int a = std::abs(exponent);
    out += exponent < 0 ? "e-" : "e+";
    if (a < 10) out += '0';
    out += std::to_string(a);
  } else if (exponent < 0) {
    out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  } else {
    const std::size_t int_digits = static_cast<std::size_t>(exponent) + 1;
    if (digits.size() <= int_digits) {
      out += digits + std::string(int_digits - digits.size(), '0');
    } else {
      out += digits.substr(0, int_digits) + "." + digits.substr(int_digits);
    }
  }
  return out;
}

}  // namespace attn
