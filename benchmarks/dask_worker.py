"""One small training run (`training.fit`, the `tiny` BERT, 256 toy pairs, 2 epochs, one thread) in this process and on
a one-worker Dask `LocalCluster`: with Dask's default worker settings (the nanny's `MALLOC_TRIM_THRESHOLD_=65536`, the
statistical profiler on), and with `executors.worker_settings` and no profiler (neither), as `executors.local_cluster` starts
them.

    python benchmarks/dask_worker.py
"""
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")


def fit_once():
    "Seconds of one `fit` (after a first one that loads what it needs), and the worker's malloc setting."
    import torch
    from nlicompendium.contract import toy_pairs
    from nlicompendium.training import TrainConfig, fit
    torch.set_num_threads(1)
    cfg = TrainConfig(model="tiny", epochs=2, batch_size=16, max_length=64, progress=False)
    train, dev = toy_pairs(256, 0), toy_pairs(64, 1)
    fit(train, dev, cfg)
    times = []
    for _ in range(3):
        t = time.perf_counter(); fit(train, dev, cfg); times.append(time.perf_counter() - t)
    return sorted(times)[1], os.environ.get("MALLOC_TRIM_THRESHOLD_")


def on_cluster(settings):
    import contextlib, dask
    from distributed import Client, LocalCluster
    from nlicompendium.executors import _NO_PROFILER, LOOPBACK, worker_settings
    env0 = dict(os.environ)  # Dask's nanny leaves its variables in this process: put back for the next row
    with (worker_settings() if settings else contextlib.nullcontext()), dask.config.set(_NO_PROFILER if settings else {}), \
         LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host=LOOPBACK, env=dict(os.environ),
                      dashboard_address=None) as c, Client(c) as cl:
        out = cl.submit(fit_once, pure=False).result()
    os.environ.clear(); os.environ.update(env0)
    return out


if __name__ == "__main__":
    import pandas as pd
    rows = []
    for where, fn in (("this process", fit_once), ("Dask worker, Dask's defaults", lambda: on_cluster(False)),
                      ("Dask worker, executors.worker_settings", lambda: on_cluster(True))):
        s, malloc = fn()
        rows.append({"where": where, "MALLOC_TRIM_THRESHOLD_": malloc or "unset", "seconds (median of 3)": s})
    df = pd.DataFrame(rows)
    df["x this process"] = df["seconds (median of 3)"] / df["seconds (median of 3)"].iloc[0]
    print(df.to_markdown(index=False, floatfmt=".3g"))
