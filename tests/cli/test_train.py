#!/usr/bin/env python3
"""`attnlab train TASK.json`: the one-layer model of engine/training/train.h, step by step, prints
well-formed, deterministic records in both formats (jsonl and csv, the same numbers), learns the
verb-object task and reports a divergence with exit code 3; bad input and bad options are
refused in the one shape.

usage: test_train.py ATTNLAB FIXTURES_DIR
  FIXTURES_DIR/train/*.json    training configs (diverges.json must diverge)
"""
import json
import math
import os

import numpy as np

from common import FIXTURES, check, check_refusal, finish, run

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
    check_refusal("train", name, inp, word, args=["train", "-"])
for name, args, word in (("--format xml", ["--format", "xml"], "--format"), ("--every 0", ["--every", "0"], "--every"),
                         ("--every x", ["--every", "x"], "--every"), ("--every 100001", ["--every", "100001"], "--every"),
                         ("a missing file", ["/nonexistent/task.json"], "/nonexistent/task.json")):
    if args[0].startswith("--"):
        check_refusal("train", name, {"steps": 2}, word, args=["train", "-", *args], what="bad option")
    else:
        check_refusal("train", name, b"", word, args=["train", *args], what="bad option")

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

finish()
