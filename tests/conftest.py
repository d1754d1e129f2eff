"""Shared fixtures: the project root, the real data folder (NLIC_DATA_DIR, else ../shared/data), one Dask cluster, and
`smoke`, which executes each paper notebook once per session under the smoke profile for every test that checks it."""
import os, shutil, tempfile
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    """The caches the tests fill (`core.cache_dir()`: stand-ins, shared seed units) in a folder of the run's own: a test
    never finds units an earlier run computed, nor writes to the user's ~/.cache/nlicompendium. NLIC_TEST_CACHE_DIR names
    it (`make test` makes one for nbtest and pytest); else a fresh one, removed at the end. xdist's workers inherit it."""
    if hasattr(config, "workerinput"): return  # a worker: the controller set it before starting the workers
    given = os.environ.get("NLIC_TEST_CACHE_DIR")
    os.environ["NLIC_CACHE_DIR"] = folder = given or tempfile.mkdtemp(prefix="nlic-test-cache-")
    if not given: config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_collection_finish(session):
    """What collection imported (torch, transformers, the library) lives as long as the session: kept out of the garbage
    collections the tests set off, each of which walked all of it (the loader tests: 1.16 CPU-s in 5 full collections,
    0.48 in 15 after)."""
    import gc
    gc.collect(); gc.freeze()


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def real_data():
    "The data folder; where it is missing the tests that read it skip, or fail under NLIC_REQUIRE_DATA=1 (CI sets it)."
    from nlicompendium.contract import data_missing
    d = Path(os.environ.get("NLIC_DATA_DIR") or ROOT.parent / "shared" / "data")
    if not d.is_dir():
        try: msg = data_missing(d, "the real-data tests cannot run; set NLIC_DATA_DIR")
        except FileNotFoundError as e: pytest.fail(f"real data folder missing: {e}", pytrace=False)
        pytest.skip(msg)
    return d


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    "Tests never download: a missing file must fail fast with a clear error."
    monkeypatch.setenv("NLIC_OFFLINE", "1")


@pytest.fixture(scope="session")
def cluster():
    "A 2-worker Dask LocalCluster (one thread each) and its client, shared by every test that fans a study out."
    pytest.importorskip("distributed")
    from distributed import Client
    from nlicompendium.executors import local_cluster  # what open_executor starts: loopback, no dashboards
    with local_cluster(2) as c, Client(c) as client:
        yield c, client


def execute(root, nb, out_nb, **params):
    "papermill with the smoke profile (IN_TEST) and one thread, as in each Dask worker: the same arithmetic everywhere."
    import papermill as pm
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("IN_TEST", "1"); mp.setenv("OMP_NUM_THREADS", "1"); mp.setenv("NLIC_OFFLINE", "1")
        pm.execute_notebook(str(root / "nbs" / nb), str(out_nb), parameters=params, cwd=str(root), progress_bar=False,
                            kernel_name="python3")


@pytest.fixture(scope="session")
def smoke(root, real_data, tmp_path_factory):
    """`smoke(name, notebook, **params)` -> the run's out_dir. The first call executes the notebook (papermill, smoke
    profile; `data_dir` defaults to the real data folder); later calls with the same name reuse that run, so each paper
    notebook executes once in the suite. A failed run fails every test that asks for it, with the same error."""
    done = {}
    def run(name, nb, **params):
        if name not in done:
            d = tmp_path_factory.mktemp(name)
            try:
                execute(root, nb, d / f"{name}.ipynb", **{"out_dir": str(d / "out"), "data_dir": str(real_data), **params})
                done[name] = d / "out"
            except Exception as e:  # noqa: BLE001 (kept and re-raised for every test of this run)
                done[name] = e
        if isinstance(done[name], Exception): raise done[name]
        return done[name]
    return run


def runs_per_task(client):
    "How many times each task the scheduler has seen went to a worker ('processing'), from its transition log."
    from collections import Counter
    def count(dask_scheduler):
        return dict(Counter(str(t[0]) for t in dask_scheduler.transition_log if t[2] == "processing"))
    return client.run_on_scheduler(count)


@pytest.fixture(scope="session")
def dask_study(smoke, cluster):
    """`dask_study(name, notebook, **params)` -> out_dir: the notebook executed once (smoke), its units on the shared cluster; the
    first call checks that its units went to the cluster, each once."""
    checked = set()
    def run(name, nb, **params):
        c, client = cluster
        before = set(runs_per_task(client))
        out = smoke(name, nb, executor="dask", executor_address=c.scheduler_address, **params)
        if name not in checked:
            ran = {k: n for k, n in runs_per_task(client).items() if k not in before}
            assert ran and set(ran.values()) == {1}, ran  # its units went to the cluster, each once
            checked.add(name)
        return out
    return run


