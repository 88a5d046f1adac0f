#!/usr/bin/env python3
"""`attnlab model export DIR --to hf OUT` and `attnlab model encode`: the shipped model written as
a GPT-2 checkpoint; its model.safetensors holds the shipped F16 numbers bit for bit under GPT-2's
names and layout, rebuilt here independently with numpy (c_attn = the heads of W_Q | W_K | W_V
side by side, zero attention biases); `model info` reads the folder back; the exported
tokenizer.json, read by Hugging Face's JavaScript tokenizers (npm @huggingface/tokenizers, in
tests/fixtures/hf_tokenizers), gives the lab's ids on texts that exercise every rule of the word
split, and differs exactly where docs/models.md says it does; the refusals.

usage: test_model_export.py ATTNLAB FIXTURES_DIR
"""
import json
import os
import shutil
import struct
import subprocess
import tempfile

import numpy as np

from common import ATTNLAB, REPO, SHIPPED_MODEL, check, check_refusal, finish, model

HF_TOKENIZERS = os.path.join(REPO, "tests", "fixtures", "hf_tokenizers")


def read_safetensors(path):
    """name -> (dtype, numpy array of the stored values' raw bits: uint16 for F16, uint32 for F32)."""
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        begin, end = t["data_offsets"]
        bits = {"F16": "<u2", "BF16": "<u2", "F32": "<u4"}[t["dtype"]]
        raw = np.frombuffer(data[8 + n + begin:8 + n + end], dtype=bits).reshape(t["shape"])
        out[name] = (t["dtype"], raw)
    return out, header.get("__metadata__", {})


def expected_gpt2(shipped, layers, heads):
    """The GPT-2 state dict the lab's tensors make, as raw F16 bits (numpy, not the lab's code)."""
    bits = {name: raw for name, (_, raw) in shipped.items()}
    out = {"transformer.wte.weight": bits["wte"], "transformer.wpe.weight": bits["wpe"],
           "transformer.ln_f.weight": bits["ln_f.weight"], "transformer.ln_f.bias": bits["ln_f.bias"]}
    for l in range(layers):
        h, g = f"h.{l}.", f"transformer.h.{l}."
        qkv = [bits[f"{h}attn.w_{part}.{k}"] for part in "qkv" for k in range(heads)]
        c = bits[f"{h}attn.w_o"].shape[1]
        out.update({
            g + "ln_1.weight": bits[h + "ln1.weight"], g + "ln_1.bias": bits[h + "ln1.bias"],
            g + "attn.c_attn.weight": np.concatenate(qkv, axis=1),
            g + "attn.c_attn.bias": np.zeros(3 * c, dtype="<u2"),  # +0.0 in F16
            g + "attn.c_proj.weight": bits[h + "attn.w_o"], g + "attn.c_proj.bias": np.zeros(c, dtype="<u2"),
            g + "ln_2.weight": bits[h + "ln2.weight"], g + "ln_2.bias": bits[h + "ln2.bias"],
            g + "mlp.c_fc.weight": bits[h + "mlp.fc.weight"], g + "mlp.c_fc.bias": bits[h + "mlp.fc.bias"],
            g + "mlp.c_proj.weight": bits[h + "mlp.proj.weight"], g + "mlp.c_proj.bias": bits[h + "mlp.proj.bias"],
        })
    return out


def encode_lines(path, texts):
    """The lab's ids of each text (`attnlab model encode --text`), as compare.mjs's JSON lines."""
    with open(path, "w", encoding="utf-8") as f:
        for text in texts:
            code, stdout, stderr = model("encode", SHIPPED_MODEL, "--text", text)
            check(f"model encode: {text[:24]!r}", code == 0, stderr)
            ids = json.loads(stdout)["ids"] if code == 0 else []
            f.write(json.dumps({"text": text, "ids": ids}, ensure_ascii=False) + "\n")


def compare(out, lines, *flags):
    p = subprocess.run(["node", os.path.join(HF_TOKENIZERS, "compare.mjs"), out, lines, *flags],
                       capture_output=True, text=True, timeout=120)
    return p.returncode, (json.loads(p.stdout) if p.stdout.startswith("{") else {}), p.stderr


