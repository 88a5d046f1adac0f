#!/usr/bin/env python3
"""`attnlab collide IN.json`: a second attention pattern with the same output, checked against
hand-solved cases, numpy and brute force over the vertices of the polytope of weights; bad input
refused in the one shape.

usage: test_collide.py ATTNLAB FIXTURES_DIR
  FIXTURES_DIR/collide/*.json  values, weights and a target, each solved by hand
  FIXTURES_DIR/seed.json       the lab's seed state (its values and weights, through `trace`)
"""
import itertools
import json
import os

import numpy as np

from common import FIXTURES, check, check_refusal, finish, run

# ============================================================================================
# `attnlab collide`: a second pattern α' >= 0 with the same output Vᵀα' = Vᵀα (and the same
# sum) that puts the most weight on a target token, the range of each weight over all such α',
# and the affine rank of the values. Checked against hand-solved cases, against numpy
# (ranks, outputs) and against brute force over every vertex of the polytope
#     P = {a >= 0 : [Vᵀ; 1ᵀ] a = [Vᵀ; 1ᵀ] α}
# (an optimum of a linear function over P is attained at a vertex, and every vertex is a basic
# feasible solution: |S| = rank columns of [Vᵀ; 1ᵀ], independent, solved exactly, >= 0).
# ============================================================================================

COLLIDE_KEYS = ["weights2", "output", "output2", "ranges", "affineRank", "recoverable",
                "sameOutputDim", "unique", "top", "maxOutputDiff", "feasibleSet", "linearRank"]


def run_collide(inp):
    code, out, err = run(["collide"], stdin=inp if isinstance(inp, str) else json.dumps(inp))
    return code, (json.loads(out) if code == 0 else None), err


def vertices(V, w):
    """Every vertex of P, (k, n), by enumerating bases of [Vᵀ; 1ᵀ]."""
    n = V.shape[0]
    M = np.vstack([V.T, np.ones((1, n))])  # (d + 1, n)
    b = M @ w
    rho = np.linalg.matrix_rank(M)
    found = []
    for S in itertools.combinations(range(n), rho):
        MS = M[:, S]
        if np.linalg.matrix_rank(MS) < rho:
            continue
        x = np.linalg.lstsq(MS, b, rcond=None)[0]
        if np.max(np.abs(MS @ x - b)) > 1e-9 * (1 + np.max(np.abs(b))) or np.min(x) < -1e-9:
            continue
        a = np.zeros(n)
        a[list(S)] = np.maximum(x, 0.0)
        found.append(a)
    return np.array(found)


