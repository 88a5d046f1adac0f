// Under the sanitizers (tests/CMakeLists.txt sets ATTNLAB_TEST_QUICK=1 for that run) the slowest
// cases check one instance of what the release build checks for all of them: the same code runs,
// so a memory error shows as well, in a fraction of the time (scripts/test.sh's CI budget).
#pragma once

#include <cstdlib>
#include <cstring>

namespace testing_quick {

inline bool Quick() {
  const char* q = std::getenv("ATTNLAB_TEST_QUICK");
  return q && std::strcmp(q, "1") == 0;
}

}  // namespace testing_quick
