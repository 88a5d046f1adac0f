#!/usr/bin/env python3
"""`attnlab backward IN.json`: forward's weights and output plus the exact gradients dq, dk, dv of
L = sum(output · dOutput) agree with the numpy reference of common.py, built from the same input,
which is itself checked against central finite differences first; hand-worked cases; the --help
example; bad input refused in the one shape.

usage: test_backward.py ATTNLAB FIXTURES_DIR   (FIXTURES_DIR/forward/*.json: raw q, k, v, dOutput)
"""
import numpy as np

from common import (NORMALIZERS, check, check_bad_raw, check_help_example, check_random_inputs,
                    check_raw_fixtures, finish, finite_difference_check, kink_margin, random_input,
                    run, run_raw, shape_of)

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

# --- the CLI against the reference on random inputs, and on the fixtures ---------------------
check_random_inputs("backward", rng)
check_raw_fixtures("backward")

# --- cases worked by hand -------------------------------------------------------------------
one = {"q": [[1, 0], [0, 1]], "k": [[1, 0], [0, 1], [1, 1]], "v": [[1, 2], [3, 4], [5, 6]]}
code, out, err = run_raw("backward", {**one, "dOutput": [[[1, 0], [0, 1]]]})
check("2-D input takes a 1×n×d_v dOutput (the shape forward prints)",
      code == 0 and np.shape(out["dq"]) == (1, 2, 2) and np.shape(out["dk"]) == (1, 3, 2), err)

# Hardmax: ties share equally, and the gradient through the weights is zero.
code, out, _ = run_raw("backward", {"q": [[0, 0]], "k": [[1, 2], [3, 4], [5, 6]], "v": [[1], [2], [3]],
                                    "normalizer": "hardmax", "dOutput": [[1]]})
check("hardmax: a three-way tie gives 1/3 each, dq = dk = 0, dv = weights",
      code == 0 and np.allclose(out["weights"], 1 / 3, rtol=0, atol=1e-15)
      and not np.any(out["dq"]) and not np.any(out["dk"]) and np.allclose(out["dv"], 1 / 3, rtol=0, atol=1e-15), out)

# A query that may attend to nothing: zero weights, zero output, zero gradients, for each normalizer.
for kind in NORMALIZERS:
    code, out, err = run_raw("backward", {"q": [[1, 2], [3, 4]], "k": [[1, 0], [0, 1]], "v": [[1], [2]],
                                          "mask": [[True, True], [False, False]], "normalizer": kind,
                                          "dOutput": [[1], [1]]})
    check(f"fully masked row ({kind}): zero weights, output and dq",
          code == 0 and out["weights"][0][1] == [0, 0] and out["output"][0][1] == [0] and out["dq"][0][1] == [0, 0], err or out)

# The example of `--help` runs and prints what it promises.
check_help_example("backward")
code, text, _ = run(["backward", "--help"])
check("backward --help says hardmax's dq and dk are zeros", "hardmax" in text and "zeros" in text)

# --- malformed input: exit 2, one line on stderr naming the field, nothing on stdout --------
check_bad_raw("backward")

finish()
