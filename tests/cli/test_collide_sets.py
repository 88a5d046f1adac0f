#!/usr/bin/env python3
"""`attnlab collide` and `attnlab trace` judge each normalizer in the set its weights live in
(softmax ... hardmax: the simplex; sigmoid: the box [0, 1]^n; none: all of R^n) and only over
the keys the query can see; checked against an independent LP (scipy.optimize.linprog, HiGHS).

usage: test_collide_sets.py ATTNLAB FIXTURES_DIR
"""
import json

import numpy as np
from scipy.optimize import linprog

from common import check, check_refusal, finish, run

# ============================================================================================
# The reference: for values V (n, d) and weights w, the weights with the same output A = Vᵀw
#   simplex  {a >= 0, Σa = 1, Vᵀa = A}    box  {0 <= a <= 1, Vᵀa = A}    affine  {Vᵀa = A}
# and for each coordinate i its min and max over that set (None: unbounded), by linprog.
# ============================================================================================

BOUNDS = {"simplex": (0, None), "box": (0, 1), "affine": (None, None)}


def lp_extreme(V, w, kind, c):
    """max cᵀa over the set, or None when unbounded."""
    n = V.shape[0]
    A_eq, b_eq = V.T, V.T @ w
    if kind == "simplex":
        A_eq, b_eq = np.vstack([A_eq, np.ones((1, n))]), np.append(b_eq, w.sum())
    r = linprog(-np.asarray(c, dtype=np.float64), A_eq=A_eq, b_eq=b_eq, bounds=[BOUNDS[kind]] * n,
                method="highs")
    if r.status == 3:
        return None
    assert r.status == 0, r.message
    return -r.fun


def lp_ranges(V, w, kind):
    n = V.shape[0]
    out = []
    for i in range(n):
        e = np.zeros(n)
        e[i] = 1
        hi = lp_extreme(V, w, kind, e)
        lo = lp_extreme(V, w, kind, -e)
        out.append([None if lo is None else -lo, hi])
    return out


def ranges_agree(got, want, tol=1e-7):
    for (g0, g1), (w0, w1) in zip(got, want):
        for g, x in ((g0, w0), (g1, w1)):
            if (g is None) != (x is None) or (g is not None and abs(g - x) > tol):
                return False
    return len(got) == len(want)


def run_collide(inp):
    code, out, err = run(["collide"], stdin=json.dumps(inp))
    return code, (json.loads(out) if code == 0 else None), err


# --- collide: the "normalizer" field picks the set ------------------------------------------
rng = np.random.default_rng(10)
worst = {"box": 0.0, "affine": 0.0}
problems = {"box": [], "affine": []}
for case in range(40):
    n, d = int(rng.integers(2, 7)), int(rng.integers(1, 4))
    V = np.round(rng.normal(size=(n, d)), 3)
    for normalizer, kind in (("sigmoid", "box"), ("none", "affine")):
        w = np.round(rng.uniform(0.05, 0.95, n) if kind == "box" else rng.normal(size=n), 3)
        t = int(rng.integers(0, n))
        inp = {"values": V.tolist(), "weights": w.tolist(), "target": t, "normalizer": normalizer}
        code, out, err = run_collide(inp)
        if code != 0:
            problems[kind].append(f"case {case}: exit {code}: {err}")
            continue
        p = problems[kind]
        rank = int(np.linalg.matrix_rank(V.T, tol=1e-9))
        w2 = np.array(out["weights2"], dtype=np.float64)
        if out.get("feasibleSet") != kind:
            p.append(f"case {case}: feasibleSet {out.get('feasibleSet')}")
        if out.get("linearRank") != rank or out["recoverable"] != (rank == n) or out["sameOutputDim"] != n - rank:
            p.append(f"case {case}: rank {out['linearRank']}/{out['recoverable']}/{out['sameOutputDim']}, numpy {rank}")
        if np.max(np.abs(V.T @ w2 - V.T @ w)) > 1e-9:
            p.append(f"case {case}: Vᵀweights2 != Vᵀweights")
        want = lp_ranges(V, w, kind)
        if not ranges_agree(out["ranges"], want):
            p.append(f"case {case}: ranges {out['ranges']}, linprog {want}")
        if kind == "box":
            best = lp_extreme(V, w, kind, np.eye(n)[t])
            worst[kind] = max(worst[kind], abs(w2[t] - best))
            if abs(w2[t] - best) > 1e-7 or w2.min() < -1e-12 or w2.max() > 1 + 1e-12:
                p.append(f"case {case}: weights2 {w2.tolist()}, linprog max on {t}: {best}")
        else:
            free = want[t][1] is None
            if free != (abs(w2[t] - w[t] - 1) < 1e-9) or (not free and list(w2) != list(w)):
                p.append(f"case {case}: weights2 {w2.tolist()} vs weights {w.tolist()} (target {t} free: {free})")
        if out["unique"] != all(r[0] is not None and r[1] is not None and r[1] - r[0] < 1e-9 for r in want):
            p.append(f"case {case}: unique {out['unique']}")
check("collide normalizer sigmoid: 40 random cases agree with linprog over the box "
      f"(ranges, the most on the target; worst {worst['box']:.1e})", not problems["box"], problems["box"][:3])
check("collide normalizer none: 40 random cases agree with linprog over Vᵀa = A "
      "(unbounded ranges as null, determined ones exact)", not problems["affine"], problems["affine"][:3])

