"""RoNLI's two CBOW baseline rows as the study computed them before (`cbow_seeds` per row, fastText vectors trained per
seed and kept between the rows, the features made per row) against both rows at once (`cbow_kinds`: a seed's vectors
and features made once, the seeds spread over worker processes): wall and CPU seconds, ratio, and whether every seed's
metrics and predictions are the same. fastText: gensim, one worker a seed (deterministic), on the training text.

    python benchmarks/cbow_baselines.py [--seeds 0 1 2 3 4] [--workers 2]
"""
import argparse, functools, os, resource, time

import pandas as pd

os.environ.setdefault("NLIC_OFFLINE", "1")


def cpu():
    "CPU seconds of this process (the worker processes' own are not counted: the pool outlives the call)."
    s = resource.getrusage(resource.RUSAGE_SELF)
    return s.ru_utime + s.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    a = ap.parse_args()
    from nlicompendium.data import load
    from nlicompendium.baselines import cbow_seeds, cbow_kinds, fasttext_by_seed, train_fasttext
    d = load("ronli-distant"); train, dev, test = d["train"], d["validation"], d["test"]
    text = sorted(set(train["premise"]) | set(train["hypothesis"]))
    w, c = time.perf_counter(), cpu()
    vec = functools.lru_cache(maxsize=None)(lambda sd: train_fasttext(text, dim=300, seed=sd, bucket=200_000))
    before = {k: cbow_seeds(k, train, dev, test, vec, a.seeds) for k in ("svm", "softmax")}
    w1, c1 = time.perf_counter() - w, cpu() - c
    w = time.perf_counter()
    after = cbow_kinds(["svm", "softmax"], train, dev, test, fasttext_by_seed(text, dim=300, bucket=200_000), a.seeds,
                       workers=a.workers)
    w2 = time.perf_counter() - w
    same = all(before[k][0].drop(columns="seconds").equals(after[k][0].drop(columns="seconds"))
               and before[k][1].equals(after[k][1]) for k in before)
    print(f"{len(a.seeds)} seeds, {len(os.sched_getaffinity(0))} cores, load average {os.getloadavg()[0]:.2f}")
    print(pd.DataFrame([{"rows": "CBOW + SVM, CBOW + Softmax", "per row, one process: wall s": round(w1, 1),
                         "CPU s": round(c1, 1), f"both rows, {a.workers} worker processes: wall s": round(w2, 1),
                         "wall ratio": round(w1 / w2, 2), "same numbers": same}]
                       ).to_markdown(index=False))


if __name__ == "__main__":
    main()
