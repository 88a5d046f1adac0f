#!/usr/bin/env bash
# The large equality check of the C++ GPT-2 tokenizer (src/model/tokenizer/gpt2_bpe.h) against
# npm's gpt-3-encoder (itself checked against gpt-tokenizer), outside CI:
#   scripts/gpt2_tokenizer_check.sh [--manuals] [--no-build] [FILE...]
# Texts: Debian's English and Russian fortunes (/usr/share/games/fortunes/*.u8 and ru/*.u8,
# about 750 000 words; the packages fortunes and fortunes-ru), with --manuals also the manuals of
# scripts/corpus.sh (.deps/corpus, about 2.2 million more words), or the FILEs given (UTF-8,
# entries separated by "%" lines). Each entry is encoded by gpt-3-encoder
# (tests/fixtures/gpt2/encode_corpus.mjs, into build/gpt2_check/texts.jsonl) and then by the C++
# tokenizer (model_tests' skipped test "the large check", run with --no-skip); every text whose ids
# differ is a mismatch: the first ten are printed, and the exit code is 1 when there is any.
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 manuals=0 files=()
for a in "$@"; do
  case $a in
    --no-build) build=0 ;;
    --manuals) manuals=1 ;;
    -*) echo "usage: scripts/gpt2_tokenizer_check.sh [--manuals] [--no-build] [FILE...]" >&2; exit 2 ;;
    *) files+=("$a") ;;
  esac
done
log() { printf '\033[1m[gpt2 check]\033[0m %s\n' "$*" >&2; }

if [ ${#files[@]} -eq 0 ]; then
  shopt -s nullglob
  files=(/usr/share/games/fortunes/*.u8 /usr/share/games/fortunes/ru/*.u8)
  [ ${#files[@]} -gt 0 ] || { echo "gpt2_tokenizer_check.sh: no fortunes: apt-get install fortunes fortunes-ru (scripts/setup.sh)" >&2; exit 1; }
  if [ $manuals = 1 ]; then
    corpus=$(scripts/corpus.sh)
    files+=("$corpus"/en/*.txt "$corpus"/ru/*.txt)
  fi
fi
if [ ! -d tests/fixtures/gpt2/node_modules/gpt-3-encoder ] || [ ! -d tests/fixtures/gpt2/node_modules/gpt-tokenizer ]; then
  log "npm ci (tests/fixtures/gpt2)"
  (cd tests/fixtures/gpt2 && npm ci --no-audit --no-fund --silent)
fi
if [ $build = 1 ]; then
  log "building model_tests (native-release)"
  cmake --preset native-release >/dev/null
  cmake --build --preset native-release -j"$(nproc)" --target model_tests >/dev/null
fi

mkdir -p build/gpt2_check
texts=build/gpt2_check/texts.jsonl
log "gpt-3-encoder on ${#files[@]} files"
node tests/fixtures/gpt2/encode_corpus.mjs "$texts" "${files[@]}"
log "the C++ tokenizer on the same texts"
ATTNLAB_GPT2_CHECK_FILE=$texts build/native-release/tests/model_tests --no-skip \
  --test-case="gpt2 bpe real: the large check*" --no-version
