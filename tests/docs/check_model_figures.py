#!/usr/bin/env python3
"""The shipped model's figures in README.md and docs/model.md are the shipped files' own: every
held-out row (web/model/eval.json) and every head's row (web/model/heads.json), to the digit, as
scripts/model_report.py writes them. A new model cannot ship with the old model's numbers.
First checks itself: a score changed by 0.001 must be caught.
    check_model_figures.py ROOT
"""
import copy
import importlib.util
import json
import sys
from pathlib import Path


def load_report(root):
    spec = importlib.util.spec_from_file_location("model_report", root / "scripts" / "model_report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def problems(rep, readme, model_md, ev, heads):
    out = []
    readme_lines = set(readme.splitlines())
    model_lines = set(model_md.splitlines())
    for row in rep.readme_rows(ev):
        if row not in readme_lines:
            out.append(f"README.md lacks the row {row}")
    for row in rep.held_out_rows(ev):
        if row not in model_lines:
            out.append(f"docs/model.md lacks the held-out row {row}")
    for row in rep.head_rows(heads):
        if row not in model_lines:
            out.append(f"docs/model.md lacks the head row {row}")
    return out


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    rep = load_report(root)
    readme = (root / "README.md").read_text(encoding="utf-8")
    model_md = (root / "docs" / "model.md").read_text(encoding="utf-8")
    ev = json.loads((root / "web" / "model" / "eval.json").read_text())
    heads = json.loads((root / "web" / "model" / "heads.json").read_text())
    # the check itself: one score moved by 0.001 in each file must be found missing
    ev2 = copy.deepcopy(ev)
    ev2["fortunesRu"]["model"]["bitsPerChar"] += 0.001
    heads2 = copy.deepcopy(heads)
    heads2["heads"][-1]["entropy"] += 0.01
    if len(problems(rep, readme, model_md, ev2, heads2)) < 3:
        print("not ok - the check did not notice changed scores")
        return 1
    found = problems(rep, readme, model_md, ev, heads)
    for p in found:
        print("not ok - " + p)
    if found:
        print("(scripts/model_report.py prints the rows of the shipped model)")
        return 1
    print(f"ok - README.md and docs/model.md hold web/model's figures "
          f"({len(rep.readme_rows(ev))} + {len(rep.held_out_rows(ev))} held-out rows, {len(rep.head_rows(heads))} heads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
