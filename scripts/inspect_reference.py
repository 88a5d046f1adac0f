#!/usr/bin/python3
"""The PyTorch reference for the interpretability tools' tests (the logit lens, direct logit
attribution, activation patching): reads GPT-2 and Llama-family checkpoints in the Hugging Face
layout, runs their forward passes in float64 with named hook points, and writes one small JSON,
tests/model/inspect_reference.json, which the C++ tests compare with within 1e-4 (so CI needs no
torch). Run by hand, with Debian's torch (apt-get install -y python3-torch), after the fixtures
exist (the C++ tests regenerate the same bytes) and the lab's model has been exported:

    build/native-release/attnlab model export web/model /tmp/ours-hf --to hf
    /usr/bin/python3 scripts/inspect_reference.py \\
        --gpt2-fixtures build/native-release/fixtures/gpt2 \\
        --llama-fixtures build/native-release/fixtures/llama \\
        --ours /tmp/ours-hf --attnlab build/native-release/attnlab \\
        --out tests/model/inspect_reference.json

Models: "ours" (the lab's model as exported: GPT-2 layout), the GPT-2 fixtures f32-small3 and
f16-vocab, the Llama-family fixtures qwen3 (GQA 4/2, q/k norm, head_dim 32 over hidden 64),
llama-mqa, mistral (sliding window 6) and llama-attention-bias. Token ids come from
`attnlab model encode FOLDER --text TEXT`, exactly the "ids" it prints: the begin token it names
("begin": 0 for ours, 1 for the llama2 vocabulary, null otherwise) is NOT prepended (it is recorded
next to the ids; `attnlab model run` would prepend it).

Independent of the engine and of scripts/gpt2_reference.py / scripts/llama_reference.py, whose
reading is copied here (nothing imported): the safetensors header parsed and checked, the data
through torch.frombuffer, every stored value (F32, F16, BF16) converted exactly to float64 and
everything computed in float64. The forward passes are written from transformers'
GPT2LMHeadModel and LlamaForCausalLM / MistralForCausalLM / Qwen3ForCausalLM (see those scripts'
docstrings for every formula):
  GPT-2: x = wte[ids] + wpe[0..T-1]; per block: x += attn(LN_1(x)); x += mlp(LN_2(x));
         qkv = h @ c_attn.weight + c_attn.bias (Conv1D [in, out]); softmax(q k^T / sqrt(hd) +
         causal) v; heads concatenated @ c_proj.weight + c_proj.bias; mlp = act(h @ c_fc.w + b)
         @ c_proj.w + b, act = gelu_new (tanh) or gelu (erf) as config.json's activation_function;
         logits = LN_f(x) @ W_U^T, W_U = lm_head.weight or wte (tied).
  Llama: x = embed_tokens[ids]; per layer: x += o_proj(attn(RMS(x))); x += down(silu(gate(h)) *
         up(h)), h = RMS(x); q/k/v Linear [out, in] (+ biases: llama/qwen3 with attention_bias: q,
         k, v, o; qwen2: q, k, v), qwen3 q_norm/k_norm per head, RoPE rotate-half at positions
         0..T-1, GQA (query head h reads kv head h // (H / KV)), mistral's window W (key j seen by
         query i iff i - W < j <= i); logits = RMS_f(x) @ W_U^T.
Hook points of one run (L layers, H query heads, KV kv heads, hd head_dim, C width, T tokens):
  resid_pre[l] [T, C] = the input of block l (resid_pre[0] = embedding (+ positions));
  pattern[l] [H, T, T] = the attention weights; z[l] [T, H, hd] = pattern @ v (the mixed values
  before W_O; for GQA v is the shared kv head's, v including its bias); attn_out[l] [T, C] =
  z @ W_O + b_O; mlp_out[l] [T, C] (with its output bias); resid_post[l] = the output of block l.

Definitions (TransformerLens's, on the checkpoint's raw weights: no folding, no centring):
  FinalNorm(y): LayerNorm: (y - mean y) / sqrt(mean((y - mean y)^2) + eps) * w_f + b_f;
                RMSNorm: y / sqrt(mean(y^2) + eps) * w_f. Statistics computed afresh for every y.
  1. Logit lens. For k = 0..L: x_k = resid_pre[0] if k = 0 else resid_post[k-1];
     logits_k[t] = FinalNorm(x_k[t]) @ W_U^T (no unembedding bias); p = softmax over the
     vocabulary. default target at t = argmax of logits_L[t] (the real final logits);
     chosen target = the default target at the last position (one id for every t).
  2. Direct logit attribution at the last position T-1. target = argmax of the final logits there,
     foil = the second most likely. Two variants: "target" (u = W_U[target]) and "diff"
     (u = W_U[target] - W_U[foil], the logit difference). x = resid_post[L-1][T-1];
     scale s = sqrt(mean((x - mean x)^2) + eps) (LayerNorm, population variance) or
     sqrt(mean(x^2) + eps) (RMSNorm). A vector c summing into x contributes
         LayerNorm: ((c - mean c) / s) * w_f . u          RMSNorm: (c / s) * w_f . u
     Parts, in order: "embed" (the token's embedding row), "pos_embed" (GPT-2 layout: wpe[T-1];
     absent for Llama), then per layer l: "head" h = 0..H-1 (z[l][T-1, h] @ W_O[h*hd:(h+1)*hd]),
     "attn_bias" (b_O; only where the layer has one), "mlp" (mlp_out[l][T-1]); finally
     "final_bias" = b_f . u (0 for RMSNorm). The parts sum to the model's logit (difference).
     Per source token j of head (l, h): the contribution of a_j v_j W_O[h rows] (same transform,
     a_j = pattern[l][h, T-1, j], v_j the kv head's value at j); they sum to the head's part.
     Recorded alongside: a_j (the attention weight) and ||a_j v_j W_O[h rows]||_2 (the
     contribution's norm, before the transform): three different numbers per key.
  3. Activation patching. A clean and a corrupted prompt of the same length T; target = the clean
     run's top-1 at the last position, foil = the corrupted run's top-1 (if equal: the clean run's
     second). LD = logit[target] - logit[foil] at the last position; metric of a patched run =
     (LD_patched - LD_corrupted) / (LD_clean - LD_corrupted). The corrupted prompt is run with one
     activation replaced by the clean run's:
       resid [l][pos]: resid_pre[l][pos]                  (L x T)
       attn  [l][pos]: attn_out[l][pos]                   (L x T)
       mlp   [l][pos]: mlp_out[l][pos]                    (L x T)
       head  [l][h]:   z[l][:, h] (every position)         (L x H)
       pattern [l][h]: pattern[l][h] (the whole T x T)     (L x H)
     (downstream of the replaced activation everything is recomputed).
  Pairs: "en-names-swapped" ("When Mary and John went to the store, John gave a drink to" vs the
  names swapped) and "ru-names-swapped" («Маша дала книгу Пете, потом Петя дал книгу» vs «Петя дал
  книгу Маше, потом Маша дала книгу»), each used where its two texts have the same number of ids.
  Where neither has (ours), the fallback: the English clean ids with one or two ids replaced (the
  ids of " Mary" by those of " Jane": "When Jane and John ..."; recorded under "replaced"), plus the
  extra same-length pairs "en-names-swapped-tom" (Mary/Tom) and "ru-names-swapped-kolya" (Оля/Коля).

The JSON (numbers rounded to 7 significant digits; ids are ints; -1 means "none"):
{
 "about": text, "script": "scripts/inspect_reference.py", "command": the command above,
 "made_with": {"torch", "python3-torch", "python"},
 "models": {name: {                 "ours", "f32-small3", "f16-vocab", "qwen3", "llama-mqa",
                                    "mistral", "llama-attention-bias"
   "folder": where it was read (informative), "sha256": {"model.safetensors": hex},
   "config": {"family": "gpt2" | "llama" | "mistral" | "qwen3", "layers": L, "heads": H,
              "kv_heads": KV, "hidden": C, "head_dim": hd, "vocab": V, "norm": "layer_norm" |
              "rms_norm", "eps", "tied": bool, "activation": "gelu_new" | "gelu" | "silu",
              "sliding_window": [per layer: W or null], "attn_bias": bool (b_O present)},
   "prompts": [{                    two: "я люблю суши", "I love sushi and the lab shows every step"
     "text", "ids": [T ids], "begin": the begin id encode names (not in ids) or null,
     "final_top5": {"ids": [5], "logits": [5], "probs": [5]}     the final logits at T-1
     "lens": {
       "default_target": [T ids],               argmax of the final logits at each t
       "chosen_target": id,                     = default_target[T-1]
       "top1_id": [L+1][T], "top1_prob": [L+1][T],
       "default_target_prob": [L+1][T],         p of default_target[t] under lens k at t
       "chosen_target_prob": [L+1][T],          p of chosen_target under lens k at t
       "last_top5_ids": [L+1][5], "last_top5_probs": [L+1][5]},     at t = T-1
     "attribution": {
       "position": T-1, "target": id, "foil": id, "scale": s,
       "logit_target": final logit of target at T-1, "logit_diff": logit target - logit foil,
       "part_names": ["embed", "pos_embed", "head", ..., "attn_bias", "mlp", ..., "final_bias"],
       "part_layers": [l or -1], "part_heads": [h or -1],    parallel to part_names
       "parts_target": [values], "parts_diff": [values],     parallel to part_names; each sums
                                                             to logit_target / logit_diff
       "per_key_target": [L][H][T], "per_key_diff": [L][H][T],   sum over keys = the head's part
       "alpha": [L][H][T],                      pattern[l][h, T-1, j]
       "contribution_norm": [L][H][T]}},        ||a_j v_j W_O[h rows]||
     ...],
   "patching": [{
     "name": "en-names-swapped" | "ru-names-swapped" | "en-first-name-replaced" | ...,
     "clean_text", "corrupted_text", "clean_ids": [T], "corrupted_ids": [T],
     "replaced": [[position, clean id, corrupted id], ...] (empty when both are encoded texts),
     "target": id, "foil": id, "foil_rule": "corrupted top-1" | "clean second",
     "ld_clean", "ld_corrupted",
     "resid": [L][T], "attn": [L][T], "mlp": [L][T], "head": [L][H], "pattern": [L][H],
                                                the metric of each patched run
     "resid_ld": [L][T], "attn_ld": [L][T], "mlp_ld": [L][T], "head_ld": [L][H], "pattern_ld": [L][H]},
                                                the same runs' LD_patched itself (the metric divides
                                                by LD_clean - LD_corrupted, which can be small: a
                                                float32 engine's error grows by 1 / |that|)
     ...]}}
}

Checks printed to stdout (none go into the JSON): the attribution's parts sum to the logit
(difference) and each head's per-key parts to its part (to 1e-9); the parts' vectors sum to x;
patching resid_pre[0] at every position at once gives 1.0, patching nothing 0.0, patching every
head's z of a layer gives the LD of patching that layer's attn_out everywhere; the lens at
k = L is the forward's logits; this forward against tests/model/gpt2_reference.json and
llama_reference.json (their ids, the 20 top log-probabilities and the argmax at the last position)
and against the C++ engine itself (`attnlab model run`: its next-token probabilities and every
attention weight, on its ids, begin token included).
"""
import argparse
import hashlib
import json
import math
import platform
import struct
import subprocess
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
LENS_TEXTS = ["я люблю суши", "I love sushi and the lab shows every step"]
EN_CLEAN = "When Mary and John went to the store, John gave a drink to"
EN_CORRUPT = "When John and Mary went to the store, Mary gave a drink to"
RU_CLEAN = "Маша дала книгу Пете, потом Петя дал книгу"
RU_CORRUPT = "Петя дал книгу Маше, потом Маша дала книгу"
PAIRS = [("en-names-swapped", EN_CLEAN, EN_CORRUPT), ("ru-names-swapped", RU_CLEAN, RU_CORRUPT)]
# Only where neither of PAIRS has two prompts of one length: the English clean ids with the ids of
# " Mary" replaced by those of " Jane" (a real text's ids: checked), and two more same-length pairs.
FALLBACK = ("en-first-name-replaced", EN_CLEAN, "When Jane and John went to the store, John gave a drink to")
FALLBACK_EXTRA = [("en-names-swapped-tom", "When Mary and Tom went to the store, Tom gave a drink to",
                   "When Tom and Mary went to the store, Mary gave a drink to"),
                  ("ru-names-swapped-kolya", "Оля дала книгу Коле, потом Коля дал книгу",
                   "Коля дал книгу Оле, потом Оля дала книгу")]
