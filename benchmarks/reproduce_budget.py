"""Where `make reproduce` spends its time, read from the committed runs: one row per job, then the costliest cells.

    python benchmarks/reproduce_budget.py            # the committed tables/
    python benchmarks/reproduce_budget.py --top 8    # more cells

Each job's `tables/<job>/cell_times.csv` is papermill's per-cell wall time from the run that made its tables, and its
manifest says on which CPU, with which kernels, at which commit and with how many seeds. A job without cell times
(committed before `nlic_reproduce` recorded them) is listed with its manifest's own timing, if any. Sums are only
meaningful over jobs that ran on the same kind of machine with the same kernels: the table groups them so.
"""
import argparse
import json
from pathlib import Path

import pandas as pd

from nlicompendium.cli import JOBS


def machine_words(m: dict) -> str:
    "The CPU and kernels a manifest records, in words."
    mach = m.get("machine") or {}
    if not mach: return "not recorded"
    forced = " (forced)" if mach.get("isa_overrides") else ""
    return f"{mach.get('cpu', '?')}, {mach.get('torch_cpu_capability', '?')} kernels{forced}"


def jobs_table(root: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    "Per job: wall seconds (sum of cells), seeds, commit, machine; and every job's cells, costliest first."
    rows, cells = [], []
    for d in sorted(p for p in (root / "tables").iterdir() if (p / "manifest.json").is_file()):
        m = json.loads((d / "manifest.json").read_text())
        ct = d / "cell_times.csv"
        row = {"job": d.name, "in make reproduce": d.name in JOBS, "machine": machine_words(m),
               "commit": (m.get("git") or {}).get("commit", "")[:7],
               "seeds": len(m.get("seed") or []) if isinstance(m.get("seed"), list) else 1}
        if ct.is_file():
            c = pd.read_csv(ct)
            row |= {"seconds": round(c.seconds.sum(), 1), "cells": len(c)}
            cells.append(c.assign(job=d.name))
        else:
            row |= {"seconds": float("nan"), "cells": 0}
        rows.append(row)
    cells = pd.concat(cells, ignore_index=True) if cells else pd.DataFrame(columns=["job", "cell", "seconds"])
    return pd.DataFrame(rows), cells.sort_values("seconds", ascending=False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path)
    ap.add_argument("--top", type=int, default=5, help="costliest cells to list")
    a = ap.parse_args(argv)
    jobs, cells = jobs_table(a.root)
    print(jobs.to_markdown(index=False))
    print()
    timed = jobs.dropna(subset=["seconds"]).query("`in make reproduce`")
    for mach, g in timed.groupby("machine"):
        total = g.seconds.sum()
        print(f"- {mach}: {len(g)} jobs of make reproduce with cell times, {total:,.0f} s ({total / 60:.1f} min)")
    missing = jobs[jobs.seconds.isna() & jobs["in make reproduce"]].job.tolist()
    if missing: print(f"- no cell times (committed before they were recorded): {', '.join(missing)}")
    print("- cell times leave out each job's kernel start and papermill's own work, about 20 s a job")
    print()
    top = cells.head(a.top).merge(jobs[["job", "seconds"]].rename(columns={"seconds": "job seconds"}), on="job")
    top["share of its job"] = (top.seconds / top["job seconds"]).round(2)
    top["seconds"] = top.seconds.round(1)
    print(top[["job", "cell", "seconds", "share of its job", "first line"]].to_markdown(index=False))


if __name__ == "__main__":
    main()
