"""What a worker process costs before it runs its first unit: `spawn` against `forkserver` with the heavy imports preloaded.

`open_executor("process")` and the Dask clusters the studies and tests start run every unit in a worker process. Under
`spawn` (Python's default on macOS and Windows, and what the process executor used) each worker is a new interpreter that
imports torch, transformers and the library before it can unpickle its first unit: about 3 CPU-seconds a worker here.
Under `forkserver` with those modules preloaded, one server process imports them once and every worker is a fork of it.

Each row opens a 2-worker pool, runs one unit per worker that imports the study modules (as every unit does when it is
unpickled), sleeps 0.5 s and returns its pid, and closes the pool: wall time, median of `--repeats`. (The CPU time of
forked workers is not this process's to count: they are the forkserver's children.)
A third row does the same through `open_executor("process")`, which is what the library now does, and the last two
start a 2-worker Dask cluster instead (the studies' `executor=dask` and the tests' shared cluster): Dask's default
(spawn) against `executors.local_cluster` (forkserver).

    python benchmarks/worker_start.py [--repeats 3]
"""
import argparse, contextlib, multiprocessing, os, statistics, time

import pandas as pd

WORK = "nlicompendium.training"  # what a study's unit imports when it is unpickled (fit, TrainConfig, the models)


def unit():
    import importlib
    importlib.import_module(WORK)
    time.sleep(0.5)  # long enough that each of the two workers takes one unit (both rows include it)
    return os.getpid()


def one(open_pool):
    t0 = time.perf_counter()
    with open_pool() as ex:
        pids = {f.result() for f in [ex.submit(unit) for _ in range(2)]}
    return time.perf_counter() - t0, len(pids)


@contextlib.contextmanager
def dask_pool(forkserver):
    "A 2-worker loopback Dask cluster and its executor: Dask's own start method, or the library's `local_cluster`."
    from distributed import Client, LocalCluster
    from nlicompendium.executors import LOOPBACK, local_cluster
    cl = (local_cluster(2) if forkserver else
          LocalCluster(n_workers=2, threads_per_worker=1, host=LOOPBACK, dashboard_address=None, worker_dashboard_address=None))
    with cl, Client(cl) as c: yield c.get_executor(pure=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    from concurrent.futures import ProcessPoolExecutor
    from nlicompendium.executors import WORKER_PRELOAD, open_executor, worker_context
    ways = {
        "spawn (a new interpreter per worker: what the pool used)":
            lambda: ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")),
        "forkserver, " + ", ".join(WORKER_PRELOAD) + " preloaded": lambda: ProcessPoolExecutor(2, mp_context=worker_context()),
        "open_executor('process', workers=2)": lambda: open_executor("process", workers=2),
        "Dask LocalCluster(2), spawn (Dask's default)": lambda: dask_pool(False),
        "local_cluster(2): Dask on the forkserver": lambda: dask_pool(True),
    }
    rows = []
    for name, make in ways.items():
        runs = [one(make) for _ in range(a.repeats)]
        rows.append({"way": name, "wall s (median)": statistics.median(r[0] for r in runs), "workers": runs[0][1],
                     "first run wall s": runs[0][0]})
        print(pd.DataFrame(rows[-1:]).to_markdown(index=False, floatfmt=".2f"), flush=True)
    t = pd.DataFrame(rows)
    t["x spawn (wall)"] = t["wall s (median)"].iloc[0] / t["wall s (median)"]
    print("\n" + t.to_markdown(index=False, floatfmt=".2f"))
    print("\nThe forkserver's own start (its one import of the preloaded modules) falls in the first run of the first "
          "forkserver row; later pools in the same process reuse the server.")


if __name__ == "__main__":
    main()