GPT2_MODELS = ["f32-small3", "f16-vocab"]
LLAMA_MODELS = ["qwen3", "llama-mqa", "mistral", "llama-attention-bias"]
DIGITS = 7  # significant digits of every float in the JSON


# ---------------------------------------------------------------------------------------------
# Reading a checkpoint folder (scripts/gpt2_reference.py's reader, copied)

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
    return out


def read_checkpoint(folder):
    """All tensors of a folder (single file or sharded; the index checked against the shards)."""
    folder = Path(folder)
    index = folder / "model.safetensors.index.json"
    tensors, where = {}, {}
    if index.exists():
        weight_map = json.loads(index.read_text())["weight_map"]
        files = sorted(set(weight_map.values()))
    else:
        weight_map = None
        files = ["model.safetensors"]
    for f in files:
        for name, t in read_safetensors(folder / f).items():
            if name in tensors:
                raise ValueError(f"{folder}: {name} in {where[name]} and in {f}")
            tensors[name] = t
            where[name] = f
    if weight_map is not None and weight_map != where:
        raise ValueError(f"{folder}: the index's weight_map does not match the shards' headers")
    return tensors, sorted(set(where.values()))


# ---------------------------------------------------------------------------------------------
# One model, whatever its family: per layer the same named matrices, float64
#   layer: n1 (w, b), n2 (w, b), Wq [C, H*hd], Wk/Wv [C, KV*hd], bq/bk/bv or None, WO [H*hd, C],
#   bO or None, q_norm/k_norm or None, mlp (a function of the normed input)

