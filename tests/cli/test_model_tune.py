#!/usr/bin/env python3
"""`attnlab model tune` (the page's "Train it more"): the shipped model trained more on the
built-in texts prints every step's loss and the weights' checksum; the same run twice gives the
same bytes, N steps are the first N of N + M, the loss falls on both languages' texts, and a
text too short, a refused setting or a missing text are refused in the one shape.

usage: test_model_tune.py ATTNLAB FIXTURES_DIR
"""
import json
import os
import subprocess

from common import QUICK, ATTNLAB, FIXTURES, REPO, SHIPPED_MODEL, check, check_refusal, finish, model


def tune(*args):
    return model("tune", SHIPPED_MODEL, *args)


for lang in (("en",) if QUICK else ("en", "ru")):
    text = os.path.join(REPO, "web", "tune", f"{lang}.txt")
    a = tune("--text-file", text, "--steps", "12")
    b = a if QUICK else tune("--text-file", text, "--steps", "12")
    check(f"model tune ({lang}): exit 0 and the same bytes twice", a[0] == 0 and a == b, a[2][-300:])
    r = json.loads(a[1]) if a[0] == 0 else {}
    losses = [s["loss"] for s in r.get("steps", [])]
    check(f"model tune ({lang}): a loss per step", [s["step"] for s in r.get("steps", [])] == list(range(12)), r.get("steps"))
    check(f"model tune ({lang}): the loss falls (the last three steps below the first three)",
          len(losses) == 12 and sum(losses[-3:]) < sum(losses[:3]) - 0.3, losses)
    check(f"model tune ({lang}): the weights changed", r.get("checksum") and r.get("checksum") != r.get("shippedChecksum"), r)
    if not QUICK:
        short = tune("--text-file", text, "--steps", "5")
        s = json.loads(short[1]) if short[0] == 0 else {}
        check(f"model tune ({lang}): 5 steps are the first 5 of 12, bit for bit",
              [x["loss"] for x in s.get("steps", [])] == losses[:5], s.get("steps"))
    check(f"model tune ({lang}): the settings it ran with are printed",
          r.get("settings") == {"batch": 4, "length": 32, "lr": 0.001, "seed": 1}, r.get("settings"))

c = tune("--text", "I love sushi. You love sushi. We love sushi.", "--steps", "3", "--config", '{"lr": 0.003, "batch": 2}')
r = json.loads(c[1]) if c[0] == 0 else {}
check("model tune: an own text with --config", c[0] == 0 and len(r.get("steps", [])) == 3 and r["settings"]["batch"] == 2, c[2])

check_refusal("model tune", "a text too short", "", "--text: expected a text of at least 8 tokens",
              args=["model", "tune", SHIPPED_MODEL, "--text", "hi"], what="bad text")
check_refusal("model tune", "lr 0", "", "\"lr\": expected a number > 0 and <= 0.1, got 0",
              args=["model", "tune", SHIPPED_MODEL, "--text", "I love sushi and tea very much", "--config", '{"lr": 0}'],
              what="bad setting")
check_refusal("model tune", "an unknown setting", "", "\"steps\": unknown field",
              args=["model", "tune", SHIPPED_MODEL, "--text", "I love sushi and tea very much", "--config", '{"steps": 3}'],
              what="bad setting")
check_refusal("model tune", "no text", "", "expected one of --text and --text-file",
              args=["model", "tune", SHIPPED_MODEL], what="no text")
finish()