# The costliest scopes first (session 21: the seconds each took in a pytest run with two workers on the 2-core EPYC, AVX2
# kernels, warm kernels; a scope is a test class, or a module's functions). `make pytest` passes `--no-loadscope-reorder`,
# so pytest-xdist (3.8, loadscope) hands scopes out in this order: one to each worker, then the next to a worker
# whenever two or fewer of its tests are left (a one-test scope brings the next with it at once): the long notebook
# executions start first and the tail is the short scopes, so neither worker waits long for the other.
# Every scope is listed: one left out would come last, however long it is.
COSTLIEST_FIRST = [
    "test_your_model.py::TestYourModel",                   # ~80 s here (2-core Xeon, loaded): TaxiNLI, a small BERT tuned
    "test_rehearsal.py::TestRehearsalTaxiNLICBMSciNLI",    # ~41 s: three notebooks on stand-ins
    "test_papermill.py::TestCBAndMSciNLI",                 # ~37 s
    "test_your_model.py::TestAsIs",                        # ~60 s here (loaded): TaxiNLI with a tiny classifier as it is
    "test_papermill.py",                                   # ~34 s: the official protocol, the datasets job, a bad parameter
    "test_docs.py",                                        # ~29 s: the Sphinx build, then Chromium
    "test_papermill.py::TestRoNLI",                        # ~21 s
    "test_papermill.py::TestTaxiNLIAndCodeMixed",          # ~21 s
    "test_rehearsal.py::TestRehearsalRoNLIAndCodeMixed",   # ~20 s
    "test_warm_kernel.py",                                 # ~20 s: a cold kernel beside warm ones
    "test_papermill.py::TestSciNLI",                       # ~16 s
    "test_fuzz_readers.py",                                # ~15 s, in many short tests
    "test_distributed.py",                                 # ~15 s: torchrun, two processes
    "test_gpu_check.py",                                   # ~12 s
    "test_run_lock.py",                                    # ~11 s
    "test_budget.py", "test_project.py", "test_recheck.py", "test_progress.py", "test_real_data.py",  # ~5-8 s each
    "test_claims_rules.py", "test_scorecard.py", "test_register.py",  # ~5 s each
    "test_your_model.py",                                  # ~5 s: the refusals, each before anything runs
    "test_ronli_register.py",                              # ~5 s
    "test_mscinli_register.py",                            # ~10 s
    "test_ronli_table2.py",                                # ~2 s
    "test_cb_register.py",                                 # ~3 s: the CB register's declared bounds and tests
    "test_reader_text.py", "test_gpu_first_run.py",        # ~2-4 s
    "test_gpu_path.py", "test_official_layouts.py", "test_bad_input.py",  # ~4 s, ~1 s, under 1 s
]


def decide_one(reg, key, scores, paper="P", **kw):
    "One part of a register decided alone, as its study decides it (register.decide): the part's row."
    from nlicompendium.claims import Claims
    from nlicompendium.register import decide
    con = next(c for c in reg["conclusions"] if any(p["key"] == key for p in c["parts"]))
    one = reg | {"conclusions": [con | {"parts": [p for p in con["parts"] if p["key"] == key]}]}
    return decide(Claims(paper, "t", aso_iterations=0, **kw), one, {key: scores}, {}).iloc[0]


def decide_conclusion(reg, key, scores, paper="P"):
    "Every part of one conclusion decided together (register.decide), and the conclusion as the ledger counts it."
    from nlicompendium.claims import Claims, by_conclusion
    from nlicompendium.register import decide
    con = next(c for c in reg["conclusions"] if c["key"] == key)
    t = decide(Claims(paper, "t", aso_iterations=0), reg | {"conclusions": [con]}, scores, {})
    return t.set_index("key"), by_conclusion(t).iloc[0]


def _scope(item) -> str:
    "xdist's loadscope unit of a test: its class, else its module (the file name, without the folder)."
    parts = item.nodeid.split("::")
    return "::".join([parts[0].rsplit("/", 1)[-1]] + parts[1:-1][:1])


def pytest_collection_modifyitems(config, items):
    rank = {s: i for i, s in enumerate(COSTLIEST_FIRST)}
    items.sort(key=lambda it: rank.get(_scope(it), len(rank)))  # stable: a scope's tests keep their order
