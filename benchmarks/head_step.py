"""What a frozen-encoder head's training step costs, against its arithmetic and against training the seeds as one model.

RoNLI's official protocol trains a head (fc 2h -> 256, ReLU, dropout 0.3, fc 256 -> 4; `models.PairHead`) on frozen
sentence vectors: 12 variants x 25 seeds, Cart-CL alone 4,200 steps of 256 pairs a seed. The README's plan once said each
step is "a fraction of a millisecond of arithmetic and about a millisecond of Python", so that training a variant's
seeds as one batched model (`torch.func.stack_module_state` + `vmap`) would make them nearly free. This measures it.

Rows, all fp32, the same 2,659 x 2h features (random, seed 0; the values do not change the arithmetic; h = 384 for
the embedded all-MiniLM-L6-v2 of the `cpu` profile, `--hidden 768` for Ro-BERT's BERT-base), batches of
256 drawn without replacement from a fixed plan:

- the engine: `training.fit` on `PairHead` (what the notebooks run: dynamics recorded from the training pass), a batch
  being one index into the features' matrix (`Encoded.matrix`);
- the engine before that: each batch stacked from 256 per-example vectors by the collator (the same numbers);
- a bare loop: `PairHead`, AdamW, `cross_entropy`, the batch gathered by index: what a user would otherwise write;
- S seeds as one model: `stack_module_state` + `vmap(functional_call)`, one AdamW over the stacked weights (AdamW is
  elementwise, so each seed's update is its own), dropout drawn per seed (`randomness="different"`); time per seed-step;
- the floor: the two dense layers' GEMMs alone (forward, and the weight gradients; the features need no gradient),
  counted by `torch.utils.flop_counter.FlopCounterMode` and timed as bare `torch.mm` calls.

    python benchmarks/head_step.py [--steps 400] [--threads 2] [--seeds 5] [--hidden 384]
"""
import argparse, os, time

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

os.environ.setdefault("NLIC_OFFLINE", "1")
N, H, C = 2659, 256, 4  # RoNLI's distant training pairs, the official head's hidden units and classes


def timed(fn, reps=3):
    "Median wall seconds of `reps` calls of `fn` after one warm-up call."
    fn(); ts = []
    for _ in range(reps):
        t = time.perf_counter(); fn(); ts.append(time.perf_counter() - t)
    return float(np.median(ts))


def engine(X, y, plan, matrix=True):
    "`training.fit` on `PairHead`; `matrix`: batches by one index into the features (now), else stacked per example (before)."
    from nlicompendium.models import PairHead
    from nlicompendium.training import Encoded, TrainConfig, fit
    M = X.numpy()
    enc = Encoded([{"features": v} for v in M], y.numpy(), np.arange(N).astype(str), np.full(N, 40), list("abcd"),
                  matrix=M if matrix else None)
    cfg = TrainConfig(model="embedded", encoding="frozen", lr=1e-3, batch_size=len(plan[0]), epochs=1, max_steps=len(plan),
                      eval_every=None, record="train", progress=False, bf16=False, schedule="constant", warmup_ratio=0.0,
                      grad_clip=None)  # the official heads: no clipping
    return lambda: fit(enc, None, cfg, batches=plan, model=PairHead(X.shape[1], C))


def bare(X, y, plan):
    from nlicompendium.models import PairHead
    idx = [torch.as_tensor(b) for b in plan]
    def run():
        torch.manual_seed(0); m = PairHead(X.shape[1], C).train(); opt = torch.optim.AdamW(m.parameters(), 1e-3, fused=True)
        for b in idx:
            loss = nn.functional.cross_entropy(m(X[b]).logits, y[b]); loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    return run


