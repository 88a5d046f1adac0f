#!/usr/bin/env python3
"""The lab's translated text has one home, src/text/: no Cyrillic appears in the code or data of
src/ (*.h, *.cpp, *.json) or in the page (web/*.html, web/*.css, web/js/*.js) outside it, except in
comments and in the entries of ALLOWED below, each with its reason. A new Russian string written
inline in a panel, an export or the page script, or a table of strings put elsewhere in src/,
fails this test: put it in a table of src/text/strings/ instead. The tables' C++ headers are
generated into the build folder (cmake/text_tables.cmake), which is not checked.

Before checking the repository it checks itself on a temporary folder: a Russian string in code
must fail, the same words in a comment or in an allowed line must pass, and an allowed entry that
no longer matches anything must fail (so the list cannot go stale and the check cannot pass by
finding nothing).

usage: check_text_home.py [ROOT]       the self-test, then ROOT (default: this repository);
                                       exit 1 with each line found
       check_text_home.py --self-test  the self-test only
Debian's /usr/bin/python3, standard library only. ctest runs it as the test `text_home`.
"""
import fnmatch
import os
import re
import sys
import tempfile

CYRILLIC = re.compile("[\u0400-\u04FF]")

# Where the interface's text could be written: the code and data of src/ and the page (fnmatch: a
# * also crosses folders, so src/*.h is every header of src/).
SCANNED = ["src/*.h", "src/*.cpp", "src/*.json", "web/*.html", "web/*.css", "web/js/*.js"]
HOME = "src/text/"

# (file pattern, a fragment the line must contain or None for the whole file, reason)
ALLOWED = [
    ("src/engine/training/tasks.cpp", None,
     "example DATA: the training tasks' Russian sentences, their vocabulary and lowercasing"),
    ("src/engine/lab/lab.h", "я люблю суши", "example DATA: the default sentence of the lab's state"),
    ("src/app/training/training.cpp", "я люблю суши",
     "example DATA: the seed sentence a training example starts from in Russian"),
    ("src/cli/cmd_trace.cpp", "я люблю суши", "example DATA: a state in the CLI's --help (the CLI is English)"),
    ("web/index.html", "Для Attention Lab нужны JavaScript",
     "the <noscript> line: static HTML, shown when no script runs to read src/text/page.json"),
    ("web/embed-example.html", None,
     "an example course page with its own lesson (course content, not the lab's interface)"),
]


def files(root):
    out = []
    for dirpath, dirnames, names in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", "build", ".deps", "node_modules")]
        for name in names:
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            if rel.startswith(HOME):
                continue
            if any(fnmatch.fnmatch(rel, p) for p in SCANNED):
                out.append(rel)
    return sorted(out)


def code_part(line, path):
    """The line without its comment: none if it is a comment line, else what precedes a `//`
    outside quotes (C++ and JavaScript)."""
    s = line.strip()
    if s.startswith(("//", "*", "/*", "<!--")):
        return ""
    if not path.endswith((".h", ".cpp", ".js")):
        return line
    quote = None
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'`":
            quote = c
        elif line.startswith("//", i):
            return line[:i]
        i += 1
    return line


def check(root):
    """(problems, allowed entries never used)"""
    problems, used = [], set()
    for rel in files(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                code = code_part(line.rstrip("\n"), rel)
                if not CYRILLIC.search(code):
                    continue
                entry = next((k for k, (pattern, fragment, _) in enumerate(ALLOWED)
                              if fnmatch.fnmatch(rel, pattern) and (fragment is None or fragment in code)), None)
                if entry is None:
                    problems.append(f"{rel}:{number}: {line.strip()[:120]}")
                else:
                    used.add(entry)
    stale = [f"{ALLOWED[k][0]} ({ALLOWED[k][1] or 'whole file'}): {ALLOWED[k][2]}"
             for k in range(len(ALLOWED)) if k not in used]
    return problems, stale


def self_test():
    """The check fails where it must and passes where it must, on files written here."""
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        for pattern, fragment, _ in ALLOWED:  # every entry used once
            write(pattern, f'x = "{fragment or "пример"}";\n')
        write("src/text/strings/lab.json", '{"groups": [{"strings": [{"key": "kA", "en": "query", "ru": "запрос"}]}]}\n')
        write("src/text/i18n.cpp", 'const char* u = "запрос";\n')
        write("src/ui/panel.cpp", '// запрос: a comment\nint a = 1;  // запрос\n'
                                  'const char* u = "http://x";  // ключ\n')
        write("web/js/page.js", "/* ключ */\n var s = 'a'; // ключ\n")
        problems, stale = check(root)
        if problems or stale:
            return f"clean files were refused: {problems} {stale}"
        write("src/ui/panel.cpp", 'ImGui::Text(ru ? "Запрос" : "Query");\n')
        write("web/js/page.js", "var s = 'a // b', t = 'ключ';\n")
        write("src/app/exports/x_svg.cpp", 'std::string t = "a" "ключ"; // key\n')
        write("src/ui/strings/panel.json", '{"key": "kA", "en": "query", "ru": "запрос"}\n')
        problems, _ = check(root)
        if len(problems) != 4:
            return f"expected 3 inline Russian strings and a table outside src/text/ to be found, got {problems}"
        os.remove(os.path.join(root, "src/engine/lab/lab.h"))
        _, stale = check(root)
        if len(stale) != 1:
            return f"an allowed entry that matches nothing was not reported: {stale}"
    return None


def main(argv):
    error = self_test()
    if error:
        print("check_text_home.py self-test failed: " + error)
        return 1
    if argv[1:2] == ["--self-test"]:
        print("self-test passed")
        return 0
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    problems, stale = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} line(s) with Russian text outside src/text/: move the text into a table of "
              "src/text/ (src/text/strings/*.json for text::tr, or src/text/page.json for the page script), or, if it is example data, "
              "add it to ALLOWED in tests/text/check_text_home.py with the reason")
    for s in stale:
        print("ALLOWED entry matches nothing any more, remove it: " + s)
    if problems or stale:
        return 1
    print(f"the lab's translated text lives in src/text/ ({len(files(root))} files checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
