#!/usr/bin/env python3
"""`attnlab norm`: the normalization experiments agree with analytic values and with numpy's own
simulation of the same experiments, built from the settings the test asks for; the options;
bad options refused in the one shape.

usage: test_norm.py ATTNLAB FIXTURES_DIR   (no fixtures)
"""
import json
import math

import numpy as np

from common import NORMALIZERS, check, check_refusal, finish, run


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


# The settings of `attnlab norm` with no options: what the test asks for, from the command line
# and the defaults that `attnlab norm --help` documents. The references below are built from
# these, never from the numbers the output reports about itself.
SAMPLES = 2000                                        # --samples, default
DKS = [2 ** i for i in range(10)]                     # dK = 1, 2, 4, ..., 512
KEYS, DV = 16, 16                                     # saturation's and output's M; output's d_v
MAGNITUDES = [0, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]  # output's c

code, out, err = run(["norm"])
check("norm: exit 0, nothing on stderr", code == 0 and err == "", err)
norm = json.loads(out) if code == 0 else {}
S = SAMPLES
check("norm: {seed, samples, variance, saturation, output}, default seed 1 and 2000 samples",
      list(norm.keys()) == ["seed", "samples", "variance", "saturation", "output"] and norm["seed"] == 1
      and norm["samples"] == SAMPLES, list(norm.keys()))
code2, out2, _ = run(["norm"])
check("norm: a second run prints the same bytes", code2 == 0 and out2 == out)

# variance: E s² = dK, relative standard error sqrt((2 + 6/dK) / S) (see test_normexp.cpp)
V = norm["variance"]["points"]
dks = [p["dK"] for p in V]
check("norm variance: dK = 1, 2, 4, ..., 512", dks == DKS, dks)
problems = []
for dk, p in zip(DKS, V):
    se = math.sqrt((2 + 6 / dk) / S)
    if p["analyticUnscaled"] != dk or p["analyticScaled"] != 1:
        problems.append(f"dK={dk}: analytic values {p['analyticUnscaled']}, {p['analyticScaled']}")
    if abs(p["varUnscaled"] / dk - 1) > 5 * se or abs(p["varScaled"] - 1) > 5 * se:
        problems.append(f"dK={dk}: {p['varUnscaled']}, {p['varScaled']} (5 se = {5 * se:.3f})")
check("norm variance: unscaled ≈ dK and scaled ≈ 1 within 5 standard errors", not problems, problems)
check("norm variance: at dK = 1 the two columns are the same number", V[0]["varUnscaled"] == V[0]["varScaled"], V[0])

# saturation: against numpy's own simulation of the same distributions
sat = norm["saturation"]
M = KEYS
check("norm saturation: keys 16, logKeys = log 16", sat["keys"] == M and sat["logKeys"] == math.log(M), sat.get("logKeys"))
P = sat["points"]
rng = np.random.default_rng(7)
problems = []
for dk, p in zip(DKS, P):
    ref = saturation_reference(dk, M, 40000, rng)
    for name, r in ref.items():
        if not near(p[name], r, S, 40000):
            problems.append(f"dK={dk} {name}: {p[name]:.4f}, numpy {r[0]:.4f} ± {r[1] / math.sqrt(S):.4f}")
    if max(p["entropyUnscaled"], p["entropyScaled"]) > math.log(M) + 1e-12:
        problems.append(f"dK={dk}: entropy above log M")
check("norm saturation: entropy, gradient and largest weight match numpy's simulation (5 se)", not problems, problems[:4])
check("norm saturation: at dK = 1 unscaled and scaled are the same numbers",
      all(P[0][f + "Unscaled"] == P[0][f + "Scaled"] for f in ("entropy", "grad", "maxWeight")), P[0])
big = [p for dk, p in zip(DKS, P) if dk >= 8]
check("norm saturation: unscaled, entropy and gradient fall and the largest weight grows with dK >= 8",
      all(a["entropyUnscaled"] > b["entropyUnscaled"] and a["gradUnscaled"] > b["gradUnscaled"]
          and a["maxWeightUnscaled"] < b["maxWeightUnscaled"] for a, b in zip(big, big[1:])),
      [(p["dK"], round(p["entropyUnscaled"], 3)) for p in P])

# output: exact relations, then numpy
O = norm["output"]
names = NORMALIZERS  # the order of each point's "norm"
check("norm output: keys 16, dV 16, the six normalizers",
      O["keys"] == KEYS and O["dV"] == DV and O["normalizers"] == names, (O["keys"], O["dV"], O["normalizers"]))
pts = O["points"]
check("norm output: c = 0, 0.25, 0.5, 1, 2, ..., 64", [p["magnitude"] for p in pts] == MAGNITUDES,
      [p["magnitude"] for p in pts])
cs = MAGNITUDES
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
for c, p in zip(MAGNITUDES, pts):
    ref = output_reference(c, names, KEYS, DV, 20000, rng)
    for i, name in enumerate(names):
        if not near(p["norm"][i], ref[name], S, 20000):
            problems.append(f"c={c} {name}: {p['norm'][i]:.4f}, numpy {ref[name][0]:.4f}")
    if not near(p["bound"], ref["bound"], S, 20000):
        problems.append(f"c={c} bound: {p['bound']:.4f}, numpy {ref['bound'][0]:.4f}")
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
    check_refusal("norm", name, b"", word, args=["norm", *args], what="bad option")

finish()
