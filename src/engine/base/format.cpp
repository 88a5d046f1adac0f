// FormatShortest and AppendShortest (format.h).
#include "engine/base/format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace attn {

namespace {

// The fewest significant digits k that read back as x (finite), written as "%.{k-1}e" writes
// them: the correctly rounded k-digit decimal, "d.ddde+XX".
void ShortestScientific(double x, char* buf, std::size_t size) {
#if defined(__cpp_lib_to_chars)
  // Fast path (libstdc++): to_chars gives the shortest length k of any decimal that reads back;
  // when the correctly rounded k-digit decimal is that one, it is also what the loop below finds
  // (no shorter decimal reads back). They can differ only next to a power of two: the loop then.
  char shortest[40], rounded[40];
  const std::to_chars_result s =
      std::to_chars(shortest, shortest + sizeof shortest, x, std::chars_format::scientific);
  int k = 0;
  for (const char* p = shortest; p < s.ptr && *p != 'e'; ++p) k += *p >= '0' && *p <= '9';
  const std::to_chars_result r = std::to_chars(rounded, rounded + sizeof rounded, x,
                                               std::chars_format::scientific, k - 1);
  const std::size_t length = static_cast<std::size_t>(s.ptr - shortest);
  if (length < size && length == static_cast<std::size_t>(r.ptr - rounded) &&
      std::memcmp(shortest, rounded, length) == 0) {
    std::memcpy(buf, shortest, length);  // printf's "%.{k-1}e" spelling: "d.ddde+XX"
    buf[length] = '\0';
    return;
  }
#endif
  for (int digits = 1; digits < 17; ++digits) {
    std::snprintf(buf, size, "%.*e", digits - 1, x);
    if (std::strtod(buf, nullptr) == x) return;
  }
  std::snprintf(buf, size, "%.16e", x);  // 17 digits always read back
}

}  // namespace

void AppendShortest(std::string* out, double x) {
  if (std::isnan(x)) { *out += "nan"; return; }
  if (std::isinf(x)) { *out += x > 0 ? "inf" : "-inf"; return; }
  // 1. The shortest digits, as "d.ddde+XX".
  char buf[40];
  ShortestScientific(x, buf, sizeof buf);
  // 2. Sign, digits (trailing zeros dropped) and decimal exponent.
  const char* e = std::strchr(buf, 'e');
  const bool negative = buf[0] == '-';
  char digits[24];
  int n = 0;
  for (const char* p = negative ? buf + 1 : buf; p < e; ++p) {
    if (*p != '.') digits[n++] = *p;
  }
  const int k = n;  // significant digits before dropping zeros: the precision found
  while (n > 1 && digits[n - 1] == '0') --n;
  const int exponent = std::atoi(e + 1);
  // 3. Laid out as "%g" with precision P = max(k, 6) would.
  const int p = std::max(k, 6);
  if (negative) *out += '-';
  if (exponent < -4 || exponent >= p) {
    *out += digits[0];
    if (n > 1) {
      *out += '.';
      out->append(digits + 1, n - 1);
    }
    const int a = std::abs(exponent);
    *out += exponent < 0 ? "e-" : "e+";
    if (a < 10) *out += '0';
    *out += std::to_string(a);
  } else if (exponent < 0) {
    *out += "0.";
    out->append(static_cast<std::size_t>(-exponent - 1), '0');
    out->append(digits, n);
  } else {
    const int int_digits = exponent + 1;
    if (n <= int_digits) {
      out->append(digits, n);
      out->append(static_cast<std::size_t>(int_digits - n), '0');
    } else {
      out->append(digits, int_digits);
      *out += '.';
      out->append(digits + int_digits, n - int_digits);
    }
  }
}

std::string FormatShortest(double x) {
  std::string s;
  AppendShortest(&s, x);
  return s;
}

}  // namespace attn
