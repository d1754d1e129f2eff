"""A variant's frozen heads trained seed by seed (`training.fit`, what a user would otherwise run) against all its seeds
as one model (`seeds.fit_heads`), in one thread of torch's threads and split between one thread per core (`workers`):
wall and CPU seconds, their ratios, and whether every seed's weights are the same.

The curriculum study's shapes: 2,659 training pairs of 2 x 384 frozen features (the embedded MiniLM), a dev split of
268, `models.PairHead`, AdamW at 1e-3 on batches of 256 for at most 110 steps, dev macro F1 after each epoch, early
stopping (patience 4, not before step 55), each seed its own batch plan; random features, labels leaning on one
column so that seeds stop at different steps.

    python benchmarks/batched_heads.py [--seeds 5 20] [--threads 1 2] [--hidden 384]
"""
import argparse, os, time
from dataclasses import replace

import numpy as np
import pandas as pd
import torch

os.environ.setdefault("NLIC_OFFLINE", "1")


def splits(hidden, rng):
    from nlicompendium.training import Encoded
    def enc(n):
        M = rng.normal(size=(n, 2 * hidden)).astype(np.float32); y = rng.integers(0, 4, n); M[:, 0] += 0.5 * y
        return Encoded([{"features": v} for v in M], y, np.arange(n).astype(str), np.full(n, 40), list("abcd"), matrix=M)
    return enc(2659), enc(268)


def timed(fn):
    "fn's result, wall seconds and CPU seconds of this process."
    w, c = time.perf_counter(), time.process_time(); out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[5, 20])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--hidden", type=int, default=384)
    a = ap.parse_args()
    from nlicompendium.training import TrainConfig, fit
    from nlicompendium.seeds import fit_heads
    rng = np.random.default_rng(0); tr, dv = splits(a.hidden, rng)
    model = "embedded" if a.hidden == 384 else "bert-base-uncased"
    cfg = TrainConfig(model=model, encoding="frozen", lr=1e-3, epochs=10, max_steps=110, min_steps=55, batch_size=256,
                      bf16=False, schedule="constant", warmup_ratio=0.0, grad_clip=None, patience=4, progress=False)
    rows = []
    for th in a.threads:
        torch.set_num_threads(th)
        for S in a.seeds:
            cs = [replace(cfg, seed=s) for s in range(S)]
            plans = [[rng.permutation(len(tr.labels))[:256] for _ in range(110)] for _ in cs]
            fit(tr, dv, cs[0], plans[0][:4])  # warm-up
            alone, w1, c1 = timed(lambda: [fit(tr, dv, c, p) for c, p in zip(cs, plans)])
            joint, w2, c2 = timed(lambda: fit_heads(tr, dv, cs, plans, workers=1))
            split, w3, c3 = timed(lambda: fit_heads(tr, dv, cs, plans, workers=th))
            same = all(all(torch.equal(v, j.model.state_dict()[k]) and torch.equal(v, t_.model.state_dict()[k])
                           for k, v in x.model.state_dict().items()) for x, j, t_ in zip(alone, joint, split))
            rows.append({"threads": th, "seeds": S, "steps taken": sum(r.steps for r in alone),
                         "seed by seed: wall s": round(w1, 2), "seed by seed: CPU s": round(c1, 2),
                         "one model: wall s": round(w2, 2), "one model: CPU s": round(c2, 2),
                         f"one model, {th} head threads: wall s": round(w3, 2),
                         "wall ratio (seed by seed / one model)": round(w1 / w2, 2), "CPU ratio": round(c1 / c2, 2),
                         "wall ratio (seed by seed / head threads)": round(w1 / w3, 2), "same weights": same})
    print(f"{torch.__version__}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print(pd.DataFrame(rows).to_markdown(index=False))


if __name__ == "__main__":
    main()
