#!/usr/bin/env python3
"""The `attnlab` command-line tool as a user runs it: `trace`, `forward` and `backward` agree with
an independent numpy implementation of the same conventions (itself checked against finite
differences), `collide` agrees with hand-solved cases, numpy and brute force over the vertices
of the polytope of weights, and bad input gets exit code 2, one line on stderr and nothing on
stdout.

`train` prints well-formed, deterministic records in both formats, learns the verb-object task
and reports a divergence with exit code 3; `norm` agrees with analytic values and with numpy's
own simulation of the same experiments.

usage: test_cli.py ATTNLAB FIXTURES_DIR
  FIXTURES_DIR/*.json          lab states for `trace`
  FIXTURES_DIR/forward/*.json  raw q, k, v (with dOutput) for `forward` and `backward`
  FIXTURES_DIR/collide/*.json  values, weights and a target for `collide`, each solved by hand
  FIXTURES_DIR/train/*.json    training configs for `train` (diverges.json must diverge)
"""
import itertools
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
    if not os.path.isfile(path):  # forward/: raw-tensor inputs, below
        continue
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


# ============================================================================================
# `attnlab forward` / `attnlab backward` on raw tensors, against an independent numpy reference.
#
# Conventions (PyTorch's scaled_dot_product_attention): rows = queries, columns = keys;
# s = q kᵀ · scale / temperature, scale = 1/sqrt(d_k) unless given; mask true = may attend;
# causal = tril(ones(n, m)) (key j <= query i, top-left); masked weights are 0; a query with
# every key masked gets zero weights, zero output and zero gradients.
# Shapes: h = heads, n = queries, m = keys, dk = d_k, dv = d_v.
# ============================================================================================

NORMALIZERS = ["softmax", "sparsemax", "relunorm", "sigmoid", "none", "hardmax"]


def sparsemax(z):
    """Martins & Astudillo 2016, Algorithm 1: sort, cumulative sum, support size k, tau."""
    zs = np.sort(z)[::-1]
    cs = np.cumsum(zs)
    ks = np.arange(1, len(z) + 1)
    k = ks[1 + ks * zs > cs][-1]
    tau = (cs[k - 1] - 1) / k
    return np.maximum(z - tau, 0.0), tau


def normalize_row(s, kind):
    """Weights of the allowed keys of one query, s: (a,) scaled scores of those keys."""
    if kind == "softmax":
        e = np.exp(s - s.max())
        return e / e.sum()
    if kind == "sparsemax":
        return sparsemax(s)[0]
    if kind == "relunorm":
        r = np.maximum(s, 0.0)
        return r / r.sum() if r.sum() > 0 else np.full(len(s), 1.0 / len(s))
    if kind == "sigmoid":
        return 1.0 / (1.0 + np.exp(-s))
    if kind == "none":
        return s.copy()
    if kind == "hardmax":
        top = s == s.max()
        return top / top.sum()
    raise ValueError(kind)


def normalize_row_vjp(dp, s, p, kind):
    """dL/ds from dL/dp for one query's allowed keys: the transposed Jacobian times dp."""
    if kind == "softmax":  # J = diag(p) - p pᵀ
        return p * (dp - p @ dp)
    if kind == "sparsemax":  # J = diag(S) - S Sᵀ / |S| on the support S
        S = p > 0
        return np.where(S, dp - dp[S].sum() / S.sum(), 0.0)
    if kind == "relunorm":  # p = r / R, r = relu(s): J_jk = [s_k > 0] (δ_jk - p_j) / R
        R = np.maximum(s, 0.0).sum()
        return np.where(s > 0, (dp - p @ dp) / R, 0.0) if R > 0 else np.zeros_like(s)
    if kind == "sigmoid":
        return dp * p * (1 - p)
    if kind == "none":
        return dp.copy()
    if kind == "hardmax":  # piecewise constant
        return np.zeros_like(s)
    raise ValueError(kind)


def unpack(inp):
    """The input JSON as (h, ., .) arrays and settings."""
    q, k, v = (np.array(inp[f], dtype=np.float64) for f in ("q", "k", "v"))
    if q.ndim == 2:
        q, k, v = q[None], k[None], v[None]
    h, n, dk = q.shape
    m = k.shape[1]
    allowed = np.ones((n, m), dtype=bool)
    if "mask" in inp:
        allowed &= np.array(inp["mask"], dtype=bool)
    if inp.get("causal", False):
        allowed &= np.tri(n, m, dtype=bool)
    scale = inp.get("scale")
    scale = 1.0 / math.sqrt(dk) if scale is None else float(scale)
    return q, k, v, allowed, scale, float(inp.get("temperature", 1.0)), inp.get("normalizer", "softmax")


def ref_forward(inp):
    """weights (h, n, m), output (h, n, dv), and the scaled scores (h, n, m)."""
    q, k, v, allowed, scale, temp, kind = unpack(inp)
    h, n, m = q.shape[0], q.shape[1], k.shape[1]
    S = np.einsum("hid,hjd->hij", q, k) * scale / temp
    P = np.zeros((h, n, m))
    for a in range(h):
        for i in range(n):
            A = allowed[i]
            if A.any():
                P[a, i, A] = normalize_row(S[a, i, A], kind)
    return {"weights": P, "output": P @ v, "scaled": S}


def ref_backward(inp):
    """ref_forward plus dq, dk, dv for L = sum(output * dOutput)."""
    q, k, v, allowed, scale, temp, kind = unpack(inp)
    f = ref_forward(inp)
    P, S = f["weights"], f["scaled"]
    dO = np.array(inp["dOutput"], dtype=np.float64).reshape(P.shape[0], P.shape[1], v.shape[2])
    dP = dO @ v.transpose(0, 2, 1)   # (h, n, m)
    dv = P.transpose(0, 2, 1) @ dO   # (h, m, dv)
    dS = np.zeros_like(S)
    for a in range(P.shape[0]):
        for i in range(P.shape[1]):
            A = allowed[i]
            if A.any():
                dS[a, i, A] = normalize_row_vjp(dP[a, i, A], S[a, i, A], P[a, i, A], kind)
    dscores = dS * scale / temp
    f.update(dq=dscores @ k, dk=dscores.transpose(0, 2, 1) @ q, dv=dv)
    return f


def kink_margin(inp):
    """How far the scores are from a point where the normalizer is not differentiable (sparsemax
    support changes, relunorm's zero, a hardmax tie); inf for the smooth ones."""
    q, k, v, allowed, scale, temp, kind = unpack(inp)
    S = ref_forward(inp)["scaled"]
    margin = math.inf
    for a in range(S.shape[0]):
        for i in range(S.shape[1]):
            s = S[a, i, allowed[i]]
            if len(s) == 0:
                continue
            if kind == "sparsemax":
                margin = min(margin, float(np.min(np.abs(s - sparsemax(s)[1]))))
            elif kind == "relunorm":
                margin = min(margin, float(np.min(np.abs(s))))
            elif kind == "hardmax" and len(s) > 1:
                top2 = np.sort(s)[-2:]
                margin = min(margin, float(top2[1] - top2[0]))
    return margin


