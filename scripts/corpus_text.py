#!/usr/bin/python3
"""Plain text for the model from Debian's documentation packages (issue 21).

Reads the unpacked packages under SRC (scripts/corpus.sh unpacks them with dpkg-deb -x) and
writes one file per source and language under OUT: OUT/en/<source>.txt, OUT/ru/<source>.txt.
Each file is entries separated by lines holding only "%" (the fortune format the model's corpus
reader already knows); an entry is one document: one manual page or one help page, whole.

  manpages (en) and manpages-ru (ru): groff renders each page as UTF-8 text with
      lines long enough that a paragraph is one line (no hyphenation, no justification); bold,
      underline and the header/footer lines are dropped.
  gimp-help-en/-ru and libreoffice-help-en-us/-ru: the HTML body's text, one line per block
      element (p, li, h1-h6, dt, dd, td, pre lines); navigation bars, scripts and styles dropped.

Russian pages leave some paragraphs untranslated; in a Russian entry a line with 20 or more
letters and not one Cyrillic letter is dropped. Files are read in sorted order and everything is
deterministic for the same packages (the model's corpus then cleans, deduplicates and splits).

  scripts/corpus_text.py SRC OUT
"""
import gzip
import html.parser
import os
import re
import subprocess
import sys

BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "td", "th", "pre", "div", "br",
          "tr", "table", "ul", "ol", "dl", "blockquote", "title"}
SKIP = {"script", "style", "head"}
NAV_CLASSES = {"navheader", "navfooter", "breadcrumbs", "toc", "noscript"}


class Text(html.parser.HTMLParser):
    """The visible text of an HTML page, a line per block element."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.skip = 0      # depth inside script/style/head
        self.nav = []      # stack: True for an element inside a navigation bar
        self.pre = 0

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        nav = bool(classes & NAV_CLASSES) or tag == "nav" or dict(attrs).get("id") in ("TopLeftHeader", "SearchFrame", "DisplayArea-top", "langselect")
        if tag in ("br", "img", "hr", "meta", "link", "input"):
            if tag == "br":
                self.out.append("\n")
            return
        self.nav.append(nav or (self.nav[-1] if self.nav else False))
        if tag in SKIP:
            self.skip += 1
        if tag == "pre":
            self.pre += 1
        if tag in BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in ("br", "img", "hr", "meta", "link", "input"):
            return
        if self.nav:
            self.nav.pop()
        if tag in SKIP and self.skip:
            self.skip -= 1
        if tag == "pre" and self.pre:
            self.pre -= 1
        if tag in BLOCKS:
            self.out.append("\n")

    def handle_data(self, data):
        if self.skip or (self.nav and self.nav[-1]):
            return
        if not self.pre:
            data = re.sub(r"\s+", " ", data)
        self.out.append(data)

    def text(self):
        return "".join(self.out)


def html_text(path):
    with open(path, "rb") as f:
        raw = f.read().decode("utf-8", errors="replace")
    p = Text()
    p.feed(raw)
    p.close()
    return p.text()


def man_text(path):
    with gzip.open(path, "rb") as f:
        src = f.read()
    if src.startswith(b".so "):
        return ""  # a link to another page
    # -k: preconv (UTF-8 input); LL: a paragraph on one line; HY=0: no hyphenation;
    # -P-cbou: plain characters, no overstrike, bold or underline.
    env = dict(os.environ, LC_ALL="C.UTF-8")
    r = subprocess.run(["groff", "-k", "-Tutf8", "-man", "-rLL=3000n", "-rHY=0", "-rcR=1", "-P-cbou", "-Kutf8"],
                       input=src, capture_output=True, env=env, timeout=60)
    text = r.stdout.decode("utf-8", errors="replace")
    lines = text.split("\n")
    # Drop the header and the footer line (the page's name, section and date).
    body = [l for l in lines]
    while body and not body[0].strip():
        body.pop(0)
    if body:
        body.pop(0)
    while body and not body[-1].strip():
        body.pop()
    if body:
        body.pop()
    return "\n".join(body)


CYR = re.compile(r"[\u0400-\u04FF]")
LETTER = re.compile(r"[^\W\d_]")


# LibreOffice's help pages: the navigation line before the text and the page's own address after it.
LO_BOILERPLATE = re.compile(r"^(Index \U0001F50E\ufe0e?|This page is: /text/.*|Title is: .*|Contents|Содержимое)$")


def tidy(text, lang, name):
    lines = []
    for line in text.split("\n"):
        line = re.sub(r"[ \t\u00a0]+", " ", line).strip()
        if name == "libreoffice-help" and LO_BOILERPLATE.match(line):
            continue
        if line == "%":
            line = "% "
        if lang == "ru" and len(LETTER.findall(line)) >= 20 and not CYR.search(line):
            continue
        lines.append(line)
    out = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", out).strip()


def main():
    src, out = sys.argv[1], sys.argv[2]
    sources = [
        ("en", "manpages", "manpages/usr/share/man", "man"),
        ("ru", "manpages-ru", "manpages-ru/usr/share/man/ru", "man"),
        ("en", "gimp-help", "gimp-help-en/usr/share/gimp/2.0/help/en", "html"),
        ("ru", "gimp-help", "gimp-help-ru/usr/share/gimp/2.0/help/ru", "html"),
        ("en", "libreoffice-help", "libreoffice-help-en-us/usr/share/libreoffice/help/en-US", "html"),
        ("ru", "libreoffice-help", "libreoffice-help-ru/usr/share/libreoffice/help/ru", "html"),
    ]
    for lang, name, folder, kind in sources:
        root = os.path.join(src, folder)
        paths = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for fn in sorted(filenames):
                if (kind == "man" and fn.endswith(".gz")) or (kind == "html" and fn.endswith(".html")):
                    paths.append(os.path.join(dirpath, fn))
        paths.sort()
        if not paths:
            sys.exit(f"corpus_text.py: no {kind} files under {root}")
        os.makedirs(os.path.join(out, lang), exist_ok=True)
        entries = []
        for p in paths:
            t = tidy(man_text(p) if kind == "man" else html_text(p), lang, name)
            if t:
                entries.append(t)
        dest = os.path.join(out, lang, name + ".txt")
        with open(dest + ".tmp", "w", encoding="utf-8") as f:
            f.write("\n%\n".join(entries) + "\n")
        os.replace(dest + ".tmp", dest)
        chars = sum(len(e) for e in entries)
        print(f"{lang} {name}: {len(entries)} entries, {chars} characters", file=sys.stderr)


if __name__ == "__main__":
    main()
