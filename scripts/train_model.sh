#!/usr/bin/env bash
# Reproduces the shipped model (web/model/) from scratch: Debian's fortunes and fortunes-ru and
# the documents scripts/corpus.sh makes from Debian's manuals (manual pages, GIMP's and
# LibreOffice's help, English and Russian), the tokenizer, the training (about 3 hours on a
# quiet 2-core machine), the F16 weights, the recorded
# validation scores, what each head does (heads.json) and MANIFEST.sha256. Deterministic: the same five files, bit for bit (the
# manifest's checksums), on any x86-64 machine; the thread count does not change the result.
#   scripts/train_model.sh [--out DIR] [--resume]     default DIR: web/model
# A stopped run continues with --resume (checkpoint.bin every 250 steps, same bits).
# Metrics: DIR/metrics.jsonl (a JSON line every 10 steps); progress on the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
out=web/model; resume=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --resume) resume=(--resume); shift ;;
    *) echo "train_model.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
scripts/setup.sh --no-wasm --no-browser
scripts/corpus.sh >/dev/null
cmake --preset native-release >/dev/null
cmake --build --preset native-release -j2 --target attnlab
mkdir -p "$out"
[ ${#resume[@]} -gt 0 ] || : >"$out/metrics.jsonl"   # a fresh run starts a fresh log
config=web/model/train-config.json
[ "$out" = web/model ] || cp "$config" "$out/train-config.json"
build/native-release/attnlab model train "$config" --out "$out" "${resume[@]}" | tee -a "$out/metrics.jsonl"
# What each head does (the lab's head gallery reads it): heads.json, listed in the manifest too.
build/native-release/attnlab model heads "$out" --format json >"$out/heads.json"
(cd "$out" && grep -v '  heads.json$' MANIFEST.sha256 >MANIFEST.tmp; sha256sum heads.json >>MANIFEST.tmp; mv MANIFEST.tmp MANIFEST.sha256)
(cd "$out" && sha256sum -c MANIFEST.sha256)
# Every figure the docs quote, measured on the new files (README.md, docs/model.md; ctest
# model_figures holds the tables to them).
/usr/bin/python3 scripts/model_report.py --attnlab build/native-release/attnlab "$out"