tmp = tempfile.mkdtemp(prefix="attnlab-export-")
try:
    out = os.path.join(tmp, "hf")
    code, stdout, stderr = model("export", SHIPPED_MODEL, "--to", "hf", out)
    check("model export: exit 0", code == 0, stderr)
    r = json.loads(stdout) if code == 0 else {}
    files = sorted(os.listdir(out)) if os.path.isdir(out) else []
    check("model export: the folder save_pretrained writes, plus the lab's exact tokenizer", files == sorted([
        "config.json", "generation_config.json", "model.safetensors", "attnlab-tokenizer.json", "tokenizer.json",
        "tokenizer_config.json", "special_tokens_map.json"]), files)
    check("model export: F16 by default (the shipped numbers are F16), nothing rounded",
          r.get("dtype") == "F16" and r.get("rounded") == 0, r)
    check("model export: attnlab-tokenizer.json is the folder's tokenizer.json, byte for byte",
          open(os.path.join(out, "attnlab-tokenizer.json"), "rb").read()
          == open(os.path.join(SHIPPED_MODEL, "tokenizer.json"), "rb").read())

    cfg = json.load(open(os.path.join(SHIPPED_MODEL, "config.json")))["model"]
    shipped, _ = read_safetensors(os.path.join(SHIPPED_MODEL, "model.safetensors"))
    written, meta = read_safetensors(os.path.join(out, "model.safetensors"))
    want = expected_gpt2(shipped, cfg["layers"], cfg["heads"])
    check("model export: GPT-2's tensor names, no more, no fewer", sorted(written) == sorted(want),
          sorted(set(written) ^ set(want))[:5])
    wrong = [n for n in want if n in written and not (written[n][0] == "F16" and written[n][1].shape == want[n].shape
                                                       and np.array_equal(written[n][1], want[n]))]
    check("model export: every tensor holds the shipped F16 bits in GPT-2's layout (c_attn = W_Q | W_K | W_V by head)",
          not wrong, wrong[:5])
    check("model export: safetensors metadata format pt (transformers checks it)", meta.get("format") == "pt", meta)
    hf_config = json.load(open(os.path.join(out, "config.json")))
    check("model export: config.json", hf_config.get("model_type") == "gpt2" and hf_config.get("n_layer") == cfg["layers"]
          and hf_config.get("n_embd") == cfg["dModel"] and hf_config.get("n_inner") == cfg["mlp"]
          and hf_config.get("vocab_size") == cfg["vocab"] and hf_config.get("eos_token_id") == 0
          and hf_config.get("activation_function") == "gelu_new", hf_config)

    code, stdout, stderr = model("info", out)
    info = json.loads(stdout) if code == 0 else {}
    check("model info: reads the export as a GPT-2 checkpoint of the same sizes",
          info.get("format") == "huggingface" and info.get("dtype") == "F16"
          and info.get("config", {}).get("dModel") == cfg["dModel"] and info["config"]["attentionBiases"] is True,
          stderr + stdout[:300])

    # Opened in the lab, the export is the shipped model: the same tokens (attnlab-tokenizer.json,
    # <|endoftext|> first), the same weights and next tokens, every bit of the JSON.
    for text in ("я люблю суши", "The cat sat on the mat because it was tired."):
        a = model("run", SHIPPED_MODEL, "--text", text, "--generate", "4")
        b = model("run", out, "--text", text, "--generate", "4")
        check(f"model run on the export: the shipped model's output, every bit ({text[:12]!r})",
              a[0] == 0 and a[1] == b[1], b[2][-300:])

    # The tokenizer: Hugging Face's JavaScript tokenizers on the exported tokenizer.json.
    same = ["я люблю суши", "The cat sat on the mat.", "don't; кто-то; 3-4; -x; rock'n'roll; o'-clock",
            "  two  spaces\tand\ttabs\n\nnew lines \u00a0no-break\u2003em  ",
            "👨\u200d👩\u200d👧 family, 🇺🇦🇫🇷🇩 flags, 👍🏽 tone, x\u200d!y, a\u200d\u200db, end\u200d",
            "e\u0301 combining, \u0301 alone after a space, ﬁ ligature", "Ἀθῆναι, Αθήνα; 日本語のテキスト。",
            "العربية ١٢٣ — עברית", "email: someone@example.org, path /usr/share/doc, 3.14159",
            " ".join(f"w{i}" for i in range(150))]  # more than 64 lab tokens, cut at spaces: no change
    known = ["<|endoftext|>",  # matched as the special token by Hugging Face, as characters by the lab
             "x\n" * 40 + "Синтаксис" + "\ny" * 40]  # 81 tokens, no ASCII space: the lab cuts the word
    lines, known_lines = os.path.join(tmp, "same.jsonl"), os.path.join(tmp, "known.jsonl")
    encode_lines(lines, same)
    encode_lines(known_lines, known)
    if not os.path.isdir(os.path.join(HF_TOKENIZERS, "node_modules", "@huggingface", "tokenizers")):
        check("tests/fixtures/hf_tokenizers: npm ci has run (scripts/setup.sh)", False, HF_TOKENIZERS)
    else:
        code, summary, stderr = compare(out, lines, "--expect-same")
        check("tokenizer.json: Hugging Face's tokenizers give the lab's ids on every rule of the word split, "
              "and decode them to the text", code == 0 and summary["summary"]["entries"] == len(same),
              stderr + json.dumps(summary)[:1500])
        code, summary, stderr = compare(out, known_lines)
        check("tokenizer.json: the two differences docs/models.md names are real",
              code == 0 and summary["summary"]["entriesDiffering"] == len(known), stderr + json.dumps(summary)[:800])

    # Another dtype, and the folder replaced.
    code, stdout, stderr = model("export", SHIPPED_MODEL, "--to", "hf", out, "--dtype", "F32", "--force")
    check("model export --dtype F32 --force: writes over its own files", code == 0 and json.loads(stdout)["dtype"] == "F32",
          stderr)
    written32, _ = read_safetensors(os.path.join(out, "model.safetensors"))
    wpe16 = want["transformer.wpe.weight"].astype(np.uint16).view(np.float16).astype(np.float32)
    check("model export --dtype F32: the same numbers, widened",
          np.array_equal(written32["transformer.wpe.weight"][1].view(np.float32), wpe16))
    open(os.path.join(out, "notes.txt"), "w").write("mine")
    code, stdout, stderr = model("export", SHIPPED_MODEL, "--to", "hf", out, "--dtype", "BF16", "--allow-rounding",
                                 "--force")
    r = json.loads(stdout) if code == 0 else {}
    check("model export --dtype BF16 --allow-rounding: says how many weights it rounded",
          code == 0 and r["dtype"] == "BF16" and r["rounded"] > 0, stderr)
    check("model export --force: leaves the folder's other files alone", os.path.exists(os.path.join(out, "notes.txt")))

    # Refusals: one line naming the file or the option, exit 2, nothing on stdout.
    ex = ["model", "export", SHIPPED_MODEL, "--to", "hf"]
    check_refusal("model export", "a folder that holds files", b"", out, [*ex, out], what="refused")
    check_refusal("model export", "a dtype that rounds", b"", "BF16 would round",
                  [*ex, os.path.join(tmp, "b"), "--dtype", "BF16"], what="refused")
    check_refusal("model", "--to another layout", b"", "--to", [*ex[:-1], "onnx", os.path.join(tmp, "c")],
                  what="refused")  # CLI11's refusals name the command group
    check_refusal("model export", "a GPT-2 folder, not the lab's", b"", "no MANIFEST.sha256",
                  ["model", "export", out, "--to", "hf", os.path.join(tmp, "e")], what="refused")
    check_refusal("model export", "the model's own folder", b"", "own folder", [*ex, SHIPPED_MODEL, "--force"],
                  what="refused")
    check_refusal("model export", "no model there", b"", "nowhere: no such folder",
                  ["model", "export", os.path.join(tmp, "nowhere"), "--to", "hf", os.path.join(tmp, "d")], what="refused")
    check("model export: a refused export writes nothing", not os.path.exists(os.path.join(tmp, "b"))
          and not os.path.exists(os.path.join(tmp, "c")) and not os.path.exists(os.path.join(tmp, "d")) and not os.path.exists(os.path.join(tmp, "e")))
    check_refusal("model encode", "neither --text nor --validation", b"", "--text",
                  ["model", "encode", SHIPPED_MODEL], what="refused")
    check_refusal("model encode", "invalid UTF-8", b"", "--text", ["model", "encode", SHIPPED_MODEL, "--text", "a\udcff"],
                  what="refused")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