def finite_difference_check(inp, eps=1e-6):
    """Largest relative difference between ref_backward and central differences of
    L = sum(ref_forward(inp).output * dOutput) over every entry of q, k and v."""
    g = ref_backward(inp)
    dO = np.array(inp["dOutput"], dtype=np.float64).reshape(g["output"].shape)
    worst = 0.0
    for field, grad in (("q", "dq"), ("k", "dk"), ("v", "dv")):
        x = np.array(inp[field], dtype=np.float64)
        analytic = g[grad].reshape(x.shape)
        for idx in np.ndindex(*x.shape):
            losses = []
            for sign in (1, -1):
                xp = x.copy()
                xp[idx] += sign * eps
                losses.append(float(np.sum(ref_forward({**inp, field: xp.tolist()})["output"] * dO)))
            numeric = (losses[0] - losses[1]) / (2 * eps)
            worst = max(worst, abs(numeric - analytic[idx]) / max(1.0, abs(analytic[idx])))
    return worst


def random_input(rng, kind, with_grad):
    """One random input the CLI accepts: 2-D or 3-D, n != m mostly, masks, scales, temperatures."""
    three_d = bool(rng.random() < 0.6)
    h = int(rng.integers(1, 4)) if three_d else 1
    n, m = int(rng.integers(1, 6)), int(rng.integers(1, 7))
    dk, dv = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    q, k, v = rng.normal(size=(h, n, dk)), rng.normal(size=(h, m, dk)), rng.normal(size=(h, m, dv))
    pick = (lambda t: t) if three_d else (lambda t: t[0])
    inp = {"q": pick(q).tolist(), "k": pick(k).tolist(), "v": pick(v).tolist()}
    if kind != "softmax" or rng.random() < 0.5:
        inp["normalizer"] = kind
    masking = int(rng.integers(0, 4))  # none, mask, causal, both
    if masking in (1, 3):
        mask = rng.random((n, m)) < 0.75
        if n > 1 and rng.random() < 0.3:
            mask[int(rng.integers(0, n))] = False  # a query that sees nothing
        inp["mask"] = mask.tolist()
    if masking in (2, 3):
        inp["causal"] = True
    elif rng.random() < 0.2:
        inp["causal"] = False
    scale = int(rng.integers(0, 4))
    if scale == 1:
        inp["scale"] = None
    elif scale >= 2:
        inp["scale"] = float(rng.choice([1.0, 0.7, 2.5, -1.3]))
    if rng.random() < 0.7:
        inp["temperature"] = float(rng.choice([0.3, 0.5, 1.0, 2.0, 5.0]))
    if with_grad:
        dO = rng.normal(size=(h, n, dv))
        inp["dOutput"] = (dO if three_d or rng.random() < 0.3 else dO[0]).tolist()
    return inp


def shape_of(inp):
    q = np.array(inp["q"])
    h = q.shape[0] if q.ndim == 3 else 1
    return f"h={h} n={q.shape[-2]} m={np.array(inp['k']).shape[-2]} dk={q.shape[-1]} dv={np.array(inp['v']).shape[-1]}"


def run_raw(command, inp):
    code, out, err = run([command], stdin=json.dumps(inp))
    return code, (json.loads(out) if code == 0 else None), err


def compare(cli, ref, keys):
    """Largest relative error over `keys`, and the first key whose shape differs."""
    worst = 0.0
    for key in keys:
        a, b = np.asarray(cli[key], dtype=np.float64), np.asarray(ref[key], dtype=np.float64)
        if a.shape != b.shape:
            return math.inf, f"{key} has shape {a.shape}, expected {b.shape}"
        if a.size:
            worst = max(worst, max_rel_err(a, b))
    return worst, ""


# --- the reference checks itself: analytic backward vs central finite differences ----------
rng = np.random.default_rng(20240603)
for kind in NORMALIZERS:
    worst, worst_case, cases = 0.0, "", 0
    while cases < 6:
        inp = random_input(rng, kind, with_grad=True)
        if kink_margin(inp) < 1e-3:
            continue
        e = finite_difference_check(inp)
        cases += 1
        if e >= worst:
            worst, worst_case = e, shape_of(inp)
    check(f"numpy reference: {kind} backward = finite differences on {cases} inputs "
          f"(max rel err {worst:.1e}, {worst_case})", worst <= 1e-6, f"{worst:.3e}")

# --- the CLI against the reference on random inputs -----------------------------------------
CASES_PER_NORMALIZER = 24
for command in ("forward", "backward"):
    keys = ["weights", "output"] + (["dq", "dk", "dv"] if command == "backward" else [])
    for kind in NORMALIZERS:
        worst, worst_case, problems, cases = 0.0, "", [], 0
        while cases < CASES_PER_NORMALIZER:
            inp = random_input(rng, kind, with_grad=command == "backward")
            if kink_margin(inp) < 1e-7:  # rounding could pick the other side of a kink
                continue
            cases += 1
            ref = ref_backward(inp) if command == "backward" else ref_forward(inp)
            code, out, err = run_raw(command, inp)
            if code != 0:
                problems.append(f"exit {code} on {shape_of(inp)}: {err.strip()}")
                continue
            if sorted(out) != sorted(keys):
                problems.append(f"fields {sorted(out)} on {shape_of(inp)}")
                continue
            e, why = compare(out, ref, keys)
            if why:
                problems.append(f"{why} on {shape_of(inp)}")
            elif e >= worst:
                settings = {f: inp[f] for f in inp if f not in ("q", "k", "v", "dOutput", "mask")}
                worst, worst_case = e, f"{shape_of(inp)}{' mask' if 'mask' in inp else ''} {json.dumps(settings)}"
        check(f"{command} {kind}: {cases} random inputs match numpy (max rel err {worst:.1e}, worst {worst_case})",
              not problems and worst <= 1e-5, problems[:3] or f"{worst:.3e}")

# --- fixtures: tests/cli/fixtures/forward/*.json, each run through both commands ------------
RAW_FIXTURES = os.path.join(FIXTURES, "forward")
for fixture in sorted(os.listdir(RAW_FIXTURES)):
    path = os.path.join(RAW_FIXTURES, fixture)
    with open(path) as f:
        inp = json.load(f)
    for command in ("forward", "backward"):
        keys = ["weights", "output"] + (["dq", "dk", "dv"] if command == "backward" else [])
        code, out, err = run([command, path])
        if code != 0:
            check(f"{command} {fixture}: exit 0", False, err)
            continue
        e, why = compare(json.loads(out), ref_backward(inp), keys)
        check(f"{command} {fixture}: matches numpy (max rel err {e:.1e})", not why and e <= 1e-5, why or f"{e:.3e}")
        with open(path) as f:
            code2, out2, _ = run([command, "-"], stdin=f.read())
        check(f"{command} {fixture}: stdin gives the same output", code2 == 0 and out2 == out)

