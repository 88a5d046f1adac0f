#!/usr/bin/env python3
"""attnlab lesson check / show: a lesson document (docs/lessons.md) checked as the lab checks it:
the built-in one and a two-step one pass with a one-line summary; a broken one is refused with
the path of its fault, in the one wording, exit 2 and nothing on stdout.

usage: test_lesson.py ATTNLAB FIXTURES_DIR
"""
import json
import os
import sys

from common import check, finish, run

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(sys.argv[2], "lesson")

code, out, err = run(["lesson", "check", os.path.join(ROOT, "web", "lessons", "seed.json")])
check("lesson check: the built-in lesson passes", code == 0 and err == "" and out.startswith('ok: lesson "seed", 9 steps, 9 questions'),
      f"code={code} out={out!r} err={err!r}")

code, out, err = run(["lesson", "check", os.path.join(FIX, "two_steps.json")])
check("lesson check: a two-step lesson passes", code == 0 and out == 'ok: lesson "two-steps", 2 steps, 2 questions: Two steps\n',
      f"code={code} out={out!r} err={err!r}")

code, out, err = run(["lesson", "check", os.path.join(FIX, "broken.json")])
check("lesson check: eight choices are refused with their path",
      code == 2 and out == "" and err == "attnlab lesson: steps[1].question.choices: expected an array of 2 to 6 choices, got 8 choices\n",
      f"code={code} out={out!r} err={err!r}")

doc = json.load(open(os.path.join(FIX, "two_steps.json"), encoding="utf-8"))
cases = [
    (lambda d: d["steps"][0]["state"].update(temperature=-1),
     "steps[0].state.temperature: expected a number from 0.001 to 1000, got -1"),
    (lambda d: d["steps"][0].update(colour="red"),
     "steps[0].colour: unknown field (expected one of title, quote, text, verdict, state, run, question, numbers, extra, try, point)"),
    (lambda d: d["steps"][0]["question"].update(right=2), "steps[0].question.right: expected an integer from 0 to 1, got 2"),
    (lambda d: d.update(format="attentionlab-lesson-2"), 'format: expected "attentionlab-lesson-1", got "attentionlab-lesson-2"'),
    (lambda d: d["steps"][1]["title"].update(en="x" * 201), "steps[1].title.en: expected a text of 1 to 200 bytes, got 201 bytes"),
]
for change, message in cases:
    d = json.loads(json.dumps(doc))
    change(d)
    code, out, err = run(["lesson", "check", "-"], stdin=json.dumps(d, ensure_ascii=False))
    check(f"lesson check: {message.split(':')[0]} refused", code == 2 and out == "" and err == "attnlab lesson: " + message + "\n",
          f"code={code} err={err!r}")

code, out, err = run(["lesson", "show", os.path.join(FIX, "two_steps.json"), "--step", "1", "--lang", "ru"])
check("lesson show: a step's texts in Russian, the right choice marked",
      code == 0 and out.startswith("Тождественные проекции\n") and "  2. на себя  (right)\n" in out and "  1. «я»\n" in out,
      f"code={code} out={out!r} err={err!r}")
code, out, err = run(["lesson", "show", os.path.join(FIX, "two_steps.json"), "--step", "3"])
check("lesson show: a step that is not there is refused", code == 2 and err == "attnlab lesson: --step: expected an integer from 1 to 2, got 3\n",
      f"code={code} err={err!r}")

finish()
