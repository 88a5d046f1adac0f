#!/usr/bin/env python3
"""`attnlab trace STATE.json`: the lab's trace agrees with the numpy reference of attention, built
with the settings of the state the test gave (the lab's defaults for the rest), never with the
settings the trace reports; bad states are refused as every command refuses bad input.

usage: test_trace.py ATTNLAB FIXTURES_DIR   (FIXTURES_DIR/*.json: lab states)
"""
import json
import math
import os
import tempfile

import numpy as np

from common import FIXTURES, check, check_refusal, finish, max_rel_err, ref_forward, run

# The lab's defaults (engine/lab/lab.h, LabConfig) for the settings the reference reads: a state
# that leaves one out gets this value.
LAB_DEFAULTS = {"query": 1, "projection": "identity", "temperature": 1.0, "scaled": True, "dModel": 8,
                "dK": 8, "normalizer": "softmax", "causal": False}


def settings_of(state):
    return {**LAB_DEFAULTS, **state}


def reference(trace, state, scale_factor=1.0):
    """Attention of the trace's X through its projections (what the engine embedded), with the
    settings of `state`: d_k is the width of the queries (dModel for the identity projection,
    dK for the random one), scale 1/sqrt(d_k) when scaled. scale_factor != 1 gives a wrong
    reference, to show that the comparison can fail."""
    s = settings_of(state)
    X = np.array(trace["X"], dtype=np.float64)
    WQ, WK, WV = (np.array(trace[k], dtype=np.float64) for k in ("W_Q", "W_K", "W_V"))
    Q, K, V = X @ WQ, X @ WK, X @ WV
    d_k = s["dModel"] if s["projection"] == "identity" else s["dK"]
    scale = (1.0 / math.sqrt(d_k) if s["scaled"] else 1.0) * scale_factor
    f = ref_forward({"q": Q.tolist(), "k": K.tolist(), "v": V.tolist(), "scale": scale,
                     "temperature": s["temperature"], "normalizer": s["normalizer"], "causal": s["causal"]})
    return {"Q": Q, "K": K, "V": V, "weights": f["weights"][0], "output": f["output"][0], "d_k": d_k}


for fixture in sorted(os.listdir(FIXTURES)):
    path = os.path.join(FIXTURES, fixture)
    if not os.path.isfile(path):  # forward/, collide/, train/: the other commands' inputs
        continue
    with open(path) as f:
        state = json.load(f)
    code, out, err = run(["trace", path])
    check(f"trace {fixture}: exit 0", code == 0, err)
    if code != 0:
        continue
    trace = json.loads(out)
    ref = reference(trace, state)
    X, WQ = np.array(trace["X"]), np.array(trace["W_Q"])
    d_model = settings_of(state)["dModel"]
    check(f"trace {fixture}: X is n×dModel and W_Q dModel×d_k, as the state asks",
          X.shape == (len(trace["tokens"]), d_model) and WQ.shape == (d_model, ref["d_k"]), (X.shape, WQ.shape))
    for key in ("Q", "K", "V", "weights", "output"):
        e = max_rel_err(trace[key], ref[key])
        check(f"trace {fixture}: {key} matches numpy (max rel err {e:.2e})", e <= 1e-5, f"{e:.3e}")
    wrong = max_rel_err(trace["weights"], reference(trace, state, scale_factor=2.0)["weights"])
    check(f"trace {fixture}: the reference with twice the scale does not match (max rel err {wrong:.1e}): "
          f"the comparison can fail", wrong > 1e-3, f"{wrong:.3e}")
    rows = np.array(trace["weights"]).sum(axis=1)
    check(f"trace {fixture}: weight rows sum to 1", np.allclose(rows, 1.0, atol=1e-6), rows)
    q = settings_of(state)["query"]
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

# Bad input, from a file: exit code 2, one line on stderr naming the field, nothing on stdout.
bad = [
    # (name, the file's bytes, a word the message must contain)
    ("malformed JSON", b'{"sentence": ', "JSON"),
    ("not an object", b"[1, 2, 3]", "object"),
    ("empty sentence", b'{"sentence": ""}', '"sentence"'),
    ("negative temperature", b'{"temperature": -2}', '"temperature"'),
    ("temperature as a string", b'{"temperature": "warm"}', '"temperature"'),
    ("dModel out of range", b'{"dModel": 1000}', '"dModel"'),
    ("query out of range", b'{"query": 9}', '"query"'),
    ("unknown field", b'{"colour": 1}', '"colour"'),
    ("500 words", json.dumps({"sentence": "word " * 500}).encode(), '"sentence"'),
    ("invalid UTF-8", b'{"sentence": "\xff\xfe"}', "JSON"),
]
for name, data, word in bad:
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as f:
        f.write(data)
    check_refusal("trace", name, b"", word, args=["trace", f.name])
    os.unlink(f.name)
code, out, err = run(["trace", "/nonexistent/state.json"])
check("missing file: exit 2", code == 2 and out == "", err)

finish()
