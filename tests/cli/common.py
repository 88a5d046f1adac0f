"""What every test of `attnlab` shares: running it, counting checks, comparing numbers, the one
shape of a refusal, and the numpy reference of attention on raw q, k, v (PyTorch's conventions)
that trace, forward and backward are checked against.

Each test_*.py is run as  python3 test_x.py ATTNLAB FIXTURES_DIR  (run_all.py runs them all),
prints "ok - ..." / "not ok - ..." per check and ends with "N passed, M failed" (finish()).
"""
import json
import math
import os
import subprocess
import sys

import numpy as np

if len(sys.argv) != 3:
    sys.exit(f"usage: {sys.argv[0]} ATTNLAB FIXTURES_DIR")
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


# Under the sanitizers (ctest's fuzz and native-debug runs set ATTNLAB_TEST_QUICK=1) the slowest checks
# on the shipped model run once and in one language: the release run has already compared every
# repeat and both languages, and one run is what finds a memory error in the same code.
QUICK = os.environ.get("ATTNLAB_TEST_QUICK") == "1"

# The repository and the shipped model's folder (web/model), for the `attnlab model` tests.
REPO = os.path.abspath(os.path.join(FIXTURES, "..", "..", ".."))
SHIPPED_MODEL = os.path.join(REPO, "web", "model")


def model(*args, timeout=600):
    """`attnlab model ARGS...`: (exit code, stdout, stderr), bytes decoded as UTF-8."""
    p = subprocess.run([ATTNLAB, "model", *args], capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8", "replace")


def finish():
    """The closing line run_all.py reads, and the exit code: 1 when a check failed."""
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def max_rel_err(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b))))


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


# --- bad input: the one shape of a refusal ---------------------------------------------------

def as_bytes(inp):
    """An input as the bytes sent: bytes as they are, text encoded, anything else as JSON."""
    if isinstance(inp, bytes):
        return inp
    return (inp if isinstance(inp, str) else json.dumps(inp)).encode()


def check_refusal(command, name, inp, word, args=None, what="bad input"):
    """`attnlab COMMAND` (or `attnlab *args`) with `inp` on stdin refuses it as every command
    does: exit 2, nothing on stdout, one line "attnlab COMMAND: ..." on stderr naming `word`."""
    p = subprocess.run([ATTNLAB, *(args or [command])], input=as_bytes(inp), capture_output=True, timeout=60)
    err = p.stderr.decode("utf-8", "replace")
    lines = err.strip("\n").split("\n")
    check(f"{command}, {what} ({name}): exit 2, one line naming {word}, no stdout",
          p.returncode == 2 and p.stdout == b"" and len(lines) == 1 and err.endswith("\n")
          and lines[0].startswith(f"attnlab {command}: ") and word in lines[0],
          f"code={p.returncode} out={p.stdout[:80]!r} err={err!r}")


# ============================================================================================
# The reference: attention on raw tensors in numpy, independent of the engine. Its settings
# always come from the input the test gives (unpack), never from the output it checks.
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


