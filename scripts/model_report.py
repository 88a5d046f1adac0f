#!/usr/bin/env python3
"""What a trained model folder measures, as Markdown for docs/model.md and the README: the
held-out table (eval.json), every head (heads.json) with the named ones, the seed's sentence and
"I love sushi" (tokens, what the named heads do, the top-5 next tokens), the sentence typed twice
(the induction heads' weight on the token after the earlier copy) and samples. Every number comes
from the folder's files or from `attnlab model run`; nothing is carried over from an earlier run.

    scripts/model_report.py [--attnlab build/native-release/attnlab] [DIR]    default DIR: web/model
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROWS = [("en", "English, all"), ("ru", "Russian, all"),
        ("fortunesEn", "English, fortunes only"), ("fortunesRu", "Russian, fortunes only")]
PROMPTS = ["I love sushi", "The meaning of life is", "я люблю суши", "Смысл жизни в том, что"]
SEED_TEXTS = ["я люблю суши", "I love sushi"]
TWICE = "я люблю суши, я люблю суши"


def tok(s):
    """A token as the docs write it: in backticks, a newline shown as \\n."""
    return "`" + s.replace("\n", "\\n").replace("`", "'") + "`"


def run(attnlab, folder, text, *extra):
    out = subprocess.run([attnlab, "model", "run", str(folder), "--text", text, "--format", "json", *extra],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


STRONG = {"previous": 0.5, "first": 0.5, "self": 0.5, "induction": 0.3}  # a role's score from here


def named_heads(heads):
    """The heads with a role: previous token ≥ 0.5, itself ≥ 0.5, induction ≥ 0.3."""
    roles = []
    for h in heads:
        name = f"{h['layer']}.{h['head']}"
        for role in ("previous", "self", "induction"):
            if h[role] >= STRONG[role]:
                roles.append((name, role, h[role]))
    return roles


def held_out_rows(ev):
    """The held-out table's rows, exactly as docs/model.md has them."""
    rows = []
    for key, label in ROWS:
        r = ev[key]
        chars = f"{r['model']['chars']:,}".replace(",", " ")  # 589 255, as the docs write numbers
        entries = f"{r['entries']:,}".replace(",", " ")
        below = f"{100 * r['vsBigram']:.1f} %"
        if r["vsBigram"] >= 0.25:  # issue 21's line, in bold when met
            below = f"**{below}**"
        rows.append(f"| {label} ({entries} entries, {chars} chars) | {r['unigram']['bitsPerChar']:.3f} | "
                    f"{r['bigram']['bitsPerChar']:.3f} | **{r['model']['bitsPerChar']:.3f}** | {below} |")
    return rows


def readme_rows(ev):
    """The README's two rows: each language side by side."""
    rows = []
    for (a, _), (b, _), label in ((ROWS[0], ROWS[1], "English / Russian, all"),
                                  (ROWS[2], ROWS[3], "English / Russian, fortunes only")):
        def pair(f):
            return f"{f(ev[a])} / {f(ev[b])}"
        rows.append(f"| {label} | {pair(lambda r: format(r['unigram']['bitsPerChar'], '.3f'))} | "
                    f"{pair(lambda r: format(r['bigram']['bitsPerChar'], '.3f'))} | "
                    f"**{pair(lambda r: format(r['model']['bitsPerChar'], '.3f'))}** | "
                    f"{pair(lambda r: format(100 * r['vsBigram'], '.1f') + ' %')} |")
    return rows


def print_table(columns, rows):
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print(row)


def held_out(ev):
    print_table(["validation text", "unigram", "bigram", "**model**", "fewer bits than the bigram"], held_out_rows(ev))
    worst = min(ev[k]["vsBigram"] for k, _ in ROWS)
    print(f"\nLeast below the bigram: {100 * worst:.1f} % (issue 21 asks for 25 % on every row).")
    print("\nREADME:\n")
    for row in readme_rows(ev):
        print(row)


