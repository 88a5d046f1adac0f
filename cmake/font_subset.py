#!/usr/bin/env python3
"""Cuts a font down to what the lab can show (cmake/Dependencies.cmake runs it at build time).

Kept: every letter of the alphabets learners type in (Basic Latin, Latin-1, Latin Extended-A,
the Greek letters, the Cyrillic of Russian, Ukrainian, Belarusian, Serbian and Macedonian),
sub- and superscripts, and beyond those only the characters the program's own sources use
(written as UTF-8 or as \\xNN escapes: symbols, and any other Greek or Cyrillic letter) and the
lessons shipped in web/lessons/ (*.json), so a new symbol in a text is picked up by the next
build. The rest of the Greek and Cyrillic blocks
(accented Greek, historic and other languages' Cyrillic) went in issue 11: ~12 KB gzipped, and
fewer glyphs to rasterize at start-up. Dropped: hinting, glyph names and the layout tables (Dear ImGui draws no ligatures and
no kerning).

With --symbols-only, the letters beyond Basic Latin are left out too (the monospaced font: its
digits, Latin letters and symbols line numbers up; the lab merges the text font's letters into it
at start-up, ui/style.cpp).

    font_subset.py [--symbols-only] IN.ttf OUT.ttf SRC_DIR...
"""
import pathlib
import re
import sys

from fontTools import subset

LETTERS = [(0x20, 0x7E), (0xA0, 0x17F), (0x391, 0x3A9), (0x3B1, 0x3C9), (0x400, 0x45F),
           (0x490, 0x491), (0x1D62, 0x1D6A), (0x2070, 0x209F), (0xFFFD, 0xFFFD)]
FROM_SOURCES = 0x370  # characters from here up are kept when a source uses them
ESCAPES = re.compile(r'((?:\\x[0-9A-Fa-f]{2})+)')


def used_symbols(dirs):
    chars = set()
    for d in dirs:
        for f in sorted(pathlib.Path(d).rglob('*')):
            if f.suffix not in ('.cpp', '.h', '.json') or not f.is_file():
                continue
            text = f.read_text(encoding='utf-8', errors='ignore')
            chars.update(c for c in text if ord(c) >= FROM_SOURCES)
            for m in ESCAPES.finditer(text):
                try:
                    chars.update(c for c in bytes.fromhex(m.group(1).replace('\\x', '')).decode('utf-8') if ord(c) >= FROM_SOURCES)
                except UnicodeDecodeError:
                    pass
    return sorted(ord(c) for c in chars if ord(c) <= 0xFFFF)


def main(argv):
    symbols_only = len(argv) > 1 and argv[1] == '--symbols-only'
    if symbols_only:
        argv = argv[:1] + argv[2:]
    if len(argv) < 4:
        sys.exit(__doc__)
    src, out, dirs = argv[1], argv[2], argv[3:]
    letters = [(0x20, 0x7E), (0xFFFD, 0xFFFD)] if symbols_only else LETTERS
    symbols = used_symbols(dirs)
    if symbols_only:  # no Greek or Cyrillic letters: the text font has them
        symbols = [c for c in symbols if c >= 0x2000]
    codes = [c for lo, hi in letters for c in range(lo, hi + 1)] + symbols
    unicodes = ','.join('U+%04X' % c for c in sorted(set(codes)))
    subset.main([src, '--unicodes=' + unicodes, '--output-file=' + out, '--no-hinting', '--desubroutinize',
                 '--layout-features=', '--no-glyph-names', '--drop-tables+=kern,GPOS,GSUB,GDEF,FFTM'])


if __name__ == '__main__':
    main(sys.argv)
