"""The datasets job's truncation table (`models.truncation_report` over every study split at the cpu limit, 96 tokens):

every pair encoded twice, whole and at the limit, and its sides compared (what the report did) against only the pairs
over the limit encoded again (what it does). Same table, asserted; one line with both times and the ratio.

    NLIC_DATA_DIR=../shared/data python benchmarks/truncation_report.py
"""
import time
import numpy as np
import pandas as pd
from nlicompendium.data import load, DATASETS
from nlicompendium.models import load_tokenizer, truncation_report, tokenize_pairs
def every_pair(ds, tokenizer, max_length, truncation):
    prem, hyp = list(ds["premise"]), list(ds["hypothesis"])
    full, cut = tokenizer(prem, hyp), tokenize_pairs(tokenizer, prem, hyp, max_length, truncation)
    n = np.array([len(x) for x in full["input_ids"]])
    p_cut = np.array([cut.sequence_ids(i).count(0) < full.sequence_ids(i).count(0) for i in range(len(prem))])
    h_cut = np.array([cut.sequence_ids(i).count(1) < full.sequence_ids(i).count(1) for i in range(len(prem))])
    return {"pairs": len(prem), "median length": float(np.median(n)), "max length": int(n.max()),
            "over the limit (%)": 100 * float((n > max_length).mean()),
            "premise cut (%)": 100 * float(p_cut.mean()), "hypothesis cut (%)": 100 * float(h_cut.mean()), "policy": truncation}
etk = load_tokenizer("embedded"); pol = {"cb": "keep_premise_end"}
loaded = {}
for n in DATASETS:
    try: loaded[n] = load(n)
    except Exception: pass
t = {"old": 0.0, "new": 0.0}; rows = {"old": [], "new": []}
for name, dsd in loaded.items():
    for split, ds in dsd.items():
        if "premise" not in ds.column_names or name == "codemixed": continue
        for k, f in (("old", every_pair), ("new", truncation_report)):
            t0 = time.perf_counter(); rows[k].append(f(ds, etk, 96, pol.get(name, "longest_first")))
            t[k] += time.perf_counter() - t0
a, b = pd.DataFrame(rows["old"]), pd.DataFrame(rows["new"])
pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=1e-12)
print(f"{len(a)} splits, {a.pairs.sum():,} pairs; every pair encoded twice: {t['old']:.1f} s; "
      f"over-limit pairs only: {t['new']:.1f} s; x{t['old'] / t['new']:.1f}; tables equal")