def head_rows(report):
    """Every head's row, exactly as docs/model.md has them (a role's score in bold)."""
    rows = []
    for h in report["heads"]:
        cells = [f"**{h[k]:.2f}**" if h[k] >= STRONG[k] else f"{h[k]:.2f}" for k in STRONG]
        rows.append(f"| {h['layer']}.{h['head']} | " + " | ".join(cells) + f" | {h['entropy']:.2f} |")
    return rows


def head_table(report):
    print_table(["layer.head", "previous", "first", "self", "induction", "entropy"], head_rows(report))
    print()
    for name, role, score in named_heads(report["heads"]):
        print(f"- {name}: {role} {score:.2f}")
    print(f"- a repeated random sequence ({report['repeats']} sequences of {report['repeatLength']} tokens): "
          f"first copy {report['lossFirstCopy']:.2f} nats/token, second copy {report['lossSecondCopy']:.2f}")


def on_text(attnlab, folder, report, text):
    r = run(attnlab, folder, text)
    toks = [t["text"] for t in r["tokens"]]
    print(f"**{text}**: " + ", ".join(tok(t) for t in toks))
    for name, role, _ in named_heads(report["heads"]):
        layer, head = (int(x) for x in name.split("."))
        rows = r["weights"][layer][head]
        parts = []
        for i in range(1, len(toks)):
            j = max(range(len(rows[i])), key=lambda k: rows[i][k])
            parts.append(f"{tok(toks[i])} → {tok(toks[j])} {rows[i][j]:.2f}")
        print(f"- head {name} ({role}): " + ", ".join(parts))
    print("- next: " + ", ".join(f"{tok(n['text'])} {n['p']:.3f}" for n in r["next"]))


def twice(attnlab, folder, report):
    r = run(attnlab, folder, TWICE)
    toks = [t["text"] for t in r["tokens"]]
    ids = [t["id"] for t in r["tokens"]]
    print(f"**{TWICE}**: " + ", ".join(tok(t) for t in toks))
    for name, role, _ in named_heads(report["heads"]):
        if role != "induction":
            continue
        layer, head = (int(x) for x in name.split("."))
        rows = r["weights"][layer][head]
        parts, total = [], 0.0
        for i in range(1, len(ids)):
            earlier = [p for p in range(1, i) if ids[p] == ids[i] and p + 1 < i]
            if not earlier:
                continue
            after = earlier[-1] + 1
            parts.append(f"{tok(toks[i])} → {tok(toks[after])} {rows[i][after]:.2f}")
            total += rows[i][after]
        mean = total / len(parts) if parts else 0.0
        print(f"- head {name}: " + ", ".join(parts) + f" (mean {mean:.2f})")
    print("- next: " + ", ".join(f"{tok(n['text'])} {n['p']:.3f}" for n in r["next"]))


def samples(attnlab, folder):
    for text in PROMPTS:
        greedy = run(attnlab, folder, text, "--generate", "30", "--top-k", "1")
        top5 = run(attnlab, folder, text, "--generate", "30", "--top-k", "5", "--seed", "1")
        g = json.dumps(greedy.get("generated", ""), ensure_ascii=False)
        t = json.dumps(top5.get("generated", ""), ensure_ascii=False)
        print(f"- {json.dumps(text, ensure_ascii=False)} → {g} / {t}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", default="web/model")
    ap.add_argument("--attnlab", default="build/native-release/attnlab")
    a = ap.parse_args()
    folder = Path(a.dir)
    ev = json.loads((folder / "eval.json").read_text())
    report = json.loads((folder / "heads.json").read_text())
    config = json.loads((folder / "train-config.json").read_text())
    print(f"## {folder}: {config['layers']} layers × {config['heads']} heads, d_model {config['dModel']}, "
          f"{config['vocab']} tokens, {config['steps']} steps of {config['batch']} × {config['context']}\n")
    print("### Held-out text\n")
    held_out(ev)
    print("\n### Heads\n")
    head_table(report)
    print("\n### The seed's sentence\n")
    for text in SEED_TEXTS:
        on_text(a.attnlab, folder, report, text)
        print()
    twice(a.attnlab, folder, report)
    print("\n### Samples (`--generate 30`: greedy `--top-k 1` / `--top-k 5 --seed 1`)\n")
    samples(a.attnlab, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
