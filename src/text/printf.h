// printf into a std::string, for the translated messages' formats (i18n.cpp, refusal_message.cpp).
#pragma once

#include <cstdio>
#include <string>

namespace text {

// One string and one number into a format (the refusals' Russian lines).
inline std::string Format(const char* fmt, const std::string& a, double b = 0) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, a.c_str(), b);
  return buf;
}

// printf into a string, for the translated messages' formats.
template <class... Args>
inline std::string Printf(const char* fmt, Args... args) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

}  // namespace text
