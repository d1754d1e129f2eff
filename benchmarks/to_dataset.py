"""`contract.to_dataset` (the loaders' last step) against `datasets.Dataset.from_pandas` on the same rows and features:
the same Dataset, fingerprinted by a hash of its Arrow stream instead of datasets' hash of the pickled object.

    python benchmarks/to_dataset.py
"""
import time

import numpy as np
import pandas as pd
from datasets import ClassLabel, Dataset, Features, Value

from nlicompendium.contract import to_dataset


def rows(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    words = np.array("the a model sentence premise hypothesis entails contradicts neutral study data".split())
    text = lambda k: [" ".join(rng.choice(words, 12)) for _ in range(k)]
    return pd.DataFrame({"id": [f"x{i}" for i in range(n)], "premise": text(n), "hypothesis": text(n),
                         "label": rng.integers(0, 3, n)})


def per_call(fn, budget=1.0) -> float:
    "Median seconds of `fn` over as many calls as fit in about `budget` seconds (at least 3)."
    fn(); t = time.perf_counter(); fn(); one = time.perf_counter() - t
    ts = []
    for _ in range(max(3, int(budget / max(one, 1e-6)))):
        t = time.perf_counter(); fn(); ts.append(time.perf_counter() - t)
    return sorted(ts)[len(ts) // 2]


if __name__ == "__main__":
    names = ["entailment", "neutral", "contradiction"]
    feats = Features({"id": Value("string"), "premise": Value("string"), "hypothesis": Value("string"),
                      "label": ClassLabel(names=names)})
    out = []
    for n in (50, 1_000, 100_000):
        df = rows(n)
        # what to_dataset did before: the same column selection and id cast, then datasets' own constructor
        a = per_call(lambda: Dataset.from_pandas(df[list(feats)].astype({"id": str}).reset_index(drop=True), features=feats,
                                                 preserve_index=False))
        b = per_call(lambda: to_dataset(df, names))
        assert to_dataset(df, names).data.table.equals(Dataset.from_pandas(df, features=feats, preserve_index=False).data.table)
        out.append({"rows": f"{n:,}", "Dataset.from_pandas (ms)": a * 1e3, "to_dataset (ms)": b * 1e3, "ratio": a / b})
    print(pd.DataFrame(out).to_markdown(index=False, floatfmt=".2f"))