def collide_problems(inp, out, brute_force):
    """Every property of one answer that fails, as text (empty = all hold)."""
    V = np.array(inp["values"], dtype=np.float64)
    w = np.array(inp["weights"], dtype=np.float64)
    t, minimize_top = inp["target"], inp.get("minimizeTop", False)
    n, d = V.shape
    p = []
    if sorted(out) != sorted(COLLIDE_KEYS):
        return [f"fields {sorted(out)}"]
    w2, A, A2 = (np.array(out[k], dtype=np.float64) for k in ("weights2", "output", "output2"))
    R = np.array(out["ranges"], dtype=np.float64)
    if w2.shape != (n,) or A.shape != (d,) or A2.shape != (d,) or R.shape != (n, 2):
        return [f"shapes {w2.shape} {A.shape} {A2.shape} {R.shape}"]
    scale = max(1.0, float(np.max(np.abs(V))))
    if np.min(w2) < -1e-9:
        p.append(f"weights2 has {np.min(w2)} < 0")
    if abs(w2.sum() - w.sum()) > 1e-9:
        p.append(f"weights2 sums to {w2.sum()!r}, weights to {w.sum()!r}")
    if np.max(np.abs(A - V.T @ w)) > 1e-9 * scale:
        p.append(f"output != valuesᵀ weights by {np.max(np.abs(A - V.T @ w)):.1e}")
    if np.max(np.abs(A2 - V.T @ w2)) > 1e-9 * scale:
        p.append(f"output2 != valuesᵀ weights2 by {np.max(np.abs(A2 - V.T @ w2)):.1e}")
    if np.max(np.abs(A2 - A)) > 1e-9 * scale:
        p.append(f"output2 != output by {np.max(np.abs(A2 - A)):.1e}")
    if out["maxOutputDiff"] != float(np.max(np.abs(A - A2))):
        p.append(f"maxOutputDiff {out['maxOutputDiff']} != max|output - output2|")
    if np.any(R[:, 0] > w + 1e-9) or np.any(R[:, 1] < w - 1e-9) or np.any(R[:, 0] > R[:, 1]):
        p.append("ranges do not bracket the weights")
    if np.any(R[:, 0] > w2 + 1e-9) or np.any(R[:, 1] < w2 - 1e-9):
        p.append("ranges do not bracket weights2")
    rank_M = np.linalg.matrix_rank(np.vstack([V.T, np.ones((1, n))]))
    if out["recoverable"] != (rank_M == n):
        p.append(f"recoverable {out['recoverable']} but rank [Vᵀ; 1ᵀ] = {rank_M}, n = {n}")
    D = V - V[0]
    sv = np.linalg.svd(D, compute_uv=False) if n > 1 else np.zeros(1)
    affine = int(np.sum(sv > 1e-9 * sv.max())) if sv.max() > 0 else 0
    if out["affineRank"] != affine:
        p.append(f"affineRank {out['affineRank']}, numpy {affine}")
    if out["sameOutputDim"] != n - 1 - out["affineRank"]:
        p.append(f"sameOutputDim {out['sameOutputDim']} != n - 1 - affineRank")
    if out["top"] != int(np.argmax(w)):
        p.append(f"top {out['top']}, numpy argmax {int(np.argmax(w))}")
    if w2[t] < w[t] - 1e-12:
        p.append(f"weights2[target] = {w2[t]} < weights[target] = {w[t]}")
    if out["recoverable"] and (not out["unique"] or list(w2) != list(w)):
        p.append("recoverable but weights2 != weights or not unique")
    if brute_force:
        X = vertices(V, w)
        if len(X) == 0:
            return p + ["brute force found no vertex"]
        best = X[:, t].max()
        if abs(w2[t] - best) > 1e-9:
            p.append(f"weights2[target] = {w2[t]!r}, brute-force maximum {best!r}")
        lo, hi = X.min(axis=0), X.max(axis=0)
        if np.max(np.abs(R[:, 0] - lo)) > 1e-9 or np.max(np.abs(R[:, 1] - hi)) > 1e-9:
            p.append(f"ranges {R.tolist()} != brute force {np.stack([lo, hi], 1).tolist()}")
        single = bool(np.max(hi - lo) <= 1e-9)
        if out["unique"] != single:
            p.append(f"unique {out['unique']} but the vertices span {np.max(hi - lo):.1e}")
        if not minimize_top and best <= w[t] + 1e-12 and list(w2) != list(w):
            p.append("weights already had the most on the target, yet weights2 != weights")
        top = int(np.argmax(w))
        if minimize_top and top != t:
            face = X[X[:, t] >= best - 1e-9]
            if abs(w2[top] - face[:, top].min()) > 1e-9:
                p.append(f"minimizeTop: weights2[top] = {w2[top]!r}, brute force {face[:, top].min()!r}")
    return p