# --- cases worked by hand -------------------------------------------------------------------
one = {"q": [[1, 0], [0, 1]], "k": [[1, 0], [0, 1], [1, 1]], "v": [[1, 2], [3, 4], [5, 6]]}
code, out, err = run_raw("forward", one)
check("2-D input gives 3-D output (h = 1)",
      code == 0 and np.shape(out["weights"]) == (1, 2, 3) and np.shape(out["output"]) == (1, 2, 2), err)
code, out, err = run_raw("backward", {**one, "dOutput": [[[1, 0], [0, 1]]]})
check("2-D input takes a 1×n×d_v dOutput (the shape forward prints)",
      code == 0 and np.shape(out["dq"]) == (1, 2, 2) and np.shape(out["dk"]) == (1, 3, 2), err)

# Numbers round-trip: with normalizer none and v = 1 the output is q·k·scale, one rounding.
third = 1 / 3
code, out, _ = run_raw("forward", {"q": [[0.1]], "k": [[1.0]], "v": [[1.0]], "normalizer": "none", "scale": third})
check("numbers print in full precision (0.1 · 1/3 comes back bit for bit)",
      code == 0 and out["weights"][0][0][0] == 0.1 * 1.0 * third / 1.0 and out["output"][0][0][0] == 0.1 * third)

# Sparsemax of (1, 0.5, -1): support {1, 0.5}, tau = 0.25, weights (0.75, 0.25, 0).
code, out, _ = run_raw("forward", {"q": [[1]], "k": [[1], [0.5], [-1]], "v": [[1], [0], [0]],
                                   "normalizer": "sparsemax", "scale": 1})
check("sparsemax (1, 0.5, -1) = (0.75, 0.25, 0)", code == 0 and out["weights"] == [[[0.75, 0.25, 0]]], out)

# Hardmax: ties share equally, and the gradient through the weights is zero.
code, out, _ = run_raw("backward", {"q": [[0, 0]], "k": [[1, 2], [3, 4], [5, 6]], "v": [[1], [2], [3]],
                                    "normalizer": "hardmax", "dOutput": [[1]]})
check("hardmax: a three-way tie gives 1/3 each, dq = dk = 0, dv = weights",
      code == 0 and np.allclose(out["weights"], 1 / 3, rtol=0, atol=1e-15)
      and not np.any(out["dq"]) and not np.any(out["dk"]) and np.allclose(out["dv"], 1 / 3, rtol=0, atol=1e-15), out)

# Causal is top-left (tril(ones(n, m))): query i sees keys j <= i, also when n != m.
for n, m in ((3, 5), (4, 2)):
    code, out, _ = run_raw("forward", {"q": np.ones((n, 2)).tolist(), "k": np.ones((m, 2)).tolist(),
                                       "v": np.ones((m, 1)).tolist(), "causal": True})
    W = np.array(out["weights"][0])
    expect = np.tri(n, m) / np.tri(n, m).sum(axis=1, keepdims=True)
    check(f"causal {n}×{m}: query i attends to keys j <= i, uniformly here", np.allclose(W, expect, atol=1e-15), W)

# A query that may attend to nothing: zero weights, zero output, zero gradients, for each normalizer.
for kind in NORMALIZERS:
    code, out, err = run_raw("backward", {"q": [[1, 2], [3, 4]], "k": [[1, 0], [0, 1]], "v": [[1], [2]],
                                          "mask": [[True, True], [False, False]], "normalizer": kind,
                                          "dOutput": [[1], [1]]})
    check(f"fully masked row ({kind}): zero weights, output and dq",
          code == 0 and out["weights"][0][1] == [0, 0] and out["output"][0][1] == [0] and out["dq"][0][1] == [0, 0], err or out)

# The examples of `--help` run and print what they promise.
for command in ("forward", "backward"):
    code, text, _ = run([command, "--help"])
    lines = text.splitlines()
    examples = [i for i, line in enumerate(lines) if line.strip().startswith("echo '")]
    ok = code == 0 and len(examples) == 1 and "nested arrays" in text
    if ok:
        line = lines[examples[0]].strip()
        code2, out2, err2 = run([command], stdin=line[len("echo '"):line.rindex("'")])
        ok = code2 == 0
        promised = lines[examples[0] + 1].strip() if examples[0] + 1 < len(lines) else ""
        if promised.startswith("{"):
            ok = ok and json.loads(promised) == json.loads(out2)
    check(f"{command} --help: documents the input and its example runs", ok, text[-300:])
code, text, _ = run(["backward", "--help"])
check("backward --help says hardmax's dq and dk are zeros", "hardmax" in text and "zeros" in text)