def layer_norm(x, w, b, eps):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * w + b


def rms_norm(x, w, eps):
    return x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + eps) * w


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def load_gpt2(folder, name):
    cfg = json.loads((Path(folder) / "config.json").read_text())
    assert cfg["model_type"] == "gpt2"
    assert cfg.get("scale_attn_weights", True) and not cfg.get("scale_attn_by_inverse_layer_idx", False)
    assert not cfg.get("reorder_and_upcast_attn", False)
    raw, files = read_checkpoint(folder)
    p, dtypes = {}, set()
    for n, (dtype, t) in raw.items():
        bare = n[len("transformer."):] if n.startswith("transformer.") else n
        if bare.endswith(".attn.bias") or bare.endswith(".attn.masked_bias"):
            continue  # the old causal-mask buffers
        p[bare] = t.to(torch.float64)
        dtypes.add(dtype)
    L, H, C = cfg["n_layer"], cfg["n_head"], cfg["n_embd"]
    hd = C // H
    eps = cfg["layer_norm_epsilon"]
    act = {"gelu_new": gelu_new, "gelu": gelu_erf}[cfg["activation_function"]]
    layers = []
    for i in range(L):
        g = lambda n: p[f"h.{i}.{n}"]
        Wq, Wk, Wv = g("attn.c_attn.weight").split(C, dim=1)
        bq, bk, bv = g("attn.c_attn.bias").split(C)
        fc_w, fc_b, pr_w, pr_b = g("mlp.c_fc.weight"), g("mlp.c_fc.bias"), g("mlp.c_proj.weight"), g("mlp.c_proj.bias")
        layers.append(dict(
            n1=(g("ln_1.weight"), g("ln_1.bias")), n2=(g("ln_2.weight"), g("ln_2.bias")),
            Wq=Wq, Wk=Wk, Wv=Wv, bq=bq, bk=bk, bv=bv, WO=g("attn.c_proj.weight"), bO=g("attn.c_proj.bias"),
            q_norm=None, k_norm=None,
            mlp=(lambda h, fc_w=fc_w, fc_b=fc_b, pr_w=pr_w, pr_b=pr_b: act(h @ fc_w + fc_b) @ pr_w + pr_b)))
    tied = "lm_head.weight" not in p
    V = p["wte.weight"].shape[0]
    return dict(name=name, folder=str(folder), files=files, dtype=dtypes.pop() if len(dtypes) == 1 else sorted(dtypes),
                family="gpt2", norm="layer_norm", L=L, H=H, KV=H, hd=hd, C=C, V=V, eps=eps, tied=tied,
                activation=cfg["activation_function"], window=[None] * L, inv_freq=None, layers=layers,
                embed=p["wte.weight"], pos=p["wpe.weight"], nf=(p["ln_f.weight"], p["ln_f.bias"]),
                WU=p["wte.weight"] if tied else p["lm_head.weight"])


