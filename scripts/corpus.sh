#!/usr/bin/env bash
# The model's documents (issue 21): plain text from Debian's manuals in English and Russian.
#   manpages 6.03 (en) and manpages-ru 4.18.1 (ru): the Linux manual pages and their translations
#   gimp-help-en / gimp-help-ru 2.10.34: the GIMP user manual
#   libreoffice-help-en-us / libreoffice-help-ru 7.4.7: LibreOffice's help
# The .deb files are downloaded (apt-get download: no installation, no dependencies), unpacked
# with dpkg-deb -x into .deps/corpus-debs/, and scripts/corpus_text.py writes
# .deps/corpus/{en,ru}/<source>.txt (entries separated by "%" lines, one document each).
# Nothing is done twice: a stamp names the package versions used.
#   scripts/corpus.sh            prints the folder when it is ready
set -euo pipefail
cd "$(dirname "$0")/.."
DEBS=.deps/corpus-debs OUT=.deps/corpus
pkgs=(manpages manpages-ru gimp-help-en gimp-help-ru libreoffice-help-en-us libreoffice-help-ru)
log() { printf '\033[1m[corpus]\033[0m %s\n' "$*" >&2; }
mkdir -p "$DEBS"
# Every package's version, so that a stamp from other packages rebuilds the text.
versions=""
for p in "${pkgs[@]}"; do
  v=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ {print $2}')
  if [ -z "$v" ] || [ "$v" = "(none)" ]; then
    log "apt-get update (no candidate for $p)"; apt-get update -qq
    v=$(apt-cache policy "$p" | awk '/Candidate:/ {print $2}')
  fi
  versions+="$p=$v "
done
stamp="$versions$(sha1sum scripts/corpus_text.py | cut -c1-40)"
if [ -f "$OUT/stamp" ] && [ "$(cat "$OUT/stamp")" = "$stamp" ]; then echo "$OUT"; exit 0; fi
for p in "${pkgs[@]}"; do
  if ! ls "$DEBS/${p}_"*.deb >/dev/null 2>&1; then
    log "apt-get download $p"
    (cd "$DEBS" && apt-get download -q "$p" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true)
    ls "$DEBS/${p}_"*.deb >/dev/null 2>&1 || { echo "corpus.sh: could not download $p" >&2; exit 1; }
  fi
  if [ ! -d "$DEBS/x/$p" ]; then
    mkdir -p "$DEBS/x/$p.tmp" && dpkg-deb -x "$DEBS/${p}_"*.deb "$DEBS/x/$p.tmp" && mv "$DEBS/x/$p.tmp" "$DEBS/x/$p"
  fi
done
log "text from the manuals (a minute or two)"
rm -rf "$OUT"; mkdir -p "$OUT"
/usr/bin/python3 scripts/corpus_text.py "$DEBS/x" "$OUT"
printf '%s' "$stamp" > "$OUT/stamp"
echo "$OUT"