# By hand: v = (1), (2), w = (1/2, 1/2): a_0 + 2 a_1 = 3/2.
code, out, err = run_collide({"values": [[1], [2]], "weights": [0.5, 0.5], "target": 0, "normalizer": "sigmoid"})
check("collide sigmoid by hand: a_0 + 2 a_1 = 3/2 in the box: a_1 in [1/4, 3/4], weights2 (1, 1/4)",
      code == 0 and out["ranges"] == [[0, 1], [0.25, 0.75]] and out["weights2"] == [1, 0.25]
      and not out["recoverable"] and out.get("feasibleSet") == "box", out or err)
code, out, err = run_collide({"values": [[1], [2]], "weights": [0.5, 0.5], "target": 0})
check("collide without normalizer (softmax's simplex): the same weights are recoverable",
      code == 0 and out["recoverable"] and out.get("feasibleSet") == "simplex" and out["ranges"] == [[0.5, 0.5], [0.5, 0.5]],
      out or err)
code, out, err = run_collide({"values": [[1], [2]], "weights": [-3, 2.25], "target": 0, "normalizer": "none"})
check("collide none by hand: negative weights accepted, ranges unbounded (null), one unit more on the target",
      code == 0 and out["ranges"] == [[None, None], [None, None]] and np.allclose(out["weights2"], [-2, 1.75])
      and out.get("feasibleSet") == "affine", out or err)
for nz in ("softmax", "sparsemax", "relunorm", "hardmax"):
    code, out, err = run_collide({"values": [[0], [1], [2]], "weights": [0, 1, 0], "target": 2, "normalizer": nz})
    check(f"collide normalizer {nz}: the simplex (the line's answer)",
          code == 0 and out.get("feasibleSet") == "simplex" and out["weights2"] == [0.5, 0, 0.5], out or err)

BASE = {"values": [[0], [1], [2]], "weights": [0.2, 0.3, 0.4], "target": 0}
for name, inp, word in [
    ("normalizer unknown", {**BASE, "normalizer": "softmaxx"}, "normalizer"),
    ("normalizer a number", {**BASE, "normalizer": 1}, "normalizer"),
    ("sigmoid weight above 1", {**BASE, "weights": [0.2, 1.5, 0.4], "normalizer": "sigmoid"}, "weights[1]"),
    ("sigmoid weight below 0", {**BASE, "weights": [0.2, -0.5, 0.4], "normalizer": "sigmoid"}, "weights[1]"),
    ("softmax weights not summing to 1", {**BASE, "normalizer": "softmax"}, "sum"),
]:
    check_refusal("collide", name, inp, word)

# --- trace: the lab's information block, over the visible keys, in the normalizer's set ------


def trace(state):
    code, out, err = run(["trace"], stdin=json.dumps(state))
    assert code == 0, err
    return json.loads(out)


def lab_problems(state, kind):
    t = trace(state)
    info = t["information"]
    q = t["steps"]["query"]
    V = np.array(t["V"], dtype=np.float64)
    w = np.array(t["weights"][q], dtype=np.float64)
    visible = [j for j, ok in enumerate(t["mask"][q]) if ok]
    p = []
    if info.get("feasibleSet") != kind:
        p.append(f"feasibleSet {info.get('feasibleSet')}")
    if info.get("visible") != visible:
        p.append(f"visible {info.get('visible')}, mask {visible}")
    if info["target"] not in visible:
        p.append(f"target {info['target']} is masked")
    want = lp_ranges(V[visible], w[visible], kind)
    got = [info["ranges"][j] for j in visible]
    if not ranges_agree(got, want, tol=1e-6):
        p.append(f"ranges {got}, linprog over the visible keys {want}")
    for j in range(len(w)):
        if j not in visible and (info["ranges"][j] != [0, 0] or info["alternative"][j] != 0):
            p.append(f"masked key {j}: range {info['ranges'][j]}, alternative {info['alternative'][j]}")
    rank = int(np.linalg.matrix_rank(V[visible].T if kind != "simplex"
                                     else np.vstack([V[visible].T, np.ones((1, len(visible)))]), tol=1e-9))
    if info["recoverable"] != (rank == len(visible)):
        p.append(f"recoverable {info['recoverable']}, rank {rank} over {len(visible)} visible keys")
    return p


seed = {"sentence": "я очень люблю суши и чай", "query": 2, "causal": True, "dV": 2}
p = lab_problems(seed, "simplex")
check("trace: «люблю» under a causal mask, d_v = 2: ranges over the 3 visible keys as linprog's, "
      "masked keys [0, 0], recoverable", not p and trace(seed)["information"]["recoverable"], p)
p = lab_problems({**seed, "dV": 1, "target": 5}, "simplex")
check("trace: causal, d_v = 1, a masked target: the target moves to a visible key; ranges as linprog's", not p, p)
check("trace: a masked explicit target is reported as moved",
      trace({**seed, "target": 5})["information"].get("targetMoved") is True)
p = lab_problems({"normalizer": "sigmoid", "dV": 2}, "box")
check("trace: sigmoid, d_v = 2: the box, ranges as linprog's, not recoverable", not p, p)
p = lab_problems({"normalizer": "sigmoid", "dV": 2, "sentence": "я очень люблю суши и чай", "query": 3,
                  "causal": True}, "box")
check("trace: sigmoid and causal together: the box over the visible keys", not p, p)
p = lab_problems({"normalizer": "none", "dV": 2}, "affine")
check("trace: none, d_v = 2: unbounded ranges (null) where linprog finds no bound", not p, p)

finish()