def stacked(X, y, plan, S):
    "S seeds of PairHead as one model: each seed its own initial weights, batch order and dropout masks."
    from torch.func import functional_call, stack_module_state, vmap
    from nlicompendium.models import PairHead
    rng = np.random.default_rng(1)
    idx = [torch.as_tensor(np.stack([b] + [rng.permutation(N)[:len(b)] for _ in range(S - 1)])) for b in plan]  # (S, B)
    def run():
        heads = []
        for s in range(S): torch.manual_seed(s); heads.append(PairHead(X.shape[1], C).train())
        params, bufs = stack_module_state(heads)
        base = PairHead(X.shape[1], C).to("meta").train()
        f = vmap(lambda p, b, xb: functional_call(base, (p, b), (xb,)).logits, randomness="different")
        opt = torch.optim.AdamW(list(params.values()), 1e-3, fused=True)
        for b in idx:
            logits = f(params, bufs, X[b])  # (S, B, C)
            # the sum of the seeds' mean losses: each seed's gradient is its own loss's
            loss = nn.functional.cross_entropy(logits.reshape(-1, C), y[b].reshape(-1), reduction="sum") / b.shape[1]
            loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    return run


def floor(X, B, steps):
    "Seconds of the head's GEMMs alone over `steps` steps, and their FLOPs per step (FlopCounterMode on one step)."
    from torch.utils.flop_counter import FlopCounterMode
    from nlicompendium.models import PairHead
    m = PairHead(X.shape[1], C).train(); xb, yb = X[:B], torch.zeros(B, dtype=torch.long)
    with FlopCounterMode(display=False) as fc:
        nn.functional.cross_entropy(m(xb).logits, yb).backward()
    W1, W2 = torch.randn(H, X.shape[1]), torch.randn(C, H)
    h, g1, g2 = torch.randn(B, H), torch.randn(B, H), torch.randn(B, C)
    def run():
        for _ in range(steps):
            xb @ W1.T; torch.mm(g1.T, xb)  # fc1 forward, fc1 weight gradient
            h @ W2.T; torch.mm(g2.T, h); g2 @ W2  # fc2 forward, weight gradient, input gradient
    return run, fc.get_total_flops()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=400, help="steps per timed run (Cart-CL takes 4,200 a seed)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--seeds", type=int, default=5, help="seeds trained as one model in the stacked row")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=384, help="the encoder's hidden size: the features are premise and hypothesis")
    a = ap.parse_args(argv)
    D = 2 * a.hidden  # premise and hypothesis vectors, concatenated
    torch.set_num_threads(a.threads)
    print(f"torch {torch.__version__}, CPU capability {torch.backends.cpu.get_cpu_capability()}, "
          f"threads {torch.get_num_threads()}, fp32; head {D} -> {H} -> {C}, batch {a.batch}, {a.steps} steps", flush=True)
    g = torch.Generator().manual_seed(0)
    X, y = torch.randn(N, D, generator=g), torch.randint(0, C, (N,), generator=g)
    rng = np.random.default_rng(0)
    plan = [rng.permutation(N)[:a.batch].tolist() for _ in range(a.steps)]
    fl_run, flops = floor(X, a.batch, a.steps)
    rows = {}
    t_floor = timed(fl_run)
    for name, fn, per in (("the engine: training.fit on PairHead", engine(X, y, plan), 1),
                          ("the engine before: each batch stacked from per-example vectors", engine(X, y, plan, matrix=False), 1),
                          ("a bare PyTorch loop (fused AdamW)", bare(X, y, plan), 1),
                          (f"{a.seeds} seeds as one model (torch.func vmap)", stacked(X, y, plan, a.seeds), a.seeds)):
        rows[name] = timed(fn) / a.steps / per
        print(f"{name}: {rows[name] * 1e3:.2f} ms per seed-step", flush=True)
    rows["the GEMMs alone (the floor)"] = t_floor / a.steps
    df = pd.DataFrame({"ms per seed-step": {k: v * 1e3 for k, v in rows.items()}})
    df["GFLOP/s (GEMM FLOPs / time)"] = flops / 1e9 / (df["ms per seed-step"] / 1e3)
    df["time / engine"] = df["ms per seed-step"] / df.loc["the engine: training.fit on PairHead", "ms per seed-step"]
    df["seconds for Cart-CL's 4,200 steps"] = df["ms per seed-step"] * 4.2
    print(f"\nGEMM FLOPs per step (FlopCounterMode): {flops / 1e6:.0f} M\n")
    print(df.round(2).to_markdown())


if __name__ == "__main__":
    main()
