#!/usr/bin/env python3
"""Unicode's canonical decompositions and combining classes as C++ tables, for NFC (the
normalizer "NFC" of Hugging Face tokenizer.json files: Qwen's). CMakeLists.txt runs it at build
time; the outputs go into the build folder, never committed. Input: Debian's unicode-data.

    unicode_nfc.py UnicodeData.txt CompositionExclusions.txt NormalizationTest.txt.bz2 OUT.h OUT_TESTS.txt

OUT.h (read by model/tokenizer/unicode_nfc.cpp):
  kCombiningRuns   (first << 8) | ccc, one word per run of code points of one canonical
                   combining class, sorted, the first at U+0000;
  kDecompositions  (cp << 42) | (first << 21) | second, sorted by cp: every canonical
                   decomposition (second = 0 for a singleton), bit 63 set when the pair composes
                   back (not a composition exclusion, not a singleton, not a non-starter
                   decomposition: Full_Composition_Exclusion). Hangul syllables are computed.
OUT_TESTS.txt (read by tests/model/test_hf_tokenizer_nfc.cpp): NormalizationTest.txt's source and
NFC columns, one "hex hex ...;hex hex ..." line each.
"""
import bz2
import sys


def read_data(path):
    ccc, decomposition = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split(";")
            if len(fields) < 6:
                continue
            cp = int(fields[0], 16)
            if int(fields[3]):
                ccc[cp] = int(fields[3])
            d = fields[5]
            if d and not d.startswith("<"):  # canonical only: "<compat> ..." is compatibility
                decomposition[cp] = [int(x, 16) for x in d.split()]
    return ccc, decomposition


def read_exclusions(path):
    out = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            body = line.split("#", 1)[0].strip()
            if body:
                out.add(int(body, 16))
    return out


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: unicode_nfc.py UnicodeData.txt CompositionExclusions.txt NormalizationTest.txt.bz2 OUT.h OUT_TESTS.txt")
    data, exclusions_path, tests_path, out, out_tests = sys.argv[1:]
    ccc, decomposition = read_data(data)
    exclusions = read_exclusions(exclusions_path)

    runs = [(0, 0)]
    for cp in range(1, 0x110000):
        c = ccc.get(cp, 0)
        if c != runs[-1][1]:
            runs.append((cp, c))
    words = []
    for cp in sorted(decomposition):
        d = decomposition[cp]
        if len(d) > 2:
            sys.exit(f"{data}: U+{cp:04X} has a canonical decomposition of {len(d)} code points")
        first, second = d[0], (d[1] if len(d) == 2 else 0)
        composes = (len(d) == 2 and cp not in exclusions and ccc.get(cp, 0) == 0 and ccc.get(first, 0) == 0)
        words.append((int(composes) << 63) | (cp << 42) | (first << 21) | second)

    lines = [
        "// Generated at build time by cmake/unicode_nfc.py from Debian's unicode-data (UnicodeData.txt,",
        "// CompositionExclusions.txt). Never committed; read by model/tokenizer/unicode_nfc.cpp.",
        "#pragma once",
        "",
        "#include <cstdint>",
        "",
        "namespace attn {",
        "namespace model {",
        "namespace unicode_nfc {",
        "",
        f"// {len(runs)} runs of one canonical combining class: (first << 8) | ccc.",
        "constexpr std::uint32_t kCombiningRuns[] = {",
    ]
    for i in range(0, len(runs), 8):
        lines.append("    " + " ".join(f"0x{(cp << 8) | c:X}u," for cp, c in runs[i:i + 8]))
    lines += [
        "};",
        "",
        f"// {len(words)} canonical decompositions: (composes << 63) | (cp << 42) | (first << 21) | second.",
        "constexpr std::uint64_t kDecompositions[] = {",
    ]
    for i in range(0, len(words), 4):
        lines.append("    " + " ".join(f"0x{w:X}ull," for w in words[i:i + 4]))
    lines += ["};", "", "}  // namespace unicode_nfc", "}  // namespace model", "}  // namespace attn", ""]
    write_if_changed(out, "\n".join(lines))

    tests = []
    with bz2.open(tests_path, "rt", encoding="utf-8") as f:
        for line in f:
            body = line.split("#", 1)[0].strip()
            if not body or body.startswith("@"):
                continue
            cols = body.split(";")
            tests.append(f"{cols[0]};{cols[1]}")
    write_if_changed(out_tests, "\n".join(tests) + "\n")


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return  # unchanged: keep the timestamp
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