# --- forward and backward refuse these: one table for both commands --------------------------
_Q, _K, _V = [[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[1.0], [2.0], [3.0]]
_BASE = {"q": _Q, "k": _K, "v": _V}


def _without(field):
    return {f: x for f, x in _BASE.items() if f != field}


_big = [[0.0]] * 4096
BAD_RAW = [
    # (name, command, input text or object, a word the message must contain)
    ("not JSON", "forward", '{"q": [[1, 2]', "JSON"),
    ("empty input", "forward", "", "JSON"),
    ("invalid UTF-8", "forward", b'{"q": "\xff"}', "JSON"),
    ("not an object", "forward", "[[1, 2]]", "object"),
    ("missing q", "forward", _without("q"), '"q"'),
    ("missing k", "forward", _without("k"), '"k"'),
    ("missing v", "forward", _without("v"), '"v"'),
    ("q is a string", "forward", {**_BASE, "q": "abc"}, '"q"'),
    ("q is null", "forward", {**_BASE, "q": None}, '"q"'),
    ("a string in k", "forward", {**_BASE, "k": [[1, "x"], [0, 1], [1, 1]]}, "k[0][1]"),
    ("null in v", "forward", {**_BASE, "v": [[1], [None], [3]]}, "v[1][0]"),
    ("a boolean in q", "forward", {**_BASE, "q": [[1, True], [3, 4]]}, "q[0][1]"),
    ("an object in q", "forward", {**_BASE, "q": [[1, {}], [3, 4]]}, "q[0][1]"),
    ("ragged k (short row)", "forward", {**_BASE, "k": [[1, 0], [0], [1, 1]]}, "k[1]"),
    ("ragged q (number for a row)", "forward", {**_BASE, "q": [[1, 2], 3]}, "q[1]"),
    ("ragged q (array for a number)", "forward", {**_BASE, "q": [[1, 2], [[3], 4]]}, "q[1][0]"),
    ("ragged 3-D v (head sizes)", "forward", {**_BASE, "q": [_Q, _Q], "k": [_K, _K], "v": [_V, _V[:2]]}, "v[1]"),
    ("rank 1", "forward", {**_BASE, "q": [1, 2]}, "1-D"),
    ("rank 4", "forward", {**_BASE, "q": [[_Q]]}, "4-D"),
    ("empty q", "forward", {**_BASE, "q": []}, "empty"),
    ("empty rows", "forward", {**_BASE, "q": [[], []]}, "empty"),
    ("empty head", "forward", {**_BASE, "q": [[[]]]}, "empty"),
    ("q 3-D, k 2-D", "forward", {**_BASE, "q": [_Q]}, '"k"'),
    ("heads differ", "forward", {"q": [_Q, _Q], "k": [_K, _K, _K], "v": [_V, _V]}, "heads"),
    ("d_k of q != d_k of k", "forward", {**_BASE, "k": [[1.0], [2.0], [3.0]]}, "d_k"),
    ("m of k != m of v", "forward", {**_BASE, "v": [[1.0], [2.0]]}, '"v"'),
    ("mask shape m×n", "forward", {**_BASE, "mask": [[True, True], [True, True], [True, True]]}, '"mask"'),
    ("mask of numbers", "forward", {**_BASE, "mask": [[1, 1, 1], [1, 1, 1]]}, "mask[0][0]"),
    ("mask 3-D", "forward", {**_BASE, "mask": [[[True, True, True], [True, True, True]]]}, '"mask"'),
    ("mask null", "forward", {**_BASE, "mask": None}, '"mask"'),
    ("causal as a string", "forward", {**_BASE, "causal": "yes"}, '"causal"'),
    ("causal as 1", "forward", {**_BASE, "causal": 1}, '"causal"'),
    ("scale as a string", "forward", {**_BASE, "scale": "1"}, '"scale"'),
    ("scale as a boolean", "forward", {**_BASE, "scale": True}, '"scale"'),
    ("scale 1e400", "forward", '{"q": [[1]], "k": [[1]], "v": [[1]], "scale": 1e400}', '"scale"'),
    ("temperature 0", "forward", {**_BASE, "temperature": 0}, '"temperature"'),
    ("temperature negative", "forward", {**_BASE, "temperature": -1}, '"temperature"'),
    ("temperature null", "forward", {**_BASE, "temperature": None}, '"temperature"'),
    ("temperature 1e400", "forward", '{"q": [[1]], "k": [[1]], "v": [[1]], "temperature": 1e400}', '"temperature"'),
    ("a number 1e400 in q", "forward", '{"q": [[1e400]], "k": [[1]], "v": [[1]]}', '"q"'),
    ("unknown normalizer", "forward", {**_BASE, "normalizer": "softermax"}, '"normalizer"'),
    ("normalizer as a number", "forward", {**_BASE, "normalizer": 1}, '"normalizer"'),
    ("unknown field", "forward", {**_BASE, "maks": [[True]]}, '"maks"'),
    ("a field given twice", "forward", '{"q": [[1]], "k": [[1]], "v": [[1]], "q": [[2]]}', '"q"'),
    ("backward without dOutput", "backward", _BASE, '"dOutput"'),
    ("dOutput n×d_v transposed", "backward", {**_BASE, "dOutput": [[1, 1]]}, '"dOutput"'),
    ("dOutput with wrong heads", "backward", {"q": [_Q], "k": [_K], "v": [_V], "dOutput": [[[1], [1]]] * 2}, '"dOutput"'),
    ("dOutput 2-D for 3-D input", "backward", {"q": [_Q], "k": [_K], "v": [_V], "dOutput": [[1], [1]]}, '"dOutput"'),
    ("dOutput with a string", "backward", {**_BASE, "dOutput": [[1], ["1"]]}, "dOutput[1][0]"),
    ("forward checks a dOutput too", "forward", {**_BASE, "dOutput": [[1, 1]]}, '"dOutput"'),
    ("d_k above 4096", "forward", {"q": [[0.0] * 4097], "k": [[0.0] * 4097], "v": [[0.0]]}, "4096"),
    ("n above 4096", "forward", {"q": [[0.0]] * 4097, "k": [[0.0]], "v": [[0.0]]}, "4096"),
    ("h above 4096", "forward", {"q": [[[0.0]]] * 4097, "k": [[[0.0]]] * 4097, "v": [[[0.0]]] * 4097}, "4096"),
    ("n·m above 16M numbers", "forward", {"q": _big, "k": _big, "v": _big}, "16777216"),
    ("scores overflow", "forward", {"q": [[1e200]], "k": [[1e200]], "v": [[1]]}, "overflow"),
    ("scores overflow by temperature", "forward", {"q": [[1e200]], "k": [[1e100]], "v": [[1]], "temperature": 1e-10}, "overflow"),
    ("output overflows", "forward", {"q": [[1]], "k": [[1e10]], "v": [[1e300]], "normalizer": "none", "scale": 1}, "overflow"),
    ("gradient overflows", "backward", {"q": [[1]], "k": [[1]], "v": [[1e300]], "dOutput": [[1e300]]}, "overflow"),
]


# --- forward and backward are checked the same way ---------------------------------------------

def raw_keys(command):
    return ["weights", "output"] + (["dq", "dk", "dv"] if command == "backward" else [])


CASES_PER_NORMALIZER = 24


def check_random_inputs(command, rng):
    """Per normalizer, CASES_PER_NORMALIZER random inputs through `command` against the reference
    built from the same input; and the same answers against a reference whose scale is negated,
    which must not match (else this comparison could not fail)."""
    keys = raw_keys(command)
    reference = ref_backward if command == "backward" else ref_forward
    for kind in NORMALIZERS:
        worst, worst_case, problems, cases, wrong = 0.0, "", [], 0, 0.0
        while cases < CASES_PER_NORMALIZER:
            inp = random_input(rng, kind, with_grad=command == "backward")
            if kink_margin(inp) < 1e-7:  # rounding could pick the other side of a kink
                continue
            cases += 1
            ref = reference(inp)
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
            wrong = max(wrong, compare(out, reference({**inp, "scale": -unpack(inp)[4]}), keys)[0])
        check(f"{command} {kind}: {cases} random inputs match numpy (max rel err {worst:.1e}, worst {worst_case})",
              not problems and worst <= 1e-5, problems[:3] or f"{worst:.3e}")
        check(f"{command} {kind}: the reference with the scale negated does not match (max rel err {wrong:.1e}): "
              f"the comparison can fail", wrong > 1e-3, f"{wrong:.3e}")


def check_raw_fixtures(command):
    """tests/cli/fixtures/forward/*.json through `command`, from the file and from stdin."""
    raw_fixtures = os.path.join(FIXTURES, "forward")
    keys = raw_keys(command)
    for fixture in sorted(os.listdir(raw_fixtures)):
        path = os.path.join(raw_fixtures, fixture)
        with open(path) as f:
            inp = json.load(f)
        code, out, err = run([command, path])
        if code != 0:
            check(f"{command} {fixture}: exit 0", False, err)
            continue
        e, why = compare(json.loads(out), ref_backward(inp), keys)
        check(f"{command} {fixture}: matches numpy (max rel err {e:.1e})", not why and e <= 1e-5, why or f"{e:.3e}")
        with open(path) as f:
            code2, out2, _ = run([command, "-"], stdin=f.read())
        check(f"{command} {fixture}: stdin gives the same output", code2 == 0 and out2 == out)


def check_help_example(command):
    """`attnlab COMMAND --help` documents the input, and its example runs and prints what it
    promises."""
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


def check_bad_raw(command):
    """Every row of BAD_RAW for `command`, refused in the one shape."""
    for name, cmd, inp, word in BAD_RAW:
        if cmd == command:
            check_refusal(command, name, inp, word)
