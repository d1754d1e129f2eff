"""Almost Stochastic Order's eps_min, as every claim over seeds computes it (`claims.over_seeds`, 1,000 bootstrap
iterations), side by side:

* `deepsig.aso` (1.2.8), what a user would call: a Python quantile function, `np.vectorize`d, re-sorts the scores at
  each of the 199 grid points of each bootstrap sample;
* `claims.aso_eps`, the same estimate with the quantiles taken by array indexing.

Asserts that the two give the same number, bit for bit, at every size.

    python benchmarks/aso.py [--iterations 1000]
"""
import argparse, time, warnings
import numpy as np, pandas as pd
from deepsig import aso
from nlicompendium.claims import aso_eps


def timed(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter(); out = fn(); times.append(time.perf_counter() - t)
    return float(np.median(times)), out


def main(argv=None):
    ap = argparse.ArgumentParser(); ap.add_argument("--iterations", type=int, default=1000); a = ap.parse_args(argv)
    rng, rows = np.random.default_rng(0), []
    for n in (3, 5, 10):  # seeds per system: the smoke run's claim seeds, the cpu profile's, and more
        x, y = rng.normal(0.60, 0.01, n), rng.normal(0.598, 0.01, n)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_ref, ref = timed(lambda: float(aso(x, y, confidence_level=0.95, num_bootstrap_iterations=a.iterations, seed=0,
                                                  show_progress=False)), 1)
        t_new, new = timed(lambda: aso_eps(x, y, a.iterations, 0), 5)
        assert new == ref, (n, new, ref)
        rows.append({"seeds per side": n, "iterations": a.iterations, "deepsig.aso (s)": round(t_ref, 3),
                     "claims.aso_eps (s)": round(t_new, 4), "ratio": round(t_ref / t_new), "eps_min (both)": round(new, 6)})
    print(pd.DataFrame(rows).to_markdown(index=False))


if __name__ == "__main__":
    main()
