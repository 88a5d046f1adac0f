// Numbers as text, one way everywhere (engine messages, the page's JSON, the CLI's output).
#pragma once

#include <string>

namespace attn {

// The shortest decimal text that reads back (strtod) as the same double: the fewest significant
// digits k (1..17) that round-trip, laid out as printf's "%g" lays out a number with precision
// max(k, 6): plain notation for decimal exponents -4..max(k, 6)-1 ("0.001", "1000", "0.1",
// "4294967295"), else "1e-300", "1.2345678901234568e+17"; no trailing zeros; -0.0 is "-0".
// "nan", "inf" and "-inf" are spelled so on every C library (glibc would print "-nan" for some
// NaNs). The same text on every platform (natively and in wasm): for every normal double it is
// the first "%.*g" (precision 6, 7, ..., 17) that reads back; subnormals get their shortest
// digits too ("5e-324", not "4.94066e-324").
std::string FormatShortest(double x);
// The same, appended (the CLI writes millions of numbers this way).
void AppendShortest(std::string* out, double x);

}  // namespace attn
