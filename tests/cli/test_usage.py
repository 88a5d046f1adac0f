#!/usr/bin/env python3
"""`attnlab` itself: --help lists every command; a command line without a known command is
refused as bad input is (exit 2, one line on stderr, nothing on stdout).

usage: test_usage.py ATTNLAB FIXTURES_DIR   (no fixtures)
"""
from common import check, finish, run

COMMANDS = ["trace", "forward", "backward", "collide", "train", "norm"]

code, text, _ = run(["--help"])
check("attnlab --help lists collide", code == 0 and "collide" in text, text)
check("attnlab --help lists train and norm", code == 0 and "train" in text and "norm" in text, text)
check("attnlab --help lists every command", code == 0 and all(c in text for c in COMMANDS), text)

code, out, err = run(["frobnicate"])
check("unknown command: exit 2", code == 2 and out == "", err)
lines = err.strip("\n").split("\n")
check("unknown command: one line 'attnlab: ...' naming it and every command",
      len(lines) == 1 and lines[0].startswith("attnlab: ") and "frobnicate" in lines[0]
      and all(c in lines[0] for c in COMMANDS), err)
code, out, err = run([])
check("no command: exit 2, one line, no stdout", code == 2 and out == "" and len(err.strip().splitlines()) == 1, err)

finish()
