#!/usr/bin/env python3
"""`attnlab model` on GPT-2-family checkpoints in the Hugging Face layout (the random checkpoints
scripts/gpt2_fixture.py writes; CTest's fixture "gpt2" makes them and passes their folder in
ATTNLAB_GPT2_FIXTURES): every command that takes a model folder takes one and answers in the JSON
it gives for the lab's own model; `model run` gives GPT-2's reference token ids (no begin token)
and the PyTorch reference's next tokens (tests/model/gpt2_reference.json); a folder the reader
refuses is refused in the one shape.

usage: test_model_gpt2.py ATTNLAB FIXTURES_DIR
"""
import json
import os
import shutil
import tempfile

from common import REPO, check, check_refusal, finish, model

GPT2 = os.environ.get("ATTNLAB_GPT2_FIXTURES", "")
REF = json.load(open(os.path.join(REPO, "tests", "model", "gpt2_reference.json"), encoding="utf-8"))
TUNE_TEXT = os.path.join(REPO, "web", "tune", "en.txt")

if not GPT2 or not os.path.isdir(GPT2):
    check("ATTNLAB_GPT2_FIXTURES names the fixtures' folder (run through ctest)", False, GPT2)
    finish()

for name, variant in REF["variants"].items():
    folder = os.path.join(GPT2, name)
    results = REF["results"][variant["results"]]
    code, out, err = model("info", folder)
    info = json.loads(out) if code == 0 else {}
    check(f"model info {name}: huggingface, its dtype and tokenizer",
          info.get("format") == "huggingface" and info.get("dtype") == variant["dtype"]
          and variant["tokenizer"].startswith(info.get("tokenizer", "?")), err + out[:300])
    for k, sentence in enumerate(REF["sentences"]):
        code, out, err = model("run", folder, "--text", sentence["text"])
        run = json.loads(out) if code == 0 else {}
        ids = [t["id"] for t in run.get("tokens", [])]
        check(f"model run {name} #{k}: GPT-2's ids, nothing before them", ids == sentence["ids"], err + str(ids[:8]))
        weights = run.get("weights", [])
        check(f"model run {name} #{k}: every layer's and head's weights, one row per token",
              len(weights) == variant["config"]["n_layer"] and all(len(h) == variant["config"]["n_head"] for h in weights)
              and all(len(rows) == len(ids) for layer in weights for rows in layer), err)
        if results[k]["greedy_margins"][0] > 1e-3:
            nxt = run.get("next", [{}])[0].get("id")
            check(f"model run {name} #{k}: PyTorch's likeliest next token", nxt == results[k]["greedy"][0],
                  f"{nxt} vs {results[k]['greedy'][0]}")

# Greedy generation: the reference's continuation while its top two are apart.
folder, variant = os.path.join(GPT2, "f32-bare-buffers"), REF["variants"]["f32-bare-buffers"]
results = REF["results"][variant["results"]]
margins = results[0]["greedy_margins"]
steps = next((i for i, m in enumerate(margins) if m < 1e-3), len(margins))
code, out, err = model("run", folder, "--text", REF["sentences"][0]["text"], "--generate", str(steps), "--top-k", "1")
run = json.loads(out) if code == 0 else {}
code2, out2, _ = model("run", folder, "--text", REF["sentences"][0]["text"], "--format", "text")
check("model run --generate --top-k 1: a greedy continuation as text", code == 0 and isinstance(run.get("generated"), str)
      and len(run["generated"]) > 0, err)
check("model run --format text: the tokens, every head, the next tokens", code2 == 0 and out2.startswith("tokens:")
      and "layer 1 head 3" in out2 and "\nnext:" in out2, out2[:300])

# The other commands, each on a small checkpoint: the JSON they give for the lab's model.
folder = os.path.join(GPT2, "f16-vocab")
code, out, err = model("contributions", folder, "--text", "The cat sat on the mat", "--layer", "1", "--head", "2")
c = json.loads(out) if code == 0 else {}
check("model contributions: weight against contribution, the next token without each key",
      code == 0 and len(c.get("tokens", [])) == 6 and len(c.get("next", {}).get("delta", [])) == 6, err + out[:300])
code, out, err = model("probe", folder, "--layer", "0", "--head", "1", "--text-file", TUNE_TEXT.replace("en.txt", "ru.txt"))
p = json.loads(out) if code == 0 else {}
check("model probe: the probe's accuracy on the text", code == 0 and 0 <= p.get("accuracy", -1) <= 1, err + out[:300])
code, out, err = model("tune", folder, "--text-file", TUNE_TEXT, "--steps", "2", "--config", '{"batch": 2, "length": 16}')
t = json.loads(out) if code == 0 else {}
check("model tune: two steps with a loss each", code == 0 and len(t.get("steps", [])) == 2, err + out[:300])
code, out, err = model("heads", folder, "--format", "json", "--windows", "2", "--repeats", "2")
h = json.loads(out) if code == 0 else {}
check("model heads --windows 2 --repeats 2: every head scored", code == 0 and len(h.get("heads", [])) == 2 * 4, err + out[:300])
code, out, err = model("eval", folder, "--targets", "300")
e = json.loads(out) if code == 0 else {}
check("model eval --targets 300: bits per character in both languages, nothing recorded to compare",
      code == 0 and e.get("en", {}).get("targets") == 300 and e.get("ru", {}).get("bitsPerChar", 0) > 0
      and e.get("recorded") is None, err + out[:300])

# Refusals: the file and the problem named, exit 2.
tmp = tempfile.mkdtemp(prefix="attnlab-gpt2-")
try:
    bad = os.path.join(tmp, "no-tokenizer")
    os.makedirs(bad)
    for f in ("config.json", "model.safetensors"):
        shutil.copy(os.path.join(GPT2, "f32-bare-buffers", f), bad)
    check_refusal("model run", "no tokenizer", None, "no tokenizer: expected tokenizer.json, or vocab.json and merges.txt",
                  args=["model", "run", bad, "--text", "hi"])
    with open(os.path.join(bad, "config.json"), "w") as f:
        json.dump({"model_type": "bert"}, f)
    check_refusal("model run", "a BERT config", None, 'model_type "bert" is not a model the lab opens (gpt2, llama, mistral, qwen2, qwen3)',
                  args=["model", "run", bad, "--text", "hi"])
finally:
    shutil.rmtree(tmp, ignore_errors=True)

finish()
