#!/usr/bin/env python3
"""The `attnlab` command-line tool as a user runs it: traces agree with an independent numpy
implementation of the same conventions, and bad input gets exit code 2 and one line on stderr.

usage: test_cli.py ATTNLAB FIXTURES_DIR
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

ATTNLAB, FIXTURES = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok - {name}")
    else:
        failed += 1
        print(f"not ok - {name}: {detail}")


def run(args, stdin=None):
    p = subprocess.run([ATTNLAB, *args], input=stdin, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def reference(trace):
    """Attention from the trace's X and projections, in double, with loops over keys."""
    X = np.array(trace["X"], dtype=np.float64)
    WQ, WK, WV = (np.array(trace[k], dtype=np.float64) for k in ("W_Q", "W_K", "W_V"))
    cfg = trace["config"]
    Q, K, V = X @ WQ, X @ WK, X @ WV
    n = X.shape[0]
    scale = 1.0 / math.sqrt(cfg["dK"]) if cfg["scaled"] else 1.0
    weights = np.zeros((n, n))
    for i in range(n):
        s = [float(Q[i] @ K[j]) * scale / cfg["temperature"] for j in range(n)]
        m = max(s)
        e = [math.exp(x - m) for x in s]
        weights[i] = [x / sum(e) for x in e]
    return {"Q": Q, "K": K, "V": V, "weights": weights, "output": weights @ V}


def max_rel_err(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b))))


for fixture in sorted(os.listdir(FIXTURES)):
    path = os.path.join(FIXTURES, fixture)
    code, out, err = run(["trace", path])
    check(f"trace {fixture}: exit 0", code == 0, err)
    if code != 0:
        continue
    trace = json.loads(out)
    ref = reference(trace)
    for key in ("Q", "K", "V", "weights", "output"):
        e = max_rel_err(trace[key], ref[key])
        check(f"trace {fixture}: {key} matches numpy (max rel err {e:.2e})", e <= 1e-5, f"{e:.3e}")
    rows = np.array(trace["weights"]).sum(axis=1)
    check(f"trace {fixture}: weight rows sum to 1", np.allclose(rows, 1.0, atol=1e-6), rows)
    q = trace["steps"]["query"]
    check(f"trace {fixture}: step table is the query's row",
          [r["weight"] for r in trace["steps"]["rows"]] == trace["weights"][q])
    # The same state through stdin gives the same bytes.
    with open(path) as f:
        code2, out2, _ = run(["trace", "-"], stdin=f.read())
    check(f"trace {fixture}: stdin gives the same output", code2 == 0 and out2 == out)

# The seed example, by hand: identity projections, so the query's scores are x_1 . x_j.
code, out, _ = run(["trace", os.path.join(FIXTURES, "seed.json")])
t = json.loads(out)
check("seed: tokens are я люблю суши", t["tokens"] == ["я", "люблю", "суши"], t["tokens"])
X = np.array(t["X"])
check("seed: identity scores are x_1 . x_j", max_rel_err(t["scores"][1], X @ X[1]) < 1e-5)

# Bad input: exit code 2, one line on stderr, nothing on stdout.
bad = {
    "malformed JSON": "{\"sentence\": ",
    "not an object": "[1, 2, 3]",
    "empty sentence": "{\"sentence\": \"\"}",
    "negative temperature": "{\"temperature\": -2}",
    "temperature as a string": "{\"temperature\": \"warm\"}",
    "dModel out of range": "{\"dModel\": 1000}",
    "query out of range": "{\"query\": 9}",
    "unknown field": "{\"colour\": 1}",
    "500 words": json.dumps({"sentence": "word " * 500}),
    "invalid UTF-8": b'{"sentence": "\xff\xfe"}'.decode("latin-1"),
}
for name, text in bad.items():
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as f:
        f.write(text.encode("latin-1") if name == "invalid UTF-8" else text.encode())
    code, out, err = run(["trace", f.name])
    os.unlink(f.name)
    lines = err.strip().splitlines()
    check(f"bad input ({name}): exit 2, one line, no stdout",
          code == 2 and out == "" and len(lines) == 1, f"code={code} out={out[:80]!r} err={err!r}")
code, out, err = run(["trace", "/nonexistent/state.json"])
check("missing file: exit 2", code == 2 and out == "", err)
code, out, err = run(["frobnicate"])
check("unknown command: exit 2", code == 2 and out == "", err)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
