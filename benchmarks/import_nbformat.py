"""`import nbformat` in a new interpreter: the environment `make install` builds (without rfc3987-syntax, see
requirements/excludes.txt) against the same environment with rfc3987-syntax and lark put back, as a plain
`pip install -e .[dev]` gives them. Every process that reads or writes a notebook (papermill, nbdev, the docs build,
pytest's workers) pays this import once.

    python benchmarks/import_nbformat.py [--runs 7]

The second row needs rfc3987-syntax and lark from the package index (or uv's cache): `uv pip install --target` puts them in
a temporary folder put first on PYTHONPATH. Without them the row says so.
"""
import argparse, os, resource, subprocess, sys, tempfile
from pathlib import Path

import pandas as pd

CODE = "import time; t = time.process_time(); import nbformat; import sys; print(time.process_time() - t, 'rfc3987_syntax' in sys.modules)"
PUT_BACK = ["rfc3987-syntax==1.1.0", "lark==1.3.1"]  # the versions requirements/cpu.txt pinned before the exclusion


def runs(env: dict, n: int) -> tuple[float, float, bool]:
    "Median CPU-seconds of the import itself, median CPU-seconds of the whole interpreter, and whether the grammar loaded."
    imp, whole, loaded = [], [], False
    for _ in range(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([sys.executable, "-c", CODE], env=env, check=True, capture_output=True, text=True).stdout.split()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        imp.append(float(out[0])); loaded = out[1] == "True"
        whole.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    med = lambda xs: sorted(xs)[len(xs) // 2]
    return med(imp), med(whole), loaded


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args(argv)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    rows = [("as installed (rfc3987-syntax excluded)", *runs(env, a.runs))]
    with tempfile.TemporaryDirectory() as d:
        uv = Path(sys.executable).with_name("uv")
        r = subprocess.run([str(uv), "pip", "install", "-q", "--target", d, "--no-deps", *PUT_BACK], capture_output=True, text=True)
        if r.returncode == 0:
            rows.append(("with rfc3987-syntax 1.1.0 and lark (pip's default)",
                         *runs({**env, "PYTHONPATH": d + os.pathsep + env.get("PYTHONPATH", "")}, a.runs)))
        else:
            rows.append(("with rfc3987-syntax: not measured (" + (r.stderr.strip().splitlines() or ["uv failed"])[-1][:60] + ")",
                         float("nan"), float("nan"), False))
    df = pd.DataFrame(rows, columns=["environment", "import CPU-s", "interpreter CPU-s", "IRI grammar built"])
    df["ratio"] = df["interpreter CPU-s"] / df["interpreter CPU-s"].iloc[0]
    print(f"`import nbformat` in a new interpreter, median of {a.runs} ({os.uname().machine}, {os.cpu_count()} CPUs)")
    print(df.to_markdown(index=False, floatfmt=".3f"))


if __name__ == "__main__":
    main()