def read_llama_config(folder):
    """config.json as transformers reads it (scripts/llama_reference.py's reading, copied)."""
    cfg = json.loads((Path(folder) / "config.json").read_text())
    mt = cfg["model_type"]
    if mt not in ("llama", "mistral", "qwen2", "qwen3"):
        raise ValueError(f"{folder}: model_type {mt}")
    assert cfg.get("hidden_act", "silu") == "silu"
    assert not cfg.get("mlp_bias", False)
    assert cfg.get("pretraining_tp", 1) == 1
    hidden, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    kv = cfg.get("num_key_value_heads") or heads
    head_dim = cfg.get("head_dim") or hidden // heads
    layers = cfg["num_hidden_layers"]
    ab = cfg.get("attention_bias", False)
    biases = {"llama": dict(q=ab, k=ab, v=ab, o=ab), "qwen3": dict(q=ab, k=ab, v=ab, o=ab),
              "qwen2": dict(q=True, k=True, v=True, o=False),
              "mistral": dict(q=False, k=False, v=False, o=False)}[mt]
    if mt == "mistral":
        window = [cfg.get("sliding_window")] * layers
    elif mt in ("qwen2", "qwen3"):
        on = cfg.get("use_sliding_window", False) and cfg.get("sliding_window") is not None
        window = [cfg["sliding_window"] if on and i >= cfg.get("max_window_layers", layers) else None
                  for i in range(layers)]
    else:
        window = [None] * layers
    return dict(model_type=mt, hidden=hidden, heads=heads, kv=kv, head_dim=head_dim, layers=layers,
                eps=cfg["rms_norm_eps"], theta=float(cfg.get("rope_theta", 10000.0)),
                rope_scaling=cfg.get("rope_scaling"), tied=cfg.get("tie_word_embeddings", False),
                biases=biases, qk_norm=(mt == "qwen3"), window=window)


def inv_freq_of(c):
    """RoPE's inverse frequencies, float64 (the fixtures used here have no rope_scaling)."""
    d = c["head_dim"]
    rs = c["rope_scaling"]
    assert rs is None or rs.get("rope_type", rs.get("type")) == "default", rs
    return 1.0 / (c["theta"] ** (torch.arange(0, d, 2, dtype=torch.float64) / d))


def load_llama(folder, name):
    c = read_llama_config(folder)
    raw, files = read_checkpoint(folder)
    p = {n: t.to(torch.float64) for n, (_, t) in raw.items()}
    dtypes = {dtype for dtype, _ in raw.values()}
    L, H, KV, hd, C, eps = c["layers"], c["heads"], c["kv"], c["head_dim"], c["hidden"], c["eps"]
    layers = []
    for i in range(L):
        g = lambda n: p.get(f"model.layers.{i}.{n}")
        expected_bias = c["biases"]
        for proj in "qkvo":
            assert (g(f"self_attn.{proj}_proj.bias") is not None) == expected_bias[proj], (name, i, proj)
        tr = lambda t: None if t is None else t.T
        gate, up, down = g("mlp.gate_proj.weight"), g("mlp.up_proj.weight"), g("mlp.down_proj.weight")
        layers.append(dict(
            n1=(g("input_layernorm.weight"), None), n2=(g("post_attention_layernorm.weight"), None),
            Wq=tr(g("self_attn.q_proj.weight")), Wk=tr(g("self_attn.k_proj.weight")),
            Wv=tr(g("self_attn.v_proj.weight")), bq=g("self_attn.q_proj.bias"), bk=g("self_attn.k_proj.bias"),
            bv=g("self_attn.v_proj.bias"), WO=tr(g("self_attn.o_proj.weight")), bO=g("self_attn.o_proj.bias"),
            q_norm=g("self_attn.q_norm.weight") if c["qk_norm"] else None,
            k_norm=g("self_attn.k_norm.weight") if c["qk_norm"] else None,
            mlp=(lambda h, gate=gate, up=up, down=down:
                 (torch.nn.functional.silu(h @ gate.T) * (h @ up.T)) @ down.T)))
        assert layers[-1]["Wq"].shape == (C, H * hd) and layers[-1]["Wk"].shape == (C, KV * hd)
        assert layers[-1]["WO"].shape == (H * hd, C)
    embed = p["model.embed_tokens.weight"]
    return dict(name=name, folder=str(folder), files=files, dtype=dtypes.pop() if len(dtypes) == 1 else sorted(dtypes),
                family=c["model_type"], norm="rms_norm", L=L, H=H, KV=KV, hd=hd, C=C, V=embed.shape[0], eps=eps,
                tied=c["tied"], activation="silu", window=c["window"], inv_freq=inv_freq_of(c), layers=layers,
                embed=embed, pos=None, nf=(p["model.norm.weight"], None),
                WU=embed if c["tied"] else p["lm_head.weight"])


# ---------------------------------------------------------------------------------------------
# The forward pass with hook points

def norm(m, x, wb):
    w, b = wb
    return layer_norm(x, w, b, m["eps"]) if m["norm"] == "layer_norm" else rms_norm(x, w, m["eps"])


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply_rope(x, inv_freq):
    """x [T, heads, d], positions 0..T-1, rotate-half."""
    angle = torch.arange(x.shape[0], dtype=torch.float64)[:, None] * inv_freq[None, :]
    emb = torch.cat((angle, angle), dim=-1)
    return x * emb.cos()[:, None, :] + rotate_half(x) * emb.sin()[:, None, :]


