#!/usr/bin/env bash
# The model's documents (issue 21): plain text from Debian's manuals in English and Russian.
#   manpages 6.03 (en) and manpages-ru 4.18.1 (ru): the Linux manual pages and their translations
#   gimp-help-en / gimp-help-ru 2.10.34: the GIMP user manual
#   libreoffice-help-en-us / libreoffice-help-ru 7.4.7: LibreOffice's help
# The .deb files are downloaded (apt-get download: no installation, no dependencies), unpacked
# with dpkg-deb -x into .deps/corpus-debs/, and scripts/corpus_text.py writes
# .deps/corpus/{en,ru}/<source>.txt (entries separated by "%" lines, one document each).
# The versions the shipped model was trained and scored on are pinned below. When Debian's
# mirror no longer has one of them, the newest is taken instead and the stamp's second line
# says "unpinned": the shipped model's test then skips the exact scores of the manuals' rows
# (their text may differ) and still checks the fortunes' rows.
# Nothing is done twice: .deps/corpus/stamp names the versions used.
#   scripts/corpus.sh            prints the folder when it is ready
set -euo pipefail
cd "$(dirname "$0")/.."
DEBS=.deps/corpus-debs OUT=.deps/corpus
pins=(manpages=6.03-2 manpages-ru=4.18.1-1 gimp-help-en=2.10.34-2 gimp-help-ru=2.10.34-2
      libreoffice-help-en-us=4:7.4.7-1+deb12u14 libreoffice-help-ru=4:7.4.7-1+deb12u14)
log() { printf '\033[1m[corpus]\033[0m %s\n' "$*" >&2; }
stamp="${pins[*]} $(sha1sum scripts/corpus_text.py | cut -c1-40)"
if [ -f "$OUT/stamp" ] && [ "$(head -n1 "$OUT/stamp")" = "$stamp" ]; then echo "$OUT"; exit 0; fi
mkdir -p "$DEBS"
updated=0 unpinned=()
download() {  # $1 = package, $2 = version or "": the .deb into $DEBS, quietly
  (cd "$DEBS" && apt-get download -q "$1${2:+=$2}" 2>&1 | grep -v 'Download is performed unsandboxed' >&2)
}
for pin in "${pins[@]}"; do
  p=${pin%%=*} v=${pin#*=}
  deb=$(ls "$DEBS/${p}_"*.deb 2>/dev/null | head -n1 || true)
  if [ -z "$deb" ]; then
    log "apt-get download $p=$v"
    if ! download "$p" "$v"; then
      [ $updated = 1 ] || { log "apt-get update"; apt-get update -qq; updated=1; }
      download "$p" "$v" || { log "$p $v is not on the mirror any more: the newest instead"; download "$p" ""; unpinned+=("$p"); }
    fi
    deb=$(ls "$DEBS/${p}_"*.deb 2>/dev/null | head -n1 || true)
    [ -n "$deb" ] || { echo "corpus.sh: could not download $p" >&2; exit 1; }
  fi
  [ "$(dpkg-deb -f "$deb" Version)" = "$v" ] || unpinned+=("$p")
  if [ ! -d "$DEBS/x/$p" ]; then
    rm -rf "$DEBS/x/$p.tmp"; mkdir -p "$DEBS/x/$p.tmp"
    dpkg-deb -x "$deb" "$DEBS/x/$p.tmp" && mv "$DEBS/x/$p.tmp" "$DEBS/x/$p"
  fi
done
log "text from the manuals (about a minute)"
rm -rf "$OUT"; mkdir -p "$OUT"
/usr/bin/python3 scripts/corpus_text.py "$DEBS/x" "$OUT"
{ echo "$stamp"; if [ ${#unpinned[@]} -gt 0 ]; then echo "unpinned: ${unpinned[*]}"; else echo "pinned"; fi; } > "$OUT/stamp"
echo "$OUT"
