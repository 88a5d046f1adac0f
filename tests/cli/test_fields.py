#!/usr/bin/env python3
"""The settings tables seen from outside: every command refuses a setting in the one wording
'"<field>": expected <what>, got <what came>', `attnlab fields` lists every field of the state
(the same names getState() has), and the field tables of docs/page-api.md are its current output.

usage: test_fields.py ATTNLAB FIXTURES_DIR
"""
import json
import os

from common import check, finish, run

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
QKV = {"q": [[1.0, 0.0]], "k": [[1.0, 0.0], [0.0, 1.0]], "v": [[1.0], [2.0]]}
COLLIDE = {"values": [[0.0], [1.0], [2.0]], "weights": [0, 1, 0], "target": 2}

# (command, input, the exact line on stderr)
cases = [
    ("train", {"batch": 0}, 'attnlab train: "batch": expected an integer from 1 to 256, got 0'),
    ("train", {"lr": "0.1"}, 'attnlab train: "lr": expected a number > 0 and <= 10, got "0.1"'),
    ("train", {"steps": 2.5}, 'attnlab train: "steps": expected an integer from 1 to 100000, got 2.5'),
    ("train", {"normalizer": "softermax"},
     'attnlab train: "normalizer": expected one of "softmax", "sparsemax", "relunorm", "sigmoid", "none", '
     '"hardmax", got "softermax"'),
    ("trace", {"dModel": 1000}, 'attnlab trace: "dModel": expected an integer from 1 to 64, got 1000'),
    ("trace", {"temperature": -2}, 'attnlab trace: "temperature": expected a number from 0.001 to 1000, got -2'),
    ("trace", {"train": {"batch": 0}}, 'attnlab trace: "train.batch": expected an integer from 1 to 256, got 0'),
    ("trace", {"normalizer": "softermax"},
     'attnlab trace: "normalizer": expected one of "softmax", "sparsemax", "relunorm", "sigmoid", "none", '
     '"hardmax", got "softermax"'),
    ("forward", {**QKV, "temperature": 0}, 'attnlab forward: "temperature": expected a number > 0, got 0'),
    ("forward", {**QKV, "causal": "yes"}, 'attnlab forward: "causal": expected true or false, got "yes"'),
    ("forward", {**QKV, "normalizer": "softermax"},
     'attnlab forward: "normalizer": expected one of "softmax", "sparsemax", "relunorm", "sigmoid", "none", '
     '"hardmax", got "softermax"'),
    ("collide", {**COLLIDE, "minimizeTop": 1}, 'attnlab collide: "minimizeTop": expected true or false, got 1'),
]
for command, inp, line in cases:
    code, out, err = run([command, "-"], stdin=json.dumps(inp))
    check(f"{command} {json.dumps({list(inp)[-1]: inp[list(inp)[-1]]})}: refused in the one wording", code == 2 and out == "" and err == line + "\n",
          f"code={code} err={err!r}, expected {line!r}")

# attnlab fields: every field of the state, named as getState() names them.
code, out, err = run(["fields", "--format", "json"])
fields = json.loads(out) if code == 0 else {"state": [], "train": []}
state_names = {f["name"] for f in fields["state"]}
train_names = {f["name"] for f in fields["train"]}
code2, trace_out, _ = run(["trace", "-"], stdin="{}")
state = json.loads(trace_out)["state"] if code2 == 0 else {}
check("fields: the state's fields are exactly getState()'s (train aside)",
      state_names == set(state) - {"train"}, f"{sorted(state_names ^ (set(state) - {'train'}))}")
check("fields: the train fields are exactly state.train's",
      train_names == {"train." + k for k in state.get("train", {})}, f"{sorted(train_names)}")
check("fields: every row says what it accepts, its default and what it does",
      all(f["accepts"] and "default" in f and f["help"] for f in fields["state"] + fields["train"]), "")
defaults_ok = all(str(state.get(f["name"], "")).lower() == str(f["default"]).lower()
                  for f in fields["state"] if f["name"] in state and not isinstance(state[f["name"]], float))
check("fields: the defaults are the state's defaults", defaults_ok, "")

# docs/page-api.md's tables are the current output of `attnlab fields` (scripts/doc_fields.sh).
code, markdown, _ = run(["fields"])
doc = open(os.path.join(ROOT, "docs", "page-api.md"), encoding="utf-8").read()
begin, end = "<!-- attnlab fields: begin -->\n", "<!-- attnlab fields: end -->"
section = doc[doc.find(begin) + len(begin):doc.find(end)] if begin in doc and end in doc else ""
check("docs/page-api.md: the field tables are attnlab fields' output (run scripts/doc_fields.sh)",
      code == 0 and section == markdown, "docs/page-api.md's field tables differ from `attnlab fields`")

# --help lists the input's fields from the same tables.
code, out, _ = run(["train", "--help"])
check("train --help lists every training field", code == 0 and all(
    f"\n  {n[len('train.'):]} " in out for n in train_names if n not in
    {"train.compare", "train.play", "train.speed", "train.query"}), "")

finish()
