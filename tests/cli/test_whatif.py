#!/usr/bin/env python3
"""`attnlab trace` and `attnlab trace --compare` for issue 23 ("what if, and what mattered"):
every trace carries the query's contributions (weight, ||alpha_i v_i||, ||alpha_i v_i W_O[h]||,
the removal effect ||A - A_-i||), which agree with numpy and with a second run that knocks key i
out; --compare gives the plain and the edited runs and their difference; bad edits are refused.

usage: test_whatif.py ATTNLAB FIXTURES_DIR
"""
import json

import numpy as np

from common import SHIPPED_MODEL, check, check_refusal, finish, model, ref_forward, run


def trace(state, *flags):
    code, out, err = run(["trace", "-", *flags], stdin=json.dumps(state))
    check(f"trace {json.dumps(state, ensure_ascii=False)} {' '.join(flags)}: exit 0", code == 0, err)
    return json.loads(out) if code == 0 else None


# ---- weight against contribution, against numpy and against a knock-out run ---------------------
for state in ({}, {"projection": "random", "heads": 2, "head": 1, "dV": 4, "sentence": "the cat sat on the mat", "query": 2},
              {"normalizer": "sparsemax", "causal": True, "sentence": "a b c d e", "query": 3}):
    t = trace(state)
    if t is None:
        continue
    q = t["steps"]["query"]
    V = np.array(t["V"], dtype=np.float64)
    alpha = np.array(t["weights"][q], dtype=np.float64)
    A = np.array(t["output"][q], dtype=np.float64)
    c = t["contribution"]
    keys = c["keys"]
    check(f"{state}: one contribution per key", len(keys) == len(t["tokens"]) and c["query"] == q)
    vn = np.array([k["valueNorm"] for k in keys])
    check(f"{state}: valueNorm is ||alpha_i v_i|| (numpy)",
          np.allclose(vn, np.abs(alpha) * np.linalg.norm(V, axis=1), rtol=1e-5, atol=1e-7), vn)
    dv = V.shape[1]
    h = t["config"]["head"]
    WO = np.array(t["W_O"], dtype=np.float64)[h * dv:(h + 1) * dv]
    rn = np.array([k["residualNorm"] for k in keys])
    ref_rn = np.linalg.norm((alpha[:, None] * V) @ WO, axis=1)
    check(f"{state}: residualNorm is ||alpha_i v_i W_O[h]|| (numpy)", np.allclose(rn, ref_rn, rtol=1e-5, atol=1e-7),
          (rn, ref_rn))
    for i, k in enumerate(keys):
        knocked = trace({**state, "knockoutKeys": str(i)})
        if knocked is None:
            continue
        a_without = np.array(knocked["output"][q], dtype=np.float64)
        check(f"{state}: key {i}: outputWithout is the knock-out run's A, to the bit",
              k["outputWithout"] == knocked["output"][q], (k["outputWithout"], knocked["output"][q]))
        check(f"{state}: key {i}: removal = ||A - A_-i|| of the two runs",
              abs(k["removal"] - float(np.linalg.norm(A - a_without))) <= 1e-6 * (1 + k["removal"]))
        check(f"{state}: key {i}: the knock-out run says which key it masked",
              knocked["edits"]["edited"] and knocked["edits"]["knockedKeys"] == [i])
    # numpy's renormalization for softmax: A_-i from the other keys' scores
    if t["config"]["normalizer"] == "softmax" and not t["config"]["causal"]:
        for i, k in enumerate(keys):
            keep = [j for j in range(len(keys)) if j != i]
            f = ref_forward({"q": [t["Q"][q]], "k": [t["K"][j] for j in keep], "v": [t["V"][j] for j in keep],
                             "scale": t["config"]["scale"], "temperature": t["config"]["temperature"],
                             "normalizer": "softmax", "causal": False})
            ref = np.array(f["output"][0][0])
            check(f"{state}: key {i}: A_-i agrees with numpy", np.allclose(k["outputWithout"], ref, rtol=1e-5, atol=1e-6))

# ---- knocking out every key but one: A is that key's value ----------------------------------------
t = trace({"knockoutKeys": "0,2"})
if t:
    check("knock out all but key 1: A = v_1", t["output"][1] == t["V"][1])

# ---- --compare ---------------------------------------------------------------------------------
c = trace({"whatIfToken": 2, "whatIfWith": "рис"}, "--compare")
if c:
    check("compare: the plain run is the typed sentence", c["plain"]["tokens"] == ["я", "люблю", "суши"])
    check("compare: the edited run has the replacement", c["edited"]["tokens"] == ["я", "люблю", "рис"])
    d = np.array(c["comparison"]["dWeights"][0])
    ref = np.array(c["edited"]["weights"]) - np.array(c["plain"]["weights"])
    check("compare: dWeights = edited weights - plain weights (aligned)", np.allclose(d, ref, atol=1e-7))
    check("compare: dOutput = edited A - plain A of the query",
          np.allclose(c["comparison"]["dOutput"],
                      np.array(c["edited"]["output"][1]) - np.array(c["plain"]["output"][1]), atol=1e-7))
    check("compare: the verdicts of both runs are given",
          set(c["comparison"]["verdict"]) == {"plain", "edited", "changed"})
