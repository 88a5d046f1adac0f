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
#   scripts/bench.sh --payload [--loads N]
#       loading: every file the default page loads (bytes raw and gzipped) and the median time to
#       the first interactive frame over N cold loads in headless Chromium (default 7).
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
if [ "${1:-}" = "--payload" ]; then
  shift
  cmake --preset wasm-release >/dev/null
  cmake --build --preset wasm-release -j"$(nproc)"
  exec node tests/browser/bench_payload.mjs --site build/wasm-release/site "$@"
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