# --- malformed input: exit 2, one line on stderr naming the field, nothing on stdout --------
Q, K, V = [[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[1.0], [2.0], [3.0]]
BASE = {"q": Q, "k": K, "v": V}


def without(field):
    return {f: x for f, x in BASE.items() if f != field}


big = [[0.0]] * 4096
bad_raw = [
    # (name, command, input text or object, a word the message must contain)
    ("not JSON", "forward", '{"q": [[1, 2]', "JSON"),
    ("empty input", "forward", "", "JSON"),
    ("invalid UTF-8", "forward", b'{"q": "\xff"}', "JSON"),
    ("not an object", "forward", "[[1, 2]]", "object"),
    ("missing q", "forward", without("q"), '"q"'),
    ("missing k", "forward", without("k"), '"k"'),
    ("missing v", "forward", without("v"), '"v"'),
    ("q is a string", "forward", {**BASE, "q": "abc"}, '"q"'),
    ("q is null", "forward", {**BASE, "q": None}, '"q"'),
    ("a string in k", "forward", {**BASE, "k": [[1, "x"], [0, 1], [1, 1]]}, "k[0][1]"),
    ("null in v", "forward", {**BASE, "v": [[1], [None], [3]]}, "v[1][0]"),
    ("a boolean in q", "forward", {**BASE, "q": [[1, True], [3, 4]]}, "q[0][1]"),
    ("an object in q", "forward", {**BASE, "q": [[1, {}], [3, 4]]}, "q[0][1]"),
    ("ragged k (short row)", "forward", {**BASE, "k": [[1, 0], [0], [1, 1]]}, "k[1]"),
    ("ragged q (number for a row)", "forward", {**BASE, "q": [[1, 2], 3]}, "q[1]"),
    ("ragged q (array for a number)", "forward", {**BASE, "q": [[1, 2], [[3], 4]]}, "q[1][0]"),
    ("ragged 3-D v (head sizes)", "forward", {**BASE, "q": [Q, Q], "k": [K, K], "v": [V, V[:2]]}, "v[1]"),
    ("rank 1", "forward", {**BASE, "q": [1, 2]}, "1-D"),
    ("rank 4", "forward", {**BASE, "q": [[Q]]}, "4-D"),
    ("empty q", "forward", {**BASE, "q": []}, "empty"),
    ("empty rows", "forward", {**BASE, "q": [[], []]}, "empty"),
    ("empty head", "forward", {**BASE, "q": [[[]]]}, "empty"),
    ("q 3-D, k 2-D", "forward", {**BASE, "q": [Q]}, '"k"'),
    ("heads differ", "forward", {"q": [Q, Q], "k": [K, K, K], "v": [V, V]}, "heads"),
    ("d_k of q != d_k of k", "forward", {**BASE, "k": [[1.0], [2.0], [3.0]]}, "d_k"),
    ("m of k != m of v", "forward", {**BASE, "v": [[1.0], [2.0]]}, '"v"'),
    ("mask shape m×n", "forward", {**BASE, "mask": [[True, True], [True, True], [True, True]]}, '"mask"'),
    ("mask of numbers", "forward", {**BASE, "mask": [[1, 1, 1], [1, 1, 1]]}, "mask[0][0]"),
    ("mask 3-D", "forward", {**BASE, "mask": [[[True, True, True], [True, True, True]]]}, '"mask"'),
    ("mask null", "forward", {**BASE, "mask": None}, '"mask"'),
    ("causal as a string", "forward", {**BASE, "causal": "yes"}, '"causal"'),
    ("causal as 1", "forward", {**BASE, "causal": 1}, '"causal"'),
    ("scale as a string", "forward", {**BASE, "scale": "1"}, '"scale"'),
    ("scale as a boolean", "forward", {**BASE, "scale": True}, '"scale"'),
    ("scale 1e400", "forward", '{"q": [[1]], "k": [[1]], "v": [[1]], "scale": 1e400}', '"scale"'),
    ("temperature 0", "forward", {**BASE, "temperature": 0}, '"temperature"'),
    ("temperature negative", "forward", {**BASE, "temperature": -1}, '"temperature"'),
    ("temperature null", "forward", {**BASE, "temperature": None}, '"temperature"'),
    ("temperature 1e400", "forward", '{"q": [[1]], "k": [[1]], "v": [[1]], "temperature": 1e400}', '"temperature"'),
    ("a number 1e400 in q", "forward", '{"q": [[1e400]], "k": [[1]], "v": [[1]]}', '"q"'),
    ("unknown normalizer", "forward", {**BASE, "normalizer": "softermax"}, '"normalizer"'),
    ("normalizer as a number", "forward", {**BASE, "normalizer": 1}, '"normalizer"'),
    ("unknown field", "forward", {**BASE, "maks": [[True]]}, '"maks"'),
    ("a field given twice", "forward", '{"q": [[1]], "k": [[1]], "v": [[1]], "q": [[2]]}', '"q"'),
    ("backward without dOutput", "backward", BASE, '"dOutput"'),
    ("dOutput n×d_v transposed", "backward", {**BASE, "dOutput": [[1, 1]]}, '"dOutput"'),
    ("dOutput with wrong heads", "backward", {"q": [Q], "k": [K], "v": [V], "dOutput": [[[1], [1]]] * 2}, '"dOutput"'),
    ("dOutput 2-D for 3-D input", "backward", {"q": [Q], "k": [K], "v": [V], "dOutput": [[1], [1]]}, '"dOutput"'),
    ("dOutput with a string", "backward", {**BASE, "dOutput": [[1], ["1"]]}, "dOutput[1][0]"),
    ("forward checks a dOutput too", "forward", {**BASE, "dOutput": [[1, 1]]}, '"dOutput"'),
    ("d_k above 4096", "forward", {"q": [[0.0] * 4097], "k": [[0.0] * 4097], "v": [[0.0]]}, "4096"),
    ("n above 4096", "forward", {"q": [[0.0]] * 4097, "k": [[0.0]], "v": [[0.0]]}, "4096"),
    ("h above 4096", "forward", {"q": [[[0.0]]] * 4097, "k": [[[0.0]]] * 4097, "v": [[[0.0]]] * 4097}, "4096"),
    ("n·m above 16M numbers", "forward", {"q": big, "k": big, "v": big}, "16777216"),
    ("scores overflow", "forward", {"q": [[1e200]], "k": [[1e200]], "v": [[1]]}, "overflow"),
    ("scores overflow by temperature", "forward", {"q": [[1e200]], "k": [[1e100]], "v": [[1]], "temperature": 1e-10}, "overflow"),
    ("output overflows", "forward", {"q": [[1]], "k": [[1e10]], "v": [[1e300]], "normalizer": "none", "scale": 1}, "overflow"),
    ("gradient overflows", "backward", {"q": [[1]], "k": [[1]], "v": [[1e300]], "dOutput": [[1e300]]}, "overflow"),
]
for name, command, inp, word in bad_raw:
    data = inp if isinstance(inp, bytes) else (inp if isinstance(inp, str) else json.dumps(inp)).encode()
    p = subprocess.run([ATTNLAB, command], input=data, capture_output=True, timeout=60)
    err = p.stderr.decode("utf-8", "replace")
    lines = err.strip("\n").split("\n")
    check(f"{command}, bad input ({name}): exit 2, one line naming {word}, no stdout",
          p.returncode == 2 and p.stdout == b"" and len(lines) == 1 and err.endswith("\n")
          and lines[0].startswith(f"attnlab {command}: ") and word in lines[0],
          f"code={p.returncode} out={p.stdout[:80]!r} err={err!r}")
code, out, err = run(["forward", "/nonexistent/input.json"])
check("forward: a missing file: exit 2, one line", code == 2 and out == "" and len(err.strip().splitlines()) == 1, err)
code, out, err = run(["forward", "a.json", "b.json"])
check("forward: two files: exit 2, one line", code == 2 and out == "" and len(err.strip().splitlines()) == 1, err)


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
                "sameOutputDim", "unique", "top", "maxOutputDiff"]


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
code, text, _ = run(["--help"])
check("attnlab --help lists collide", code == 0 and "collide" in text, text)

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
    data = inp if isinstance(inp, bytes) else (inp if isinstance(inp, str) else json.dumps(inp)).encode()
    p = subprocess.run([ATTNLAB, "collide"], input=data, capture_output=True, timeout=60)
    err = p.stderr.decode("utf-8", "replace")
    lines = err.strip("\n").split("\n")
    check(f"collide, bad input ({name}): exit 2, one line naming {word}, no stdout",
          p.returncode == 2 and p.stdout == b"" and len(lines) == 1 and err.endswith("\n")
          and lines[0].startswith("attnlab collide: ") and word in lines[0],
          f"code={p.returncode} out={p.stdout[:80]!r} err={err!r}")
code, out, err = run(["collide", "/nonexistent/input.json"])
check("collide: a missing file: exit 2, one line", code == 2 and out == "" and len(err.strip().splitlines()) == 1, err)
code, out, err = run(["collide", "a.json", "b.json"])
check("collide: two files: exit 2, one line", code == 2 and out == "" and len(err.strip().splitlines()) == 1, err)

