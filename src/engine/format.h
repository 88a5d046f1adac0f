// Numbers as text, one way everywhere (engine messages, the page's JSON, the CLI's output).
#pragma once

#include <string>

namespace attn {

// The shortest decimal text that reads back as the same double; "nan", "inf" and "-inf" are
// spelled the same on every C library (glibc would print "-nan" for some NaNs).
std::string FormatShortest(double x);
// The same, appended (the CLI writes millions of numbers this way).
void AppendShortest(std::string* out, double x);

}  // namespace attn
