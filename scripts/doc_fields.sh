#!/usr/bin/env bash
# Rewrites the field tables of docs/page-api.md from the settings tables (attnlab fields), between
# the markers "<!-- attnlab fields: begin -->" and "<!-- attnlab fields: end -->".
# tests/cli/test_fields.py fails when the tables there differ from `attnlab fields`.
# Usage: scripts/doc_fields.sh [ATTNLAB]   (default: build/native-release/attnlab)
set -euo pipefail
cd "$(dirname "$0")/.."
attnlab=${1:-build/native-release/attnlab}
doc=docs/page-api.md
tables=$("$attnlab" fields)
/usr/bin/python3 - "$doc" "$tables" <<'PY'
import sys
doc, tables = sys.argv[1], sys.argv[2] + "\n"
begin, end = "<!-- attnlab fields: begin -->\n", "<!-- attnlab fields: end -->"
text = open(doc, encoding="utf-8").read()
a, b = text.index(begin) + len(begin), text.index(end)
open(doc, "w", encoding="utf-8").write(text[:a] + tables + text[b:])
PY
echo "$doc: field tables rewritten"