def run(m, ids, patch=None):
    """One forward pass; patch maps (hook name, layer) to a function that returns the tensor to use
    in place of the one given (it must not change its argument). Returns the cache: embed [T, C],
    pos_embed [T, C] or None, and per layer resid_pre, v [T, KV, hd], pattern, z, attn_out,
    mlp_out, resid_post (shapes in the docstring)."""
    patch = patch or {}
    T = len(ids)
    H, KV, hd = m["H"], m["KV"], m["hd"]
    tok = m["embed"][torch.tensor(ids)]
    pos = m["pos"][:T] if m["pos"] is not None else None
    x = tok + pos if pos is not None else tok
    cache = {"embed": tok, "pos_embed": pos}
    for key in ("resid_pre", "v", "pattern", "z", "attn_out", "mlp_out", "resid_post"):
        cache[key] = []

    def hook(name, l, t):
        f = patch.get((name, l))
        t = t if f is None else f(t)
        cache[name].append(t)
        return t

    i_idx, j_idx = torch.arange(T)[:, None], torch.arange(T)[None, :]
    for l, P in enumerate(m["layers"]):
        x = hook("resid_pre", l, x)
        h = norm(m, x, P["n1"])
        q, k, v = h @ P["Wq"], h @ P["Wk"], h @ P["Wv"]
        if P["bq"] is not None:
            q, k, v = q + P["bq"], k + P["bk"], v + P["bv"]
        q, k, v = q.reshape(T, H, hd), k.reshape(T, KV, hd), v.reshape(T, KV, hd)
        cache["v"].append(v)
        if P["q_norm"] is not None:
            q, k = rms_norm(q, P["q_norm"], m["eps"]), rms_norm(k, P["k_norm"], m["eps"])
        if m["inv_freq"] is not None:
            q, k = apply_rope(q, m["inv_freq"]), apply_rope(k, m["inv_freq"])
        group = H // KV
        k_h, v_h = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        scores = torch.einsum("ihd,jhd->hij", q, k_h) / math.sqrt(hd)
        visible = j_idx <= i_idx
        if m["window"][l] is not None:
            visible = visible & (j_idx > i_idx - m["window"][l])
        pattern = hook("pattern", l, torch.softmax(scores.masked_fill(~visible, float("-inf")), dim=-1))
        z = hook("z", l, torch.einsum("hij,jhd->ihd", pattern, v_h))
        a = z.reshape(T, H * hd) @ P["WO"]
        if P["bO"] is not None:
            a = a + P["bO"]
        x = x + hook("attn_out", l, a)
        x = x + hook("mlp_out", l, P["mlp"](norm(m, x, P["n2"])))
        cache["resid_post"].append(x)
    return cache


def logits_of(m, x):
    return norm(m, x, m["nf"]) @ m["WU"].T


def last_logits(cache, m):
    return logits_of(m, cache["resid_post"][-1][-1])


# ---------------------------------------------------------------------------------------------
# The three tools

def s7(x):
    v = float(f"{float(x):.{DIGITS}g}")
    return 0.0 if v == 0 else v  # no "-0.0"


def nested(t):
    """A tensor as nested lists of 7-significant-digit floats."""
    if t.dim() == 0:
        return s7(t)
    return [nested(u) for u in t]


def ints(t):
    return [int(v) for v in t]


def logit_lens(m, cache):
    xs = [cache["resid_pre"][0]] + cache["resid_post"]
    probs = [torch.softmax(logits_of(m, x), dim=-1) for x in xs]  # each [T, V]
    T = xs[0].shape[0]
    default = probs[-1].argmax(dim=-1)      # the final logits' argmax at each t
    chosen = int(default[-1])
    ar = torch.arange(T)
    top1 = [p.max(dim=-1) for p in probs]
    last5 = [torch.topk(p[-1], 5) for p in probs]
    return {
        "default_target": ints(default),
        "chosen_target": chosen,
        "top1_id": [ints(t.indices) for t in top1],
        "top1_prob": [nested(t.values) for t in top1],
        "default_target_prob": [nested(p[ar, default]) for p in probs],
        "chosen_target_prob": [nested(p[:, chosen]) for p in probs],
        "last_top5_ids": [ints(t.indices) for t in last5],
        "last_top5_probs": [nested(t.values) for t in last5],
    }


