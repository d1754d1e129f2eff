"""Tokenising a split and fetching its tokenizer, as every training and prediction call does:

* `Dataset.map` over `models.encode_pairs` (what `training.encode_split` did, and what a user of `datasets` would write)
  against `encode_split` now, which sends chunks of 1,000 pairs straight to the tokenizer: `map` fingerprints its
  function by pickling it, tokenizer included, on every call;
* `models.load_tokenizer` on every call against `models.shared_tokenizer`, loaded once per process and checkpoint.

Asserts that both ways give the same features.

    python benchmarks/tokenise.py [--data-dir ../shared/data]
"""
import argparse, time
import numpy as np, pandas as pd
from nlicompendium.models import encode_pairs, load_tokenizer, shared_tokenizer
from nlicompendium.training import TrainConfig, encode_split


def pairs(n, data_dir):
    "n of TaxiNLI's MNLI-dev pairs, or toy pairs where the data are absent."
    try:
        from nlicompendium.data import load
        ds = load("taxinli", data_dir=data_dir)["mnli_dev"]; what = "TaxiNLI's MNLI dev"
    except Exception as e:  # noqa: BLE001
        from nlicompendium.contract import toy_pairs
        ds = toy_pairs(n, 0); what = f"toy pairs ({type(e).__name__})"
    return ds.select(range(min(n, len(ds)))), what


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    return float(np.median(times))


def main(argv=None):
    ap = argparse.ArgumentParser(); ap.add_argument("--data-dir", default=None); a = ap.parse_args(argv)
    tok, cfg, rows = shared_tokenizer("embedded"), TrainConfig(model="embedded", max_length=128), []
    for n in (256, 5000):
        ds, what = pairs(n, a.data_dir)
        via_map = lambda: ds.map(lambda b: encode_pairs(tok, b["premise"], b["hypothesis"], "joint", 128, False, "longest_first"),
                                 batched=True, remove_columns=ds.column_names).to_list()
        assert via_map() == encode_split(ds, tok, cfg).features  # the same features
        for way, fn in (("Dataset.map over encode_pairs", via_map), ("encode_split (chunks to the tokenizer)",
                                                                      lambda: encode_split(ds, tok, cfg))):
            rows.append({"work": f"tokenise {len(ds):,} pairs of {what}", "way": way,
                         "seconds (median of 3)": median_time(fn, 3)})
    for way, fn in (("load_tokenizer per call", lambda: load_tokenizer("embedded")),
                    ("shared_tokenizer per call", lambda: shared_tokenizer("embedded"))):
        rows.append({"work": "fetch the tokenizer (all-MiniLM-L6-v2's)", "way": way, "seconds (median of 3)": median_time(fn, 3)})
    df = pd.DataFrame(rows)
    df["ratio (old / new)"] = df.groupby("work")["seconds (median of 3)"].transform(lambda s: s.iloc[0] / s)
    print(df.to_markdown(index=False, floatfmt=".4g"))


if __name__ == "__main__":
    main()
