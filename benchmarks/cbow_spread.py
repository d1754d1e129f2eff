"""RoNLI's two CBOW rows over five seeds on two worker processes, as `make main` runs them: each seed's vectors,
features and both classifiers as one unit (`executors.run_units`, what the study did before: five equal units on two
cores take three rounds), against `baselines.cbow_kinds`, which queues each seed's classifiers behind the features
still to make, so the core that would wait out the last seed's vectors fits the others' classifiers. Wall seconds,
median of `--runs`, and whether every seed's metrics and predictions are the same.

    python benchmarks/cbow_spread.py [--runs 3] [--seeds 0 1 2 3 4] [--data-dir DIR]
"""
import argparse, functools, os, statistics, time

import pandas as pd

os.environ.setdefault("NLIC_OFFLINE", "1")


def per_seed_units(kinds, data, vectors, seeds, names, workers):
    "The unit a seed was before: its vectors, features and every classifier in one process."
    from nlicompendium.baselines import _cbow_seed
    from nlicompendium.executors import open_executor, run_units
    units = {sd: functools.partial(_cbow_seed, kinds, data, vectors, sd, names) for sd in seeds}
    with open_executor("process", workers=workers) as ex:
        return run_units(ex, units, desc="CBOW seeds", progress=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--data-dir", default=None)
    a = ap.parse_args()
    from nlicompendium.baselines import _cbow_spread, fasttext_by_seed
    from nlicompendium.data import load
    tr = load("ronli-distant", data_dir=a.data_dir)["train"]; ro = load("ronli", data_dir=a.data_dir)
    names = list(tr.features["label"].names)
    data = {s: (list(d["premise"]), list(d["hypothesis"]), list(d["label"]))
            for s, d in (("train", tr), ("dev", ro["validation"]), ("test", ro["test"]))}
    vectors = fasttext_by_seed(sorted(set(tr["premise"]) | set(tr["hypothesis"])), dim=300, bucket=200_000)
    kinds, rows, out = ["svm", "softmax"], [], {}
    paths = (("a seed per unit (before)", per_seed_units), ("`cbow_kinds`: classifiers queued apart", _cbow_spread))
    for name, fn in paths:
        walls = []
        for _ in range(a.runs):
            t = time.perf_counter(); out[name] = fn(kinds, data, vectors, a.seeds, names, 2)
            walls.append(time.perf_counter() - t)
        rows.append({"path": name, "wall s (median)": round(statistics.median(walls), 1),
                     "runs": ", ".join(f"{w:.1f}" for w in walls)})
    before, now = out.values()
    same = all(pd.Series(before[sd][k][0]).drop("seconds").equals(pd.Series(now[sd][k][0]).drop("seconds"))
               and list(before[sd][k][1]) == list(now[sd][k][1]) for sd in a.seeds for k in kinds)
    t = pd.DataFrame(rows); t["time / before"] = (t["wall s (median)"] / t["wall s (median)"].iloc[0]).round(2)
    print(f"{len(a.seeds)} seeds on 2 processes, {len(tr):,} training pairs; same metrics and predictions: {same}")
    print(t.to_markdown(index=False))


if __name__ == "__main__":
    main()
