#!/usr/bin/env python3
"""`attnlab model probe` (the page's "Probe this head"): the probe on a real head of the shipped
model, on a built-in text cut into overlapping windows (the first 70% train the readout, the rest
test it, no window crossing the split). The same run twice gives the same bytes; the windows and
query counts follow from the text's length; layer 0's previous-token head is named far above
chance on both sides of d_head + 1 keys, a head that spreads its weight is not; bad input is
refused in the one shape.

usage: test_model_probe.py ATTNLAB FIXTURES_DIR
"""
import json
import os
import subprocess

from common import QUICK, ATTNLAB, FIXTURES, REPO, SHIPPED_MODEL, check, check_refusal, finish, model


def probe(*args):
    return model("probe", SHIPPED_MODEL, *args)


# The heads to probe, from what the analysis measured (heads.json): the strongest previous-token
# head, and the head whose weight is spread the most (highest entropy).
with open(os.path.join(SHIPPED_MODEL, "heads.json"), encoding="utf-8") as f:
    HEADS = json.load(f)["heads"]
PREV = max(HEADS, key=lambda h: h["previous"])
with open(os.path.join(SHIPPED_MODEL, "config.json"), encoding="utf-8") as f:
    CONFIG = json.load(f)
WINDOW = CONFIG.get("context", CONFIG.get("model", {}).get("context"))  # a window is the model's context
SPREAD = max(HEADS, key=lambda h: h["entropy"])

for lang in (("en",) if QUICK else ("en", "ru")):
    text = os.path.join(REPO, "web", "tune", f"{lang}.txt")
    a = probe("--layer", str(PREV["layer"]), "--head", str(PREV["head"]), "--text-file", text)
    b = a if QUICK else probe("--layer", str(PREV["layer"]), "--head", str(PREV["head"]), "--text-file", text)
    check(f"model probe ({lang}): exit 0 and the same bytes twice", a[0] == 0 and a == b, a[2][-300:])
    r = json.loads(a[1]) if a[0] == 0 else {}
    n, w, stride, split = r.get("tokens", 0), r.get("window", 0), r.get("stride", 0), r.get("split", 0)
    check(f"model probe ({lang}): the split at 70% and windows on each side of it, none crossing",
          w == WINDOW and stride == 32 and split == int(n * 0.7)
          and r.get("trainWindows") == (split - w) // stride + 1 and r.get("testWindows") == (n - split - w) // stride + 1, r)
    check(f"model probe ({lang}): a sample per query t >= 1 of each window, split at d_head + 1 = 33 keys",
          r.get("testQueries") == r.get("testWindows", 0) * (w - 1) and r.get("trainQueries") == r.get("trainWindows", 0) * (w - 1)
          and r.get("withinKeys") == 33 and r["within"]["queries"] == r.get("testWindows", 0) * 32
          and r["within"]["queries"] + r["beyond"]["queries"] == r["testQueries"], r)
    # Chance: the mean of 1 / (t + 1) over the test queries (t = 1..32 within, 33..w-1 beyond).
    cw = sum(1 / (t + 1) for t in range(1, 33)) / 32
    cb = sum(1 / (t + 1) for t in range(33, w)) / (w - 33)
    check(f"model probe ({lang}): chance is the mean of 1/(t+1)",
          abs(r["within"]["chance"] - cw) < 1e-12 and abs(r["beyond"]["chance"] - cb) < 1e-12, r)
    check(f"model probe ({lang}): the previous-token head {PREV['layer']}.{PREV['head']} is named far above chance on both sides",
          r["within"]["accuracy"] > 0.5 and r["beyond"]["accuracy"] > 0.5 and r["beyond"]["accuracy"] > 10 * r["beyond"]["chance"], r)
    if QUICK:
        continue
    spread = probe("--layer", str(SPREAD["layer"]), "--head", str(SPREAD["head"]), "--text-file", text)
    s = json.loads(spread[1]) if spread[0] == 0 else {}
    check(f"model probe ({lang}): head {SPREAD['layer']}.{SPREAD['head']} (weight spread out) is not: below the position-only reader",
          spread[0] == 0 and s["beyond"]["accuracy"] < s["beyond"]["position"] and s["within"]["accuracy"] < s["within"]["position"], s)

check_refusal("model probe", "a text too short", "", "--text: expected a text of at least",
              args=["model", "probe", SHIPPED_MODEL, "--text", "I love sushi. You love sushi."], what="bad text")
check_refusal("model probe", "layer 4", "", "layer: expected a layer index from 0 to 3, got 4",
              args=["model", "probe", SHIPPED_MODEL, "--layer", "4", "--text-file", os.path.join(REPO, "web", "tune", "en.txt")],
              what="bad layer")
check_refusal("model probe", "no text", "", "expected one of --text and --text-file",
              args=["model", "probe", SHIPPED_MODEL], what="no text")
check_refusal("model probe", "a missing file", "", "--text-file",
              args=["model", "probe", SHIPPED_MODEL, "--text-file", "/nonexistent/file.txt"], what="bad file")
finish()