def direct_attribution(m, ids, cache, checks):
    T, L, H, KV, hd = len(ids), m["L"], m["H"], m["KV"], m["hd"]
    final = last_logits(cache, m)
    two = torch.topk(final, 2)
    target, foil = int(two.indices[0]), int(two.indices[1])
    x = cache["resid_post"][-1][-1]
    w_f, b_f = m["nf"]
    if m["norm"] == "layer_norm":
        scale = torch.sqrt(((x - x.mean()) ** 2).mean() + m["eps"])
        transform = lambda c: (c - c.mean(dim=-1, keepdim=True)) / scale * w_f
    else:
        scale = torch.sqrt((x * x).mean() + m["eps"])
        transform = lambda c: c / scale * w_f
    us = {"target": m["WU"][target], "diff": m["WU"][target] - m["WU"][foil]}
    wants = {"target": float(final[target]), "diff": float(final[target] - final[foil])}

    names, layers_, heads_, vecs = [], [], [], []

    def part(name, l, h, vec):
        names.append(name), layers_.append(l), heads_.append(h), vecs.append(vec)

    part("embed", -1, -1, cache["embed"][-1])
    if cache["pos_embed"] is not None:
        part("pos_embed", -1, -1, cache["pos_embed"][-1])
    per_key_vecs, alpha = [], []
    for l, P in enumerate(m["layers"]):
        z, v, pat = cache["z"][l], cache["v"][l], cache["pattern"][l]
        keys_l, alpha_l = [], []
        for h in range(H):
            WO_h = P["WO"][h * hd:(h + 1) * hd]          # [hd, C]
            part("head", l, h, z[-1, h] @ WO_h)
            a = pat[h, -1]                                # [T]
            kv = h // (H // KV)
            keys_l.append(a[:, None] * (v[:, kv] @ WO_h))  # [T, C]: a_j v_j W_O[h rows]
            alpha_l.append(a)
        per_key_vecs.append(keys_l)
        alpha.append(alpha_l)
        if P["bO"] is not None:
            part("attn_bias", l, -1, P["bO"])
        part("mlp", l, -1, cache["mlp_out"][l][-1])
    vec_sum = torch.stack(vecs).sum(dim=0)
    checks["parts_vs_x"] = max(checks.get("parts_vs_x", 0.0), float((vec_sum - x).abs().max()))

    out = {"position": T - 1, "target": target, "foil": foil, "scale": s7(scale),
           "logit_target": s7(wants["target"]), "logit_diff": s7(wants["diff"]),
           "part_names": names + ["final_bias"], "part_layers": layers_ + [-1], "part_heads": heads_ + [-1]}
    for key, u in us.items():
        values = [float(transform(c) @ u) for c in vecs]
        values.append(float(b_f @ u) if b_f is not None else 0.0)
        checks["parts_sum"] = max(checks.get("parts_sum", 0.0), abs(sum(values) - wants[key]))
        per_key = torch.stack([torch.stack([transform(kv) @ u for kv in keys_l]) for keys_l in per_key_vecs])
        heads_value = torch.tensor([values[i] for i, n in enumerate(names) if n == "head"],
                                   dtype=torch.float64).reshape(L, H)
        checks["per_key_sum"] = max(checks.get("per_key_sum", 0.0), float((per_key.sum(dim=-1) - heads_value).abs().max()))
        out[f"parts_{key}"] = [s7(v) for v in values]
        out[f"per_key_{key}"] = nested(per_key)
    out["alpha"] = nested(torch.stack([torch.stack(a) for a in alpha]))
    out["contribution_norm"] = nested(torch.stack([torch.stack([kv.norm(dim=-1) for kv in keys_l])
                                                   for keys_l in per_key_vecs]))
    return out


def replace_rows(src, pos):
    def f(t):
        t = t.clone()
        t[pos] = src[pos]
        return t
    return f


def replace_head(src, h, dim):
    def f(t):
        t = t.clone()
        t.select(dim, h).copy_(src.select(dim, h))
        return t
    return f


def patching(m, name, clean_text, corrupted_text, clean_ids, corrupted_ids, replaced, checks):
    T, L, H = len(clean_ids), m["L"], m["H"]
    assert len(corrupted_ids) == T
    clean = run(m, clean_ids)
    corrupt = run(m, corrupted_ids)
    lc, lx = last_logits(clean, m), last_logits(corrupt, m)
    target = int(lc.argmax())
    foil, rule = int(lx.argmax()), "corrupted top-1"
    if foil == target:
        foil, rule = int(torch.topk(lc, 2).indices[1]), "clean second"
    u = m["WU"][target] - m["WU"][foil]
    ld = lambda cache: float(norm(m, cache["resid_post"][-1][-1], m["nf"]) @ u)
    ld_clean, ld_corrupt = ld(clean), ld(corrupt)
    denom = ld_clean - ld_corrupt
    patched_ld = lambda patch: ld(run(m, corrupted_ids, patch))
    metric = lambda patch: (patched_ld(patch) - ld_corrupt) / denom

    grids = {"resid": ("resid_pre", "pos"), "attn": ("attn_out", "pos"), "mlp": ("mlp_out", "pos"),
             "head": ("z", 1), "pattern": ("pattern", 0)}
    out = {"name": name, "clean_text": clean_text, "corrupted_text": corrupted_text,
           "clean_ids": list(clean_ids), "corrupted_ids": list(corrupted_ids), "replaced": replaced,
           "target": target, "foil": foil, "foil_rule": rule, "ld_clean": s7(ld_clean), "ld_corrupted": s7(ld_corrupt)}
    lds = {}  # the patched runs' LD, per grid
    for key, (hook, how) in grids.items():
        lds[key] = []
        for l in range(L):
            src = clean[hook][l]
            if how == "pos":
                lds[key].append([patched_ld({(hook, l): replace_rows(src, p)}) for p in range(T)])
            else:
                lds[key].append([patched_ld({(hook, l): replace_head(src, h, how)}) for h in range(H)])
        out[key] = [[s7((v - ld_corrupt) / denom) for v in row] for row in lds[key]]
    for key in grids:  # the same runs' LD itself: well conditioned where LD_clean - LD_corrupted is small
        out[key + "_ld"] = [[s7(v) for v in row] for row in lds[key]]
    whole = metric({("resid_pre", 0): lambda t: clean["resid_pre"][0]})
    for l in range(L):  # every head's z of a layer patched = its attention output at every position
        zs = patched_ld({("z", l): lambda t, l=l: clean["z"][l]})
        outs = patched_ld({("attn_out", l): lambda t, l=l: clean["attn_out"][l]})
        checks["z_vs_attn_out"] = max(checks.get("z_vs_attn_out", 0.0), abs(zs - outs))
    nothing = metric({})
    checks["patch_all_resid0"] = max(checks.get("patch_all_resid0", 0.0), abs(whole - 1.0))
    checks["patch_nothing"] = max(checks.get("patch_nothing", 0.0), abs(nothing))
    print(f"    patching {name}: T={T} target {target} foil {foil} ({rule}), LD clean {ld_clean:.6g} "
          f"corrupted {ld_corrupt:.6g}; all resid_pre[0] -> {whole:.17g}, nothing -> {nothing:.3g}")
    return out


# ---------------------------------------------------------------------------------------------
# Ids from the engine's tokenizer, checks against the other references and the engine

def encode(attnlab, folder, text):
    proc = subprocess.run([attnlab, "model", "encode", str(folder), "--text", text],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"attnlab model encode {folder} failed:\n{proc.stderr}")
    d = json.loads(proc.stdout)
    return d["ids"], d["begin"]