# ============================================================================================
# `attnlab train`: the one-layer model of engine/train.h, step by step (jsonl or csv), and
# `attnlab norm`: the normalization experiments, against numpy.
# ============================================================================================

TRAIN_FIXTURES = os.path.join(FIXTURES, "train")
METRIC_KEYS = ["step", "loss", "accuracy", "attentionOnSource", "gradNorm"]
GRAD_KEYS = ["WQ", "WK", "WV", "WO", "total"]
CSV_HEADER = "step,loss,accuracy,attentionOnSource,gradNormWQ,gradNormWK,gradNormWV,gradNormWO,gradNormTotal"
TRAIN_DEFAULTS = {"task": "verb_object", "normalizer": "softmax", "heads": 1, "causal": False, "steps": 200}


def run_train(config, *options):
    """`attnlab train -` with the config on stdin: (exit code, stdout, stderr)."""
    text = config if isinstance(config, str) else json.dumps(config)
    return run(["train", "-", *options], stdin=text)


def jsonl(out):
    return [json.loads(line) for line in out.splitlines()]


def metric_problems(records, expected_steps):
    """Shape and sanity of the per-step records; [] when fine."""
    problems = []
    if [r.get("step") for r in records] != expected_steps:
        problems.append(f"steps {[r.get('step') for r in records][:12]}, expected {expected_steps[:12]}")
    for r in records:
        if list(r.keys()) != METRIC_KEYS or list(r["gradNorm"].keys()) != GRAD_KEYS:
            problems.append(f"keys {list(r.keys())} / {list(r.get('gradNorm', {}).keys())}")
            break
        numbers = [r["loss"], r["accuracy"], r["attentionOnSource"], *r["gradNorm"].values()]
        if not all(isinstance(x, (int, float)) and math.isfinite(x) for x in numbers):
            problems.append(f"step {r['step']}: a number is not finite: {r}")
        if not (0 <= r["accuracy"] <= 1 and r["loss"] >= 0):
            problems.append(f"step {r['step']}: accuracy {r['accuracy']} or loss {r['loss']} out of range")
        g = r["gradNorm"]
        parts = g["WQ"] ** 2 + g["WK"] ** 2 + g["WV"] ** 2 + g["WO"] ** 2
        if g["total"] ** 2 < parts * (1 - 1e-12):  # total is over every parameter, these among them
            problems.append(f"step {r['step']}: total gradient norm {g['total']} below its parts {math.sqrt(parts)}")
    return problems


def final_problems(final, config):
    """The final record: tokens, per-head N×N weights that fit the normalizer and the mask."""
    problems = []
    if list(final.keys()) != ["step", "tokens", "heads", "evalAccuracy", "evalLoss"]:
        return [f"keys {list(final.keys())}"]
    cfg = {**TRAIN_DEFAULTS, **config}
    n = len(final["tokens"])
    W = np.array(final["heads"], dtype=np.float64)
    if W.shape != (cfg["heads"], n, n):
        return [f"heads has shape {W.shape}, expected {(cfg['heads'], n, n)}"]
    if "example" in cfg and final["tokens"] != cfg["example"].split():
        problems.append(f"tokens {final['tokens']} are not the example {cfg['example']!r}")
    if cfg["normalizer"] in ("softmax", "sparsemax", "relunorm", "hardmax"):
        if not np.allclose(W.sum(axis=2), 1.0, rtol=0, atol=1e-12) or W.min() < 0:
            problems.append(f"rows are not distributions: sums {W.sum(axis=2)}")
    if cfg["causal"] and np.any(np.triu(W, k=1) != 0):
        problems.append("causal, but a query attends to a later key")
    if final["step"] != cfg["steps"]:
        problems.append(f"final step {final['step']}, expected {cfg['steps']}")
    if not (0 <= final["evalAccuracy"] <= 1 and final["evalLoss"] >= 0):
        problems.append(f"evaluation out of range: {final['evalAccuracy']}, {final['evalLoss']}")
    return problems


def parse_csv(out):
    """(header, metric rows as floats, final blocks {title: [rows as lists of strings]})."""
    lines = out.split("\n")
    blank = lines.index("") if "" in lines else len(lines)
    rows = [[float(x) for x in line.split(",")] for line in lines[1:blank]]
    blocks, title = {}, None
    for line in lines[blank + 1:]:
        if line.startswith("# "):
            title = line[2:]
            blocks[title] = []
        elif line and title is not None:
            blocks[title].append(line.split(","))
    return lines[0], rows, blocks


train_fixtures = sorted(f for f in os.listdir(TRAIN_FIXTURES) if f.endswith(".json") and f != "diverges.json")
check("train fixtures are there", len(train_fixtures) >= 4, train_fixtures)
for fixture in train_fixtures:
    path = os.path.join(TRAIN_FIXTURES, fixture)
    with open(path) as f:
        config = json.load(f)
    steps = config.get("steps", 200)
    code, out, err = run(["train", path])
    check(f"train {fixture}: exit 0, nothing on stderr", code == 0 and err == "", err)
    if code != 0:
        continue
    records = jsonl(out)
    check(f"train {fixture}: jsonl: one record per step, then the final one",
          len(records) == steps + 1 and list(records[-1].keys()) == ["final"], len(records))
    problems = metric_problems(records[:-1], list(range(1, steps + 1)))
    check(f"train {fixture}: every metric record has its keys and sane finite numbers", not problems, problems[:3])
    problems = final_problems(records[-1]["final"], config)
    check(f"train {fixture}: final record: tokens and h×N×N weights fitting the normalizer and mask",
          not problems, problems[:3])
    code2, out2, _ = run(["train", path])
    check(f"train {fixture}: a second run prints the same bytes", code2 == 0 and out2 == out)
    with open(path) as f:
        code3, out3, _ = run(["train", "-"], stdin=f.read())
    check(f"train {fixture}: stdin gives the same output", code3 == 0 and out3 == out)

    # csv: the same run, the same numbers (every K-th step and the last)
    every = 7
    code, csv_out, err = run(["train", path, "--format", "csv", "--every", str(every)])
    check(f"train {fixture} --format csv --every {every}: exit 0", code == 0, err)
    if code != 0:
        continue
    header, rows, blocks = parse_csv(csv_out)
    want = [k for k in range(1, steps + 1) if k % every == 0 or k == steps]
    check(f"train {fixture} csv: header, rows at steps {want[:4]}...",
          header == CSV_HEADER and [int(r[0]) for r in rows] == want and all(len(r) == 9 for r in rows),
          (header, [r[0] for r in rows]))
    by_step = {r["step"]: r for r in records[:-1]}
    same = all(r[1:] == [by_step[int(r[0])][k] for k in METRIC_KEYS[1:4]] +
               [by_step[int(r[0])]["gradNorm"][k] for k in GRAD_KEYS] for r in rows)
    check(f"train {fixture} csv: every number is the jsonl run's, bit for bit", same)
    final = records[-1]["final"]
    heads = {int(t.split()[-1]): b for t, b in blocks.items() if t.startswith("final weights head ")}
    eval_rows = blocks.get(next((t for t in blocks if t.startswith("final evaluation")), ""), [])
    ok = len(heads) == len(final["heads"]) and len(eval_rows) == 2 and eval_rows[0] == ["evalAccuracy", "evalLoss"]
    ok = ok and [float(x) for x in eval_rows[1]] == [final["evalAccuracy"], final["evalLoss"]]
    for h, block in heads.items():
        ok = ok and block[0] == ["query", *final["tokens"]]
        ok = ok and [row[0] for row in block[1:]] == final["tokens"]
        ok = ok and [[float(x) for x in row[1:]] for row in block[1:]] == final["heads"][h]
    check(f"train {fixture} csv: the final evaluation and weights blocks match jsonl's final record", ok,
          csv_out[-600:])

