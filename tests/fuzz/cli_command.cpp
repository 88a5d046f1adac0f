// The command one in-process CLI fuzz target runs (cli.cpp): FUZZ_COMMAND, set per target by
// tests/fuzz/CMakeLists.txt. A file of its own so that cli.cpp is compiled once for all of them.
extern const char kFuzzCommand[];
const char kFuzzCommand[] = FUZZ_COMMAND;