def check_against_reference(m, ref_path, checks):
    """This forward on the ids of tests/model/<gpt2|llama>_reference.json: the recorded 20 top
    log-probabilities at the last position (rounded to 1e-9) and their argmax."""
    if ref_path is None:
        return
    ref = json.loads(ref_path.read_text())
    v = ref["variants"].get(m["name"])
    if v is None:
        return
    if isinstance(v["results"], str):  # gpt2_reference.json: the name of a shared entry of "results"
        per = ref["results"][v["results"]]
        id_lists = [s["ids"] for s in ref["sentences"]]
    else:                              # llama_reference.json: the variant's own list, with its ids
        per = v["results"]
        id_lists = [r["ids"] for r in per]
    worst, argmax_same = 0.0, True
    for ids, res in zip(id_lists, per):
        lg = last_logits(run(m, ids), m)
        logp = lg - torch.logsumexp(lg, 0)
        top = res["last"]["top"]
        worst = max(worst, max(abs(float(logp[i]) - lp) for i, lp in top))
        argmax_same &= int(lg.argmax()) == top[0][0]
    print(f"    vs {ref_path.name}: {len(per)} sentences, top-20 log-probs max |diff| {worst:.3g}, "
          f"argmax {'the same' if argmax_same else 'DIFFERENT'}")
    checks["vs_reference_json"] = max(checks.get("vs_reference_json", 0.0), worst)
    assert worst < 1e-8 and argmax_same