# --every: multiples of K and the last step; K beyond the steps prints the last one only.
for every, steps, want in ((5, 12, [5, 10, 12]), (4, 12, [4, 8, 12]), (50, 12, [12]), (1, 3, [1, 2, 3])):
    code, out, err = run_train({"task": "reverse", "length": 4, "steps": steps}, "--every", str(every))
    records = jsonl(out) if code == 0 else []
    check(f"train --every {every} over {steps} steps: records at {want}, then final",
          code == 0 and [r.get("step") for r in records[:-1]] == want and "final" in records[-1], out[-300:] or err)

# The seed matters; everything else equal, another seed is another run.
code1, out1, _ = run_train({"task": "previous", "steps": 5, "seed": 1})
code2, out2, _ = run_train({"task": "previous", "steps": 5, "seed": 2})
check("train: seeds 1 and 2 give different runs", code1 == 0 and code2 == 0 and out1 != out2)
# Integers may be written as 4.0 (JSON has one number type).
code1, out1, _ = run_train({"task": "previous", "steps": 3, "batch": 4})
code2, out2, _ = run_train({"task": "previous", "steps": 3.0, "batch": 4.0})
check("train: steps 3.0 and batch 4.0 are the integers 3 and 4", code1 == 0 and out1 == out2, out2[:200])

# The seed's question: with the default settings the verb learns to look at its object.
code, out, err = run(["train", os.path.join(TRAIN_FIXTURES, "verb_object_default.json")])
final = jsonl(out)[-1]["final"] if code == 0 else {}
tokens = final.get("tokens", [])
weight = final["heads"][0][tokens.index("люблю")][tokens.index("суши")] if "люблю" in tokens and "суши" in tokens else -1
check(f"train verb_object, default settings, 200 steps: evalAccuracy {final.get('evalAccuracy')} >= 0.95",
      code == 0 and final.get("evalAccuracy", 0) >= 0.95, err)
check(f"train verb_object: the row of «люблю» puts {weight:.4f} >= 0.8 on «суши»", weight >= 0.8, final)

# Divergence: the records up to the last good step, a diverged record, exit 3.
diverges = os.path.join(TRAIN_FIXTURES, "diverges.json")
code, out, err = run(["train", diverges])
records = jsonl(out) if out else [{}]
last = records[-1].get("diverged", {})
k = last.get("step", 0)
check("train diverges.json: exit 3, ends with {\"diverged\": {\"step\", \"message\"}}",
      code == 3 and list(records[-1].keys()) == ["diverged"] and list(last.keys()) == ["step", "message"]
      and isinstance(k, int) and k >= 2 and "step" in last["message"], (code, out[-300:], err))
check("train diverges.json: the records before it are steps 1..k-1, finite",
      not metric_problems(records[:-1], list(range(1, k))), metric_problems(records[:-1], list(range(1, k)))[:2])
code2, out2, _ = run(["train", diverges, "--every", "25"])
records2 = jsonl(out2) if out2 else [{}]
check("train diverges.json --every 25: the last good step is printed, then the same diverged record",
      code2 == 3 and [r.get("step") for r in records2[:-1]] == [k - 1] and records2[-1] == records[-1], out2[-300:])
code3, out3, _ = run(["train", diverges, "--format", "csv"])
lines = out3.rstrip("\n").split("\n")
check("train diverges.json --format csv: rows 1..k-1, a blank line, '# diverged at step k: ...', exit 3",
      code3 == 3 and lines[0] == CSV_HEADER and [int(l.split(",")[0]) for l in lines[1:k]] == list(range(1, k))
      and lines[k] == "" and lines[k + 1].startswith(f"# diverged at step {k}: ") and len(lines) == k + 2, out3[-300:])

# Bad input: exit 2, one line on stderr naming the field, nothing on stdout.
bad_train = [
    # (name, input text or object, a word the message must contain)
    ("not JSON", '{"task": ', "JSON"),
    ("empty input", "", "JSON"),
    ("not an object", "[1, 2]", "object"),
    ("unknown field", {"epochs": 3}, '"epochs"'),
    ("unknown field (case)", {"Task": "max"}, '"Task"'),
    ("a field given twice", '{"steps": 2, "steps": 3}', '"steps"'),
    ("task unknown", {"task": "sort"}, '"task"'),
    ("task a number", {"task": 1}, '"task"'),
    ("length 1", {"task": "reverse", "length": 1}, '"length"'),
    ("length 17", {"task": "reverse", "length": 17}, '"length"'),
    ("length 4.5", {"task": "reverse", "length": 4.5}, '"length"'),
    ("length a string", {"length": "6"}, '"length"'),
    ("optimizer unknown", {"optimizer": "rmsprop"}, '"optimizer"'),
    ("optimizer null", {"optimizer": None}, '"optimizer"'),
    ("lr 0", {"lr": 0}, '"lr"'),
    ("lr negative", {"lr": -0.1}, '"lr"'),
    ("lr 11", {"lr": 11}, '"lr"'),
    ("lr a string", {"lr": "0.01"}, '"lr"'),
    ("lr 1e400", '{"lr": 1e400}', '"lr"'),
    ("batch 0", {"batch": 0}, '"batch"'),
    ("batch 257", {"batch": 257}, '"batch"'),
    ("batch true", {"batch": True}, '"batch"'),
    ("seed -1", {"seed": -1}, '"seed"'),
    ("seed 2^32", {"seed": 4294967296}, '"seed"'),
    ("seed 1.5", {"seed": 1.5}, '"seed"'),
    ("normalizer unknown", {"normalizer": "softermax"}, '"normalizer"'),
    ("scaled a string", {"scaled": "yes"}, '"scaled"'),
    ("scaled 1", {"scaled": 1}, '"scaled"'),
    ("causal null", {"causal": None}, '"causal"'),
    ("dModel 1", {"dModel": 1}, '"dModel"'),
    ("dModel 129", {"dModel": 129}, '"dModel"'),
    ("dK 0", {"dK": 0}, '"dK"'),
    ("dK 257", {"dK": 257}, '"dK"'),
    ("dV 0", {"dV": 0}, '"dV"'),
    ("dV a list", {"dV": [8]}, '"dV"'),
    ("heads 0", {"heads": 0}, '"heads"'),
    ("heads 9", {"heads": 9}, '"heads"'),
    ("example a number", {"example": 3}, '"example"'),
    ("example out of the vocabulary", {"example": "я люблю пиццу"}, '"example"'),
    ("example without a verb", {"example": "я суши"}, '"example"'),
    ("example of the wrong length", {"task": "reverse", "length": 4, "example": "a b c"}, '"example"'),
    ("example with two maxima", {"task": "max", "length": 4, "example": "9 1 9 2"}, '"example"'),
    ("steps 0", {"steps": 0}, '"steps"'),
    ("steps 100001", {"steps": 100001}, '"steps"'),
    ("steps 2.5", {"steps": 2.5}, '"steps"'),
    ("steps a string", {"steps": "10"}, '"steps"'),
]
for name, inp, word in bad_train:
    code, out, err = run_train(inp)
    lines = err.strip("\n").split("\n")
    check(f"train, bad input ({name}): exit 2, one line naming {word}, no stdout",
          code == 2 and out == "" and len(lines) == 1 and err.endswith("\n")
          and lines[0].startswith("attnlab train: ") and word in lines[0], f"code={code} out={out[:80]!r} err={err!r}")
