"""scripts/bench.sh --model --torch (a benchmark, not a test): the model of src/model (MODEL.md)
in PyTorch, trained on random tokens for a fixed number of steps; prints tokens per second as one
line of JSON, like tests/bench/bench_model.cpp. Same architecture and shapes: pre-LayerNorm
blocks, causal multi-head attention without biases (scaled by 1/sqrt(Dh)), a GELU (tanh) MLP with
biases, learned positions, tied embeddings, mean cross-entropy; AdamW (0.9, 0.95, eps 1e-8,
weight decay 0.1 on matrices), global gradient-norm clipping at 1.0, float32.

    /usr/bin/python3 bench_model_torch.py [--vocab V] [--d-model C] [--layers L] [--heads H]
        [--context P] [--mlp F] [--batch B] [--steps S] [--warmup W] [--threads N]
"""
import argparse
import json
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, c, h, f):
        super().__init__()
        self.h = h
        self.ln1 = nn.LayerNorm(c, eps=1e-5)
        self.w_qkv = nn.Linear(c, 3 * c, bias=False)  # the H heads' W_Q, W_K, W_V side by side
        self.w_o = nn.Linear(c, c, bias=False)
        self.ln2 = nn.LayerNorm(c, eps=1e-5)
        self.fc = nn.Linear(c, f)
        self.proj = nn.Linear(f, c)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.w_qkv(self.ln1(x)).split(c, dim=2)
        shape = (b, t, self.h, c // self.h)
        q, k, v = (z.view(shape).transpose(1, 2) for z in (q, k, v))  # (B, H, T, Dh)
        s = q @ k.transpose(-2, -1) / math.sqrt(c // self.h)
        mask = torch.ones(t, t, dtype=torch.bool).triu(1)
        p = s.masked_fill(mask, float("-inf")).softmax(dim=-1)
        a = (p @ v).transpose(1, 2).reshape(b, t, c)
        x = x + self.w_o(a)
        return x + self.proj(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class Model(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.wte = nn.Embedding(a.vocab, a.d_model)
        self.wpe = nn.Embedding(a.context, a.d_model)
        self.blocks = nn.ModuleList(Block(a.d_model, a.heads, a.mlp) for _ in range(a.layers))
        self.ln_f = nn.LayerNorm(a.d_model, eps=1e-5)
        for p in self.parameters():
            if p.dim() == 2:
                nn.init.normal_(p, std=0.02)

    def forward(self, idx, targets):
        t = idx.shape[1]
        x = self.wte(idx) + self.wpe(torch.arange(t))
        for blk in self.blocks:
            x = blk(x)
        logits = self.ln_f(x) @ self.wte.weight.t()  # tied
        return F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))


def main():
    ap = argparse.ArgumentParser()
    for name, default in [("vocab", 2048), ("d-model", 128), ("layers", 4), ("heads", 4),
                          ("context", 64), ("mlp", 512), ("batch", 8), ("steps", 20),
                          ("warmup", 2), ("threads", 1)]:
        ap.add_argument("--" + name, type=int, default=default)
    a = ap.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    model = Model(a)
    decay = [p for p in model.parameters() if p.dim() == 2]
    no_decay = [p for p in model.parameters() if p.dim() != 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=3e-3, betas=(0.9, 0.95), eps=1e-8)
    g = torch.Generator().manual_seed(2)
    stream = torch.randint(0, a.vocab, (200000,), generator=g)

    def step():
        starts = torch.randint(0, stream.numel() - a.context - 1, (a.batch,), generator=g)
        x = torch.stack([stream[s:s + a.context] for s in starts])
        y = torch.stack([stream[s + 1:s + a.context + 1] for s in starts])
        loss = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return loss.item()

    loss = None
    for _ in range(a.warmup):
        loss = step()
    first = loss
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(a.steps):
        loss = step()
    seconds, cpu_seconds = time.perf_counter() - t0, time.process_time() - c0
    tokens = a.steps * a.batch * a.context
    print(json.dumps({"impl": "torch " + torch.__version__, "threads": torch.get_num_threads(),
                      "tokens_per_s": round(tokens / seconds, 1),
                      "tokens_per_cpu_s": round(tokens / cpu_seconds, 1),
                      "seconds": round(seconds, 3), "cpu_seconds": round(cpu_seconds, 3),
                      "steps": a.steps, "batch": a.batch, "length": a.context,
                      "loss_first": first, "loss_last": loss}))


if __name__ == "__main__":
    main()
