"""Cartography speed, in two tables.

1. From logits to metrics: `dynamics.from_logits` then `cartography.cartography_metrics`, against the previous implementation
   (scipy's float64 softmax over every class, and a Python `set` over the ids), on the same logits.
2. From `Dynamics` to metrics: the vectorised `cartography_metrics` against a per-example loop (the reference implementation's logic).

    python benchmarks/cartography_metrics.py [--n 1000000] [--epochs 10] [--logits-n 200000] [--logits-epochs 6] [--classes 4]
"""
import argparse, time
import numpy as np
import pandas as pd
from nlicompendium.dynamics import Dynamics, from_logits
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


def previous_from_logits(ids, gold, logits):
    "The implementation before issue 10: float64 softmax over every class, and a Python set to check the ids."
    from scipy.special import softmax
    logits = np.asarray(logits, dtype=np.float32); gold = np.asarray(gold, dtype=np.int64)
    probs = softmax(logits.astype(np.float64), axis=-1)
    pg = np.take_along_axis(probs, gold[:, None, None].repeat(logits.shape[1], 1), -1)[..., 0].astype(np.float32)
    ids = np.asarray(ids).astype(str)
    if len(set(ids)) != len(ids): raise ValueError("ids must be unique")
    d = object.__new__(Dynamics)  # the checks above are the previous __post_init__'s; skip the new one
    d.ids, d.gold, d.prob_gold, d.pred, d.logits, d.meta = ids, gold, pg, logits.argmax(-1), logits, {}
    return d


def previous_cartography_metrics(dyn):
    "The implementation before issue 10: nan-aware sums over the short epoch axis of an example-major array."
    p = dyn.prob_gold.astype(np.float64); seen = ~np.isnan(p); n = seen.sum(1)
    conf = np.nansum(p, 1) / n; var = np.sqrt(np.nansum((p - conf[:, None]) ** 2, 1) / n)
    correct = (dyn.pred == dyn.gold[:, None]) & seen; corr = correct.sum(1) / n
    out, prev = np.zeros(len(correct)), np.zeros(len(correct), dtype=bool)
    for e in range(correct.shape[1]):
        s = seen[:, e]; out += (prev & ~correct[:, e] & s); prev = np.where(s, correct[:, e], prev)
    out[~correct.any(1)] = np.inf
    return pd.DataFrame({"confidence": conf, "variability": var, "correctness": corr, "forgetfulness": out,
                         "gold": dyn.gold, "epochs": n}, index=pd.Index(dyn.ids, name="id"))


def median_time(fn, repeats=5):
    times = []
    for _ in range(repeats):
        t = time.perf_counter(); out = fn(); times.append(time.perf_counter() - t)
    return float(np.median(times)), out


def logits_table(n, epochs, classes):
    rng = np.random.default_rng(0)
    ids, gold = [str(i) for i in range(n)], rng.integers(0, classes, n)
    logits = rng.normal(scale=3, size=(n, epochs, classes)).astype(np.float32)
    t_old_dyn, old = median_time(lambda: previous_from_logits(ids, gold, logits))
    t_new_dyn, new = median_time(lambda: from_logits(ids, gold, logits))
    t_old_m, m_old = median_time(lambda: previous_cartography_metrics(old))
    t_new_m, m_new = median_time(lambda: cartography_metrics(new))
    err = float(np.abs(new.prob_gold - old.prob_gold).max())
    assert err < 1e-6 and np.allclose(m_new.to_numpy(float), m_old.to_numpy(float), atol=1e-6), "the two paths disagree"
    df = pd.DataFrame({"from_logits (s)": [t_old_dyn, t_new_dyn], "cartography_metrics (s)": [t_old_m, t_new_m]},
                      index=["previous (scipy float64 softmax, Python set; nan-aware example-major sums)",
                             "now (float32, gold class only, numpy sort; epoch-major sums)"])
    df["logits to metrics (s)"] = df.sum(axis=1)
    df["speed-up"] = df["logits to metrics (s)"].iloc[0] / df["logits to metrics (s)"]
    print(f"\nFrom logits to metrics: {n:,} examples x {epochs} epochs x {classes} classes, median of 5; "
          f"max |difference| in gold probability {err:.1e}\n")
    print(df.round(3).to_markdown())


def metrics_table(n, epochs, loop_n):
    rng = np.random.default_rng(0)
    dyn = Dynamics([str(i) for i in range(n)], rng.integers(0, 3, n), rng.random((n, epochs), dtype=np.float32), rng.integers(0, 3, (n, epochs)))
    t_vec, _ = median_time(lambda: cartography_metrics(dyn), 3)
    k = min(loop_n, n)
    t = time.perf_counter(); loop_metrics(dyn.prob_gold[:k], dyn.pred[:k], dyn.gold[:k]); loop = (time.perf_counter() - t) * n / k
    df = pd.DataFrame({"seconds": [t_vec, loop]}, index=[f"vectorised (median of 3), {n:,} x {epochs}", f"per-example loop, extrapolated from {k:,}"])
    df["speed-up"] = df.seconds.iloc[1] / df.seconds
    print("\nFrom Dynamics to metrics\n")
    print(df.round(3).to_markdown())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**6); ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--loop-n", type=int, default=20_000, help="examples timed for the loop (extrapolated to --n)")
    ap.add_argument("--logits-n", type=int, default=200_000); ap.add_argument("--logits-epochs", type=int, default=6)
    ap.add_argument("--classes", type=int, default=4)
    a = ap.parse_args(argv)
    logits_table(a.logits_n, a.logits_epochs, a.classes)
    metrics_table(a.n, a.epochs, a.loop_n)


if __name__ == "__main__":
    main()
