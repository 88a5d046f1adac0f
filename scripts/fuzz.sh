#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: Debian's clang 14 with -fsanitize=fuzzer,
# address,undefined; tests/fuzz) and runs them, one after the other (the smoke: a target per
# core), printing the executions of each. Corpus: tests/fuzz/corpus/NAME (committed: seeds and every regression input) plus
# build/fuzz/corpus/NAME (what a run finds, not committed); crashes, timeouts and OOMs go to
# build/fuzz/artifacts/NAME/ and fail the run.
#   scripts/fuzz.sh [--seconds N] [--runs N] [--target NAME] [--smoke] [--dicts] [--no-build]
#     --seconds N   fuzz each target N seconds (default 60)
#     --runs N      stop a target after N executions instead (or at --seconds, if given, first)
#     --target NAME only this target (repeatable); names: see TARGETS below
#     --smoke       each target runs its committed corpus once, then fuzzes 3 s (scripts/test.sh)
#     --dicts       regenerate tests/fuzz/dict from the settings tables (needs build/native-release)
# Long runs: start it at low priority, e.g. `echo 19 > /proc/$$/autogroup; nice scripts/fuzz.sh --seconds 600`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGETS=(tokenizer url_state state_patch model_patch lesson bpe_encode bpe_json safetensors hf_gpt2 model_config
         trace forward backward collide train gpt2_encode gpt2_files hf_tokenizer)
declare -A DICT=([url_state]=link [state_patch]=state [model_patch]=state [lesson]=lesson [trace]=state [forward]=raw [backward]=raw
                 [collide]=collide [train]=train [model_config]=model_config [safetensors]=safetensors
                 [bpe_json]=bpe_json [hf_tokenizer]=hf_tokenizer)
declare -A MAXLEN=([safetensors]=8192 [hf_gpt2]=16384 [bpe_json]=16384 [lesson]=16384 [gpt2_files]=16384 [hf_tokenizer]=16384)
seconds=60; runs=0; seconds_given=0; smoke=0; dicts=0; build=1; only=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; seconds_given=1; shift ;;
    --runs) runs=$2; shift ;;
    --target) only+=("$2"); shift ;;
    --smoke) smoke=1 ;;
    --dicts) dicts=1 ;;
    --no-build) build=0 ;;
    *) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ ${#only[@]} -gt 0 ] && TARGETS=("${only[@]}")

if [ $dicts = 1 ]; then
  /usr/bin/python3 tests/fuzz/make_dicts.py build/native-release/attnlab
  exit 0
fi
if [ $build = 1 ]; then
  echo "== building the fuzz targets (build/fuzz)"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j"$(nproc)" >build-fuzz.log 2>&1 || { tail -n 40 build-fuzz.log >&2; exit 1; }
  rm -f build-fuzz.log
fi

B=$ROOT/build/fuzz
# The CLI targets write each input to a scratch file (the tool reads files): in memory when the
# machine has /dev/shm (on disk the writes were a tenth of an input's time).
if [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm/attnlab-fuzz; else export TMPDIR=$B/tmp; fi
mkdir -p "$TMPDIR"
# Long runs: AddressSanitizer keeps no stack of where each block was allocated (recording one
# for every malloc was a third of a CLI target's time; 15-second runs side by side: 3 686
# executions without, 2 332 with). A failure's input is saved: run the target on it
# (build/fuzz/tests/fuzz/fuzz_NAME FILE) for the full report. ASAN_OPTIONS set by you wins.
[ $smoke = 1 ] || export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0}
failed=0
printf '%-13s %12s %10s %8s  %s\n' target executions exec/s corpus result
# One target: its line of the table (and what failed) into $B/logs/NAME.out; false when it failed.
run_target() {
  local t=$1 bin=$B/tests/fuzz/fuzz_$1 out=$B/logs/$1.out
  local work=$B/corpus/$t art=$B/artifacts/$t/ log=$B/logs/$t.log
  mkdir -p "$work" "$art" "$(dirname "$log")"
  local args=(-max_len="${MAXLEN[$t]:-4096}" -timeout=60 -rss_limit_mb=2560 -print_final_stats=1
              -artifact_prefix="$art" -detect_leaks=0)
  [ -n "${DICT[$t]:-}" ] && args+=(-dict="$ROOT/tests/fuzz/dict/${DICT[$t]}.dict")
  if [ $smoke = 1 ]; then
    # every committed input once (the regression cases), then a short fuzz from them
    if ! "$bin" "${args[@]}" -runs=0 "$ROOT/tests/fuzz/corpus/$t" >"$log" 2>&1; then
      { echo "$t: a committed input fails:"; tail -n 30 "$log"; } >"$out"
      return 1
    fi
    args+=(-max_total_time=3)
  elif [ "$runs" -gt 0 ]; then
    args+=(-runs="$runs")
    [ $seconds_given = 1 ] && args+=(-max_total_time="$seconds")
  else
    args+=(-max_total_time="$seconds")
  fi
  local start result execs elapsed status=0
  start=$(date +%s)
  if "$bin" "${args[@]}" "$work" "$ROOT/tests/fuzz/corpus/$t" >"$log" 2>&1; then result=ok
  else result="FAILED (see $log; input in $art)"; status=1; fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  elapsed=$(( $(date +%s) - start )); [ $elapsed -gt 0 ] || elapsed=1
  { printf '%-13s %12s %10s %8s  %s\n' "$t" "${execs:-?}" "$(( ${execs:-0} / elapsed ))" \
      "$(ls "$work" | wc -l)" "$result"
    [ "$result" = ok ] || grep -m3 -E 'ERROR|FUZZ PROPERTY|SUMMARY|runtime error' "$log" || true; } >"$out"
  return $status
}
for t in "${TARGETS[@]}"; do
  [ -x "$B/tests/fuzz/fuzz_$t" ] || { echo "fuzz.sh: no target $t ($B/tests/fuzz/fuzz_$t)" >&2; exit 2; }
done
mkdir -p "$B/logs"
# The smoke (scripts/test.sh: a few seconds each) runs a target per core, side by side; longer
# runs one after the other, so that each has the machine (their exec/s compare across runs).
parallel=1
[ $smoke = 1 ] && parallel=$(nproc)
names=()
for t in "${TARGETS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  rm -f "$B/logs/$t.out"
  run_target "$t" &
  names+=("$t")
done
wait
# (each target's verdict from its own line: a status reaped by `wait -n` above is not kept)
for t in "${names[@]}"; do
  cat "$B/logs/$t.out"
  head -n1 "$B/logs/$t.out" | grep -q ' ok$' || failed=1
done
exit $failed