for name, args, word in (("--format xml", ["--format", "xml"], "--format"), ("--every 0", ["--every", "0"], "--every"),
                         ("--every x", ["--every", "x"], "--every"), ("--every 100001", ["--every", "100001"], "--every"),
                         ("a missing file", ["/nonexistent/task.json"], "/nonexistent/task.json")):
    if args[0].startswith("--"):
        code, out, err = run_train({"steps": 2}, *args)
    else:
        code, out, err = run(["train", *args])
    check(f"train, bad option ({name}): exit 2, one line naming {word}, no stdout",
          code == 2 and out == "" and len(err.strip().splitlines()) == 1 and word in err, f"code={code} err={err!r}")

code, text, _ = run(["train", "--help"])
lines = text.splitlines()
examples = [i for i, line in enumerate(lines) if line.strip().startswith("echo '")]
ok = code == 0 and len(examples) == 1 and "verb_object" in text and "exit code 3" in text
if ok:
    line = lines[examples[0]].strip()
    cmd = line[line.index("| attnlab ") + len("| attnlab "):].split()
    code2, out2, _ = run(cmd, stdin=line[len("echo '"):line.index("' |")])
    ok = code2 == 0 and "final" in jsonl(out2)[-1]
check("train --help: documents the input, the formats and exit code 3; its example runs", ok, text[-300:])
code, text, _ = run(["--help"])
check("attnlab --help lists train and norm", code == 0 and "train" in text and "norm" in text, text)


# --- attnlab norm ------------------------------------------------------------------------------

def chi_mean(k):
    return math.sqrt(2) * math.exp(math.lgamma((k + 1) / 2) - math.lgamma(k / 2))


