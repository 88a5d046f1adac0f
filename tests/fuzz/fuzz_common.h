// What every fuzz target shares: a failed property is a crash (libFuzzer keeps the input).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace attn::fuzz {

// A broken promise of the code under test: say which, then abort so that libFuzzer saves the
// input as crash-*.
[[noreturn]] inline void Fail(const std::string& what) {
  std::fprintf(stderr, "FUZZ PROPERTY FAILED: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void Check(bool ok, const std::string& what) {
  if (!ok) Fail(what);
}

inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A message meant for a person: one line, not empty.
inline void CheckMessage(const std::string& m, const std::string& where) {
  Check(!m.empty(), where + ": empty message");
  Check(m.find('\n') == std::string::npos, where + ": message of more than one line: " + m);
}

}  // namespace attn::fuzz

#include <fstream>
#include <unistd.h>

namespace attn::fuzz {

// Writes the input to this process's own scratch file (the CLI reads files) and returns its path.
inline const std::string& WriteScratch(std::string_view bytes) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/attnlab-fuzz-" + std::to_string(getpid()) + ".json";
  }();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) Fail("cannot write the scratch file " + path);
  return path;
}

}  // namespace attn::fuzz
