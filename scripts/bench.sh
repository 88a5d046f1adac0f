#!/bin/sh
# Training benchmark (not a test): steps per second of `attnlab train` natively and of
# attentionLab.train() in the browser build, on the same task, in one run; prints the ratio.
#   scripts/bench.sh [--steps N] [--rounds R] [--task previous|reverse|verb_object|max]
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
export NODE_PATH=/usr/share/nodejs
cmake --preset native-release >/dev/null
cmake --build --preset native-release --target attnlab -j"$(nproc)"
cmake --preset wasm-release >/dev/null
cmake --build --preset wasm-release -j"$(nproc)"
exec node tests/browser/bench.mjs --site build/wasm-release/site --attnlab build/native-release/attnlab "$@"
