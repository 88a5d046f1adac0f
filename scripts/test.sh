#!/usr/bin/env bash
# Runs every test of Attention Lab on this machine, installing and building what it needs:
#   1. scripts/setup.sh (Debian packages, source packages, SDL2 for wasm, npm packages)
#   2. the web bundle (wasm-release) that the browser tests load
#   3. the native build, then ctest: engine, model, API, app and text unit tests, the CLI, the desktop window (Xvfb), the browser tests
#   4. the engine, model, API, app, text and CLI tests again under AddressSanitizer + UBSan (native-debug)
#   5. the libFuzzer targets (tests/fuzz, clang + ASan/UBSan) over their committed corpus, 3 s each
#   6. a 20-second soak of the page (random valid and invalid actions, no console error)
#   7. `attnlab model run` on the shipped model: release and sanitizer builds print the same bytes
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

scripts/setup.sh
export NODE_PATH=/usr/share/nodejs

echo "== web bundle (wasm-release)"
cmake --preset wasm-release >/dev/null
cmake --build --preset wasm-release -j"$jobs"

echo "== native build and every test (native-release)"
cmake --preset native-release >/dev/null
cmake --build --preset native-release -j"$jobs"
ctest --preset native-release

echo "== unit and CLI tests under sanitizers (native-debug)"
cmake --preset native-debug >/dev/null
cmake --build --preset native-debug -j"$jobs" --target engine_tests model_tests api_tests app_tests text_tests attnlab
ctest --preset native-debug -R '^(engine|model|api|app|text|cli)$'

echo "== fuzz targets: every committed input (seeds and regressions), then 3 s of fuzzing each"
scripts/fuzz.sh --smoke

echo "== soak smoke: 20 s of random actions on the page (scripts/soak.sh runs 10 minutes)"
scripts/soak.sh --seconds 20

echo "== the shipped model: the release and the sanitizer builds print the same bits"
for text in "я люблю суши" "I love sushi"; do
  cmp <(build/native-release/attnlab model run web/model --text "$text" --generate 20 --top-k 5) \
      <(build/native-debug/attnlab model run web/model --text "$text" --generate 20 --top-k 5)
done
echo "same output"