c = trace({"whatIfToken": 0}, "--compare")
if c:
    check("compare, delete: alignment", c["comparison"]["toEdited"] == [-1, 0, 1]
          and c["comparison"]["queryEdited"] == 0 and c["edited"]["steps"]["token"] == "люблю")
c = trace({"dModel": 2, "dV": 2, "whatIfToken": 2, "whatIfMode": "insert", "whatIfWith": "очень"}, "--compare")
if c:
    v = c["comparison"]["verdict"]
    check("compare, insert a 4th word in d = 2: the verdict changes (recoverable -> not)",
          v["plain"]["recoverable"] and not v["edited"]["recoverable"] and v["changed"], v)
c = trace({"positional": False, "shuffle": "reverse", "projection": "random"}, "--compare")
if c:
    check("compare, shuffle without positions: weights permute (float rounding only)",
          c["comparison"]["maxAbsDWeight"] < 1e-6, c["comparison"]["maxAbsDWeight"])
c = trace({"shuffle": "reverse", "projection": "random"}, "--compare")
if c:
    check("compare, shuffle with positions: weights change", c["comparison"]["maxAbsDWeight"] > 1e-3)
c = trace({"valueToken": 0, "valueA": 0.5, "valueB": -0.25}, "--compare")
if c:
    e = c["edited"]["edits"]
    check("compare, value edit: the trace says the value was edited", e["edited"] and e["valueToken"] == 0
          and len(e["valueOffset"]) == 8)
    check("compare, value edit: the weights are unchanged", c["comparison"]["maxAbsDWeight"] == 0)
    p0, p1 = np.array(c["plain"]["vectors"]["points"][0]), np.array(c["edited"]["vectors"]["points"][0])
    check("compare, value edit: the dragged point moved by (a, b) in the view", np.allclose(p1 - p0, [0.5, -0.25], atol=1e-5),
          p1 - p0)

# ---- the state round-trips the new fields; plain traces say they are not edited -------------------
t = trace({})
if t:
    check("a plain trace: edits.edited is false", t["edits"]["edited"] is False)
    check("a plain trace: the state shows the edit fields at their defaults",
          t["state"]["whatIfToken"] == -1 and t["state"]["knockoutKeys"] == "" and t["state"]["shuffle"] == "off")

# ---- model mode: attnlab model contributions ------------------------------------------------------
code, out, err = model("contributions", SHIPPED_MODEL, "--text", "I love sushi", "--layer", "1", "--head", "2")
check("model contributions: exit 0", code == 0, err)
if code == 0:
    m = json.loads(out)
    n = len(m["tokens"])
    keys = m["contribution"]["keys"]
    check("model contributions: one row per token, the last token is the query",
          len(keys) == n and m["query"] == n - 1 and len(m["next"]["delta"]) == n)
    w = np.array([k["weight"] for k in keys])
    check("model contributions: the weights are a causal softmax row (sum 1)", abs(w.sum() - 1) < 1e-5, w.sum())
    d = np.array(m["next"]["delta"])
    check("model contributions: delta = logpWithout - logp",
          np.allclose(d, np.array(m["next"]["logpWithout"]) - m["next"]["logp"], atol=0))
    check("model contributions: some key moves the prediction", np.abs(d).max() > 0)
check_refusal("model contributions", "head out of range", b"", '"head"',
              args=["model", "contributions", SHIPPED_MODEL, "--text", "hi", "--head", "9"])

# ---- refusals -----------------------------------------------------------------------------------
bad = [
    ("whatIfToken out of range", {"whatIfToken": 3}, '"whatIfToken"'),
    ("insert nothing", {"whatIfToken": 0, "whatIfMode": "insert"}, '"whatIfWith"'),
    ("two words", {"whatIfToken": 0, "whatIfWith": "two words"}, '"whatIfWith"'),
    ("a word over the limits", {"whatIfToken": 0, "whatIfWith": "a" * 5000}, '"whatIfWith"'),
    ("delete the query", {"whatIfToken": 1}, '"whatIfToken"'),
    ("knockoutKeys out of range", {"knockoutKeys": "0,9"}, '"knockoutKeys"'),
    ("knockoutKeys as a list", {"knockoutKeys": [0, 1]}, '"knockoutKeys"'),
    ("knockoutHeads of a missing head", {"knockoutHeads": "0:4"}, '"knockoutHeads"'),
    ("valueToken out of range", {"valueToken": 7}, '"valueToken"'),
    ("valueA too large", {"valueA": 1e9}, '"valueA"'),
    ("valueB as a string", {"valueB": "NaN"}, '"valueB"'),
    ("shuffle unknown", {"shuffle": "random"}, '"shuffle"'),
]
for name, state, word in bad:
    for flags in ([], ["--compare"]):
        check_refusal("trace", name + (" --compare" if flags else ""), json.dumps(state).encode(), word,
                      args=["trace", "-", *flags])

finish()
