#!/bin/sh
# Benchmarks (not tests).
#   scripts/bench.sh [--steps N] [--rounds R] [--task previous|reverse|verb_object|max]
#       training speed: steps per second of `attnlab train` natively and of attentionLab.train()
#       in the browser build, on the same task, in one run; prints the ratio.
#   scripts/bench.sh --payload [--loads N]
#       loading: every file the default page loads (bytes raw and gzipped) and the median time to
#       the first interactive frame over N cold loads in headless Chromium (default 7).
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
export NODE_PATH=/usr/share/nodejs
if [ "${1:-}" = "--payload" ]; then
  shift
  cmake --preset wasm-release >/dev/null
  cmake --build --preset wasm-release -j"$(nproc)"
  exec node tests/browser/bench_payload.mjs --site build/wasm-release/site "$@"
fi
cmake --preset native-release >/dev/null
cmake --build --preset native-release --target attnlab -j"$(nproc)"
cmake --preset wasm-release >/dev/null
cmake --build --preset wasm-release -j"$(nproc)"
exec node tests/browser/bench.mjs --site build/wasm-release/site --attnlab build/native-release/attnlab "$@"
