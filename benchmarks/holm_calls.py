"""Holm's correction as a study's ledger calls it: statsmodels' `multipletests(method="holm")` against
`nlicompendium.claims.holm`, in a process that holds what a study kernel holds (torch, transformers, datasets, the
library). statsmodels runs `gc.collect()` on every Holm call; a ledger corrects every family of every table it builds.

    python benchmarks/holm_calls.py [--calls 200]

Prints one table: milliseconds a call for each, their ratio, and that the adjusted p-values are equal.
"""
import argparse, time

import numpy as np


def main():
    ap = argparse.ArgumentParser(); ap.add_argument("--calls", type=int, default=200); a = ap.parse_args()
    import datasets, torch, transformers  # noqa: F401  what a study kernel holds
    import nlicompendium.claims, nlicompendium.register  # noqa: F401
    from statsmodels.stats.multitest import multipletests
    from nlicompendium.claims import holm
    rng = np.random.default_rng(0); fams = [list(rng.uniform(0, 0.2, rng.integers(2, 15))) for _ in range(a.calls)]
    t0 = time.perf_counter(); sm = [multipletests(p + [1.0] * 3, method="holm")[1][:len(p)] for p in fams]
    t_sm = (time.perf_counter() - t0) / a.calls
    t0 = time.perf_counter(); ours = [holm(p, len(p) + 3) for p in fams]
    t_ours = (time.perf_counter() - t0) / a.calls
    same = all(np.allclose(x, y, rtol=0, atol=1e-15) for x, y in zip(sm, ours))
    print("| Holm, one family | ms a call | ratio |\n|:--|--:|--:|")
    print(f"| statsmodels multipletests | {1e3 * t_sm:.2f} | {t_sm / t_ours:.0f}x |")
    print(f"| nlicompendium.claims.holm | {1e3 * t_ours:.3f} | 1 |")
    print(f"\n{a.calls} families of 2-14 p-values, padded by 3; adjusted p-values equal: {same}")


if __name__ == "__main__":
    main()
