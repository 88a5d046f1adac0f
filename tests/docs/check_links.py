#!/usr/bin/env python3
"""The documentation's links hold: every relative link and every #anchor between README.md,
ARCHITECTURE.md, MODEL.md and docs/*.md points at a file that exists and, for a Markdown file, at
a heading it has. Anchors are GitHub's: the heading's text, lowercased, punctuation dropped
(letters and digits of any script kept), each space a '-', and '-1', '-2', ... for repeats.

Before checking the repository it checks itself on a temporary folder: good links must pass, a
broken link and a broken anchor must each fail, so the check cannot pass by finding nothing.

usage: check_links.py [ROOT]      the self-test, then the documents of ROOT (default: this
                                  repository); exit 1 with the list of broken links
       check_links.py --self-test the self-test only
Debian's /usr/bin/python3, standard library only. ctest runs it as the test `docs`.
"""
import os
import re
import sys
import tempfile
import unicodedata
from urllib.parse import unquote

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
# [text](target "title") and ![alt](target); text may hold one level of brackets (an image).
INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ATTR = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
HTML_ID = re.compile(r"<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
SCHEME = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")


def documents(root):
    """The files whose links are checked: README.md, ARCHITECTURE.md, MODEL.md, docs/*.md."""
    names = [n for n in ("README.md", "ARCHITECTURE.md", "MODEL.md") if os.path.isfile(os.path.join(root, n))]
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        names += sorted("docs/" + n for n in os.listdir(docs) if n.endswith(".md"))
    return names


def prose_lines(text):
    """(line number, line) outside fenced code blocks, with inline code spans blanked out."""
    out, fence = [], None
    for number, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip().strip(fence[0]):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        if line.startswith("    ") and (not out or not out[-1][1].strip()):
            continue  # an indented code block (after a blank line)
        out.append((number, line))
    return out


def blank_code_spans(text):
    return CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)


def slug(heading):
    """GitHub's anchor for a heading's text (github-slugger on the rendered text)."""
    text = CODE_SPAN.sub(lambda m: m.group(2).strip(), heading)         # `code` keeps its text
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", text)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text)                                 # tags vanish
    text = re.sub(r"(\*+|(?<!\w)_+|_+(?!\w))", "", text)                # emphasis markers
    kept = []
    for ch in text.strip().lower():
        cat = unicodedata.category(ch)
        if ch in " -" or cat[0] in "LMN" or cat == "Pc":
            kept.append("-" if ch == " " else ch)
    return "".join(kept)


def anchors(text):
    """Every anchor a Markdown file offers: its headings' slugs (repeats numbered) and ids."""
    found, seen = set(), {}
    lines = prose_lines(text)
    previous = None
    for number, line in lines:
        heading = None
        m = ATX.match(line)
        if m:
            heading = m.group(2) or ""
        elif SETEXT.match(line) and previous and previous[0] == number - 1 and previous[1].strip() \
                and not ATX.match(previous[1]) and not previous[1].lstrip().startswith(("|", "-", "*", ">")):
            heading = previous[1].strip()
        if heading is not None:
            base = slug(heading)
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        for m in HTML_ID.finditer(line):
            found.add(m.group(1))
        previous = (number, line)
    return found


def links(text):
    """(line number, target) of every link, image and reference definition outside code."""
    out = []
    lines = prose_lines(text)
    # Join each paragraph so that a link's text may run over a line break; keep line numbers.
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and lines[j + 1][0] == lines[j][0] + 1 and lines[j + 1][1].strip():
            j += 1
        block = [blank_code_spans(l) for _, l in lines[i:j + 1]]
        starts, joined = [], ""
        for l in block:
            starts.append(len(joined))
            joined += l + "\n"

        def line_of(offset):
            k = 0
            while k + 1 < len(starts) and starts[k + 1] <= offset:
                k += 1
            return lines[i + k][0]

        for m in INLINE_LINK.finditer(joined):
            out.append((line_of(m.start()), m.group(2).strip("<>")))
        for m in HTML_ATTR.finditer(joined):
            out.append((line_of(m.start()), m.group(1)))
        for k, l in enumerate(block):
            m = REF_DEF.match(l)
            if m:
                out.append((lines[i + k][0], m.group(1).strip("<>")))
        i = j + 1
    return out


