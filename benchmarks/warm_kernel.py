"""Kernels for papermill: a new interpreter each time (what `papermill` does) against a fork of a process that has
imported torch, transformers, datasets and the library (`tests/warm_kernel.py`, what `make test` uses). Each run executes
a three-cell notebook that imports what a study imports, builds the tiny model and trains nothing, so the table is the fixed cost a notebook
execution pays before its first cell of work; busy CPU is the whole machine's (/proc/stat), so forked and reaped-elsewhere
processes count.

    python benchmarks/warm_kernel.py [--runs 5]
"""
import argparse, os, subprocess, sys, tempfile
from pathlib import Path
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import warm_kernel  # noqa: E402

CELLS = ["import numpy as np, pandas as pd, torch, matplotlib.pyplot as plt, seaborn as sns",
         "from nlicompendium.study import Study"
         "\nfrom nlicompendium.claims import Claim\nfrom nlicompendium.models import load_tokenizer, load_pair_classifier",
         "m = load_pair_classifier('tiny', 3, seed=0)  # a study's first model: transformers' modelling base loads"]


def busy() -> float:
    "Busy CPU-seconds of the whole machine since boot."
    f = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return (sum(f[:3]) + sum(f[5:8])) / os.sysconf("SC_CLK_TCK")


def execute(nb: Path, env: dict, n: int) -> tuple[float, float]:
    "Median wall seconds of n papermill executions in one client process, and busy CPU-seconds per execution."
    code = ("import sys, time, papermill as pm\nts = []\n"
            f"for i in range({n}):\n    t = time.perf_counter()\n"
            f"    pm.execute_notebook({str(nb)!r}, {str(nb.with_name('out.ipynb'))!r}, progress_bar=False,\n"
            "                        kernel_name='python3')\n"
            "    ts.append(time.perf_counter() - t)\nprint(sorted(ts)[len(ts) // 2])")
    b = busy()
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1]), (busy() - b) / n


def main(argv=None):
    ap = argparse.ArgumentParser(); ap.add_argument("--runs", type=int, default=5); a = ap.parse_args(argv)
    import nbformat as nbf
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        nb = nbf.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}})
        nb.cells = [nbf.v4.new_code_cell(c) for c in CELLS]
        nbf.write(nb, tmp / "imports.ipynb")
        base = {k: v for k, v in os.environ.items() if k not in (warm_kernel.SOCKET_ENV, "JUPYTER_PATH")}
        base["OMP_NUM_THREADS"] = "1"
        cold = execute(tmp / "imports.ipynb", base, a.runs)
        p, env = warm_kernel.start_server(str(tmp))
        try: warm = execute(tmp / "imports.ipynb", {**base, **env}, a.runs)
        finally: warm_kernel.stop_server(p)
        print(warm_kernel.summary(env[warm_kernel.SOCKET_ENV]))
    df = pd.DataFrame([{"kernel": "new interpreter (papermill's default)", "wall s (median)": cold[0], "busy CPU-s": cold[1]},
                       {"kernel": "fork of the warm server (make test)", "wall s (median)": warm[0], "busy CPU-s": warm[1]}])
    df = df.set_index("kernel")
    df["x faster (wall)"] = df.iloc[0, 0] / df.iloc[:, 0]
    print(f"\n{a.runs} executions each of a notebook that imports a study's modules, OMP_NUM_THREADS=1\n")
    print(df.to_markdown(floatfmt=".2f"))


if __name__ == "__main__":
    main()
