#!/usr/bin/env python3
"""`attnlab model lens`, `model attribute`, `model patch` and `model run --generate` with sampling
(issue 40) on the shipped model: the lens's last row is `model run`'s next token, the attribution's
parts sum to its logit, patching fills its grid and refuses prompts of different lengths naming
both, sampling is reproducible by its seed and greedy at temperature 0; bad options are refused.
(The numbers themselves against PyTorch: tests/model/test_inspect_reference.cpp.)

usage: test_model_output.py ATTNLAB FIXTURES_DIR
"""
import json

from common import SHIPPED_MODEL, check, check_refusal, finish, model

TEXT = "я люблю суши"

code, out, err = model("run", SHIPPED_MODEL, "--text", TEXT)
run = json.loads(out) if code == 0 else {}
code, out, err = model("lens", SHIPPED_MODEL, "--text", TEXT)
lens = json.loads(out) if code == 0 else {}
check("model lens: L + 1 rows, one column per token, the last row's last cell is model run's next token",
      code == 0 and lens.get("rows") == 5 and len(lens["top"][-1]) == len(run.get("tokens", []))
      and lens["top"][-1][-1]["id"] == run["next"][0]["id"]
      and abs(lens["top"][-1][-1]["p"] - run["next"][0]["p"]) < 1e-6, err + out[:300])

code, out, err = model("attribute", SHIPPED_MODEL, "--text", TEXT, "--foil", "5")
a = json.loads(out) if code == 0 else {}
parts = sum(p["value"] for p in a.get("parts", []))
check("model attribute --foil: the parts sum to the logit difference; one entry per head with its sources",
      code == 0 and abs(parts - a["logit"]) < 1e-4 and a["foil"]["id"] == 5 and len(a["heads"]) == 4 * 6
      and all(len(h["attribution"]) == len(a["tokens"]) for h in a["heads"]), err + out[:300])

clean = "When Mary and Tom went to the store, Tom gave a drink to"
corrupted = "When Tom and Mary went to the store, Mary gave a drink to"
code, out, err = model("patch", SHIPPED_MODEL, "--clean", clean, "--corrupted", corrupted, "--what", "head")
p = json.loads(out) if code == 0 else {}
check("model patch --what head: a layer x head grid, every cell run",
      code == 0 and p.get("rows") == 4 and p.get("cols") == 6 and p["done"] == p["total"] == 24
      and all(isinstance(x, float) for row in p["metric"] for x in row), err + out[:300])

# sampling: the seed decides, temperature 0 is greedy (top-k 1)
def generated(*flags):
    code, out, err = model("run", SHIPPED_MODEL, "--text", "I love sushi", "--generate", "12", *flags)
    return json.loads(out).get("generatedTokens") if code == 0 else err

a1, a2 = generated("--top-k", "0", "--top-p", "0.9", "--temperature", "0.8", "--seed", "3"), \
    generated("--top-k", "0", "--top-p", "0.9", "--temperature", "0.8", "--seed", "3")
check("model run --generate: the same seed gives the same tokens", isinstance(a1, list) and a1 == a2 and len(a1) > 0, a1)
check("model run --generate: temperature 0 is greedy (top-k 1)",
      generated("--top-k", "0", "--temperature", "0") == generated("--top-k", "1"))

check_refusal("model patch", "prompts of different lengths", None,
              "the clean and the corrupted prompts must have the same length in tokens (clean 3, corrupted 4)",
              args=["model", "patch", SHIPPED_MODEL, "--clean", "a b", "--corrupted", "a b c"])
check_refusal("model patch", "an unknown --what", None, '--what: expected resid, attn, mlp, head or pattern, got "neurons"',
              args=["model", "patch", SHIPPED_MODEL, "--clean", "a", "--corrupted", "b", "--what", "neurons"])
check_refusal("model lens", "a target out of the vocabulary", None, "--target: expected a token id from 0 to 4095, got 5000",
              args=["model", "lens", SHIPPED_MODEL, "--text", TEXT, "--target", "5000"])
check_refusal("model attribute", "the foil equal to the target", None, "--foil: the foil must differ from the target (7)",
              args=["model", "attribute", SHIPPED_MODEL, "--text", TEXT, "--target", "7", "--foil", "7"])

finish()
