#!/usr/bin/env bash
# Runs every test of Attention Lab on this machine, installing and building what it needs:
#   1. scripts/setup.sh (Debian packages, source packages, SDL2 for wasm, npm packages), and
#      scripts/corpus.sh (the manuals' text the shipped model is scored on)
#   2. the web bundle (wasm-release) that the browser tests load
#   3. the native build, then ctest: engine, model, API, app and text unit tests, the CLI, the desktop window (Xvfb), the browser tests
#   4. one clang build with AddressSanitizer + UBSan (the fuzz preset): the engine, model, API, app,
#      text and CLI tests again under it, then the libFuzzer targets (tests/fuzz) over their
#      committed corpus, 3 s each
#   5. a 20-second soak of the page (random valid and invalid actions, no console error)
#   6. `attnlab model run` on the shipped model: the release (g++) and sanitizer (clang) builds print
#      the same bytes
# CI runs it as it is (39-44 minutes on 2 cores, docs/building.md#ci). Before a release, `scripts/test.sh --full`
# adds what CI leaves out for time (about 45 minutes more): the sanitizer suites without their
# cuts (every head and language, the `long` training runs), 60 s of fuzzing per target and the
# 10-minute soak.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
full=0
case "${1:-}" in
  "") ;;
  --full) full=1 ;;
  *) echo "usage: scripts/test.sh [--full]" >&2; exit 2 ;;
esac

# Each stage's wall time, printed as a table at the end (and when a stage fails).
stages=() stage_name="" stage_start=$SECONDS
stage() {  # stage "name": closes the running stage, starts the next
  [ -z "$stage_name" ] || stages+=("$(printf '%-58s %6d s' "$stage_name" $((SECONDS - stage_start)))")
  stage_name=$1 stage_start=$SECONDS
  [ -z "$1" ] || echo "== $1"
}
sanitizer_pid=""
timings() {
  local rc=$?
  # a failing stage leaves no build running behind it (its own process group: setsid, below)
  [ -z "$sanitizer_pid" ] || kill -- -"$sanitizer_pid" 2>/dev/null || true
  stage ""
  echo "== stage timings (scripts/test.sh)"
  printf '%s\n' "${stages[@]}"
  printf '%-58s %6d s\n' "total" "$SECONDS"
  return $rc
}
trap timings EXIT

stage "setup (Debian packages, sources, SDL2 for wasm, npm)"
scripts/setup.sh
export NODE_PATH=/usr/share/nodejs

# The shipped model's validation text includes Debian's manuals: its tests rebuild it.
stage "the model's documents (scripts/corpus.sh: Debian's manuals as text)"
scripts/corpus.sh >/dev/null

stage "web bundle (wasm-release)"
cmake --preset wasm-release >/dev/null
cmake --build --preset wasm-release -j"$jobs"

stage "native build (native-release)"
cmake --preset native-release >/dev/null
cmake --build --preset native-release -j"$jobs"
# The suites are single-threaded for most of their time: two side by side, the longest first
# (COST in tests/CMakeLists.txt); the browser suite afterwards, with only a low-priority build beside it.
stage "unit, CLI, docs and desktop tests (ctest native-release, $jobs at a time)"
ctest --preset native-release -j"$jobs" -E '^browser$'
# One sanitizer build serves both: the fuzz preset (clang 14, ASan + UBSan that stops at the first
# undefined behaviour, libFuzzer's coverage) builds the fuzz targets and the unit tests and CLI.
# It runs beside the browser suite, which leaves about one core of two idle (a page at rest, the
# next frame). At nice 10 the build gets the cores when the page does not want them, so the page's
# timings keep theirs. Measured on a fresh clone (2026-12-03): the suite 654 -> 886 s, the build
# 827 -> 1246 s from the same start, the two stages together 1481 -> 1246 s.
stage "the page in headless Chromium (ctest native-release: browser), the sanitizer build beside it"
cmake --preset fuzz >/dev/null
sanitizer_log=build/fuzz-build.log
setsid bash -c 'start=$SECONDS; nice -n 10 cmake --build --preset fuzz -j"$1" >"$2" 2>&1; rc=$?
                echo "$((SECONDS - start))" >"$2.seconds"; exit $rc' _ "$jobs" "$sanitizer_log" &
sanitizer_pid=$!
ctest --preset native-release -R '^browser$'
stage "sanitizer build: fuzz targets, unit tests and CLI (fuzz preset: clang, ASan + UBSan), its rest"
if ! wait "$sanitizer_pid"; then
  sanitizer_pid=""
  tail -n 60 "$sanitizer_log"
  echo "the sanitizer build failed: the whole log is $sanitizer_log" >&2
  exit 1
fi
sanitizer_pid=""
echo "the sanitizer build took $(cat "$sanitizer_log.seconds") s in all (log: $sanitizer_log)"
stage "unit and CLI tests under sanitizers (ctest fuzz, $jobs at a time)"
ctest --preset fuzz -j"$jobs"

stage "fuzz targets: every committed input, then 3 s of fuzzing each"
scripts/fuzz.sh --smoke --no-build

stage "soak smoke: 20 s of random actions on the page"
scripts/soak.sh --seconds 20

stage "the shipped model: release (g++) and sanitizer (clang) builds print the same bits"
for text in "я люблю суши" "I love sushi"; do
  cmp <(build/native-release/attnlab model run web/model --text "$text" --generate 20 --top-k 5) \
      <(build/fuzz/attnlab model run web/model --text "$text" --generate 20 --top-k 5)
done
echo "same output"

[ $full = 1 ] || exit 0
# What CI cuts for time, run before a release (docs/building.md#ci).
stage "full: the sanitizer suites without the cuts (every head and language, suite long)"
build/fuzz/tests/engine_tests
build/fuzz/tests/model_tests
/usr/bin/python3 tests/cli/run_all.py build/fuzz/attnlab tests/cli/fixtures --jobs "$jobs"
stage "full: 60 s of fuzzing per target"
scripts/fuzz.sh --no-build --seconds 60
stage "full: the 10-minute soak of the page"
scripts/soak.sh --seconds 600