# --- hand-solved cases, from the fixtures tests/cli/fixtures/collide/ -----------------------
COLLIDE_FIXTURES = os.path.join(FIXTURES, "collide")
hand = {
    # three tokens on a line: all weight on the middle = half on each end
    "line.json": {"weights2": [0.5, 0, 0.5], "output": [1], "output2": [1],
                  "ranges": [[0, 0.5], [0, 1], [0, 0.5]], "affineRank": 1, "recoverable": False,
                  "sameOutputDim": 1, "unique": False, "top": 1},
    # a triangle in 2-D: the weights are barycentric coordinates, read back exactly
    "triangle.json": {"weights2": [0.2, 0.3, 0.5], "output": [0.3, 0.5], "output2": [0.3, 0.5],
                      "ranges": [[0.2, 0.2], [0.3, 0.3], [0.5, 0.5]], "affineRank": 2,
                      "recoverable": True, "sameOutputDim": 0, "unique": True, "top": 2},
    # two identical tokens: only their total (0.7) is known
    "twins.json": {"weights2": [0, 0.7, 0.3], "output": [1.6, 1.4], "output2": [1.6, 1.4],
                   "ranges": [[0, 0.7], [0, 0.7], [0.3, 0.3]], "affineRank": 1, "recoverable": False,
                   "sameOutputDim": 1, "unique": False, "top": 0},
    # (1, 1) is the middle of (2, 0) and (0, 2): token 0's 0.2 is already its most, and
    # minimizeTop moves the top token's 0.6 onto tokens 1 and 2
    "face_minimize_top.json": {"weights2": [0.2, 0.4, 0.4, 0], "output": [0.8, 0.8], "output2": [0.8, 0.8],
                               "ranges": [[0.2, 0.2], [0, 0.4], [0, 0.4], [0, 0.8]], "affineRank": 2,
                               "recoverable": False, "sameOutputDim": 1, "unique": False, "top": 3},
}
for fixture in sorted(os.listdir(COLLIDE_FIXTURES)):
    path = os.path.join(COLLIDE_FIXTURES, fixture)
    with open(path) as f:
        inp = json.load(f)
    code, out, err = run(["collide", path])
    if code != 0:
        check(f"collide {fixture}: exit 0", False, err)
        continue
    out = json.loads(out)
    problems = collide_problems(inp, out, brute_force=True)
    want = hand.get(fixture, {})
    for key, value in want.items():  # integers and booleans exactly, numbers to 1e-12
        if isinstance(value, list):
            same = np.shape(out[key]) == np.shape(value) and np.allclose(out[key], value, rtol=0, atol=1e-12)
        else:
            same = out[key] == value and type(out[key]) is type(value)
        if not same:
            problems.append(f"{key} = {out[key]}, by hand {value}")
    check(f"collide {fixture}: as solved by hand and by brute force", not problems and fixture in hand,
          problems[:3] or "no hand-solved answer in the test")
    with open(path) as f:
        code2, out2, _ = run(["collide", "-"], stdin=f.read())
    check(f"collide {fixture}: stdin gives the same output", code2 == 0 and json.loads(out2) == out)

# Without minimizeTop, weights that already put the most on the target come back unchanged.
with open(os.path.join(COLLIDE_FIXTURES, "face_minimize_top.json")) as f:
    face = json.load(f)
code, out, err = run_collide({**face, "minimizeTop": False})
check("collide: weights already optimal for the target come back as they are (no minimizeTop)",
      code == 0 and out["weights2"] == face["weights"], err or out)

# Recoverable: the weights come back bit for bit, each range is the single point [w, w].
code, out, err = run_collide({"values": [[0, 0], [1, 0], [0, 1]], "weights": [0.1, 0.2, 0.7], "target": 1})
check("collide: affinely independent values: weights2 == weights and ranges are points, exactly",
      code == 0 and out["weights2"] == [0.1, 0.2, 0.7] and out["ranges"] == [[0.1, 0.1], [0.2, 0.2], [0.7, 0.7]], out)

# Degenerate inputs have defined answers: one token, all values equal, all weight on one token.
code, out, err = run_collide({"values": [[3, -1]], "weights": [1], "target": 0})
check("collide: one token: weights2 [1], rank 0, recoverable",
      code == 0 and out["weights2"] == [1] and out["affineRank"] == 0 and out["recoverable"] and out["unique"], out)
code, out, err = run_collide({"values": [[2, 2]] * 4, "weights": [0.1, 0.2, 0.3, 0.4], "target": 0})
check("collide: all values equal: everything can go to the target, every range is [0, 1]",
      code == 0 and out["weights2"] == [1, 0, 0, 0] and out["ranges"] == [[0, 1]] * 4
      and out["affineRank"] == 0 and out["sameOutputDim"] == 3 and not out["unique"], out)
code, out, err = run_collide({"values": [[0], [1], [2], [5]], "weights": [0, 0, 0, 1], "target": 1})
check("collide: all weight on a vertex of the hull: unique although not recoverable",
      code == 0 and out["unique"] and not out["recoverable"] and out["weights2"] == [0, 0, 0, 1], out)
code, out, err = run_collide({"values": [[0], [1], [2]], "weights": [0, 1, 0], "target": 2, "minimizeTop": True})
check("collide: minimizeTop on the line: the middle token loses everything",
      code == 0 and np.allclose(out["weights2"], [0.5, 0, 0.5], rtol=0, atol=1e-12), out)

# The seed's sentence with identity projections (3 tokens, d = 8): nothing is lost; keep one
# dimension of the values and the same output has other patterns.
code, out, _ = run(["trace", os.path.join(FIXTURES, "seed.json")])
seed = json.loads(out)
q = seed["steps"]["query"]
seed_in = {"values": seed["V"], "weights": seed["weights"][q], "target": (q + 1) % len(seed["tokens"])}
s_sum = sum(seed_in["weights"])
code, out, err = run_collide(seed_in)
check("collide on the seed (я люблю суши, d = 8): recoverable, weights2 == weights",
      code == 0 and out["recoverable"] and out["unique"] and out["weights2"] == seed_in["weights"], err or out)
