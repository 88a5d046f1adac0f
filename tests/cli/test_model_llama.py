#!/usr/bin/env python3
"""`attnlab model` on Llama-family checkpoints (the random ones scripts/llama_fixture.py writes;
CTest's fixture "llama" makes them and passes their folder in ATTNLAB_LLAMA_FIXTURES): every
command that takes a model folder takes one (info, run, heads, contributions, offsets), per query
head; the knock-out of a key is per query head even where two heads share their keys and values;
and each of issue 39's bad inputs is a one-line refusal naming its field, exit 2.

usage: test_model_llama.py ATTNLAB FIXTURES_DIR
"""
import json
import os
import shutil
import struct
import tempfile

from common import QUICK, check, check_refusal, finish, model

LLAMA = os.environ.get("ATTNLAB_LLAMA_FIXTURES", "")
if not LLAMA or not os.path.isdir(LLAMA):
    check("ATTNLAB_LLAMA_FIXTURES names the fixtures' folder (run through ctest)", False, LLAMA)
    finish()

TEXT = "I love sushi and tea"

# info: the family's fields
code, out, err = model("info", os.path.join(LLAMA, "mistral"))
cfg = json.loads(out).get("config", {}) if code == 0 else {}
check("model info mistral: the Llama family's fields (kv heads, window, RMSNorm, SwiGLU)",
      cfg.get("heads") == 4 and cfg.get("keyValueHeads") == 2 and cfg.get("slidingWindow") == 6
      and cfg.get("activation") == "silu (SwiGLU)" and "rmsNormEpsilon" in cfg, err + out[:300])

# run and heads: one entry per query head
for name in ("qwen3", "llama-mqa"):
    folder = os.path.join(LLAMA, name)
    code, out, err = model("info", folder)
    c = json.loads(out)["config"] if code == 0 else {}
    L, H = c.get("layers", 0), c.get("heads", 0)
    code, out, err = model("run", folder, "--text", TEXT)
    run = json.loads(out) if code == 0 else {}
    weights = run.get("weights", [])
    n = len(run.get("tokens", []))
    check(f"model run {name}: every layer's query heads' weights, one row per token",
          code == 0 and len(weights) == L and all(len(layer) == H for layer in weights)
          and all(len(rows) == n for layer in weights for rows in layer), err + out[:200])
    if QUICK and name == "qwen3":  # under the sanitizers: the 151 936-token vocabulary's repeats take a minute
        continue
    code, out, err = model("heads", folder, "--format", "json", "--windows", "2", "--repeats", "2")
    heads = json.loads(out).get("heads", []) if code == 0 else []
    check(f"model heads {name}: every query head scored ({L} x {H})",
          code == 0 and sorted((h["layer"], h["head"]) for h in heads) == [(l, h) for l in range(L) for h in range(H)],
          err + out[:200])

# contributions: heads 2 and 3 of qwen3 share key/value head 1; knocking a key out of one query head
# is not knocking it out of the other
folder = os.path.join(LLAMA, "qwen3")
deltas = {}
for head in (2, 3):
    code, out, err = model("contributions", folder, "--text", TEXT, "--layer", "1", "--head", str(head))
    c = json.loads(out) if code == 0 else {}
    deltas[head] = c.get("next", {}).get("delta", [])
    check(f"model contributions qwen3 layer 1 head {head}: a knock-out change per key",
          code == 0 and len(deltas[head]) == len(c.get("tokens", [])) > 0, err + out[:200])
check("model contributions: query heads 2 and 3 share keys and values, their knock-outs differ",
      len(deltas[2]) == len(deltas[3]) > 0 and deltas[2] != deltas[3], f"{deltas[2]} {deltas[3]}")

# offsets: rotary, one number per offset
code, out, err = model("offsets", folder, "--text", TEXT)
o = json.loads(out) if code == 0 else {}
check("model offsets qwen3: rotary, the same offset gives the same score (to rounding), one further another",
      code == 0 and o.get("rotary") is True and o.get("movedSpread", 1) < 1e-5 and o.get("change", 0) > 1e-3,
      err + out[:300])

# Refusals: one line naming the field, exit 2
tmp = tempfile.mkdtemp(prefix="attnlab-llama-")
try:
    src = os.path.join(LLAMA, "llama-bf16-tied")

    def folder_with(name, config=None, tokenizer=None, vocab_rows=None):
        d = os.path.join(tmp, name)
        shutil.copytree(src, d)
        if config:
            c = json.load(open(os.path.join(d, "config.json"), encoding="utf-8"))
            c.update(config)
            json.dump(c, open(os.path.join(d, "config.json"), "w", encoding="utf-8"))
        if tokenizer:
            t = json.load(open(os.path.join(d, "tokenizer.json"), encoding="utf-8"))
            t.update(tokenizer)
            json.dump(t, open(os.path.join(d, "tokenizer.json"), "w", encoding="utf-8"))
        if vocab_rows:  # the embedding cut to its first rows (a consistent, smaller checkpoint)
            path = os.path.join(d, "model.safetensors")
            raw = open(path, "rb").read()
            n = struct.unpack("<Q", raw[:8])[0]
            header, data = json.loads(raw[8:8 + n]), raw[8 + n:]
            out, blobs, at = {}, [], 0
            for k, t in header.items():
                if k == "__metadata__":
                    out[k] = t
                    continue
                b = data[t["data_offsets"][0]:t["data_offsets"][1]]
                shape = t["shape"]
                if "embed_tokens" in k:
                    shape = [vocab_rows, shape[1]]
                    b = b[:vocab_rows * shape[1] * 2]  # BF16
                out[k] = {"dtype": t["dtype"], "shape": shape, "data_offsets": [at, at + len(b)]}
                blobs.append(b)
                at += len(b)
            h = json.dumps(out).encode()
            open(path, "wb").write(struct.pack("<Q", len(h)) + h + b"".join(blobs))
        return d

    cases = [
        ("heads not a multiple of kv heads", folder_with("kv", config={"num_key_value_heads": 3}),
         "num_attention_heads 4 is not a multiple of num_key_value_heads 3"),
        ("rope_scaling yarn", folder_with("yarn", config={"rope_scaling": {"rope_type": "yarn", "factor": 4.0}}),
         'rope_scaling type "yarn" is not supported'),
        ("a tokenizer component it does not know", folder_with("digits", tokenizer={"pre_tokenizer": {"type": "Digits"}}),
         'pre_tokenizer "Digits" is not supported'),
        ("vocab_size smaller than the tokenizer's ids", folder_with("vocab", config={"vocab_size": 1000}, vocab_rows=1000),
         "vocab_size"),
    ]
    for name, d, word in cases:
        check_refusal("model run", name, None, word, args=["model", "run", d, "--text", "hi"])
finally:
    shutil.rmtree(tmp, ignore_errors=True)

finish()
