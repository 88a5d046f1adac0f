#!/usr/bin/env bash
# How often the tokenizer.json that `attnlab model export --to hf` writes gives other ids than
# the lab's own tokenizer, measured on the shipped model's validation text (outside CI; CI checks
# a few texts that exercise every rule, tests/cli/test_model_export.py):
#   scripts/hf_tokenizer_check.sh [--no-build] [--show N] [MODEL_DIR]
# Exports MODEL_DIR (default web/model) into build/hf_check/model, writes the lab's ids of every
# validation entry (`attnlab model encode DIR --validation`: the fortunes and, when the run read
# them, the manuals of scripts/corpus.sh) into build/hf_check/validation.jsonl, and encodes the
# same texts with npm's @huggingface/tokenizers (tests/fixtures/hf_tokenizers/compare.mjs). Prints
# its JSON summary (entries and tokens that differ, per language) and the first N differences.
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 show=10 dir=web/model
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) build=0 ;;
    --show) show=$2; shift ;;
    -*) echo "usage: scripts/hf_tokenizer_check.sh [--no-build] [--show N] [MODEL_DIR]" >&2; exit 2 ;;
    *) dir=$1 ;;
  esac
  shift
done
log() { printf '\033[1m[hf check]\033[0m %s\n' "$*" >&2; }

if [ ! -d tests/fixtures/hf_tokenizers/node_modules/@huggingface/tokenizers ]; then
  log "npm ci (tests/fixtures/hf_tokenizers)"
  (cd tests/fixtures/hf_tokenizers && npm ci --no-audit --no-fund --silent)
fi
if [ $build = 1 ]; then
  log "building attnlab (native-release)"
  cmake --preset native-release >/dev/null
  cmake --build --preset native-release -j"$(nproc)" --target attnlab >/dev/null
fi
A=build/native-release/attnlab
out=build/hf_check
rm -rf "$out/model"
mkdir -p "$out"
log "exporting $dir"
"$A" model export "$dir" --to hf "$out/model" >/dev/null
log "the lab's ids of every validation entry"
"$A" model encode "$dir" --validation > "$out/validation.jsonl"
log "@huggingface/tokenizers on the same texts"
node tests/fixtures/hf_tokenizers/compare.mjs "$out/model" "$out/validation.jsonl" --show "$show"
