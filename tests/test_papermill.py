"""Paper notebooks run end to end under papermill and write their outputs with provenance."""
import json
import papermill as pm
import pytest


def run(root, nb, tmp_path, **params):
    out = tmp_path / nb
    pm.execute_notebook(str(root / "nbs" / nb), str(out), parameters=params, cwd=str(root), progress_bar=False, kernel_name="python3")
    return out


def test_datasets_notebook(root, real_data, tmp_path):
    out_dir = tmp_path / "datasets"
    run(root, "10_datasets.ipynb", tmp_path, out_dir=str(out_dir), data_dir=str(real_data))
    m = json.loads((out_dir / "manifest.json").read_text())
    assert {"dataset_sizes", "cb_recast_counts", "ronli_table2", "ronli_table2_vs_paper", "scinli_table2", "class_balance"} <= set(m["outputs"])
    assert m["git"]["commit"] and m["packages"]["torch"] and m["data_fingerprint"]
    for name, o in m["outputs"].items():
        for f in o["files"].values():
            assert (out_dir / f["path"]).stat().st_size > 0


def test_curriculum_placeholder(root, real_data, tmp_path, monkeypatch):
    monkeypatch.setenv("IN_TEST", "1")  # smoke profile
    out_dir = tmp_path / "cur"
    nb = run(root, "05_curriculum.ipynb", tmp_path, dataset="ronli", out_dir=str(out_dir), data_dir=str(real_data))
    m = json.loads((out_dir / "manifest.json").read_text())
    assert m["params"]["placeholder"] is True and m["params"]["train_data"] == "ronli-distant"
    assert "PLACEHOLDER" in nb.read_text()


def test_bad_parameter_fails(root, real_data, tmp_path):
    with pytest.raises(pm.PapermillExecutionError, match="unknown profile"):
        run(root, "05_curriculum.ipynb", tmp_path, profile="huge", data_dir=str(real_data), out_dir=str(tmp_path / "x"))
