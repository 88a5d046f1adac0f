#!/usr/bin/env python3
"""Runs every test of `attnlab` (tests/cli/test_*.py, one file per command plus test_usage.py)
with the same arguments, one after another, and fails if any of them fails. ctest runs this as
the test `cli`.

usage: run_all.py ATTNLAB FIXTURES_DIR

Each file prints "ok - ..." / "not ok - ..." per check and ends with "N passed, M failed"; this
prints their output, one summary line per file, and closes with the totals in the same form.
A file that stops before its summary line (an exception) counts as failed: its checks up to
there, plus one failure for the stop.
"""
import os
import re
import subprocess
import sys

if len(sys.argv) != 3:
    sys.exit(f"usage: {sys.argv[0]} ATTNLAB FIXTURES_DIR")
here = os.path.dirname(os.path.abspath(__file__))
files = sorted(f for f in os.listdir(here) if f.startswith("test_") and f.endswith(".py"))
passed = failed = 0
summary, broken = [], []
for name in files:
    p = subprocess.run([sys.executable, os.path.join(here, name), *sys.argv[1:]],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(f"# {name}")
    print(p.stdout, end="" if p.stdout.endswith("\n") else "\n")
    last = p.stdout.rstrip("\n").split("\n")[-1]
    m = re.fullmatch(r"(\d+) passed, (\d+) failed", last)
    if m:
        passed += int(m.group(1))
        failed += int(m.group(2))
    else:  # its checks up to the stop, and the stop itself as one more failure
        lines = p.stdout.split("\n")
        passed += sum(line.startswith("ok - ") for line in lines)
        failed += sum(line.startswith("not ok - ") for line in lines) + 1
    if not m or p.returncode != 0:
        broken.append(name)
    summary.append(f"{name}: {last if m else f'stopped (exit {p.returncode}) before its summary line'}")
print("\n".join(summary))
if broken:
    print(f"failed: {', '.join(broken)}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if broken or not files else 0)
