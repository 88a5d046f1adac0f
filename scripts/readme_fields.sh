#!/usr/bin/env bash
# Rewrites the README's field tables from the settings tables (attnlab fields), between the
# markers "<!-- attnlab fields: begin -->" and "<!-- attnlab fields: end -->".
# Usage: scripts/readme_fields.sh [ATTNLAB]   (default: build/native-release/attnlab)
set -euo pipefail
cd "$(dirname "$0")/.."
attnlab=${1:-build/native-release/attnlab}
tables=$("$attnlab" fields)
/usr/bin/python3 - "$tables" <<'PY'
import sys
tables = sys.argv[1] + "\n"
begin, end = "<!-- attnlab fields: begin -->\n", "<!-- attnlab fields: end -->"
text = open("README.md", encoding="utf-8").read()
a, b = text.index(begin) + len(begin), text.index(end)
open("README.md", "w", encoding="utf-8").write(text[:a] + tables + text[b:])
PY
echo "README.md: field tables rewritten"
