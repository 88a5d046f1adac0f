#!/usr/bin/env python3
"""The desktop program in a real window: Xvfb (Debian's xvfb), Mesa's software OpenGL 3.3.

`attnlab-desktop --state S --screenshot F` starts from a setState patch or a share link, waits
until the lab has settled (the model loaded, when chosen), writes the window as PNG and quits.
Checked here: the exit codes and one-line refusals of bad options, states and paths; the picture
is the lab's window (its size, the dark background, the heatmap's viridis colours drawn by our
shader, the selected query's orange frame), in English and, with the trained model, in Russian;
a link and a patch of the same settings give the same picture; a state that never settles
(training playing) is pictured after 20 s.

usage: test_desktop.py ATTNLAB_DESKTOP [SHOTS_DIR]   (SHOTS_DIR: keeps desktop-*.png to look at)
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np

DESKTOP = sys.argv[1]
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
WIDTH, HEIGHT = 1280, 800  # the window main.cpp opens
failures = []


def check(what, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else f"\n      {detail}"))
    if not ok:
        failures.append(what)


def read_png(path):
    """(height, width, channels) uint8 from a PNG with 8-bit RGB or RGBA (what stb writes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp
    out, prev = bytearray(h * stride), bytearray(stride)
    for y in range(h):  # undo each row's filter (PNG spec, 9.2); plain Python on bytearrays
        f, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        row = bytearray(line)
        if f == 1:
            for x in range(bpp, stride):
                row[x] = (row[x] + row[x - bpp]) & 255
        elif f == 2:
            row = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for x in range(stride):
                row[x] = (row[x] + ((row[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
        elif f == 4:
            for x in range(stride):
                a = row[x - bpp] if x >= bpp else 0
                b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride], prev = row, row
    return np.frombuffer(bytes(out), dtype=np.uint8).reshape(h, w, bpp)


def run(*args, display=True):
    cmd = [DESKTOP, *args]
    if display:
        cmd = ["xvfb-run", "-a", "-s", f"-screen 0 {WIDTH}x{HEIGHT}x24", *cmd]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "LIBGL_ALWAYS_SOFTWARE": "1"})
    # xvfb-run's own cleanup sometimes races its server's exit and says so on stderr (not the
    # program's words): left out, so a one-line refusal stays one line.
    err = "".join(line for line in p.stderr.splitlines(keepends=True)
                  if not line.startswith("xvfb-run: error: problem while cleaning up temporary directory"))
    return p.returncode, p.stdout, err


def near(img, colour, tol=12):
    """How many pixels are within tol of colour in every channel."""
    return int(np.all(np.abs(img[:, :, :3].astype(int) - np.array(colour)) <= tol, axis=2).sum())


def one_line_refusal(what, code, err, expected):
    lines = [l for l in err.splitlines() if l.startswith("attnlab-desktop")]
    check(f"{what}: exit 2 and one line naming it", code == 2 and len(lines) == 1 and expected in lines[0],
          f"exit {code}, stderr: {err[-500:]}")


if not shutil.which("xvfb-run"):
    sys.exit("test_desktop.py: xvfb-run is missing (Debian's xvfb and xauth: scripts/setup.sh installs them)")
out = tempfile.mkdtemp(prefix="attnlab-desktop-")
try:
    code, o, e = run("--help", display=False)
    check("--help: exit 0 and says what --state and --screenshot do",
          code == 0 and "--state" in o and "--screenshot" in o, f"exit {code}: {o}{e}")
    code, o, e = run("--bogus", display=False)
    check("an unknown option: a non-zero exit and its message", code != 0 and "--bogus" in o + e, f"exit {code}: {o}{e}")

    one_line_refusal("a refused setState patch", *run("--state", '{"temperature": -1}', "--screenshot", f"{out}/x.png")[0:3:2],
                     "--state: temperature: expected a number from 0.001 to 1000, got -1")
    one_line_refusal("a link with unknown parameters", *run("--state", "https://example.org/lab/#s=hi&t=2", "--screenshot", f"{out}/x.png")[0:3:2],
                     "--state: s: unknown parameter; t: unknown parameter")
    one_line_refusal("malformed JSON", *run("--state", '{"sentence": ', "--screenshot", f"{out}/x.png")[0:3:2], "--state: ")
    one_line_refusal("a screenshot that cannot be written", *run("--screenshot", "/nonexistent/dir/x.png")[0:3:2],
                     "--screenshot: cannot write /nonexistent/dir/x.png")
    check("nothing is written for a refused state", not os.path.exists(f"{out}/x.png"))

    # The seed's sentence in English, with the heatmap and the query «люблю» framed in orange.
    code, o, e = run("--state", '{"sentence": "я люблю суши", "lang": "en"}', "--screenshot", f"{out}/en.png")
    check("the default lab: exit 0, nothing on stderr", code == 0 and e.strip() == "", f"exit {code}: {e[-500:]}")
    img = read_png(f"{out}/en.png")
    check(f"the picture is the {WIDTH} x {HEIGHT} window", img.shape[:2] == (HEIGHT, WIDTH), img.shape)
    bg = sum(near(img, c, 3) for c in ((31, 33, 41), (23, 26, 31), (20, 22, 28)))  # panels, clear colour
    check("mostly the lab's dark panels", bg > 0.5 * WIDTH * HEIGHT, bg)
    # The seed's weights (row я: 0.75 0.12 0.13, row суши: 0.09 0.43 0.48) as viridis cells of
    # ~77 x 77 pixels: viridis(0.75) ~ (94, 201, 98), (0.12) ~ (71, 46, 124), (0.48) ~ (33, 143, 141).
    cells = [near(img, c, 15) for c in ((94, 201, 98), (71, 46, 124), (33, 143, 141))]
    check("the heatmap (our GLSL shader): the seed's weights as viridis cells", min(cells) > 4000, cells)
    purple = near(img, (68, 1, 84), 25)
    orange = near(img, (240, 150, 40), 40)
    check("the query's orange frame and token", orange > 300, orange)

    # A link and a patch of the same settings: the same picture, bit for bit.
    link = "https://example.org/lab/#sentence=I%20love%20sushi&temperature=0.5&view=information&lang=en"
    code_a, _, e_a = run("--state", link, "--screenshot", f"{out}/link.png")
    code_b, _, e_b = run("--state", '{"sentence": "I love sushi", "temperature": 0.5, "view": "information", "lang": "en"}',
                         "--screenshot", f"{out}/patch.png")
    same = code_a == 0 and code_b == 0 and np.array_equal(read_png(f"{out}/link.png"), read_png(f"{out}/patch.png"))
    check("a share link and the same settings as a patch: the same picture", same, f"{code_a} {e_a[-300:]} {code_b} {e_b[-300:]}")
    check("... and it is another picture than the default one",
          same and not np.array_equal(read_png(f"{out}/link.png"), img))

    # The trained model, in Russian: its files read from web/model, the gallery of 16 heads.
    code, o, e = run("--state", '{"projection": "model", "lang": "ru"}', "--screenshot", f"{out}/model-ru.png")
    check("model mode in Russian: exit 0, nothing on stderr", code == 0 and e.strip() == "", f"exit {code}: {e[-500:]}")
    m = read_png(f"{out}/model-ru.png")
    mp = near(m, (68, 1, 84), 25)
    check("model mode: the head gallery and the causal heatmap add viridis purple", mp > purple, (mp, purple))
    check("model mode: another picture than the default lab", not np.array_equal(m, img))
    # Another model: a GPT-2 checkpoint's folder (CTest's fixture "gpt2"), opened before the state
    # is applied (its layer 1, head 3 exist only once it is open).
    gpt2 = os.environ.get("ATTNLAB_GPT2_FIXTURES", "")
    if gpt2:
        code, o, e = run("--model", os.path.join(gpt2, "f16-vocab"), "--state", '{"layer": 1, "head": 3, "lang": "en"}',
                         "--screenshot", f"{out}/gpt2.png")
        check("--model with a GPT-2 checkpoint: exit 0, nothing on stderr", code == 0 and e.strip() == "", f"exit {code}: {e[-500:]}")
        g = read_png(f"{out}/gpt2.png")
        check("--model: model mode's picture (viridis purple), another than the lab's own model's",
              near(g, (68, 1, 84), 25) > purple and not np.array_equal(g, m))
        one_line_refusal("--model with no model there", *run("--model", f"{out}/nowhere", "--screenshot", f"{out}/y.png")[0:3:2],
                         f"--model: {out}/nowhere: no such folder")
    else:
        check("ATTNLAB_GPT2_FIXTURES names the GPT-2 fixtures (run through ctest)", False)
    # A state that keeps the lab busy (training plays for minutes): the picture is taken after
    # 20 s anyway, and stderr says so.
    code, o, e = run("--state", '{"view": "training", "train": {"play": true}}', "--screenshot", f"{out}/playing.png")
    check("a state that plays training: the picture after 20 s, exit 0, one line saying so",
          code == 0 and "still busy after 20 s, taken as it is" in e and os.path.getsize(f"{out}/playing.png") > 10000,
          f"exit {code}: {e[-300:]}")
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        for name in ("en", "link", "model-ru", "gpt2"):
            shutil.copy(f"{out}/{name}.png", os.path.join(SHOTS, f"desktop-{name}.png"))
finally:
    shutil.rmtree(out, ignore_errors=True)

print(f"{len(failures)} failed" if failures else "desktop: all passed")
sys.exit(1 if failures else 0)
