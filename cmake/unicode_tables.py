#!/usr/bin/env python3
"""Unicode's General_Category and White_Space as C++ tables (CMakeLists.txt runs it at build time;
the header goes into the build folder, never committed). Input: Debian's unicode-data package.

    unicode_tables.py UnicodeData.txt PropList.txt OUT.h

The pre-tokenizers' regexes need \\p{L}, \\p{N} and \\s (Python regex's \\s: White_Space), and
later ones need other categories (\\p{Lu}, \\p{M}, ...), so the whole General_Category is kept:
one 32-bit word per run of code points of one category, (first << 5) | category, sorted, the
first run at U+0000, unassigned code points as Cn. model/tokenizer/unicode_classes.cpp searches
it; the category names are that header's enum, so a name this script writes and the enum does
not know stops the compiler.
"""
import re
import sys

# UnicodeData.txt gives big blocks as two lines, "<CJK Ideograph Extension A, First>" ... "Last>".
RANGE_NAME = re.compile(r"^<(.+), (First|Last)>$")
LAST_CODE_POINT = 0x10FFFF


def categories(path):
    """A list of the 0x110000 code points' General_Category (Cn where unassigned)."""
    gc = ["Cn"] * (LAST_CODE_POINT + 1)
    first = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split(";")
            if len(fields) < 3:
                continue
            cp, name, cat = int(fields[0], 16), fields[1], fields[2]
            m = RANGE_NAME.match(name)
            if m and m.group(2) == "First":
                first = cp
                continue
            if m and m.group(2) == "Last":
                if first is None:
                    sys.exit(f"{path}: {fields[0]} ends a range that never started")
                for c in range(first, cp + 1):
                    gc[c] = cat
                first = None
                continue
            gc[cp] = cat
    return gc


def white_space(path):
    """The White_Space ranges of PropList.txt, and the Unicode version from its first line."""
    ranges, version = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if version is None:
                m = re.match(r"# PropList-(\d+\.\d+\.\d+)\.txt", line)
                version = m.group(1) if m else "unknown"
            body = line.split("#", 1)[0].strip()
            if not body:
                continue
            cps, prop = (s.strip() for s in body.split(";"))
            if prop != "White_Space":
                continue
            lo, _, hi = cps.partition("..")
            ranges.append((int(lo, 16), int(hi or lo, 16)))
    ranges.sort()
    return ranges, version


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: unicode_tables.py UnicodeData.txt PropList.txt OUT.h")
    data, props, out = sys.argv[1:]
    gc = categories(data)
    spaces, version = white_space(props)
    runs = [(0, gc[0])]
    for cp in range(1, LAST_CODE_POINT + 1):
        if gc[cp] != runs[-1][1]:
            runs.append((cp, gc[cp]))
    lines = [
        f"// Generated at build time by cmake/unicode_tables.py from Unicode {version} (Debian's",
        "// unicode-data: UnicodeData.txt, PropList.txt). Never committed; read by unicode_classes.cpp.",
        "#pragma once",
        "",
        "#include <cstdint>",
        "",
        '#include "model/tokenizer/unicode_classes.h"',
        "",
        "namespace attn {",
        "namespace model {",
        "namespace unicode_data {",
        "",
        f'constexpr char kVersion[] = "{version}";',
        "",
        "constexpr std::uint32_t Run(std::uint32_t first, Gc category) {",
        "  return (first << 5) | static_cast<std::uint32_t>(category);",
        "}",
        "",
        f"// {len(runs)} runs: a run lasts until the next one's first code point.",
        "constexpr std::uint32_t kCategoryRuns[] = {",
    ]
    per_line = 6
    for i in range(0, len(runs), per_line):
        lines.append("    " + " ".join(f"Run(0x{cp:04X}, Gc::{cat})," for cp, cat in runs[i:i + per_line]))
    lines += [
        "};",
        "",
        "// White_Space, [first, last] pairs, sorted.",
        "constexpr char32_t kWhiteSpace[][2] = {",
        "    " + " ".join(f"{{0x{lo:04X}, 0x{hi:04X}}}," for lo, hi in spaces),
        "};",
        "",
        "}  // namespace unicode_data",
        "}  // namespace model",
        "}  // namespace attn",
        "",
    ]
    text = "\n".join(lines)
    try:
        with open(out, encoding="utf-8") as f:
            if f.read() == text:
                return  # unchanged: keep the timestamp
    except OSError:
        pass
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
