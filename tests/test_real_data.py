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
    # the sentences (blocks of token lines between blank lines) in test.txt and validation.txt, counted with awk
    assert (len(h["test"]), len(h["validation"])) == (6420, 6279)


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


def test_a_wrong_data_folder_fails_under_nlic_require_data(root, tmp_path):
    """A mis-set NLIC_DATA_DIR skips the real-data tests, and under NLIC_REQUIRE_DATA=1 (what .ci/run sets) fails them,
    naming the folder: pytest run in a subprocess on one small data test."""
    import os, subprocess, sys
    wrong = tmp_path / "no-data-here"
    def run(**env):
        e = {k: v for k, v in os.environ.items() if k != "NLIC_REQUIRE_DATA"} | {"NLIC_DATA_DIR": str(wrong), **env}
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                               "tests/test_real_data.py::test_cb_recast_matches_paper"], cwd=root, env=e, capture_output=True, text=True)
    required, plain = run(NLIC_REQUIRE_DATA="1"), run()
    assert required.returncode == 1 and "1 error" in required.stdout, required.stdout[-2000:]
    assert f"real data folder missing: {wrong} is not here" in required.stdout, required.stdout[-2000:]
    assert plain.returncode == 0 and "1 skipped" in plain.stdout and f"{wrong} is not here" in plain.stdout, plain.stdout[-2000:]
