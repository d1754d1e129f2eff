"""Cartography metrics speed: the vectorised `cartography_metrics` against a per-example loop (the reference implementation's logic).

    python benchmarks/cartography_metrics.py [--n 1000000] [--epochs 10]
"""
import argparse, time
import numpy as np
import pandas as pd
from nlicompendium.dynamics import Dynamics
from nlicompendium.cartography import cartography_metrics


def loop_metrics(prob_gold, pred, gold):
    out = []
    for pg, pr, g in zip(prob_gold, pred, gold):
        correct = pr == g; learnt, forgot = False, 0
        for c in correct:
            if learnt and not c: learnt, forgot = False, forgot + 1
            elif not learnt and c: learnt = True
        out.append((pg.mean(), pg.std(), correct.mean(), forgot))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**6); ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--loop-n", type=int, default=20_000, help="examples timed for the loop (extrapolated to --n)")
    a = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    dyn = Dynamics([str(i) for i in range(a.n)], rng.integers(0, 3, a.n), rng.random((a.n, a.epochs), dtype=np.float32), rng.integers(0, 3, (a.n, a.epochs)))
    times = []
    for _ in range(3):
        t = time.perf_counter(); cartography_metrics(dyn); times.append(time.perf_counter() - t)
    k = min(a.loop_n, a.n)
    t = time.perf_counter(); loop_metrics(dyn.prob_gold[:k], dyn.pred[:k], dyn.gold[:k]); loop = (time.perf_counter() - t) * a.n / k
    df = pd.DataFrame({"seconds": [float(np.median(times)), loop]}, index=[f"vectorised (median of 3), {a.n:,} x {a.epochs}", f"per-example loop, extrapolated from {k:,}"])
    df["speed-up"] = df.seconds.iloc[1] / df.seconds
    print(df.round(3).to_markdown())


if __name__ == "__main__":
    main()
