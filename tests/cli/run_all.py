#!/usr/bin/env python3
"""Runs every test of `attnlab` (tests/cli/test_*.py, one file per command plus test_usage.py)
with the same arguments, and fails if any of them fails. ctest runs this as the test `cli`, two
files at a time (--jobs 2: most of a file's time is one `attnlab` process waiting for the next).

usage: run_all.py ATTNLAB FIXTURES_DIR [--jobs N]

Each file prints "ok - ..." / "not ok - ..." per check and ends with "N passed, M failed"; this
prints their output, one summary line per file, and closes with the totals in the same form.
A file that stops before its summary line (an exception) counts as failed: its checks up to
there, plus one failure for the stop.
"""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

args, jobs = sys.argv[1:], 1
if len(args) == 4 and args[2] == "--jobs" and args[3].isdigit() and int(args[3]) >= 1:
    args, jobs = args[:2], int(args[3])
if len(args) != 2:
    sys.exit(f"usage: {sys.argv[0]} ATTNLAB FIXTURES_DIR [--jobs N]")
here = os.path.dirname(os.path.abspath(__file__))
files = sorted(f for f in os.listdir(here) if f.startswith("test_") and f.endswith(".py"))


def run(name):
    return subprocess.run([sys.executable, os.path.join(here, name), *args],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


passed = failed = 0
summary, broken = [], []
with ThreadPoolExecutor(jobs) as pool:
    results = list(pool.map(run, files))  # in the files' order, whatever order they end in
for name, p in zip(files, results):
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