seed_1d = {**seed_in, "values": [[row[0]] for row in seed["V"]]}
code, out, err = run_collide(seed_1d)
check("collide on the seed's values cut to d = 1: not recoverable, more weight on the target",
      code == 0 and not out["recoverable"] and out["weights2"][seed_in["target"]] > seed_in["weights"][seed_in["target"]] + 1e-6
      and not collide_problems(seed_1d, out, brute_force=True), err or out)


# --- random inputs: properties against numpy, optima against brute force --------------------
def random_collide(rng):
    """Values of every kind of degeneracy, weights dense, sparse or one-hot."""
    n, d = int(rng.integers(1, 9)), int(rng.integers(1, 6))
    kind = rng.choice(["gaussian", "gaussian", "low-rank", "duplicates", "collinear", "grid", "shifted"])
    if kind == "gaussian":
        V = rng.normal(size=(n, d))
    elif kind == "low-rank":  # the affine hull has dimension k < d
        k = int(rng.integers(0, d))
        V = rng.normal(size=(1, d)) + rng.normal(size=(n, k)) @ rng.normal(size=(k, d))
    elif kind == "duplicates":
        base = rng.normal(size=(max(1, n // 2), d))
        V = base[rng.integers(0, len(base), size=n)]
    elif kind == "collinear":
        a, b = rng.normal(size=d), rng.normal(size=d)
        V = a + rng.random((n, 1)) * (b - a)
    elif kind == "grid":  # small integers: exact repeats and exact collinearities
        V = rng.integers(-2, 3, size=(n, d)).astype(float)
    else:  # far from the origin, large and small scales
        V = rng.normal(size=(n, d)) * 10.0 ** rng.integers(-3, 4) + 10.0 ** rng.integers(0, 4)
    style = rng.choice(["dirichlet", "sparse", "one-hot", "softmax"])
    if style == "dirichlet":
        w = rng.dirichlet(np.ones(n))
    elif style == "sparse":
        w = rng.dirichlet(np.ones(n)) * (rng.random(n) < 0.5)
        w = w / w.sum() if w.sum() > 0 else np.eye(n)[0]
    elif style == "one-hot":
        w = np.eye(n)[int(rng.integers(0, n))]
    else:
        s = rng.normal(size=n) * 2
        w = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
    inp = {"values": V.tolist(), "weights": w.tolist(), "target": int(rng.integers(0, n))}
    if rng.random() < 0.4:
        inp["minimizeTop"] = bool(rng.random() < 0.7)
    return inp, kind


rng = np.random.default_rng(4)
problems, kinds, cases = [], {}, 0
for _ in range(400):
    inp, kind = random_collide(rng)
    code, out, err = run_collide(inp)
    cases += 1
    kinds[kind] = kinds.get(kind, 0) + 1
    if code != 0:
        problems.append(f"exit {code}: {err.strip()}")
        continue
    shape = f"{kind} n={len(inp['values'])} d={len(inp['values'][0])}"
    problems += [f"{shape}: {x}" for x in collide_problems(inp, out, brute_force=True)]
check(f"collide: {cases} random inputs ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}) "
      f"satisfy the constraints and match brute force", not problems, problems[:4])

# Larger inputs (no brute force): more tokens than d + 1, as in every real model.
problems = []
for n, d in ((20, 3), (40, 8), (64, 16), (100, 10), (30, 40)):
    V = rng.normal(size=(n, d))
    s = rng.normal(size=n) * 2
    inp = {"values": V.tolist(), "weights": (np.exp(s) / np.exp(s).sum()).tolist(), "target": int(rng.integers(0, n))}
    code, out, err = run_collide(inp)
    if code != 0:
        problems.append(f"n={n} d={d}: exit {code}: {err.strip()}")
        continue
    problems += [f"n={n} d={d}: {x}" for x in collide_problems(inp, out, brute_force=False)]
    if n > d + 1 and out["recoverable"]:
        problems.append(f"n={n} d={d}: recoverable with n > d + 1")
check("collide: n = 20..100 tokens: constraints hold, not recoverable when n > d + 1", not problems, problems[:4])

# Scale does not matter: values far beyond 1e154 (whose squares overflow) or below 1e-154 give
# the answers of the same values near 1; by a power of two, bit for bit.
base = {"values": rng.normal(size=(7, 2)).tolist(), "weights": rng.dirichlet(np.ones(7)).tolist(), "target": 3}
code, ref, _ = run_collide(base)
for label, factor in (("2^900", 2.0 ** 900), ("2^-1000", 2.0 ** -1000), ("1e300", 1e300), ("1e-300", 1e-300)):
    code, out, err = run_collide({**base, "values": (np.array(base["values"]) * factor).tolist()})
    exact = factor in (2.0 ** 900, 2.0 ** -1000)
    ok = code == 0 and all(out[k] == ref[k] for k in ("affineRank", "recoverable", "unique", "top"))
    if ok and exact:
        ok = out["weights2"] == ref["weights2"] and out["ranges"] == ref["ranges"]
    elif ok:
        ok = np.allclose(out["weights2"], ref["weights2"], rtol=0, atol=1e-9) and \
             np.allclose(out["ranges"], ref["ranges"], rtol=0, atol=1e-9)
    check(f"collide: values × {label} give the same weights2, ranges and rank{' bit for bit' if exact else ''}",
          ok, err or (out, ref))

# Small negative rounding in the weights is 0, a sum off by rounding is kept.
code, out, err = run_collide({"values": [[0], [1], [2]], "weights": [-1e-13, 1, 1e-13], "target": 2})
check("collide: a weight of -1e-13 counts as 0", code == 0 and min(out["weights2"]) >= 0, err or out)
code, out, err = run_collide({"values": [[0], [1], [2]], "weights": [0.25, 0.5, 0.2500005], "target": 0})
check("collide: weights summing to 1 + 5e-7 are accepted; weights2 keeps their sum",
      code == 0 and abs(sum(out["weights2"]) - 1.0000005) < 1e-12, err or out)
code, out, err = run_collide({"values": [[0], [1], [2]], "weights": [0, 1, 0], "target": 2.0})
check("collide: target 2.0 is the integer 2", code == 0 and out["weights2"][2] == 0.5, err or out)

# Numbers print in full precision: 0.1·(1/3) + 0.9·0 comes back as the same double.
code, out, _ = run_collide({"values": [[1 / 3], [0]], "weights": [0.1, 0.9], "target": 0})
check("collide: numbers print in full precision", code == 0 and out["output"] == [0.1 * (1 / 3) + 0.9 * 0.0], out)

# --help documents the input and its example runs and prints what it promises.
code, text, _ = run(["collide", "--help"])
lines = text.splitlines()
examples = [i for i, line in enumerate(lines) if line.strip().startswith("echo '")]
ok = code == 0 and len(examples) == 1 and "nested arrays" in text and "512" in text
if ok:
    line = lines[examples[0]].strip()
    code2, out2, _ = run(["collide"], stdin=line[len("echo '"):line.rindex("'")])
    promised = lines[examples[0] + 1].strip() if examples[0] + 1 < len(lines) else ""
    ok = code2 == 0 and promised.startswith("{") and json.loads(promised) == json.loads(out2)
check("collide --help: documents the input and its example prints what it promises", ok, text[-400:])

# --- malformed input: exit 2, one line on stderr naming the field, nothing on stdout --------
CV, CW = [[0.0], [1.0], [2.0]], [0.0, 1.0, 0.0]
CBASE = {"values": CV, "weights": CW, "target": 2}


def c_without(field):
    return {f: x for f, x in CBASE.items() if f != field}


bad_collide = [
    # (name, input text or object, a word the message must contain)
    ("not JSON", '{"values": [[0]', "JSON"),
    ("empty input", "", "JSON"),
    ("invalid UTF-8", b'{"values": "\xff"}', "JSON"),
    ("not an object", "[[0], [1]]", "object"),
    ("a number", "3", "object"),
    ("missing values", c_without("values"), '"values"'),
    ("missing weights", c_without("weights"), '"weights"'),
    ("missing target", c_without("target"), '"target"'),
    ("unknown field", {**CBASE, "q": [[1]]}, '"q"'),
    ("unknown field (case)", {**CBASE, "Target": 1}, '"Target"'),
    ("a field given twice", '{"values": [[0]], "weights": [1], "target": 0, "target": 0}', '"target"'),
    ("values is a string", {**CBASE, "values": "abc"}, '"values"'),
    ("values is null", {**CBASE, "values": None}, '"values"'),
    ("values 1-D", {**CBASE, "values": [0, 1, 2]}, "1-D"),
    ("values 3-D", {**CBASE, "values": [CV]}, "3-D"),
    ("values empty", {**CBASE, "values": []}, "empty"),
    ("values with empty rows", {**CBASE, "values": [[], [], []]}, "empty"),
    ("ragged values (short row)", {**CBASE, "values": [[0, 1], [1], [2, 3]]}, "values[1]"),
    ("ragged values (number for a row)", {**CBASE, "values": [[0], 1, [2]]}, "values[1]"),
    ("ragged values (array for a number)", {**CBASE, "values": [[0], [[1]], [2]]}, "values[1][0]"),
    ("a string in values", {**CBASE, "values": [[0], ["1"], [2]]}, "values[1][0]"),
    ("null in values", {**CBASE, "values": [[0], [None], [2]]}, "values[1][0]"),
    ("a boolean in values", {**CBASE, "values": [[0], [True], [2]]}, "values[1][0]"),
    ("a number 1e400 in values", '{"values": [[1e400]], "weights": [1], "target": 0}', '"values"'),
    ("weights is a number", {**CBASE, "weights": 1}, '"weights"'),
    ("weights 2-D", {**CBASE, "weights": [[0], [1], [0]]}, '"weights"'),
    ("weights empty", {**CBASE, "weights": []}, '"weights"'),
    ("weights too short", {**CBASE, "weights": [0.5, 0.5]}, '"weights"'),
    ("weights too long", {**CBASE, "weights": [0.25] * 4}, '"weights"'),
    ("a string in weights", {**CBASE, "weights": [0, "1", 0]}, "weights[1]"),
    ("null in weights", {**CBASE, "weights": [0, None, 1]}, "weights[1]"),
    ("a number 1e400 in weights", '{"values": [[0], [1]], "weights": [1e400, 0], "target": 0}', '"weights"'),
    ("a negative weight", {**CBASE, "weights": [-0.1, 1.1, 0]}, "weights[0]"),
    ("a weight of -1e-9", {**CBASE, "weights": [-1e-9, 1 + 1e-9, 0]}, "weights[0]"),
    ("weights summing to 0.9", {**CBASE, "weights": [0.3, 0.3, 0.3]}, "sum"),
    ("weights summing to 1 + 2e-6", {**CBASE, "weights": [0.5, 0.5, 2e-6]}, "sum"),
    ("weights all 0", {**CBASE, "weights": [0, 0, 0]}, "sum"),
    ("target 1.5", {**CBASE, "target": 1.5}, "integer"),
    ("target a string", {**CBASE, "target": "1"}, '"target"'),
    ("target a boolean", {**CBASE, "target": True}, '"target"'),
    ("target null", {**CBASE, "target": None}, '"target"'),
    ("target a list", {**CBASE, "target": [1]}, '"target"'),
    ("target -1", {**CBASE, "target": -1}, '"target"'),
    ("target = n", {**CBASE, "target": 3}, '"target"'),
    ("target 1e20", {**CBASE, "target": 1e20}, '"target"'),
    ("target 2^64", '{"values": [[0]], "weights": [1], "target": 18446744073709551616}', '"target"'),
    ("minimizeTop a string", {**CBASE, "minimizeTop": "yes"}, '"minimizeTop"'),
    ("minimizeTop 1", {**CBASE, "minimizeTop": 1}, '"minimizeTop"'),
    ("minimizeTop null", {**CBASE, "minimizeTop": None}, '"minimizeTop"'),
    ("n above 512 tokens", {"values": [[0.0]] * 513, "weights": [1.0] + [0.0] * 512, "target": 0}, "512"),
    ("d above 4096", {"values": [[0.0] * 4097], "weights": [1], "target": 0}, "4096"),
    ("n above 4096", {"values": [[0.0]] * 4097, "weights": [1.0], "target": 0}, "512"),
    ("output overflows", {"values": [[1.7976931348623157e308], [1.7976931348623157e308]],
                          "weights": [0.5, 0.5000009], "target": 0}, "overflow"),
]
for name, inp, word in bad_collide:
    check_refusal("collide", name, inp, word)
code, out, err = run(["collide", "/nonexistent/input.json"])
check("collide: a missing file: exit 2, one line", code == 2 and out == "" and len(err.strip().splitlines()) == 1, err)
code, out, err = run(["collide", "a.json", "b.json"])
check("collide: two files: exit 2, one line", code == 2 and out == "" and len(err.strip().splitlines()) == 1, err)

finish()
