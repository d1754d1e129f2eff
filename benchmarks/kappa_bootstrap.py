"""Cohen's kappa with its 2,000-resample bootstrap interval per cartography region (RoNLI Table 12's computation,
`stats.agreement_by_group`): one scikit-learn call per resample (scipy's bootstrap with vectorized=False, what the library
did) against every resample at once (`cohen_kappa_batch`, vectorized=True). Asserts the two give the same numbers.

    python benchmarks/kappa_bootstrap.py [--data-dir ../shared/data]
"""
import argparse, time
import numpy as np, pandas as pd
from nlicompendium.stats import bootstrap_ci, cohen_kappa, cohen_kappa_batch


def groups_of(n, rng):
    "Three overlapping regions and the whole sample, as Table 12's rows."
    r = rng.random(n)
    return {"easy": r < 0.33, "ambiguous": (r >= 0.33) & (r < 0.66), "hard": r >= 0.66, "all": np.ones(n, bool)}


def main(argv=None):
    ap = argparse.ArgumentParser(); ap.add_argument("--data-dir", default=None); a = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    try:
        from nlicompendium.data import load
        tr = load("ronli-distant", data_dir=a.data_dir)["train"]
        auto, manual = np.asarray(tr["auto_label"]), np.asarray(tr["manual_label"])
        what = "ronli-distant train (automatic vs manual)"
    except Exception as e:  # noqa: BLE001 (no data here: labels drawn at random, 70% agreeing)
        auto = rng.integers(0, 4, 2659); manual = np.where(rng.random(2659) < 0.7, auto, rng.integers(0, 4, 2659))
        what = f"2,659 random pairs ({type(e).__name__})"
    groups, labels = groups_of(len(auto), rng), list(range(4))
    rows, res = [], {}
    for way, kw in (("scikit-learn per resample", dict(statistic=lambda x, y: cohen_kappa(x, y, labels))),
                    ("cohen_kappa_batch, every resample at once",
                     dict(statistic=lambda x, y, axis=-1: cohen_kappa_batch(x, y, labels, axis), vectorized=True))):
        times = []
        for _ in range(3):
            t = time.perf_counter()
            res[way] = [bootstrap_ci(auto[m], manual[m], n_resamples=2000, seed=0, **kw) for m in groups.values()]
            times.append(time.perf_counter() - t)
        rows.append({"way": way, "seconds (median of 3)": np.median(times)})
    a_, b_ = res.values()
    np.testing.assert_allclose(np.array(a_), np.array(b_), rtol=0, atol=1e-12)
    df = pd.DataFrame(rows).set_index("way")
    df["x faster"] = df.iloc[0, 0] / df.iloc[:, 0]
    print(f"4 groups x 2,000 resamples on {what}; the same estimates and intervals to 1e-12\n")
    print(df.to_markdown(floatfmt=".3f"))


if __name__ == "__main__":
    main()
