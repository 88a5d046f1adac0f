#!/usr/bin/env python3
"""`attnlab forward IN.json`: attention weights and output of raw q, k, v (one head or h heads)
agree with the numpy reference of common.py, built from the same input (PyTorch's conventions);
hand-worked cases; the --help example; bad input refused in the one shape.

usage: test_forward.py ATTNLAB FIXTURES_DIR   (FIXTURES_DIR/forward/*.json: raw q, k, v)
"""
import numpy as np

from common import (check, check_bad_raw, check_help_example, check_random_inputs, check_raw_fixtures,
                    finish, run, run_raw)

# --- the CLI against the reference on random inputs, and on the fixtures ---------------------
check_random_inputs("forward", np.random.default_rng(20240603))
check_raw_fixtures("forward")

# --- cases worked by hand -------------------------------------------------------------------
one = {"q": [[1, 0], [0, 1]], "k": [[1, 0], [0, 1], [1, 1]], "v": [[1, 2], [3, 4], [5, 6]]}
code, out, err = run_raw("forward", one)
check("2-D input gives 3-D output (h = 1)",
      code == 0 and np.shape(out["weights"]) == (1, 2, 3) and np.shape(out["output"]) == (1, 2, 2), err)

# Numbers round-trip: with normalizer none and v = 1 the output is q·k·scale, one rounding.
third = 1 / 3
code, out, _ = run_raw("forward", {"q": [[0.1]], "k": [[1.0]], "v": [[1.0]], "normalizer": "none", "scale": third})
check("numbers print in full precision (0.1 · 1/3 comes back bit for bit)",
      code == 0 and out["weights"][0][0][0] == 0.1 * 1.0 * third / 1.0 and out["output"][0][0][0] == 0.1 * third)

# Sparsemax of (1, 0.5, -1): support {1, 0.5}, tau = 0.25, weights (0.75, 0.25, 0).
code, out, _ = run_raw("forward", {"q": [[1]], "k": [[1], [0.5], [-1]], "v": [[1], [0], [0]],
                                   "normalizer": "sparsemax", "scale": 1})
check("sparsemax (1, 0.5, -1) = (0.75, 0.25, 0)", code == 0 and out["weights"] == [[[0.75, 0.25, 0]]], out)

# Causal is top-left (tril(ones(n, m))): query i sees keys j <= i, also when n != m.
for n, m in ((3, 5), (4, 2)):
    code, out, _ = run_raw("forward", {"q": np.ones((n, 2)).tolist(), "k": np.ones((m, 2)).tolist(),
                                       "v": np.ones((m, 1)).tolist(), "causal": True})
    W = np.array(out["weights"][0])
    expect = np.tri(n, m) / np.tri(n, m).sum(axis=1, keepdims=True)
    check(f"causal {n}×{m}: query i attends to keys j <= i, uniformly here", np.allclose(W, expect, atol=1e-15), W)

# The example of `--help` runs and prints what it promises.
check_help_example("forward")

# --- malformed input: exit 2, one line on stderr naming the field, nothing on stdout --------
check_bad_raw("forward")
code, out, err = run(["forward", "/nonexistent/input.json"])
check("forward: a missing file: exit 2, one line", code == 2 and out == "" and len(err.strip().splitlines()) == 1, err)
code, out, err = run(["forward", "a.json", "b.json"])
check("forward: two files: exit 2, one line", code == 2 and out == "" and len(err.strip().splitlines()) == 1, err)

finish()
