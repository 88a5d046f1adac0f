#!/usr/bin/env python3
"""Cuts a font down to what the lab can show (cmake/Dependencies.cmake runs it at build time).

Kept: every letter of the blocks learners type in (Basic Latin, Latin-1, Latin Extended-A, Greek,
Cyrillic), sub- and superscripts, and of the symbol blocks only the characters the program's own
sources use (written as UTF-8 or as \\xNN escapes), so a new symbol in a text is picked up by the
next build. Dropped: hinting, glyph names and the layout tables (Dear ImGui draws no ligatures and
no kerning).

    font_subset.py IN.ttf OUT.ttf SRC_DIR...
"""
import pathlib
import re
import sys

from fontTools import subset

LETTERS = [(0x20, 0x7E), (0xA0, 0x17F), (0x370, 0x3FF), (0x400, 0x4FF), (0x1D62, 0x1D6A),
           (0x2070, 0x209F), (0xFFFD, 0xFFFD)]
ESCAPES = re.compile(r'((?:\\x[0-9A-Fa-f]{2})+)')


def used_symbols(dirs):
    chars = set()
    for d in dirs:
        for f in sorted(pathlib.Path(d).rglob('*')):
            if f.suffix not in ('.cpp', '.h') or not f.is_file():
                continue
            text = f.read_text(encoding='utf-8', errors='ignore')
            chars.update(c for c in text if ord(c) >= 0x2000)
            for m in ESCAPES.finditer(text):
                try:
                    chars.update(c for c in bytes.fromhex(m.group(1).replace('\\x', '')).decode('utf-8') if ord(c) >= 0x2000)
                except UnicodeDecodeError:
                    pass
    return sorted(ord(c) for c in chars if ord(c) <= 0xFFFF)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    src, out, dirs = argv[1], argv[2], argv[3:]
    codes = [c for lo, hi in LETTERS for c in range(lo, hi + 1)] + used_symbols(dirs)
    unicodes = ','.join('U+%04X' % c for c in sorted(set(codes)))
    subset.main([src, '--unicodes=' + unicodes, '--output-file=' + out, '--no-hinting', '--desubroutinize',
                 '--layout-features=', '--no-glyph-names', '--drop-tables+=kern,GPOS,GSUB,GDEF,FFTM'])


if __name__ == '__main__':
    main(sys.argv)