def check_against_engine(m, attnlab, text, checks):
    """`attnlab model run` on the same folder and text (its ids, begin token included): the
    next-token probabilities it prints and every attention weight, against this forward."""
    proc = subprocess.run([attnlab, "model", "run", m["folder"], "--text", text, "--threads", "1"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"attnlab model run failed:\n{proc.stderr}")
    d = json.loads(proc.stdout)
    ids = [t["id"] for t in d["tokens"]]
    cache = run(m, ids)
    p = torch.softmax(last_logits(cache, m), dim=-1)
    dp = max(abs(float(p[n["id"]]) - n["p"]) for n in d["next"])
    rel = max(abs(n["p"] / float(p[n["id"]]) - 1) for n in d["next"])
    top_same = [n["id"] for n in d["next"]][:1] == [int(p.argmax())]
    dw = 0.0
    for l, layer in enumerate(d["weights"]):
        for h, rows in enumerate(layer):
            for i, row in enumerate(rows):
                dw = max(dw, max(abs(float(cache["pattern"][l][h, i, j]) - w) for j, w in enumerate(row)))
    print(f"    vs attnlab model run ({len(ids)} ids, first {ids[0]}): next-token p max |diff| {dp:.3g} "
          f"(relative {rel:.3g}), attention {dw:.3g}, top-1 {'the same' if top_same else 'DIFFERENT'}")
    checks["vs_engine_p"] = max(checks.get("vs_engine_p", 0.0), dp)
    checks["vs_engine_p_relative"] = max(checks.get("vs_engine_p_relative", 0.0), rel)
    checks["vs_engine_attention"] = max(checks.get("vs_engine_attention", 0.0), dw)
    assert dp < 1e-4 and dw < 1e-4 and top_same


# ---------------------------------------------------------------------------------------------

def debian_version(package):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True,
                              text=True, check=True).stdout or None
    except (OSError, subprocess.CalledProcessError):
        return None


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def patching_pairs(attnlab, folder):
    """The pairs this model's tokenizer allows: (name, clean text, corrupted text, clean ids,
    corrupted ids, replaced)."""
    out = []
    for name, a, b in PAIRS:
        ia, _ = encode(attnlab, folder, a)
        ib, _ = encode(attnlab, folder, b)
        if len(ia) == len(ib):
            out.append((name, a, b, ia, ib, []))
        else:
            print(f"    {name}: {len(ia)} vs {len(ib)} ids, not used")
    if out:
        return out
    name, a, b = FALLBACK
    ia, _ = encode(attnlab, folder, a)
    ib, _ = encode(attnlab, folder, b)
    replaced = [[i, x, y] for i, (x, y) in enumerate(zip(ia, ib)) if x != y]
    assert len(ia) == len(ib) and 1 <= len(replaced) <= 2, (ia, ib)
    corrupted = list(ia)
    for i, _, y in replaced:
        corrupted[i] = y
    assert corrupted == ib  # the replaced ids are the corrupted text's own ids
    print(f"    fallback {name}: the clean ids with {replaced} ([position, clean id, new id])")
    out.append((name, a, b, ia, corrupted, replaced))
    for name, a, b in FALLBACK_EXTRA:
        ia, _ = encode(attnlab, folder, a)
        ib, _ = encode(attnlab, folder, b)
        if len(ia) == len(ib):
            out.append((name, a, b, ia, ib, []))
        else:
            print(f"    {name}: {len(ia)} vs {len(ib)} ids, not used")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpt2-fixtures", default=str(ROOT / "build" / "native-release" / "fixtures" / "gpt2"))
    ap.add_argument("--llama-fixtures", default=str(ROOT / "build" / "native-release" / "fixtures" / "llama"))
    ap.add_argument("--ours", default="/tmp/ours-hf", help="the lab's model exported: attnlab model export web/model DIR --to hf")
    ap.add_argument("--attnlab", default=str(ROOT / "build" / "native-release" / "attnlab"))
    ap.add_argument("--out", default=str(ROOT / "tests" / "model" / "inspect_reference.json"))
    args = ap.parse_args()
    assert sys.byteorder == "little"
    torch.set_num_threads(1)
    started = time.time()

    specs = [("ours", load_gpt2, Path(args.ours), None)]
    specs += [(n, load_gpt2, Path(args.gpt2_fixtures) / n, ROOT / "tests" / "model" / "gpt2_reference.json")
              for n in GPT2_MODELS]
    specs += [(n, load_llama, Path(args.llama_fixtures) / n, ROOT / "tests" / "model" / "llama_reference.json")
              for n in LLAMA_MODELS]

    models, checks = {}, {}
    for name, loader, folder, ref_path in specs:
        m = loader(folder, name)
        print(f"{name}: {m['family']} {m['dtype']}, L={m['L']} H={m['H']} KV={m['KV']} C={m['C']} hd={m['hd']} "
              f"V={m['V']}, {'tied' if m['tied'] else 'lm_head'}, {m['activation']}, windows {m['window']}")
        check_against_reference(m, ref_path, checks)
        prompts = []
        for text in LENS_TEXTS:
            check_against_engine(m, args.attnlab, text, checks)
            ids, begin = encode(args.attnlab, folder, text)
            cache = run(m, ids)
            final = last_logits(cache, m)
            top5 = torch.topk(final, 5)
            lens = logit_lens(m, cache)
            checks["lens_final"] = max(checks.get("lens_final", 0.0),
                                       float((logits_of(m, cache["resid_post"][-1]).argmax(-1)
                                              - torch.tensor(lens["default_target"])).abs().max()))
            att = direct_attribution(m, ids, cache, checks)
            assert att["target"] == lens["chosen_target"] == int(top5.indices[0])
            prompts.append({
                "text": text, "ids": ids, "begin": begin,
                "final_top5": {"ids": ints(top5.indices), "logits": nested(top5.values),
                               "probs": nested(torch.softmax(final, 0)[top5.indices])},
                "lens": lens, "attribution": att})
            print(f"    \"{text}\": {len(ids)} ids, final top-1 {int(top5.indices[0])}, foil {att['foil']}, "
                  f"logit diff {att['logit_diff']}")
        pairs = [patching(m, *pair, checks) for pair in patching_pairs(args.attnlab, folder)]
        models[name] = {
            "folder": str(folder),
            "sha256": {f: sha256(Path(folder) / f) for f in m["files"]},
            "config": {"family": m["family"], "layers": m["L"], "heads": m["H"], "kv_heads": m["KV"],
                       "hidden": m["C"], "head_dim": m["hd"], "vocab": m["V"], "norm": m["norm"],
                       "eps": m["eps"], "tied": m["tied"], "activation": m["activation"],
                       "sliding_window": m["window"], "attn_bias": m["layers"][0]["bO"] is not None},
            "prompts": prompts,
            "patching": pairs,
        }

    print("checks (largest over every model and prompt):")
    print(f"  attribution: parts sum - model's logit (difference): {checks['parts_sum']:.3g}")
    print(f"  attribution: per-key sum - the head's part:          {checks['per_key_sum']:.3g}")
    print(f"  attribution: parts' vectors sum - x:                 {checks['parts_vs_x']:.3g}")
    print(f"  patching: all of resid_pre[0] patched, |metric - 1|: {checks['patch_all_resid0']:.3g}")
    print(f"  patching: nothing patched, |metric|:                 {checks['patch_nothing']:.3g}")
    print(f"  patching: all heads' z of a layer vs its attn_out, LD: {checks['z_vs_attn_out']:.3g}")
    print(f"  lens at k = L: argmax = the forward's at every t:    {'yes' if checks['lens_final'] == 0 else 'NO'}")
    print(f"  forward vs gpt2/llama_reference.json top-20 log-p:  {checks['vs_reference_json']:.3g}")
    print(f"  forward vs attnlab model run: next p {checks['vs_engine_p']:.3g} (relative "
          f"{checks['vs_engine_p_relative']:.3g}: the engine's float32 softmax sum over the vocabulary), "
          f"attention {checks['vs_engine_attention']:.3g}")
    assert checks["parts_sum"] < 1e-9 and checks["per_key_sum"] < 1e-9 and checks["parts_vs_x"] < 1e-9
    assert checks["patch_all_resid0"] < 1e-9 and checks["patch_nothing"] < 1e-12 and checks["lens_final"] == 0
    assert checks["z_vs_attn_out"] < 1e-9

    command = ("build/native-release/attnlab model export web/model /tmp/ours-hf --to hf && "
               "/usr/bin/python3 scripts/inspect_reference.py --gpt2-fixtures build/native-release/fixtures/gpt2 "
               "--llama-fixtures build/native-release/fixtures/llama --ours /tmp/ours-hf "
               "--attnlab build/native-release/attnlab --out tests/model/inspect_reference.json")
    doc = {
        "about": "Float64 PyTorch reference for the logit lens, direct logit attribution and activation "
                 "patching (TransformerLens's definitions, raw weights: no folding, no centring) on the lab's "
                 "model (ours, exported to the GPT-2 layout) and on the GPT-2 and Llama-family fixtures. The "
                 "format and every definition are in scripts/inspect_reference.py's docstring. ids are exactly "
                 "those `attnlab model encode` prints (its begin token, recorded as begin, is not prepended). "
                 "Floats are rounded to 7 significant digits; -1 in part_layers / part_heads means none.",
        "script": "scripts/inspect_reference.py",
        "command": command,
        "made_with": {"torch": torch.__version__, "python3-torch": debian_version("python3-torch"),
                      "python": platform.python_version()},
        "models": models,
    }
    text = dumps_compact(doc) + "\n"
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {len(text.encode()) / 1e3:.1f} kB in {time.time() - started:.0f} s")


def dumps_compact(obj, indent=0):
    """JSON with nesting indented but lists of scalars (and lists of such lists) on one line
    (scripts/gpt2_reference.py's writer, copied)."""
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
