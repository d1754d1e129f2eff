"""The smoke curriculum study fanned out on a Dask LocalCluster: the same tables as in-process, each unit once, and a killed worker's unit rerun."""
import os, signal, threading, time
from collections import Counter

import pandas as pd
import papermill as pm
import pytest

distributed = pytest.importorskip("distributed")

TABLES = (".csv", ".md", ".tex")


def study(root, tmp_path, name, data, **params):
    "Run the smoke RoNLI study into tmp_path/name; return its table files (bytes), less the timing table."
    out = tmp_path / name
    pm.execute_notebook(str(root / "nbs" / "05_curriculum.ipynb"), str(tmp_path / f"{name}.ipynb"), cwd=str(root), progress_bar=False,
                        kernel_name="python3",
                        parameters={"dataset": "ronli", "out_dir": str(out), "data_dir": str(data), "baseline_rows": [], **params})
    return {p.name: p.read_bytes() for p in sorted(out.glob("*")) if p.suffix in TABLES and not p.name.startswith("variant_times")}, out


def runs_per_task(client):
    "How many times each task the scheduler has seen went to a worker ('processing'), from its transition log."
    def count(dask_scheduler):
        return dict(Counter(str(t[0]) for t in dask_scheduler.transition_log if t[2] == "processing"))
    return client.run_on_scheduler(count)


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, Client(c) as client:
        yield c, client


def test_dask_same_tables_each_unit_once_and_killed_worker(root, real_data, tmp_path, monkeypatch, cluster):
    monkeypatch.setenv("IN_TEST", "1")  # smoke profile
    monkeypatch.setenv("OMP_NUM_THREADS", "1")  # one thread in-process too, as in each Dask worker: the same arithmetic, so the same bytes
    c, client = cluster
    ref, _ = study(root, tmp_path, "inprocess", real_data)
    assert len(ref) > 20  # tables 3, 4, 5, 12, regions, scores, claims, deviations, ... in three formats

    before = set(runs_per_task(client))
    got, out = study(root, tmp_path, "dask", real_data, executor="dask", executor_address=c.scheduler_address)
    assert got == ref  # byte-identical, whatever order the units finished in
    runs = {k: n for k, n in runs_per_task(client).items() if k not in before}
    assert len(runs) == 13 and set(runs.values()) == {1}  # the cartography model and each of the 12 variants x 1 seed ran exactly once
    assert len(list((out / "variants").glob("*/*/done.json"))) == 12

    # kill the worker of the first unit that starts; the scheduler reruns it on a worker that lives, and the study completes
    before, pids, killed = set(runs_per_task(client)), client.run(os.getpid), []
    def killer():
        t0 = time.time()
        while time.time() - t0 < 120 and not killed:
            busy = {w: ks for w, ks in client.processing().items() if ks}
            if busy:
                w, keys = next(iter(busy.items()))
                os.kill(pids[w], signal.SIGKILL); killed.append(set(map(str, keys)))
            time.sleep(0.02)
    th = threading.Thread(target=killer); th.start()
    got2, out2 = study(root, tmp_path, "dask-killed", real_data, executor="dask", executor_address=c.scheduler_address)
    th.join()
    assert killed, "no unit was seen running: nothing was killed"
    assert got2 == ref
    runs = {k: n for k, n in runs_per_task(client).items() if k not in before}
    assert len(runs) == 13 and all(runs[k] >= 2 for k in killed[0])  # the killed units went to a worker again
    assert len(list((out2 / "variants").glob("*/*/done.json"))) == 12


def drop_timing(df):
    return df[[c for c in df.columns if "seconds" not in c]]


def csv_tables(out):
    "Every CSV table of a run, less its timing columns: what the study computed."
    return {p.relative_to(out).as_posix(): drop_timing(pd.read_csv(p)) for p in sorted(out.glob("**/*.csv")) if "units" not in p.parts}


@pytest.mark.parametrize("notebook", ["12_taxinli", "13_cb", "14_mscinli", "15_codemixed"])
def test_paper_studies_on_dask(root, real_data, tmp_path, monkeypatch, cluster, notebook):
    "Each other paper study, smoke profile, in-process and on the 2-worker cluster: the same numbers, and its units ran on the cluster."
    monkeypatch.setenv("IN_TEST", "1"); monkeypatch.setenv("OMP_NUM_THREADS", "1")
    c, client = cluster
    def run(name, **params):
        out = tmp_path / name
        pm.execute_notebook(str(root / "nbs" / f"{notebook}.ipynb"), str(tmp_path / f"{name}.ipynb"), cwd=str(root), progress_bar=False,
                            kernel_name="python3", parameters={"out_dir": str(out), "data_dir": str(real_data), **params})
        return csv_tables(out)
    ref = run("inprocess")
    before = set(runs_per_task(client))
    got = run("dask", executor="dask", executor_address=c.scheduler_address)
    ran = {k: n for k, n in runs_per_task(client).items() if k not in before}
    assert ran and set(ran.values()) == {1}  # its units went to the cluster, each once
    assert list(got) == list(ref) and len(ref) >= 4
    for name in ref: pd.testing.assert_frame_equal(got[name], ref[name], obj=name)
