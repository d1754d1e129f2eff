"""Every data set in ../shared/data loads with the sizes and label counts SOURCES.md states."""
from collections import Counter
import pytest
from nlicompendium.data import load


def counts(ds):
    return Counter(ds.features["label"].int2str(list(ds["label"])))


def test_sizes(real_data):
    r = load("ronli", data_dir=real_data)
    assert (len(r["test"]), len(r["validation"])) == (3000, 3059)
    s = load("scinli", data_dir=real_data)
    assert (len(s["validation"]), len(s["test"]), len(s["train_human"])) == (2000, 4000, 2000)
    assert set(counts(s["test"]).values()) == {1000}
    t = load("taxinli", data_dir=real_data)
    assert (len(t["all"]), len(t["mnli_dev"])) == (10071 - 1, 7727)  # one duplicated pair dropped
    h = load("hinglid", data_dir=real_data)
    assert 6000 < len(h["test"]) < 7000 and 6000 < len(h["validation"]) < 7000


def test_cb_recast_matches_paper(real_data):
    cb = load("cb", data_dir=real_data)
    assert sum(counts(cb[s])["entailment"] for s in cb) == 251
    assert sum(counts(cb[s])["neutral"] for s in cb) == 37
    assert sum(counts(cb[s])["contradiction"] for s in cb) == 268
    assert cb.report.excluded == {"fewer than 80% of annotations in one range": 644}


def test_loads_are_deterministic(real_data):
    from nlicompendium.core import data_fingerprint
    assert data_fingerprint(load("cb", data_dir=real_data, seed=3)) == data_fingerprint(load("cb", data_dir=real_data, seed=3))
    assert data_fingerprint(load("cb", data_dir=real_data, seed=3)) != data_fingerprint(load("cb", data_dir=real_data, seed=4))
    a, b = load("ronli-distant", data_dir=real_data), load("ronli-distant", data_dir=real_data)
    assert list(a["validation"]["id"]) == list(b["validation"]["id"])