def check(root):
    """Returns (number of links checked, list of 'file:line: target: why')."""
    root = os.path.realpath(root)
    cache, broken, count = {}, [], 0

    def anchors_of(path):
        if path not in cache:
            with open(path, encoding="utf-8") as f:
                cache[path] = anchors(f.read())
        return cache[path]

    for name in documents(root):
        path = os.path.join(root, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, target in links(text):
            if not target or SCHEME.match(target):
                continue  # an absolute address: not this check's business
            count += 1
            where = f"{name}:{line}: {target}"
            file_part, _, fragment = target.partition("#")
            dest = path if not file_part else os.path.realpath(
                os.path.join(os.path.dirname(path), unquote(file_part)))
            if not (dest == root or dest.startswith(root + os.sep)):
                broken.append(f"{where}: points outside the repository")
                continue
            if not os.path.exists(dest):
                broken.append(f"{where}: no such file {os.path.relpath(dest, root)}")
                continue
            if fragment and dest.endswith(".md") and os.path.isfile(dest):
                if unquote(fragment) not in anchors_of(dest):
                    broken.append(f"{where}: no heading in {os.path.relpath(dest, root)} has the anchor #{unquote(fragment)}")
    return count, broken


def self_test():
    """The check on a folder made for it: good links pass, each kind of broken link fails."""
    good_readme = """# A title

See [the guide](docs/guide.md), [its second part](docs/guide.md#part-two-the-end),
[Russian](docs/guide.md#привет-мир), [repeated](docs/guide.md#notes-1), [code](docs/guide.md#the-x_y-function),
[here](#a-title), ![picture](docs/pic.png), [a folder](docs/), <a href="docs/guide.md#anchor-by-id">html</a>
and [the web](https://example.org/#nothing). A link over a line break: [two
words](docs/guide.md).

```sh
[not a link](nowhere.md)
```
And `[not a link either](nowhere.md)`.
"""
    good_guide = """# Guide

## Part two: the end!

## Привет, мир

## Notes

## Notes

## The `x_y` function

<a id="anchor-by-id"></a>
Back to [the README](../README.md#a-title).
"""
    failures = []

    def run(files, expect_broken, label):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "docs"))
            for name, text in files.items():
                with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                    f.write(text)
            count, broken = check(tmp)
        if expect_broken is None:
            if broken or count != 11:
                failures.append(f"{label}: expected 11 good links, found {count}, broken: {broken}")
        elif len(broken) != 1 or expect_broken not in broken[0]:
            failures.append(f"{label}: expected one broken link mentioning {expect_broken!r}, got {broken}")

    base = {"README.md": good_readme, "docs/guide.md": good_guide, "docs/pic.png": ""}
    run(base, None, "good links")
    run({**base, "README.md": good_readme + "\nAnd [a lost file](docs/missing.md).\n"},
        "no such file docs/missing.md", "a broken link")
    run({**base, "README.md": good_readme + "\nAnd [a lost part](docs/guide.md#part-three).\n"},
        "#part-three", "a broken anchor")
    run({**base, "README.md": good_readme + "\nAnd [a lost part](#nowhere).\n"},
        "#nowhere", "a broken anchor in the same file")
    run({**base, "README.md": good_readme + "\nAnd [outside](../../etc/passwd).\n"},
        "outside the repository", "a link out of the repository")
    for label, expected in [("slug: punctuation", ("Part two: the end!", "part-two-the-end")),
                            ("slug: Cyrillic", ("Привет, мир", "привет-мир")),
                            ("slug: code and slash", ("Share / embed `x`", "share--embed-x")),
                            ("slug: apostrophe", ("On the seed's sentence", "on-the-seeds-sentence"))]:
        if slug(expected[0]) != expected[1]:
            failures.append(f"{label}: slug({expected[0]!r}) = {slug(expected[0])!r}, expected {expected[1]!r}")
    return failures


def main(argv):
    failures = self_test()
    for f in failures:
        print(f"not ok - self-test: {f}")
    if failures:
        print("the link check is itself broken: fix tests/docs/check_links.py first")
        return 1
    print("ok - self-test: good links pass; a broken link, a broken anchor and a way out fail")
    if argv[1:2] == ["--self-test"]:
        return 0
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    names = documents(root)
    count, broken = check(root)
    if not count:
        print(f"not ok - no relative link found in {', '.join(names) or 'no document'}: nothing was checked")
        return 1
    for b in broken:
        print(f"not ok - {b}")
    print(f"{count} relative links in {len(names)} files ({', '.join(names)}): {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
