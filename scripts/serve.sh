#!/usr/bin/env bash
# Builds the web bundle (WebAssembly) and serves it on http://127.0.0.1:PORT (default 8080).
# Usage: scripts/serve.sh [--port N] [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."
port=8080; build=1
while [ $# -gt 0 ]; do
  case $1 in
    --port) port=${2:?--port needs a number}; shift 2 ;;
    --port=*) port=${1#--port=}; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,3p' "$0"; exit 0 ;;
    *) echo "serve.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $port =~ ^[0-9]+$ ]] || { echo "serve.sh: --port must be a number" >&2; exit 2; }

if [ $build = 1 ]; then
  scripts/setup.sh --no-browser
  export NODE_PATH=/usr/share/nodejs
  cmake --preset wasm-release >/dev/null
  cmake --build --preset wasm-release -j"$(nproc)"
fi
site=build/wasm-release/site
[ -f $site/index.wasm ] || { echo "serve.sh: $site/index.wasm is missing; run without --no-build" >&2; exit 1; }
echo
echo "Attention Lab: http://127.0.0.1:$port/"
echo "(Ctrl+C stops the server)"
exec /usr/bin/python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
