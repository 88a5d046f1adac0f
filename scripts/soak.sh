#!/usr/bin/env bash
# Soak test of the page (issue 14): tests/browser/soak.mjs drives the built page with random
# valid and invalid actions and reports console errors, refusals handled and the wasm heap over
# time. Not a CI test (10 minutes); scripts/test.sh runs a 20-second smoke of it.
#   scripts/soak.sh [--seconds N (default 600)] [--seed S] [--json FILE] [--site DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
site=build/wasm-release/site
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --site) site=$2; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
[ -f "$site/index.wasm" ] || { echo "soak.sh: no page in $site (cmake --build --preset wasm-release)" >&2; exit 2; }
exec node tests/browser/soak.mjs --site "$site" "${args[@]}"