def saturation_reference(dk, keys, rows, rng):
    """Per-row entropy, gradient norm and largest weight of softmax over `keys` scores q·k_j,
    unscaled and scaled. Given q the scores are iid N(0, |q|²), so they are drawn as |q|·N(0, 1)
    with |q|² ~ chi²(dk): the same distribution by another route. Returns {name: (mean, sd)}."""
    r = np.sqrt(rng.chisquare(dk, size=(rows, 1)))
    z = rng.normal(size=(rows, keys))
    g = rng.normal(size=(rows, keys))
    out = {}
    for label, s in (("Unscaled", r * z), ("Scaled", r * z / math.sqrt(dk))):
        e = np.exp(s - s.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            h = -np.where(p > 0, p * np.log(p), 0.0).sum(axis=1)
        ds = p * (g - (p * g).sum(axis=1, keepdims=True))
        for name, x in (("entropy", h), ("grad", np.linalg.norm(ds, axis=1)), ("maxWeight", p.max(axis=1))):
            out[name + label] = (x.mean(), x.std())
    return out


def sparsemax_rows(z):
    zs = -np.sort(-z, axis=1)
    cs = np.cumsum(zs, axis=1)
    ks = np.arange(1, z.shape[1] + 1)
    support = 1 + ks * zs > cs
    k = support.sum(axis=1)
    tau = (cs[np.arange(len(z)), k - 1] - 1) / k
    return np.maximum(z - tau[:, None], 0.0)


def normalize_rows(s, kind):
    if kind == "softmax":
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    if kind == "sparsemax":
        return sparsemax_rows(s)
    if kind == "relunorm":
        r = np.maximum(s, 0.0)
        tot = r.sum(axis=1, keepdims=True)
        return np.where(tot > 0, r / np.where(tot > 0, tot, 1), 1.0 / s.shape[1])
    if kind == "sigmoid":
        return 1 / (1 + np.exp(-s))
    if kind == "none":
        return s.copy()
    if kind == "hardmax":
        top = s == s.max(axis=1, keepdims=True)
        return top / top.sum(axis=1, keepdims=True)
    raise ValueError(kind)


def output_reference(c, kinds, keys, dv, rows, rng):
    """Mean and sd of ||normalize(c z) V|| per normalizer and of max_i ||v_i||, by numpy."""
    z = rng.normal(size=(rows, keys))
    V = rng.normal(size=(rows, keys, dv))
    out = {}
    for kind in kinds:
        w = normalize_rows(c * z, kind)
        x = np.linalg.norm(np.einsum("rj,rjd->rd", w, V), axis=1)
        out[kind] = (x.mean(), x.std())
    b = np.linalg.norm(V, axis=2).max(axis=1)
    out["bound"] = (b.mean(), b.std())
    return out


def near(measured, ref, samples, ref_rows):
    """|measured - mean| within 5 standard errors of the difference (the CLI's and numpy's)."""
    mean, sd = ref
    return abs(measured - mean) <= 5 * sd * math.sqrt(1 / samples + 1 / ref_rows) + 1e-12


code, out, err = run(["norm"])
check("norm: exit 0, nothing on stderr", code == 0 and err == "", err)
norm = json.loads(out) if code == 0 else {}
S = norm.get("samples", 0)
check("norm: {seed, samples, variance, saturation, output}, default seed 1 and 2000 samples",
      list(norm.keys()) == ["seed", "samples", "variance", "saturation", "output"] and norm["seed"] == 1 and S == 2000,
      list(norm.keys()))
code2, out2, _ = run(["norm"])
check("norm: a second run prints the same bytes", code2 == 0 and out2 == out)

# variance: E s² = dK, relative standard error sqrt((2 + 6/dK) / S) (see test_normexp.cpp)
V = norm["variance"]["points"]
dks = [p["dK"] for p in V]
check("norm variance: dK = 1, 2, 4, ..., 512", dks == [2 ** i for i in range(10)], dks)
problems = []
for p in V:
    se = math.sqrt((2 + 6 / p["dK"]) / S)
    if p["analyticUnscaled"] != p["dK"] or p["analyticScaled"] != 1:
        problems.append(f"dK={p['dK']}: analytic values {p['analyticUnscaled']}, {p['analyticScaled']}")
    if abs(p["varUnscaled"] / p["dK"] - 1) > 5 * se or abs(p["varScaled"] - 1) > 5 * se:
        problems.append(f"dK={p['dK']}: {p['varUnscaled']}, {p['varScaled']} (5 se = {5 * se:.3f})")
check("norm variance: unscaled ≈ dK and scaled ≈ 1 within 5 standard errors", not problems, problems)
check("norm variance: at dK = 1 the two columns are the same number", V[0]["varUnscaled"] == V[0]["varScaled"], V[0])

# saturation: against numpy's own simulation of the same distributions
sat = norm["saturation"]
M = sat["keys"]
check("norm saturation: keys 16, logKeys = log 16", M == 16 and sat["logKeys"] == math.log(16), sat.get("logKeys"))
P = sat["points"]
rng = np.random.default_rng(7)
problems = []
for p in P:
    ref = saturation_reference(p["dK"], M, 40000, rng)
    for name, r in ref.items():
        if not near(p[name], r, S, 40000):
            problems.append(f"dK={p['dK']} {name}: {p[name]:.4f}, numpy {r[0]:.4f} ± {r[1] / math.sqrt(S):.4f}")
    if max(p["entropyUnscaled"], p["entropyScaled"]) > math.log(M) + 1e-12:
        problems.append(f"dK={p['dK']}: entropy above log M")
check("norm saturation: entropy, gradient and largest weight match numpy's simulation (5 se)", not problems, problems[:4])
check("norm saturation: at dK = 1 unscaled and scaled are the same numbers",
      all(P[0][f + "Unscaled"] == P[0][f + "Scaled"] for f in ("entropy", "grad", "maxWeight")), P[0])
big = [p for p in P if p["dK"] >= 8]
check("norm saturation: unscaled, entropy and gradient fall and the largest weight grows with dK >= 8",
      all(a["entropyUnscaled"] > b["entropyUnscaled"] and a["gradUnscaled"] > b["gradUnscaled"]
          and a["maxWeightUnscaled"] < b["maxWeightUnscaled"] for a, b in zip(big, big[1:])),
      [(p["dK"], round(p["entropyUnscaled"], 3)) for p in P])

# output: exact relations, then numpy
O = norm["output"]
names = O["normalizers"]
check("norm output: keys 16, dV 16, the six normalizers",
      O["keys"] == 16 and O["dV"] == 16 and names == NORMALIZERS, (O["keys"], O["dV"], names))
pts = O["points"]
cs = [p["magnitude"] for p in pts]
check("norm output: c = 0, 0.25, 0.5, 1, 2, ..., 64", cs == [0, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64], cs)
col = {name: [p["norm"][i] for p in pts] for i, name in enumerate(names)}
convex = ["softmax", "sparsemax", "relunorm", "hardmax"]
check("norm output: softmax, sparsemax, relunorm, hardmax stay <= max ||v_i|| at every c",
      all(col[k][i] <= pts[i]["bound"] * (1 + 1e-12) for k in convex for i in range(len(pts))),
      [(k, col[k]) for k in convex])
check("norm output: 'none' is c times one number; relunorm the same for every c > 0",
      col["none"][0] == 0 and all(abs(col["none"][i] / (cs[i] * col["none"][3]) - 1) < 1e-12 for i in range(1, len(cs)))
      and all(abs(x / col["relunorm"][1] - 1) < 1e-12 for x in col["relunorm"][1:]), (col["none"], col["relunorm"]))
check("norm output: at c = 0 the convex normalizers are the uniform row, the same bits",
      len({col[k][0] for k in convex}) == 1, [col[k][0] for k in convex])
check("norm output: the bound is one number (the same draws at every c)", len({p["bound"] for p in pts}) == 1)
mu = chi_mean(16)
check("norm output: the analytic means: uniform row chi_16/4, sigmoid at 0 2·chi_16, none c·chi_16²",
      abs(col["softmax"][0] - mu / 4) < 5 * math.sqrt((16 - mu * mu) / 16 / S)
      and abs(col["sigmoid"][0] - 2 * mu) < 5 * math.sqrt(4 * (16 - mu * mu) / S)
      and abs(col["none"][3] - mu * mu) < 5 * math.sqrt((256 - mu ** 4) / S),
      (col["softmax"][0], mu / 4, col["sigmoid"][0], 2 * mu, col["none"][3], mu * mu))
problems = []
for p in pts:
    ref = output_reference(p["magnitude"], names, 16, 16, 20000, rng)
    for i, name in enumerate(names):
        if not near(p["norm"][i], ref[name], S, 20000):
            problems.append(f"c={p['magnitude']} {name}: {p['norm'][i]:.4f}, numpy {ref[name][0]:.4f}")
    if not near(p["bound"], ref["bound"], S, 20000):
        problems.append(f"c={p['magnitude']} bound: {p['bound']:.4f}, numpy {ref['bound'][0]:.4f}")
check("norm output: every normalizer's mean norm and the bound match numpy's simulation (5 se)", not problems, problems[:4])

# Options: one experiment, another seed, more samples.
code, out, _ = run(["norm", "--experiment", "variance", "--seed", "5", "--samples", "300"])
one = json.loads(out) if code == 0 else {}
check("norm --experiment variance --seed 5 --samples 300: only the variance, with that seed and count",
      code == 0 and list(one.keys()) == ["seed", "samples", "variance"] and one["seed"] == 5 and one["samples"] == 300
      and one["variance"]["points"][3]["varUnscaled"] != V[3]["varUnscaled"], list(one.keys()))
for experiment in ("saturation", "output"):
    code, out, _ = run(["norm", "--experiment", experiment])
    one = json.loads(out) if code == 0 else {}
    check(f"norm --experiment {experiment}: the same numbers as in 'all'",
          code == 0 and list(one.keys()) == ["seed", "samples", experiment] and one[experiment] == norm[experiment])
for name, args, word in (("--experiment foo", ["--experiment", "foo"], "--experiment"),
                         ("--samples 0", ["--samples", "0"], "--samples"),
                         ("--samples 100001", ["--samples", "100001"], "--samples"),
                         ("--samples x", ["--samples", "x"], "--samples"),
                         ("--seed -1", ["--seed", "-1"], "--seed"),
                         ("--seed 2^32", ["--seed", "4294967296"], "--seed"),
                         ("a stray argument", ["extra"], "extra")):
    code, out, err = run(["norm", *args])
    check(f"norm, bad option ({name}): exit 2, one line naming {word}, no stdout",
          code == 2 and out == "" and len(err.strip().splitlines()) == 1 and word in err, f"code={code} err={err!r}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
